//! Command-line arguments and the subcommands they run.

mod bench;
mod deal;
mod duplicate;
mod play;
mod replay;

use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use calabresella_engine::calabresella::Options;
use clap::{Parser, Subcommand};

/// Calabresella: play, replay and benchmark matches of the Italian card game.
#[derive(Debug, Parser)]
#[command(name = "calabresella", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a whole match between built-in bots, print each hand and write the record.
    Play(play::PlayArgs),
    /// Check a game record action by action and print the replay JSON.
    Replay(replay::ReplayArgs),
    /// Random full hands on one thread through the engine's fast path; prints JSON.
    Bench(bench::BenchArgs),
    /// Compare bots in the duplicate format: every deal in every seat permutation; prints JSON.
    Duplicate(duplicate::DuplicateArgs),
    /// Print the deal a seed gives.
    Deal(deal::DealArgs),
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Play(a) => play::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Duplicate(a) => duplicate::run(a),
        Command::Deal(a) => deal::run(a),
    }
}

/// Rule selection shared by the subcommands that create games.
#[derive(Debug, clap::Args)]
pub struct GameArgs {
    /// The game to play.
    #[arg(long, default_value = "calabresella")]
    game: String,
    /// Number of players: 3, or 4 with an idle dealer.
    #[arg(long)]
    players: Option<u8>,
    /// A rule option as key=value (repeatable): target=31, match_end=individual, stramazzo=false,
    /// only_chiamo=true, chiamo_threes_only=true, aperta=true, a_due=true, max_deals=N,
    /// preset=terziglio.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
}

impl GameArgs {
    /// The validated options.
    pub fn options(&self) -> Result<Options> {
        if !self.game.eq_ignore_ascii_case("calabresella") {
            bail!(
                "unknown game {:?}: this version plays calabresella",
                self.game
            );
        }
        let mut o = Options::default();
        if let Some(p) = self.players {
            o.set("players", &p.to_string())?;
        }
        for kv in &self.options {
            let (k, v) = kv
                .split_once('=')
                .with_context(|| format!("option {kv:?} is not key=value"))?;
            o.set(k, v)?;
        }
        o.validate()?;
        Ok(o)
    }
}

/// A seed from the clock, for commands run without `--seed` (printed so a run can be repeated).
pub fn fresh_seed() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    let t = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (t as u64) ^ u64::from(std::process::id()).rotate_left(32)
}
