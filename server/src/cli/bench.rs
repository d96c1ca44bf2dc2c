//! `calabresella bench`: random full hands through the engine's fast path on one thread.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use calabresella_engine::bots::{Driver, RandomRun, random_hands};
use serde_json::json;

use super::values::BenchDriver;
use super::{GameArgs, Rules};

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Hands per run.
    #[arg(long, default_value_t = 1_000_000)]
    hands: u64,
    /// Timed runs per driver; the medians are reported (an untimed warm-up of a tenth first).
    /// `hands_per_sec` uses the engine's rollout (`Hand::playout_random`), `api_hands_per_sec`
    /// the per-action API (`legal_action` + `apply_unchecked`); both play the same hands.
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// Seed of the first run (run i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Which path to time.
    #[arg(long, value_enum, default_value_t = BenchDriver::Both)]
    driver: BenchDriver,
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

/// Medians over `runs` timed runs of one driver: (hands/s, actions/s, per-run details).
fn measure(args: &BenchArgs, rules: Rules, driver: Driver) -> (f64, f64, Vec<serde_json::Value>) {
    let play = |seed: u64, n: u64| random_hands(rules, seed, n, driver);
    play(args.seed, (args.hands / 10).max(1));
    let mut hps = Vec::new();
    let mut aps = Vec::new();
    let mut per_run = Vec::new();
    for i in 0..args.runs.max(1) {
        let start = Instant::now();
        let r: RandomRun = play(args.seed + i as u64, args.hands);
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        hps.push(r.hands as f64 / secs);
        aps.push(r.actions as f64 / secs);
        per_run.push(json!({"seconds": secs, "hands": r.hands, "actions": r.actions, "award_sum": r.award_sum}));
    }
    (median(hps), median(aps), per_run)
}

/// Runs the benchmark and prints its JSON.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    let rules = args.game.rules()?;
    let none = || (0.0, 0.0, Vec::new());
    let (hps, aps, per_run) = if args.driver != BenchDriver::Api {
        measure(&args, rules, Driver::Playout)
    } else {
        none()
    };
    let (api_hps, api_aps, api_runs) = if args.driver != BenchDriver::Playout {
        measure(&args, rules, Driver::Api)
    } else {
        none()
    };
    let out = json!({
        "game": rules.game_name(),
        "options": rules.to_string(),
        "hands": args.hands,
        "runs": args.runs.max(1),
        "hands_per_sec": hps.round(),
        "actions_per_sec": aps.round(),
        "api_hands_per_sec": api_hps.round(),
        "api_actions_per_sec": api_aps.round(),
        "per_run": {"playout": per_run, "api": api_runs},
    });
    println!("{}", serde_json::to_string_pretty(&out)?);
    Ok(ExitCode::SUCCESS)
}
