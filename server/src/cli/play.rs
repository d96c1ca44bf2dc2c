//! `calabresella play`: a whole match between built-in bots.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::bots::{self, BOT_NAMES, Bot};
use calabresella_engine::calabresella::{HandOutcome, Match};
use calabresella_engine::record::Record;
use serde_json::json;

use super::{GameArgs, fresh_seed};

/// Arguments of `play`.
#[derive(Debug, clap::Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// Seed for the deals and the bots (default: from the clock, printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Bots by seat, comma-separated (random, heuristic); one name fills every seat.
    #[arg(long, default_value = "heuristic", value_delimiter = ',')]
    bots: Vec<String>,
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

fn seat_list(v: &[u32]) -> String {
    let parts: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// Plays the match and prints a line per hand.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let opts = args.game.options()?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let n = opts.players as usize;
    let names: Vec<String> = match args.bots.len() {
        1 => vec![args.bots[0].clone(); n],
        k if k == n => args.bots.clone(),
        k => bail!("--bots names {k} bots for {n} seats (give one name, or one per seat)"),
    };
    let mut seated: Vec<Box<dyn Bot + Send>> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let bot = bots::by_name(
            name,
            seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)),
        )
        .with_context(|| format!("unknown bot {name:?}; known: {}", BOT_NAMES.join(", ")))?;
        seated.push(bot);
    }
    let mut m = Match::seeded(opts, seed, None)?;
    println!(
        "calabresella match, seed {seed}, {opts}, bots {}",
        names.join(",")
    );
    let faults = bots::play_out(&mut m, &mut seated);
    if !args.quiet {
        for (i, (hand, outcome)) in m.hands().iter().zip(m.outcomes()).enumerate() {
            let totals: Vec<u32> = m.outcomes()[..=i].iter().fold(vec![0; n], |mut acc, o| {
                for (t, a) in acc.iter_mut().zip(o.award().0) {
                    *t += a;
                }
                acc
            });
            match outcome {
                HandOutcome::Void => println!(
                    "hand {:>3}  dealer {}  void: all passed",
                    i + 1,
                    hand.dealer()
                ),
                HandOutcome::Scored(s) => println!(
                    "hand {:>3}  dealer {}  seat {} {:<9} called {:<2}  points {:>2}-{:<2} tricks {:>2}-{:<2} {} x{}  award {}  totals {}",
                    i + 1,
                    hand.dealer(),
                    s.soloist,
                    s.contract.name(),
                    s.called.map_or("-".to_string(), |c| c.to_string()),
                    s.points[0],
                    s.points[1],
                    s.tricks[0],
                    s.tricks[1],
                    if s.made { "made  " } else { "failed" },
                    s.multiplier,
                    seat_list(&s.award.0[..n]),
                    seat_list(&totals),
                ),
            }
        }
    }
    let totals = seat_list(&m.totals().0[..n]);
    match m.result() {
        Some(r) if r.draw => println!(
            "match drawn after {} deals (max_deals), totals {totals}",
            m.hands().len()
        ),
        Some(r) => {
            let w: Vec<String> = r
                .winners
                .iter()
                .map(|s| format!("seat {s} ({})", names[s.index()]))
                .collect();
            println!(
                "match won by {} after {} deals, totals {totals}",
                w.join(" and "),
                m.hands().len()
            );
        }
        None => println!("match unfinished, totals {totals}"),
    }
    if faults > 0 {
        eprintln!(
            "warning: {faults} bot answers were illegal and replaced by the first legal action"
        );
    }
    if !args.no_record {
        let path = args
            .record
            .unwrap_or_else(|| PathBuf::from(format!("calabresella-{seed}.json")));
        let meta = json!({"seed": seed, "bots": names, "tool": concat!("calabresella ", env!("CARGO_PKG_VERSION"))});
        let text = Record::from_match(&m, Some(meta)).to_json();
        std::fs::write(&path, text + "\n")
            .with_context(|| format!("cannot write the record to {}", path.display()))?;
        println!("record written to {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
