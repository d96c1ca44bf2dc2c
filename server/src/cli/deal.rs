//! `calabresella deal`: print the deal a seed gives (the stable seeded deal of the engine).

use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_engine::Seat;
use calabresella_engine::rng::GameRng;
use calabresella_engine::{calabresella, tressette};

use super::{GameArgs, Rules};

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

/// Prints one line per seat, then the monte (calabresella) or the stock (tressette-in-due).
pub fn run(args: DealArgs) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let players = match rules {
        Rules::Calabresella(o) => o.players,
        Rules::Tressette(o) => o.variant.players(),
    };
    let dealer = Seat::new(args.dealer)
        .filter(|s| s.index() < players as usize)
        .with_context(|| format!("--dealer must be a seat below {players}"))?;
    let mut rng = GameRng::from_seed(args.seed);
    let (hands, rest, label) = match rules {
        Rules::Calabresella(o) => {
            let d = calabresella::Deal::shuffled(&mut rng, o.players, dealer);
            (d.hands, d.monte.to_vec(), "monte")
        }
        Rules::Tressette(o) => {
            let d = tressette::Deal::shuffled(&mut rng, o.variant, dealer);
            (
                d.hands,
                d.stock.map(|s| s.to_vec()).unwrap_or_default(),
                "stock",
            )
        }
    };
    for s in Seat::first_n(players) {
        println!("seat {s}: {}", hands[s]);
    }
    if !rest.is_empty() {
        let cards: Vec<String> = rest.iter().map(|c| c.to_string()).collect();
        println!("{label}: {}", cards.join(" "));
    }
    Ok(ExitCode::SUCCESS)
}
