//! `calabresella tournament create | list | status | standings | export`: tournaments run by a
//! server, for their organisers.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_proto::{convert, v1};
use serde_json::json;

use super::GameArgs;
use super::client::{ServerArg, connect, runtime, status_line};
use super::values::OnTimeout;

/// Prints a line; a closed standard output (`| head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

/// Arguments of `tournament`.
#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    #[command(subcommand)]
    command: TournamentCommand,
}

#[derive(Debug, clap::Subcommand)]
enum TournamentCommand {
    /// Create a tournament (needs the server's admin key); prints its id.
    Create(CreateArgs),
    /// List the server's tournaments, newest first.
    List(ListArgs),
    /// A tournament's state and matches.
    Status(OneArgs),
    /// A tournament's standings: points per hand with a 95% CI, wins, rating, faults.
    Standings(OneArgs),
    /// Write a tournament's standings (JSON, CSV), its matches (CSV) and every finished
    /// match's record into a directory.
    Export(ExportArgs),
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    RoundRobin,
    Swiss,
    Duplicate,
}

/// Arguments of `tournament create`.
#[derive(Debug, clap::Args)]
pub struct CreateArgs {
    #[command(flatten)]
    server: ServerArg,
    /// The server's admin key (prefer the environment or `--admin-key-file`: a command line
    /// is visible to every user of the machine).
    #[arg(
        long,
        env = "CALABRESELLA_ADMIN_KEY",
        hide_env_values = true,
        required_unless_present = "admin_key_file"
    )]
    admin_key: Option<String>,
    /// A file holding the server's admin key (it wins over `CALABRESELLA_ADMIN_KEY`).
    #[arg(long)]
    admin_key_file: Option<PathBuf>,
    #[command(flatten)]
    game: GameArgs,
    /// The tournament's name.
    #[arg(long)]
    name: String,
    /// How matches are drawn up.
    #[arg(long, value_enum, default_value_t = Format::RoundRobin)]
    format: Format,
    /// Deals per group of entrants (round robin, duplicate) or rounds (Swiss).
    #[arg(long, default_value_t = 1)]
    deals: u32,
    /// Entrants, comma-separated: registered players and built-in bots (random, heuristic,
    /// pimc, pimc:ms=50, ismcts, best).
    #[arg(long, value_delimiter = ',')]
    entrants: Vec<String>,
    /// Let registered players enter themselves until the start.
    #[arg(long)]
    open_registration: bool,
    /// Start this many seconds from now (default: at once).
    #[arg(long, default_value_t = 0)]
    start_in_s: u64,
    /// Time per decision in milliseconds (0: the server's default).
    #[arg(long, default_value_t = 0)]
    move_ms: u32,
    /// Time bank per seat in milliseconds.
    #[arg(long, default_value_t = 0)]
    bank_ms: u32,
    /// What a timeout does: the heuristic bot answers for the seat, or it forfeits.
    #[arg(long, value_enum, default_value_t = OnTimeout::Bot)]
    on_timeout: OnTimeout,
    /// Seed of every deal (default: random, shown when the tournament is over).
    #[arg(long)]
    seed: Option<u64>,
}

/// Arguments of `tournament list`.
#[derive(Debug, clap::Args)]
pub struct ListArgs {
    #[command(flatten)]
    server: ServerArg,
    /// One JSON object per line.
    #[arg(long)]
    json: bool,
}

/// Arguments naming one tournament.
#[derive(Debug, clap::Args)]
pub struct OneArgs {
    #[command(flatten)]
    server: ServerArg,
    /// The tournament's id.
    id: String,
    /// JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Arguments of `tournament export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    server: ServerArg,
    /// The tournament's id.
    id: String,
    /// The directory to write (created if missing).
    #[arg(long, short)]
    out: PathBuf,
}

/// Runs `tournament`.
pub fn run(args: TournamentArgs) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let answer = match args.command {
            TournamentCommand::Create(a) => create(a).await,
            TournamentCommand::List(a) => list(a).await,
            TournamentCommand::Status(a) => status(a, false).await,
            TournamentCommand::Standings(a) => status(a, true).await,
            TournamentCommand::Export(a) => export(a).await,
        };
        match answer {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(e) => match e.downcast_ref::<tonic::Status>() {
                Some(s) => {
                    eprintln!("calabresella: {}", status_line(s));
                    Ok(ExitCode::from(1))
                }
                None => Err(e),
            },
        }
    })
}

async fn create(a: CreateArgs) -> Result<()> {
    let format = match a.format {
        Format::RoundRobin => v1::TournamentFormat::RoundRobin,
        Format::Swiss => v1::TournamentFormat::Swiss,
        Format::Duplicate => v1::TournamentFormat::Duplicate,
    };
    let start = if a.start_in_s > 0 {
        calabresella_server::store::now_ms() + (a.start_in_s as i64).saturating_mul(1000)
    } else {
        0
    };
    let mut request = tonic::Request::new(v1::CreateTournamentRequest {
        name: a.name.clone(),
        options: Some(convert::rules(&a.game.rules()?)),
        clock: Some(v1::Clock {
            move_ms: a.move_ms,
            bank_ms: a.bank_ms,
            on_timeout: a.on_timeout.wire() as i32,
        }),
        format: format as i32,
        deals: a.deals,
        start_unix_ms: start,
        entrants: a.entrants.clone(),
        open_registration: a.open_registration,
        seed: a.seed,
    });
    let key = match (&a.admin_key_file, &a.admin_key) {
        (Some(path), _) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read the admin key file {}", path.display()))?,
        (None, Some(k)) => k.clone(),
        (None, None) => {
            anyhow::bail!("give the admin key: --admin-key-file or CALABRESELLA_ADMIN_KEY")
        }
    };
    calabresella_client::authorize(&mut request, Some(key.trim()))?;
    let mut client = connect(&a.server).await?;
    let t = client
        .create_tournament(request)
        .await?
        .into_inner()
        .tournament
        .context("no tournament in the answer")?;
    say!("{}", t.tournament_id);
    Ok(())
}

fn state_name(state: i32) -> &'static str {
    match v1::TournamentState::try_from(state).unwrap_or_default() {
        v1::TournamentState::Registering => "registering",
        v1::TournamentState::Running => "running",
        v1::TournamentState::Finished => "finished",
        v1::TournamentState::Unspecified => "?",
    }
}

fn format_name(format: i32) -> &'static str {
    match v1::TournamentFormat::try_from(format).unwrap_or_default() {
        v1::TournamentFormat::Swiss => "swiss",
        v1::TournamentFormat::Duplicate => "duplicate",
        _ => "round-robin",
    }
}

fn tournament_json(t: &v1::Tournament) -> serde_json::Value {
    json!({
        "tournament_id": t.tournament_id,
        "name": t.name,
        "game": t.options.as_ref().and_then(|o| convert::rules_from_wire(o).ok()).map(|r| r.game_name().to_owned()),
        "format": format_name(t.format),
        "deals": t.deals,
        "state": state_name(t.state),
        "entrants": t.entrants,
        "matches": t.matches,
        "playing": t.playing,
        "finished": t.finished,
        "start_unix_ms": t.start_unix_ms,
        "created_unix_ms": t.created_unix_ms,
        "seed": t.seed,
        "deal_scheme": t.deal_scheme,
        "seeded": t.seeded,
        "commitment": (!t.commitment.is_empty()).then_some(&t.commitment),
        // Revealed once the tournament is over: `verify --tournament-secret` checks its records.
        "secret": (!t.secret.is_empty()).then_some(&t.secret),
    })
}

/// How a tournament's deals are made, for people: seeded, or its commitment (and its secret
/// once it is over, for `verify --tournament-secret`).
fn deals_line(t: &v1::Tournament) -> String {
    if t.seeded {
        "deals seeded by the organiser: reproducible, not committed".to_owned()
    } else if t.secret.is_empty() {
        format!("deals {}, commitment {}", t.deal_scheme, t.commitment)
    } else {
        format!(
            "deals {}, commitment {}, secret {} (calabresella verify --tournament-secret)",
            t.deal_scheme, t.commitment, t.secret
        )
    }
}

fn standing_json(s: &v1::Standing) -> serde_json::Value {
    json!({
        "entrant": s.entrant,
        "bot": s.bot,
        "matches": s.matches,
        "hands": s.hands,
        "points": s.points,
        "points_per_hand": s.points_per_hand,
        "ci95": s.ci95,
        "wins": s.wins,
        "rating": s.rating,
        "timeouts": s.timeouts,
        "illegal": s.illegal,
        "disconnects": s.disconnects,
        "forfeits": s.forfeits,
    })
}

async fn list(a: ListArgs) -> Result<()> {
    let mut client = connect(&a.server).await?;
    let ts = client
        .list_tournaments(v1::ListTournamentsRequest {})
        .await?
        .into_inner()
        .tournaments;
    for t in &ts {
        if a.json {
            say!("{}", tournament_json(t));
        } else {
            say!(
                "{}  {:<11} {:<11} {}/{} matches  {}",
                t.tournament_id,
                state_name(t.state),
                format_name(t.format),
                t.finished,
                t.matches,
                t.name
            );
        }
    }
    Ok(())
}

async fn get(server: &ServerArg, id: &str) -> Result<v1::GetTournamentResponse> {
    let mut client = connect(server).await?;
    Ok(client
        .get_tournament(v1::GetTournamentRequest {
            tournament_id: id.to_owned(),
        })
        .await?
        .into_inner())
}

async fn status(a: OneArgs, standings: bool) -> Result<()> {
    let r = get(&a.server, &a.id).await?;
    let t = r.tournament.clone().unwrap_or_default();
    if a.json {
        let mut out = tournament_json(&t);
        out["standings"] = r.standings.iter().map(standing_json).collect();
        if !standings {
            out["match_list"] = r
                .matches
                .iter()
                .map(|m| json!({"number": m.number, "round": m.round, "seats": m.seats, "table_id": m.table_id, "state": v1::TableState::try_from(m.state).unwrap_or_default().as_str_name().trim_start_matches("TABLE_STATE_").to_ascii_lowercase()}))
                .collect();
        }
        say!("{out}");
        return Ok(());
    }
    if !standings {
        say!(
            "{} {:?}: {}, {} ({} deals), {} of {} matches over, {} in play",
            t.tournament_id,
            t.name,
            state_name(t.state),
            format_name(t.format),
            t.deals,
            t.finished,
            t.matches,
            t.playing
        );
        say!("{}", deals_line(&t));
    }
    say!(
        "{:<24} {:>7} {:>6} {:>9} {:>7} {:>5} {:>7} {:>8} {:>7} {:>11} {:>8}",
        "entrant",
        "matches",
        "hands",
        "pts/hand",
        "±95%",
        "wins",
        "rating",
        "timeouts",
        "illegal",
        "disconnects",
        "forfeits"
    );
    for s in &r.standings {
        say!(
            "{:<24} {:>7} {:>6} {:>9.3} {:>7.3} {:>5} {:>7.2} {:>8} {:>7} {:>11} {:>8}",
            s.entrant,
            s.matches,
            s.hands,
            s.points_per_hand,
            s.ci95,
            s.wins,
            s.rating,
            s.timeouts,
            s.illegal,
            s.disconnects,
            s.forfeits
        );
    }
    Ok(())
}

/// A CSV field: quoted when it holds a comma, a quote or a line break.
fn csv(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_owned()
    }
}

async fn export(a: ExportArgs) -> Result<()> {
    let r = get(&a.server, &a.id).await?;
    let t = r.tournament.clone().unwrap_or_default();
    let records = a.out.join("records");
    std::fs::create_dir_all(&records)
        .with_context(|| format!("cannot create {}", records.display()))?;
    let mut out = tournament_json(&t);
    out["standings"] = r.standings.iter().map(standing_json).collect();
    let write = |name: &str, text: String| -> Result<()> {
        let path = a.out.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    // The CSV has the JSON's fields, in the JSON's order.
    const FIELDS: [&str; 13] = [
        "entrant",
        "bot",
        "matches",
        "hands",
        "points",
        "points_per_hand",
        "ci95",
        "wins",
        "rating",
        "timeouts",
        "illegal",
        "disconnects",
        "forfeits",
    ];
    let mut standings = FIELDS.join(",") + "\n";
    for s in &r.standings {
        let line = standing_json(s);
        let cells: Vec<String> = FIELDS
            .iter()
            .map(|f| match &line[*f] {
                serde_json::Value::String(t) => csv(t),
                other => other.to_string(),
            })
            .collect();
        standings.push_str(&cells.join(","));
        standings.push('\n');
    }
    let mut matches = String::from("number,round,table_id,state,seats\n");
    let mut client = connect(&a.server).await?;
    let mut written = 0;
    for m in &r.matches {
        let state = v1::TableState::try_from(m.state)
            .unwrap_or_default()
            .as_str_name()
            .trim_start_matches("TABLE_STATE_")
            .to_ascii_lowercase();
        matches.push_str(&format!(
            "{},{},{},{},{}\n",
            m.number,
            m.round,
            m.table_id,
            state,
            csv(&m.seats.join(";"))
        ));
        if m.state == v1::TableState::Finished as i32 {
            let record = client
                .get_record(v1::GetRecordRequest {
                    table_id: m.table_id.clone(),
                })
                .await?
                .into_inner();
            let path = records.join(format!("{:05}-{}.json", m.number, m.table_id));
            std::fs::write(&path, record.record_json)
                .with_context(|| format!("cannot write {}", path.display()))?;
            written += 1;
        }
    }
    out["match_list"] = r
        .matches
        .iter()
        .map(|m| json!({"number": m.number, "round": m.round, "seats": m.seats, "table_id": m.table_id}))
        .collect();
    write("standings.json", format!("{out:#}\n"))?;
    write("standings.csv", standings)?;
    write("matches.csv", matches)?;
    let mut err = std::io::stderr();
    let _ = writeln!(
        err,
        "wrote {}: standings.json, standings.csv, matches.csv and {written} records",
        a.out.display()
    );
    Ok(())
}
