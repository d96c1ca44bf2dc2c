//! `calabresella play`: a whole match between built-in bots.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::bots::{self, BOT_NAMES, Bot};
use calabresella_engine::calabresella::{self, HandOutcome, Match};
use calabresella_engine::record::Record;
use calabresella_engine::tressette;
use serde_json::json;

use super::{GameArgs, Rules, fresh_seed};

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

fn list(v: &[u32]) -> String {
    let parts: Vec<String> = v.iter().map(u32::to_string).collect();
    format!("[{}]", parts.join(", "))
}

/// One bot name per seat: one name fills every seat.
fn seat_names(bots: &[String], n: usize) -> Result<Vec<String>> {
    Ok(match bots.len() {
        1 => vec![bots[0].clone(); n],
        k if k == n => bots.to_vec(),
        k => bail!("--bots names {k} bots for {n} seats (give one name, or one per seat)"),
    })
}

/// The bots for `names`, each seeded from `seed` and its seat.
fn seat_bots<O: 'static>(names: &[String], seed: u64) -> Result<Vec<Box<dyn Bot<O> + Send>>>
where
    bots::RandomBot: Bot<O>,
    bots::HeuristicBot: Bot<O>,
{
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            bots::by_name(
                name,
                seed.wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1)),
            )
            .with_context(|| format!("unknown bot {name:?}; known: {}", BOT_NAMES.join(", ")))
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
    match args.game.rules()? {
        Rules::Calabresella(opts) => play_calabresella(&args, opts, seed),
        Rules::Tressette(opts) => play_tressette(&args, opts, seed),
    }
    .map(|()| ExitCode::SUCCESS)
}

fn play_calabresella(args: &PlayArgs, opts: calabresella::Options, seed: u64) -> Result<()> {
    let n = opts.players as usize;
    let names = seat_names(&args.bots, n)?;
    let mut seated = seat_bots::<calabresella::Observation>(&names, seed)?;
    let mut m = Match::seeded(opts, seed, None)?;
    println!(
        "calabresella match, seed {seed}, {opts}, bots {}",
        names.join(",")
    );
    let faults = bots::play_out(&mut m, &mut seated);
    if !args.quiet {
        let mut totals = vec![0u32; n];
        for (i, (hand, outcome)) in m.hands().iter().zip(m.outcomes()).enumerate() {
            for (t, a) in totals.iter_mut().zip(outcome.award().0) {
                *t += a;
            }
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
                    list(&s.award.0[..n]),
                    list(&totals),
                ),
            }
        }
    }
    let totals = list(&m.totals().0[..n]);
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
    warn_faults(faults);
    write_record(args, seed, &names, |meta| {
        Record::from_match(&m, Some(meta))
    })
}

fn play_tressette(args: &PlayArgs, opts: tressette::Options, seed: u64) -> Result<()> {
    let n = opts.variant.players() as usize;
    let names = seat_names(&args.bots, n)?;
    let mut seated = seat_bots::<tressette::Observation>(&names, seed)?;
    let mut m = tressette::Match::seeded(opts, seed, None)?;
    println!(
        "{} match, seed {seed}, {opts}, bots {}",
        opts.variant.game(),
        names.join(",")
    );
    let faults = bots::play_out(&mut m, &mut seated);
    if !args.quiet {
        let mut totals = [0u32; 2];
        for (i, h) in m.hands().iter().enumerate() {
            let Some(o) = h.outcome() else { continue };
            totals = [totals[0] + o.points[0], totals[1] + o.points[1]];
            let accusi: Vec<String> = h
                .accusi()
                .iter()
                .map(|(s, a)| format!("seat {s} {a}"))
                .collect();
            println!(
                "hand {:>3}  dealer {}  points {:>2}-{:<2} (cards {}-{}, accusi {}-{})  tricks {:>2}-{:<2} last trick {}  totals {}{}",
                i + 1,
                h.dealer(),
                o.points[0],
                o.points[1],
                o.card_points[0],
                o.card_points[1],
                o.accusi[0],
                o.accusi[1],
                o.tricks[0],
                o.tricks[1],
                o.last_trick,
                list(&totals),
                if accusi.is_empty() {
                    String::new()
                } else {
                    format!("  accusi: {}", accusi.join(", "))
                }
            );
        }
    }
    let side = |i: usize| {
        if n == 4 {
            format!("team {i} (seats {i} and {})", i + 2)
        } else {
            format!("seat {i}")
        }
    };
    let totals = list(&m.totals());
    match m.result() {
        Some(tressette::MatchResult::Won(w)) => println!(
            "match won by {} after {} hands, totals {totals}",
            side(w),
            m.hands().len()
        ),
        Some(tressette::MatchResult::Draw) => println!(
            "match drawn after {} hands, totals {totals}",
            m.hands().len()
        ),
        None => println!("match unfinished, totals {totals}"),
    }
    warn_faults(faults);
    write_record(args, seed, &names, |meta| {
        Record::from_tressette(&m, Some(meta))
    })
}
