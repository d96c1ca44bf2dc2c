//! `calabresella deal`: print the deal a seed gives (the stable seeded deal of the engine).

use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_engine::Seat;
use calabresella_engine::calabresella::Deal;
use calabresella_engine::rng::GameRng;

/// Arguments of `deal`.
#[derive(Debug, clap::Args)]
pub struct DealArgs {
    /// The seed.
    #[arg(long)]
    seed: u64,
    /// Number of players: 3, or 4 with an idle dealer.
    #[arg(long, default_value_t = 3)]
    players: u8,
    /// The dealer's seat.
    #[arg(long, default_value_t = 0)]
    dealer: u8,
}

/// Prints one line per seat and one for the monte.
pub fn run(args: DealArgs) -> Result<ExitCode> {
    anyhow::ensure!((3..=4).contains(&args.players), "--players must be 3 or 4");
    let dealer = Seat::new(args.dealer)
        .filter(|s| s.index() < args.players as usize)
        .with_context(|| format!("--dealer must be a seat below {}", args.players))?;
    let d = Deal::shuffled(&mut GameRng::from_seed(args.seed), args.players, dealer);
    for s in Seat::first_n(args.players) {
        println!("seat {s}: {}", d.hands[s]);
    }
    let monte: Vec<String> = d.monte.iter().map(|c| c.to_string()).collect();
    println!("monte: {}", monte.join(" "));
    Ok(ExitCode::SUCCESS)
}
