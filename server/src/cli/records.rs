//! `calabresella records | results`: the finished matches a server keeps, and its results
//! table with ratings.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use calabresella_client::requests::{self, RecordQuery};
use calabresella_proto::convert;

use super::client::{ServerArg, connect, runtime, status_line};
use super::values::{self, EndReason};

/// Arguments of `records`.
#[derive(Debug, clap::Args)]
pub struct RecordsArgs {
    #[command(flatten)]
    server: ServerArg,
    /// Only matches this player sat in.
    #[arg(long)]
    player: Option<String>,
    /// Only matches this player won.
    #[arg(long)]
    winner: Option<String>,
    /// Only this game.
    #[arg(long, value_parser = values::game_names(), ignore_case = true)]
    game: Option<String>,
    /// Only matches that ended this way.
    #[arg(long, value_enum, ignore_case = true)]
    reason: Option<EndReason>,
    /// Only matches that ended at or after this time (ms since the Unix epoch).
    #[arg(long)]
    since_ms: Option<i64>,
    /// Only matches that ended before this time (ms since the Unix epoch).
    #[arg(long)]
    until_ms: Option<i64>,
    /// Only drawn matches.
    #[arg(long)]
    draws: bool,
    /// At most this many (newest first).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    json: bool,
}

/// Arguments of `results`.
#[derive(Debug, clap::Args)]
pub struct ResultsArgs {
    #[command(flatten)]
    server: ServerArg,
    /// Only matches of this game.
    #[arg(long, value_parser = values::game_names(), ignore_case = true)]
    game: Option<String>,
    /// Leave out the built-in bots.
    #[arg(long)]
    people_only: bool,
    /// One JSON object per line instead of a table.
    #[arg(long)]
    json: bool,
}

fn game_text(g: i32) -> &'static str {
    convert::game_name(g).unwrap_or("?")
}

/// Runs `records`.
pub fn records(args: RecordsArgs) -> Result<ExitCode> {
    let request = RecordQuery {
        player: args.player.clone(),
        winner: args.winner.clone(),
        game: args.game.clone(),
        reason: args.reason.map(|r| r.name().to_owned()),
        since_ms: args.since_ms,
        until_ms: args.until_ms,
        draws_only: args.draws,
        limit: args.limit,
    }
    .request()?;
    runtime()?.block_on(async {
        let mut client = connect(&args.server).await?;
        let found = match client.list_records(request).await {
            Ok(r) => r.into_inner().records,
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                return Ok(ExitCode::from(1));
            }
        };
        let mut out = std::io::stdout().lock();
        for r in &found {
            let result = r.result.clone().unwrap_or_default();
            let reason = convert::end_reason_name(r.end_reason).to_ascii_lowercase();
            if args.json {
                let line = serde_json::json!({
                    "table_id": r.table_id,
                    "name": r.name,
                    "game": game_text(r.game),
                    "players": r.player_names,
                    "end_reason": reason,
                    "winners": result.winners,
                    "draw": result.draw,
                    "totals": convert::totals_of(&result.signed_totals, &result.totals),
                    "hands": result.hands,
                    "created_unix_ms": r.created_unix_ms,
                    "ended_unix_ms": r.ended_unix_ms,
                });
                let _ = writeln!(out, "{line}");
            } else {
                let winners: Vec<&str> = result
                    .winners
                    .iter()
                    .filter_map(|&w| r.player_names.get(w as usize).map(String::as_str))
                    .collect();
                let _ = writeln!(
                    out,
                    "{}  {:<16} {:<10} {:>3} hands  totals {:?}  won: {}  [{}]",
                    r.table_id,
                    game_text(r.game),
                    reason,
                    result.hands,
                    convert::totals_of(&result.signed_totals, &result.totals),
                    if result.draw {
                        "draw".to_owned()
                    } else {
                        winners.join(", ")
                    },
                    r.player_names.join(", ")
                );
            }
        }
        if found.is_empty() && !args.json {
            eprintln!("calabresella: no finished matches match");
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// Runs `results`.
pub fn results(args: ResultsArgs) -> Result<ExitCode> {
    let request = requests::results_request(args.game.as_deref(), args.people_only)?;
    runtime()?.block_on(async {
        let mut client = connect(&args.server).await?;
        let players = match client.get_results(request).await {
            Ok(r) => r.into_inner().players,
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                return Ok(ExitCode::from(1));
            }
        };
        let mut out = std::io::stdout().lock();
        if !args.json {
            let _ = writeln!(
                out,
                "{:<24} {:>7} {:>5} {:>5} {:>7} {:>7} {:>6} {:>6}",
                "player", "matches", "wins", "draws", "points", "rating", "mu", "sigma"
            );
        }
        for p in &players {
            if args.json {
                let line = serde_json::json!({
                    "player": p.player_name,
                    "matches": p.matches,
                    "wins": p.wins,
                    "draws": p.draws,
                    "points": p.points,
                    "signed_points": p.signed_points,
                    "rating": p.rating,
                    "mu": p.mu,
                    "sigma": p.sigma,
                    "bot": p.bot,
                });
                let _ = writeln!(out, "{line}");
            } else {
                let _ = writeln!(
                    out,
                    "{:<24} {:>7} {:>5} {:>5} {:>7} {:>7.2} {:>6.2} {:>6.2}",
                    p.player_name,
                    p.matches,
                    p.wins,
                    p.draws,
                    // Signed: the calling games' totals may be negative.
                    if p.signed_points == 0 {
                        p.points as i64
                    } else {
                        p.signed_points
                    },
                    p.rating,
                    p.mu,
                    p.sigma
                );
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}
