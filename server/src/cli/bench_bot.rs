//! `calabresella bench-bot FILE`: what a submitted bot costs in the sandbox, measured as the
//! server runs it: its start (from launching the sandbox to its answer to the first turn)
//! and its round trip per decision (from writing a turn's line to reading its answer), on
//! turns of real matches. Prints JSON.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use calabresella_engine::bots::{Bot, RandomBot};
use calabresella_engine::game::{AnyMatch, Viewer};
use calabresella_proto::{convert, json};
use calabresella_server::submitted::cgroup::{BotGroup, Cgroups};
use calabresella_server::submitted::files;
use calabresella_server::submitted::sandbox::{BotLimits, Sandbox};
use serde_json::json;

use super::GameArgs;

/// Arguments of `bench-bot`.
#[derive(Debug, clap::Args)]
pub struct BenchBotArgs {
    /// The bot: a .py program or an executable (as `submit` takes it).
    file: PathBuf,
    /// Starts measured (each a fresh process, answering one turn).
    #[arg(long, default_value_t = 5)]
    starts: usize,
    /// Decisions measured, in one process.
    #[arg(long, default_value_t = 2000)]
    turns: usize,
    /// The Python that runs .py bots.
    #[arg(long, default_value = "python3")]
    python: String,
    /// Run without the sandbox (as `serve --unsafe-trusted-bots` would).
    #[arg(long)]
    unsafe_trusted: bool,
    #[command(flatten)]
    game: GameArgs,
}

/// Observe lines with turns from random matches of `game`, one per decision.
fn turns(rules: calabresella_engine::game::Rules, n: usize) -> Result<Vec<String>> {
    let mut out = Vec::with_capacity(n);
    let mut seed = 0;
    while out.len() < n {
        seed += 1;
        let mut m = AnyMatch::seeded(rules, seed, None)?;
        let mut bot = RandomBot::new(seed);
        while let Some(seat) = m.decider() {
            if out.len() >= n {
                break;
            }
            let obs = m.observation(Viewer::Seat(seat)).context("a view")?;
            let wire = convert::observation(&obs);
            let legal: Vec<String> = wire
                .legal_actions
                .iter()
                .map(|a| a.notation.clone())
                .collect();
            let line = json!({
                "type": "observe",
                "update": {},
                "turn": {"decision": out.len().to_string(), "legal_actions": legal, "remaining_ms": 60000},
                "observation": json::to_json(&wire, "calabresella.v1.Observation")?,
            });
            out.push(line.to_string());
            let a = bot.act(&obs);
            m.try_apply_as(seat, a)?;
        }
    }
    Ok(out)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// Runs `bench-bot`.
pub fn run(a: BenchBotArgs) -> Result<ExitCode> {
    let content =
        std::fs::read(&a.file).with_context(|| format!("cannot read {}", a.file.display()))?;
    let name = a
        .file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let checked = files::check(&name, &content, "").map_err(anyhow::Error::msg)?;
    let dir = tempfile::tempdir()?;
    let bot = dir.path().join("bot");
    files::unpack(&bot, &checked, &content).map_err(anyhow::Error::msg)?;
    let sandbox = Sandbox::probe(None, &a.python, a.unsafe_trusted).map_err(anyhow::Error::msg)?;
    let lines = turns(a.game.rules()?, a.turns.max(1))?;
    let start_line = json!({"type": "start", "protocol": calabresella_server::submitted::protocol::PROTOCOL, "seat": 0, "table_id": "bench"}).to_string();
    let limits = BotLimits::default();
    // A control group per start, as the server gives each bot (where the machine has them).
    let cgroups = if sandbox.is_unsafe() {
        None
    } else {
        Cgroups::detect().ok()
    };
    let spawn = || -> Result<(std::process::Child, Option<BotGroup>)> {
        let command = sandbox.std_command(&bot, &checked.entry, checked.runtime, 61998, &limits);
        let group = match &cgroups {
            Some(c) => Some(
                c.create(61998, limits.memory_mb, limits.processes)
                    .map_err(anyhow::Error::msg)?,
            ),
            None => None,
        };
        let mut command = match &group {
            Some(g) => g.wrap(command),
            None => command,
        };
        let child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("cannot start the bot")?;
        Ok((child, group))
    };
    let ask = |stdin: &mut std::process::ChildStdin,
               out: &mut BufReader<std::process::ChildStdout>,
               line: &str|
     -> Result<Duration> {
        let t = Instant::now();
        writeln!(stdin, "{line}")?;
        stdin.flush()?;
        let mut answer = String::new();
        if out.read_line(&mut answer)? == 0 {
            bail!("the bot ended");
        }
        Ok(t.elapsed())
    };
    let mut starts = Vec::new();
    for _ in 0..a.starts.max(1) {
        let t = Instant::now();
        let (mut child, group) = spawn()?;
        let mut stdin = child.stdin.take().context("stdin")?;
        let mut out = BufReader::new(child.stdout.take().context("stdout")?);
        writeln!(stdin, "{start_line}")?;
        ask(&mut stdin, &mut out, &lines[0])?;
        starts.push(t.elapsed().as_secs_f64() * 1000.0);
        drop(stdin);
        let _ = child.wait();
        drop(group);
    }
    let (mut child, group) = spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut out = BufReader::new(child.stdout.take().context("stdout")?);
    writeln!(stdin, "{start_line}")?;
    ask(&mut stdin, &mut out, &lines[0])?;
    let mut trips: Vec<f64> = Vec::with_capacity(lines.len());
    for line in &lines[1..] {
        trips.push(ask(&mut stdin, &mut out, line)?.as_secs_f64() * 1000.0);
    }
    drop(stdin);
    let _ = child.wait();
    drop(group);
    let mut sorted = trips.clone();
    sorted.sort_by(f64::total_cmp);
    let p = |q: f64| {
        sorted
            .get(((sorted.len().max(1) - 1) as f64 * q) as usize)
            .copied()
            .unwrap_or(0.0)
    };
    let report = json!({
        "bot": name,
        "runtime": checked.runtime.as_str(),
        "sandbox": if sandbox.is_unsafe() { "none (--unsafe-trusted)" } else { "bubblewrap" },
        "control_groups": match &cgroups {
            Some(Cgroups::V2 { .. }) => "v2",
            Some(Cgroups::V1 { .. }) => "v1",
            None => "none",
        },
        "start_ms": {"median": median(&mut starts), "all": starts},
        "round_trip_ms": {"median": p(0.5), "p90": p(0.9), "p99": p(0.99), "decisions": trips.len()},
    });
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(ExitCode::SUCCESS)
}
