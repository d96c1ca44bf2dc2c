//! `calabresella deal`: print the deal a seed gives (the stable seeded deal of the engine): the
//! first hand of a match of that seed and first dealer, as a seeded table deals it. With
//! `--secret`, any hand of the committed scheme instead (docs/RECORDS.md, "Committed deals").

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::Seat;
use calabresella_engine::fair::{self, DealKeys};
use calabresella_engine::game::{AnyMatch, DealtCards};

use super::GameArgs;

/// Arguments of `deal`.
#[derive(Debug, clap::Args)]
pub struct DealArgs {
    /// The seed (a seeded table's first hand).
    #[arg(long, required_unless_present = "secret", conflicts_with = "secret")]
    seed: Option<u64>,
    /// A committed table's revealed secret, 64 hex digits: print hand `--hand` of its scheme.
    #[arg(long)]
    secret: Option<String>,
    /// With `--secret`: the context, the table's id (or a tournament's deal label).
    #[arg(long, requires = "secret", default_value = "")]
    context: String,
    /// With `--secret`: each seat's contribution in hex, in seat order, comma-separated (an
    /// empty entry for a seat that gave none; as many entries as seats).
    #[arg(long, requires = "secret", default_value = "")]
    contributions: String,
    /// With `--secret`: the hand, from 0 (void deals count).
    #[arg(long, requires = "secret", default_value_t = 0)]
    hand: u64,
    /// The dealer's seat.
    #[arg(long, default_value_t = 0)]
    dealer: u8,
    #[command(flatten)]
    game: GameArgs,
}

/// Prints one line per seat, then the monte or the stock (for games that have one). With
/// `--secret` it first prints the commitment and, for hand 0, the first dealer its generator
/// draws.
pub fn run(args: DealArgs) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let players = rules.seats();
    let dealer = Seat::new(args.dealer)
        .filter(|s| s.index() < players as usize)
        .with_context(|| format!("--dealer must be a seat below {players}"))?;
    let dealt = match (&args.secret, args.seed) {
        (Some(secret), _) => {
            let secret: [u8; 32] = fair::unhex(secret)
                .and_then(|b| b.try_into().ok())
                .context("--secret must be 64 hex digits")?;
            let contributions = if args.contributions.is_empty() {
                vec![Vec::new(); usize::from(players)]
            } else {
                args.contributions
                    .split(',')
                    .map(|c| fair::unhex(c.trim()))
                    .collect::<Option<Vec<_>>>()
                    .context("--contributions must be hex digits, comma-separated")?
            };
            if contributions.len() != usize::from(players) {
                bail!(
                    "--contributions lists {} seats; the game has {players}",
                    contributions.len()
                );
            }
            let keys = DealKeys::new(secret, args.context.clone(), contributions)?;
            println!("commitment: {}", fair::hex(&keys.commitment()));
            if args.hand == 0 {
                println!("first dealer drawn: {}", keys.drawn_dealer(players).index());
            }
            keys.deal(rules, args.hand, dealer)?
        }
        (None, Some(seed)) => {
            // The seeded match draws its first dealer before the first deal even when he is
            // given, so this is the deal a table seeded with `--seed` and first dealer
            // `--dealer` deals.
            let m = AnyMatch::seeded(rules, seed, Some(dealer))?;
            m.dealt(0).context("the hand was just dealt")?
        }
        (None, None) => bail!("give --seed or --secret"),
    };
    print_deal(&dealt, players);
    Ok(ExitCode::SUCCESS)
}

fn print_deal(dealt: &DealtCards, players: u8) {
    for s in Seat::first_n(players) {
        println!("seat {s}: {}", dealt.hands[s]);
    }
    for (label, rest) in [("monte", &dealt.monte), ("stock", &dealt.stock)] {
        if !rest.is_empty() {
            let cards: Vec<String> = rest.iter().map(|c| c.to_string()).collect();
            println!("{label}: {}", cards.join(" "));
        }
    }
}
