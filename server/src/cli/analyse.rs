//! `calabresella analyse RECORD`: where each player lost points (docs/ANALYSIS.md).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::record::Record;
use calabresella_engine::search::Budget;
use calabresella_engine::search::analysis::{self, Analysis, AnalysisOptions, Decision};

/// Arguments of `analyse`.
#[derive(Debug, clap::Args)]
pub struct AnalyseArgs {
    /// The record file (`-` for standard input), as `table-record` or `play` write it.
    file: PathBuf,
    /// Milliseconds of search per decision (the figures then depend on the machine's speed);
    /// without it, the default budget in worlds and work gives the same figures anywhere.
    #[arg(long, value_name = "N", conflicts_with = "budget")]
    budget_ms: Option<u32>,
    /// The search per decision as `pimc` parameters (`worlds=64:work=12000`).
    #[arg(long, value_name = "SPEC")]
    budget: Option<String>,
    /// Seeds the worlds each decision samples.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// A loss over this many points is a large error.
    #[arg(long, value_name = "POINTS", default_value_t = analysis::DEFAULT_LARGE)]
    large: f64,
    /// Print the whole analysis as JSON (every action's values) instead of the text report.
    #[arg(long)]
    json: bool,
}

/// Analyses the record and prints the report.
pub fn run(a: AnalyseArgs) -> Result<ExitCode> {
    let text =
        super::read_input(&a.file).map_err(|e| anyhow::anyhow!("{}: {e}", a.file.display()))?;
    let record = Record::parse(&text).map_err(|e| anyhow::anyhow!("invalid record: {e}"))?;
    if !(a.large.is_finite() && a.large > 0.0) {
        bail!("--large: must be a number of points above 0");
    }
    let budget = match (&a.budget, a.budget_ms) {
        (Some(spec), _) => Budget::parse(spec).context("--budget")?,
        (None, Some(ms)) => Budget::parse(&format!("ms={ms}")).context("--budget-ms")?,
        (None, None) => analysis::DEFAULT_BUDGET,
    };
    let options = AnalysisOptions {
        budget,
        seed: a.seed,
        large: a.large,
        exact_tricks: None,
    };
    let found =
        analysis::analyse(&record, &options).map_err(|e| anyhow::anyhow!("invalid record: {e}"))?;
    let text = if a.json {
        serde_json::to_string_pretty(&found.to_json())? + "\n"
    } else {
        report(&found)
    };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A reader that stopped early (`| head`) wanted no more.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}

/// The text report: one line per decision, then each seat's figures.
fn report(a: &Analysis) -> String {
    let mut out = format!(
        "{}: {} decisions with a choice; search {}, seed {}; a large error loses over {} points\n",
        a.game,
        a.decisions.len(),
        a.budget,
        a.seed,
        a.large
    );
    let mut hand = usize::MAX;
    for d in &a.decisions {
        if d.hand != hand {
            hand = d.hand;
            out.push_str(&format!("hand {}\n", hand + 1));
        }
        out.push_str(&line(d));
    }
    out.push_str("\nseat  decisions  mean loss  large errors  accuracy\n");
    for s in &a.seats {
        out.push_str(&format!(
            "{:>4}  {:>9}  {:>9.3}  {:>12}  {:>7.1}%\n",
            s.seat, s.decisions, s.mean_loss, s.large_errors, s.accuracy
        ));
    }
    out
}

/// One decision: who, what, the loss, then every action's value (exact values in brackets).
fn line(d: &Decision) -> String {
    let mark = if d.large { "??" } else { "  " };
    let exact = d
        .exact_loss
        .map(|l| format!(" (exact {l})"))
        .unwrap_or_default();
    let values: Vec<String> = d
        .actions
        .iter()
        .map(|v| {
            let exact = v.exact.map(|e| format!("[{e}]")).unwrap_or_default();
            let best = if v.action == d.best { "*" } else { "" };
            format!("{best}{} {:+.2}{exact}", v.action, v.value)
        })
        .collect();
    format!(
        "  {mark} {:>3}  seat {}  {:<7}  {:<6} loss {:>5.2}{exact}  | {}\n",
        d.index + 1,
        d.seat,
        d.phase,
        d.chosen,
        d.loss,
        values.join("  ")
    )
}
