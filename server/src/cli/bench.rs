//! `calabresella bench`: random full hands through the engine's fast path on one thread.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use calabresella_engine::bots::random_hands;
use serde_json::json;

use super::GameArgs;

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Hands per run.
    #[arg(long, default_value_t = 1_000_000)]
    hands: u64,
    /// Timed runs; the medians are reported (one untimed warm-up run of a tenth comes first).
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Seed of the first run (run i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    game: GameArgs,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs the benchmark and prints its JSON.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    let opts = args.game.options()?;
    let runs = args.runs.max(1);
    let warm = random_hands(opts, args.seed, (args.hands / 10).max(1));
    let mut hps = Vec::new();
    let mut aps = Vec::new();
    let mut per_run = Vec::new();
    for i in 0..runs {
        let start = Instant::now();
        let r = random_hands(opts, args.seed + i as u64, args.hands);
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        hps.push(r.hands as f64 / secs);
        aps.push(r.actions as f64 / secs);
        per_run.push(json!({"seconds": secs, "hands": r.hands, "actions": r.actions, "award_sum": r.award_sum}));
    }
    let out = json!({
        "game": "calabresella",
        "options": opts.to_string(),
        "hands": args.hands,
        "runs": runs,
        "hands_per_sec": median(hps).round(),
        "actions_per_sec": median(aps).round(),
        "warmup_actions": warm.actions,
        "per_run": per_run,
    });
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
