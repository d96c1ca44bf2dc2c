//! `calabresella bench-search`: the exact solver and the world sampler on positions reached by
//! heuristic play, on one thread.

use std::process::ExitCode;

use anyhow::Result;
use calabresella_engine::search::search_figures;
use serde_json::json;

use super::GameArgs;

/// Arguments of `bench-search`.
#[derive(Debug, clap::Args)]
pub struct BenchSearchArgs {
    /// Positions to solve (each from a match of its own seed).
    #[arg(long, default_value_t = 20)]
    positions: usize,
    /// Tricks left in each position, the current one included.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=10))]
    tricks: u32,
    /// Worlds sampled at each position (the sampler's rate).
    #[arg(long, default_value_t = 200)]
    worlds: usize,
    /// Seed of the first match (position k uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    game: GameArgs,
}

/// Runs the benchmark and prints JSON.
pub fn run(args: BenchSearchArgs) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let f = search_figures(rules, args.seed, args.positions, args.tricks, args.worlds);
    let out = json!({
        "game": rules.game_name(),
        "options": rules.to_string(),
        "positions": f.positions,
        "tricks_left": f.tricks_left,
        "solve_ms_median": f.median_ms,
        "solve_ms_max": f.max_ms,
        "nodes_median": f.median_nodes,
        "nodes_per_sec": f.nodes_per_sec,
        "worlds_per_sec": f.worlds_per_sec,
    });
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
