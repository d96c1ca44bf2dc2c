//! `calabresella deal`: print the deal a seed gives (the stable seeded deal of the engine).

use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_engine::Seat;
use calabresella_engine::game::AnyMatch;
use calabresella_engine::rng::GameRng;

use super::GameArgs;

/// Arguments of `deal`.
#[derive(Debug, clap::Args)]
pub struct DealArgs {
    /// The seed.
    #[arg(long)]
    seed: u64,
    /// The dealer's seat.
    #[arg(long, default_value_t = 0)]
    dealer: u8,
    #[command(flatten)]
    game: GameArgs,
}

/// Prints one line per seat, then the monte or the stock (for games that have one).
pub fn run(args: DealArgs) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let players = rules.seats();
    let dealer = Seat::new(args.dealer)
        .filter(|s| s.index() < players as usize)
        .with_context(|| format!("--dealer must be a seat below {players}"))?;
    let mut rng = GameRng::from_seed(args.seed);
    let mut m = AnyMatch::new(rules, dealer)?;
    m.start_hand_from(dealer, &mut rng)?;
    let dealt = m.dealt(0).context("the hand was just dealt")?;
    for s in Seat::first_n(players) {
        println!("seat {s}: {}", dealt.hands[s]);
    }
    for (label, rest) in [("monte", &dealt.monte), ("stock", &dealt.stock)] {
        if !rest.is_empty() {
            let cards: Vec<String> = rest.iter().map(|c| c.to_string()).collect();
            println!("{label}: {}", cards.join(" "));
        }
    }
    Ok(ExitCode::SUCCESS)
}
