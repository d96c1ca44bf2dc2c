//! `calabresella create | watch | sit`: the project's own client of a running server.

use std::io::{BufRead, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_client::requests::NewTable;
use calabresella_client::{FnStrategy, MAX_REFUSALS, RemoteSeat, RetryPolicy};
use calabresella_engine::rng::GameRng;
use calabresella_proto::convert;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use tokio_stream::StreamExt;
use tonic::transport::Channel;

use super::values::{self, AutoPlay, OnTimeout};
use super::{GameArgs, fresh_seed};

/// Where the server is.
#[derive(Debug, clap::Args)]
pub struct ServerArg {
    /// The server's address.
    #[arg(
        long,
        env = "CALABRESELLA_SERVER",
        default_value = "http://127.0.0.1:50051"
    )]
    server: String,
    /// Verify an https:// server against this CA certificate (PEM) instead of the system's
    /// root certificates.
    #[arg(long, env = "CALABRESELLA_CA_CERT")]
    ca_cert: Option<std::path::PathBuf>,
    /// This client's certificate (PEM), for a server that asks for one (with --client-key).
    #[arg(long, env = "CALABRESELLA_CLIENT_CERT", requires = "client_key")]
    client_cert: Option<std::path::PathBuf>,
    /// The key of --client-cert (PEM).
    #[arg(long, env = "CALABRESELLA_CLIENT_KEY", requires = "client_cert")]
    client_key: Option<std::path::PathBuf>,
}

/// Arguments of `create`.
#[derive(Debug, clap::Args)]
pub struct CreateArgs {
    #[command(flatten)]
    server: ServerArg,
    #[command(flatten)]
    game: GameArgs,
    /// Who fills each seat, comma-separated: open (or human, player), random (or bot),
    /// heuristic, or a search bot: pimc, ismcts, best (the strongest of each game), with a budget
    /// after a colon (`pimc:ms=50`); one name fills every seat.
    #[arg(long, default_value = "open", value_delimiter = ',', value_parser = values::seat_kind)]
    seats: Vec<calabresella_client::requests::SeatChoice>,
    /// A name for the table.
    #[arg(long, default_value = "")]
    name: String,
    /// Seed of the deals (default: random; shown in the record when the match is over).
    #[arg(long)]
    seed: Option<u64>,
    /// Time per decision in milliseconds (0: the server's default).
    #[arg(long, default_value_t = 0)]
    move_ms: u32,
    /// Time bank per seat in milliseconds.
    #[arg(long, default_value_t = 0)]
    bank_ms: u32,
    /// What a timeout does.
    #[arg(long, value_enum, default_value_t = OnTimeout::Bot)]
    on_timeout: OnTimeout,
    /// Pause before each bot decision in milliseconds, so people can follow.
    #[arg(long, default_value_t = 0)]
    bot_delay_ms: u32,
}

/// Arguments of `tables`.
#[derive(Debug, clap::Args)]
pub struct TablesArgs {
    #[command(flatten)]
    server: ServerArg,
    /// Only tables in this state: waiting, playing, finished or abandoned.
    #[arg(long, value_parser = values::table_state)]
    state: Option<v1::TableState>,
}

/// Arguments of `watch`.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    #[command(flatten)]
    server: ServerArg,
    /// The table's id.
    table: String,
}

/// Arguments of `record`.
#[derive(Debug, clap::Args)]
pub struct RecordArgs {
    #[command(flatten)]
    server: ServerArg,
    /// The table's id.
    table: String,
}

/// Arguments of `sit`.
#[derive(Debug, clap::Args)]
pub struct SitArgs {
    #[command(flatten)]
    server: ServerArg,
    /// The table's id.
    table: String,
    /// Your name at the table (a guest's; with `--key`, your registered name or nothing).
    #[arg(long)]
    name: Option<String>,
    /// Your API key as a registered player (`calabresella players add`).
    #[arg(long, env = "CALABRESELLA_KEY", hide_env_values = true)]
    key: Option<String>,
    /// The seat wanted (default: the lowest open seat).
    #[arg(long)]
    seat: Option<u32>,
    /// The creator key `create --seed` printed: a seeded table seats only its creator.
    #[arg(long, env = "CALABRESELLA_CREATOR_KEY", hide_env_values = true)]
    creator_key: Option<String>,
    /// Play automatically instead of asking on standard input.
    #[arg(long, value_enum)]
    auto: Option<AutoPlay>,
}

/// Prints a line; a closed standard output (`| head`) is not an error worth a panic.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}

pub(super) fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")
}

pub(super) async fn connect(server: &ServerArg) -> Result<TableServiceClient<Channel>> {
    Ok(TableServiceClient::new(channel(server).await?))
}

/// A channel to the server `server` names.
pub(super) async fn channel(server: &ServerArg) -> Result<Channel> {
    let tls = calabresella_client::TlsFiles {
        ca_cert: server.ca_cert.clone(),
        client_cert: server.client_cert.clone(),
        client_key: server.client_key.clone(),
    };
    let channel =
        calabresella_client::endpoint(&server.server, &tls, std::time::Duration::from_secs(10))?
            .connect()
            .await
            .map_err(|e| {
                anyhow::anyhow!(
                    "cannot reach {}: {}",
                    server.server,
                    calabresella_client::error_chain(&e)
                )
            })?;
    Ok(channel)
}

/// A server error as one line.
pub(super) fn status_line(s: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    let reason = s
        .get_details_error_info()
        .map(|i| i.reason)
        .unwrap_or_default();
    let line = format!("{:?} {reason}: {}", s.code(), s.message());
    // A transport failure says what happened only in its sources (a refused certificate, a
    // server that speaks TLS only).
    match std::error::Error::source(s) {
        Some(source) => format!("{line}: {}", calabresella_client::error_chain(source)),
        None => line,
    }
}

/// Runs `create`.
pub fn create(args: CreateArgs) -> Result<ExitCode> {
    let request = NewTable {
        rules: args.game.rules()?,
        seats: args.seats.clone(),
        name: args.name.clone(),
        seed: args.seed,
        clock: Some(v1::Clock {
            move_ms: args.move_ms,
            bank_ms: args.bank_ms,
            on_timeout: args.on_timeout.wire() as i32,
        }),
        bot_delay_ms: args.bot_delay_ms,
    }
    .request();
    runtime()?.block_on(async {
        let mut client = connect(&args.server).await?;
        match client.create_table(request).await {
            Ok(r) => {
                let r = r.into_inner();
                let t = r.table.context("no table in the answer")?;
                say!("{}", t.table_id);
                // Standard output stays the id alone, for scripts.
                eprintln!("calabresella: {}", deals_line(&t));
                if !r.creator_key.is_empty() {
                    eprintln!(
                        "calabresella: creator key {} (its seats are yours: sit --creator-key)",
                        r.creator_key
                    );
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                Ok(ExitCode::from(1))
            }
        }
    })
}

fn cards(cs: &[v1::Card]) -> String {
    cs.iter()
        .map(|c| c.notation.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// One table's seats as `seat=name` (or `(open)`).
fn seat_names(t: &v1::Table) -> String {
    let names: Vec<String> = t
        .seats
        .iter()
        .map(|s| {
            let name = if s.player_name.is_empty() {
                "(open)"
            } else {
                &s.player_name
            };
            format!("{}={name}", s.seat)
        })
        .collect();
    names.join(" ")
}

/// How a table's deals are made, for people: its commitment, or that it is seeded.
pub fn deals_line(t: &v1::Table) -> String {
    if t.seeded {
        "deals seeded by the creator: reproducible, not committed".to_owned()
    } else if t.commitment.is_empty() {
        "deals: no scheme shown".to_owned()
    } else {
        format!("deals {}, commitment {}", t.deal_scheme, t.commitment)
    }
}

/// A table's deals in a listing: `seeded`, or `commit=` and the commitment's first 16 digits.
fn deals_short(t: &v1::Table) -> String {
    if t.seeded {
        "seeded".to_owned()
    } else {
        format!("commit={}", t.commitment.get(..16).unwrap_or(&t.commitment))
    }
}

/// A table state's short name (`playing`, ...).
fn state_name(state: i32) -> String {
    v1::TableState::try_from(state).map_or("?".to_owned(), |s| {
        s.as_str_name()
            .trim_start_matches("TABLE_STATE_")
            .to_ascii_lowercase()
    })
}

/// Runs `tables`: every table on the server, newest first, one line each.
pub fn tables(args: TablesArgs) -> Result<ExitCode> {
    let state = args.state.unwrap_or(v1::TableState::Unspecified);
    runtime()?.block_on(async {
        let mut client = connect(&args.server).await?;
        match calabresella_client::requests::list_all_tables(&mut client, state).await {
            Ok(tables) => {
                for t in &tables {
                    let game = t
                        .options
                        .as_ref()
                        .and_then(|o| convert::game_name(o.game))
                        .unwrap_or("?");
                    say!(
                        "{}  {:<16} {:<9} {:>3} hands  totals {:?}  {}  {}  {}",
                        t.table_id,
                        game,
                        state_name(t.state),
                        t.hands_completed,
                        convert::totals_of(&t.signed_totals, &t.totals),
                        seat_names(t),
                        deals_short(t),
                        t.name
                    );
                }
                if tables.is_empty() {
                    eprintln!("calabresella: no tables");
                }
                Ok(ExitCode::SUCCESS)
            }
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                Ok(ExitCode::from(1))
            }
        }
    })
}

/// One line (or a few) for an update, as a spectator or a seat sees it.
fn describe(u: &v1::Update) -> Option<String> {
    use v1::update::Kind;
    Some(match u.kind.as_ref()? {
        Kind::Snapshot(s) => {
            let t = s.table.as_ref()?;
            let state = v1::TableState::try_from(t.state).map_or("?", |s| s.as_str_name());
            let mut line = format!("table {} [{}] seats {}", t.table_id, state, seat_names(t));
            if let Some(o) = &s.observation {
                line += &format!(
                    "\nhand {} (dealer {}), totals {:?}",
                    o.hand_number,
                    o.dealer,
                    convert::totals_of(&o.signed_totals, &o.totals)
                );
                if !o.hand.is_empty() {
                    line += &format!("\nyour cards: {}", cards(&o.hand));
                }
            }
            line
        }
        Kind::HandStarted(h) => format!("--- hand {} (dealer {}) ---", h.hand_number, h.dealer),
        Kind::Event(e) => e.text.clone(),
        Kind::Turn(t) if t.legal_actions.is_empty() => return None,
        Kind::Turn(t) => format!("your turn (decision {}, {} ms)", t.decision, t.remaining_ms),
        Kind::TimedOut(t) => format!("seat {} ran out of time", t.seat),
        Kind::HandRevealed(r) => {
            let mut s = format!("deal of hand {}:", r.hand_number);
            for h in &r.hands {
                s += &format!("\n  seat {}: {}", h.seat, cards(&h.cards));
            }
            if !r.monte.is_empty() {
                s += &format!("\n  monte: {}", cards(&r.monte));
            }
            if !r.stock.is_empty() {
                s += &format!("\n  stock: {}", cards(&r.stock));
            }
            s
        }
        Kind::SeatChanged(c) => {
            let s = c.seat.as_ref()?;
            format!("seat {} taken by {}", s.seat, s.player_name)
        }
        Kind::MatchEnded(m) => {
            let reason = v1::EndReason::try_from(m.reason).map_or("?", |r| r.as_str_name());
            match &m.result {
                Some(r) if r.draw => format!(
                    "match over ({reason}): draw, totals {:?}",
                    convert::totals_of(&r.signed_totals, &r.totals)
                ),
                Some(r) => format!(
                    "match over ({reason}): winners {:?}, totals {:?}",
                    r.winners,
                    convert::totals_of(&r.signed_totals, &r.totals)
                ),
                None => format!("match over ({reason})"),
            }
        }
    })
}

/// Runs `watch`.
pub fn watch(args: WatchArgs) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let mut client = connect(&args.server).await?;
        let mut stream = match client
            .spectate(v1::SpectateRequest {
                table_id: args.table.clone(),
                ..Default::default()
            })
            .await
        {
            Ok(s) => s.into_inner(),
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                return Ok(ExitCode::from(1));
            }
        };
        while let Some(item) = stream.next().await {
            match item {
                Ok(r) => {
                    if let Some(line) = r.update.as_ref().and_then(describe) {
                        say!("{line}");
                    }
                }
                Err(s) => {
                    eprintln!("calabresella: stream ended: {}", status_line(&s));
                    return Ok(ExitCode::from(1));
                }
            }
        }
        Ok(ExitCode::SUCCESS)
    })
}

/// Reads a choice for `turn` from standard input: a list number, an action string or an id.
fn ask(turn: &v1::Turn) -> v1::Action {
    say!("legal actions:");
    for (i, a) in turn.legal_actions.iter().enumerate() {
        say!("  {i:>2}. {}", a.notation);
    }
    let stdin = std::io::stdin();
    loop {
        let _ = write!(std::io::stdout(), "your action (number or text)> ");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
            // End of input: play the first legal action rather than stall the table.
            return turn.legal_actions[0].clone();
        }
        let line = line.trim();
        if let Ok(i) = line.parse::<usize>()
            && let Some(a) = turn.legal_actions.get(i)
        {
            return a.clone();
        }
        if !line.is_empty() {
            return v1::Action {
                notation: line.to_owned(),
                ..Default::default()
            };
        }
    }
}

/// Runs `sit`.
pub fn sit(args: SitArgs) -> Result<ExitCode> {
    let mut rng = GameRng::from_seed(fresh_seed());
    let auto = args.auto;
    runtime()?.block_on(async {
        let client = connect(&args.server).await?;
        let request = v1::JoinTableRequest {
            table_id: args.table.clone(),
            seat: args.seat,
            player_name: args
                .name
                .clone()
                .unwrap_or_else(|| if args.key.is_some() { "" } else { "player" }.to_owned()),
            entropy: calabresella_client::entropy::contribution()?,
            creator_key: args.creator_key.clone().unwrap_or_default(),
        };
        let mut seat = match RemoteSeat::join_request(client, request, args.key.as_deref()).await {
            Ok(s) => s,
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                return Ok(ExitCode::from(1));
            }
        };
        say!("you are seat {} at table {}", seat.seat, args.table);
        if let Ok(t) = seat
            .client
            .get_table(v1::GetTableRequest {
                table_id: args.table.clone(),
            })
            .await
            && let Some(t) = t.into_inner().table
        {
            say!("{} (you contributed 32 random bytes)", deals_line(&t));
        }
        let choose = |t: &v1::Turn, rejected: Option<&tonic::Status>| match auto {
            Some(AutoPlay::First) => t.legal_actions[0].clone(),
            Some(AutoPlay::Random) => {
                t.legal_actions[rng.below(t.legal_actions.len() as u32) as usize].clone()
            }
            None => {
                if let Some(s) = rejected {
                    say!("refused: {}", status_line(s));
                }
                ask(t)
            }
        };
        let on_update = |u: &v1::Update| {
            if let Some(line) = describe(u) {
                say!("{line}");
            }
            if let Some(t) = u.next_turn.as_ref().filter(|t| !t.legal_actions.is_empty()) {
                say!("your turn (decision {}, {} ms)", t.decision, t.remaining_ms);
            }
        };
        // A person is asked again after a refusal until the clock decides; automatic play
        // gives up after a few refusals and plays the first legal action.
        let policy = RetryPolicy {
            max_refusals: auto.map(|_| MAX_REFUSALS),
            ..RetryPolicy::default()
        };
        let mut strategy = FnStrategy { choose, on_update };
        let end = calabresella_client::play::play(&mut seat, &mut strategy, policy).await;
        match end {
            Ok(_) => Ok(ExitCode::SUCCESS),
            Err(e) => {
                eprintln!("calabresella: {e}");
                Ok(ExitCode::from(1))
            }
        }
    })
}

/// Runs `record`: prints the table's game record (completed hands).
pub fn record(args: RecordArgs) -> Result<ExitCode> {
    runtime()?.block_on(async {
        let mut client = connect(&args.server).await?;
        match client
            .get_record(v1::GetRecordRequest {
                table_id: args.table.clone(),
            })
            .await
        {
            Ok(r) => {
                say!("{}", r.into_inner().record_json);
                Ok(ExitCode::SUCCESS)
            }
            Err(s) => {
                eprintln!("calabresella: {}", status_line(&s));
                Ok(ExitCode::from(1))
            }
        }
    })
}
