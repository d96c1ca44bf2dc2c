//! `calabresella play`: a whole match between built-in bots.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::bots::{self, Bot};
use calabresella_engine::game::AnyMatch;
use calabresella_engine::record::Record;
use serde_json::json;

use super::values::BotName;
use super::{GameArgs, fresh_seed};

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed for the deals and the bots (default: from the clock, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Bots by seat, comma-separated; one name fills every seat.
    #[arg(long, default_value = "heuristic", value_delimiter = ',')]
    bots: Vec<BotName>,
    /// Where to write the game record (default: calabresella-SEED.json).
    #[arg(long)]
    record: Option<PathBuf>,
    /// Do not write a record.
    #[arg(long, conflicts_with = "record")]
    no_record: bool,
    /// Print only the final line.
    #[arg(long, short)]
    quiet: bool,
}

fn list(v: &[i32]) -> String {
    let parts: Vec<String> = v.iter().map(i32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// One bot name per seat: one name fills every seat.
fn seat_names(bots: &[BotName], n: usize) -> Result<Vec<String>> {
    let names: Vec<String> = bots.iter().map(|b| b.name().to_owned()).collect();
    Ok(match names.len() {
        1 => vec![names[0].clone(); n],
        k if k == n => names,
        k => bail!("--bots names {k} bots for {n} seats (give one name, or one per seat)"),
    })
}

/// The bots for `names`, each seeded from `seed` and its seat.
fn seat_bots(names: &[String], seed: u64) -> Result<Vec<Box<dyn Bot + Send>>> {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            bots::bot_from_spec(
                name,
                seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)),
            )
            .map_err(anyhow::Error::from)
        })
        .collect()
}

/// Writes the record unless `--no-record`.
fn write_record(
    args: &PlayArgs,
    seed: u64,
    names: &[String],
    record: impl FnOnce(serde_json::Value) -> Record,
) -> Result<()> {
    if args.no_record {
        return Ok(());
    }
    let path = args
        .record
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("calabresella-{seed}.json")));
    let meta = json!({"seed": seed, "bots": names, "tool": concat!("calabresella ", env!("CARGO_PKG_VERSION"))});
    std::fs::write(&path, record(meta).to_json() + "\n")
        .with_context(|| format!("cannot write the record to {}", path.display()))?;
    println!("record written to {}", path.display());
    Ok(())
}

fn warn_faults(faults: usize) {
    if faults > 0 {
        eprintln!(
            "warning: {faults} bot answers were illegal and replaced by the first legal action"
        );
    }
}

/// Plays the match and prints a line per hand.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let rules = args.game.rules()?;
    let n = usize::from(rules.seats());
    let names = seat_names(&args.bots, n)?;
    let mut seated = seat_bots(&names, seed)?;
    let mut m = AnyMatch::seeded(rules, seed, None)?;
    println!(
        "{} match, seed {seed}, {rules}, bots {}",
        rules.game_name(),
        names.join(",")
    );
    let faults = bots::play_out(&mut m, &mut seated);
    if !args.quiet {
        for i in 0..m.hands_dealt() {
            if let (Some(dealer), Some(line)) = (m.dealer(i), m.hand_summary(i)) {
                println!("hand {:>3}  dealer {dealer}  {line}", i + 1);
            }
        }
    }
    let totals = list(&m.totals());
    let hands = m.hands_dealt();
    match m.result() {
        Some(r) if r.draw => {
            println!("match drawn after {hands} hands (max_deals), totals {totals}")
        }
        Some(r) => {
            let w: Vec<String> = r
                .winners
                .iter()
                .map(|s| format!("seat {s} ({})", names[s.index()]))
                .collect();
            println!(
                "match won by {} after {hands} hands, totals {totals}",
                w.join(" and ")
            );
        }
        None => println!("match unfinished, totals {totals}"),
    }
    warn_faults(faults);
    write_record(&args, seed, &names, |meta| m.record(Some(meta)))?;
    Ok(ExitCode::SUCCESS)
}
