//! The Rust client's conformance runner: every scenario of `tests/conformance/scenarios.json`
//! through `calabresella-client` (`RemoteSeat`, its play loop, `Spectator`), as a program using
//! the client would. The contract (arguments, output, kinds) is `tests/conformance/README.md`.

use std::collections::HashSet;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use calabresella_client::{RECONNECT_FOR, RemoteSeat, Spectator, requests};
use calabresella_engine::game::Rules;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use seat_stream::next_update;
use serde_json::Value;
use tonic::transport::Channel;
use tonic::{Code, Status};
use tonic_types::StatusExt;

const CLIENT: &str = "rust";
const PLAYER: &str = "conformance-rust";
/// The longest a scenario may run.
const SCENARIO_LIMIT: Duration = Duration::from_secs(120);

/// Why a scenario failed.
type Check<T> = Result<T, String>;

/// The command line.
struct Args {
    scenarios: String,
    server: String,
    bench: bool,
    only: Vec<String>,
    ca_cert: Option<String>,
}

fn parse_args() -> Check<Args> {
    let mut args = Args {
        scenarios: String::new(),
        server: String::new(),
        bench: false,
        only: Vec::new(),
        ca_cert: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--scenarios" => args.scenarios = it.next().ok_or("--scenarios needs a path")?,
            "--server" => args.server = it.next().ok_or("--server needs HOST:PORT")?,
            "--only" => args.only.push(it.next().ok_or("--only needs a name")?),
            "--bench" => args.bench = true,
            "--ca-cert" => args.ca_cert = Some(it.next().ok_or("--ca-cert needs a path")?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if args.scenarios.is_empty() || args.server.is_empty() {
        return Err(
            "usage: --scenarios PATH --server HOST:PORT [--bench] [--only NAME] [--ca-cert PATH]"
                .into(),
        );
    }
    Ok(args)
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{CLIENT} runner: {e}");
            return ExitCode::from(2);
        }
    };
    let scenarios: Vec<Value> = match std::fs::read_to_string(&args.scenarios)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str::<Value>(&t).map_err(|e| e.to_string()))
    {
        Ok(v) => v["scenarios"].as_array().cloned().unwrap_or_default(),
        Err(e) => {
            eprintln!("{CLIENT} runner: {}: {e}", args.scenarios);
            return ExitCode::from(2);
        }
    };
    // A lazy channel reconnects by itself, as a server restart needs.
    let channel = match calabresella_client::endpoint(
        &args.server,
        &calabresella_client::TlsFiles::ca(args.ca_cert.as_deref().map(std::path::Path::new)),
        std::time::Duration::from_secs(10),
    ) {
        Ok(e) => e.connect_lazy(),
        Err(e) => {
            eprintln!("{CLIENT} runner: address {}: {e}", args.server);
            return ExitCode::from(2);
        }
    };
    let client = TableServiceClient::new(channel);
    let (mut passed, mut failed) = (0, 0);
    for s in &scenarios {
        let name = s["name"].as_str().unwrap_or("?");
        let kind = s["kind"].as_str().unwrap_or("");
        if !args.only.is_empty() && !args.only.iter().any(|o| o == name) {
            continue;
        }
        if (kind == "bench") != args.bench {
            continue;
        }
        let r = tokio::time::timeout(SCENARIO_LIMIT, run(client.clone(), s)).await;
        match r {
            Ok(Ok(())) => {
                if kind != "bench" {
                    println!("PASS {name}");
                }
                passed += 1;
            }
            Ok(Err(why)) => {
                println!("FAIL {name}: {}", why.replace('\n', " "));
                failed += 1;
            }
            Err(_) => {
                println!("FAIL {name}: took longer than {SCENARIO_LIMIT:?}");
                failed += 1;
            }
        }
    }
    println!("{CLIENT}: {passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

async fn run(client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    match s["kind"].as_str().unwrap_or("") {
        "match" => run_match(client, s).await,
        "resume" => run_resume(client, s).await,
        "duplicate_act" => run_duplicate(client, s).await,
        "stale_decision" => run_stale(client, s).await,
        "illegal_action" => run_illegal(client, s).await,
        "bad_token" => run_bad_token(client, s).await,
        "unknown_table" => run_unknown_table(client, s).await,
        "spectate" => run_spectate(client, s).await,
        "fair_deal" => run_fair(client, s).await,
        "restart" => run_restart(client, s).await,
        "bench" => run_bench(client, s).await,
        other => Err(format!("unknown kind {other:?}")),
    }
}

fn text<'a>(s: &'a Value, key: &str) -> Check<&'a str> {
    s[key]
        .as_str()
        .ok_or_else(|| format!("the scenario has no {key}"))
}

fn number(s: &Value, key: &str) -> Check<u64> {
    s[key]
        .as_u64()
        .ok_or_else(|| format!("the scenario has no {key}"))
}

/// A status as a line: code, reason, message.
fn status_text(s: &Status) -> String {
    format!("{} {}: {}", code_name(s.code()), reason(s), s.message())
}

fn reason(s: &Status) -> String {
    s.get_details_error_info()
        .map(|i| i.reason)
        .unwrap_or_default()
}

/// The canonical name of a gRPC code.
fn code_name(c: Code) -> &'static str {
    match c {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

fn ensure(ok: bool, why: impl FnOnce() -> String) -> Check<()> {
    if ok { Ok(()) } else { Err(why()) }
}

/// Creates the scenario's table (with `seed` in place of the scenario's, for the bench).
async fn create(
    client: &mut TableServiceClient<Channel>,
    s: &Value,
    seed: Option<u64>,
) -> Check<String> {
    Ok(create_table(client, s, seed).await?.table_id)
}

/// [`create`], giving the created table. A scenario without a seed makes a committed table.
async fn create_table(
    client: &mut TableServiceClient<Channel>,
    s: &Value,
    seed: Option<u64>,
) -> Check<v1::Table> {
    let options: Vec<(String, String)> = s["options"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned()))
                .collect()
        })
        .unwrap_or_default();
    let rules = Rules::parse(
        text(s, "game")?,
        options.iter().map(|(k, v)| (k.as_str(), v.as_str())),
    )
    .map_err(|e| format!("bad options: {e}"))?;
    let seats = s["seats"]
        .as_array()
        .ok_or("the scenario has no seats")?
        .iter()
        .map(|k| requests::seat(k.as_str().unwrap_or_default()).map_err(|e| e.to_string()))
        .collect::<Check<Vec<_>>>()?;
    let request = requests::NewTable {
        rules,
        seats,
        name: text(s, "name")?.to_owned(),
        seed: seed.or_else(|| s["seed"].as_u64()),
        clock: None,
        bot_delay_ms: s["bot_delay_ms"].as_u64().unwrap_or(0) as u32,
    }
    .request();
    let table = client
        .create_table(request)
        .await
        .map_err(|e| format!("CreateTable: {}", status_text(&e)))?
        .into_inner()
        .table
        .unwrap_or_default();
    Ok(table)
}

/// A table's public state.
async fn table(client: &mut TableServiceClient<Channel>, table_id: &str) -> Check<v1::Table> {
    client
        .get_table(v1::GetTableRequest {
            table_id: table_id.to_owned(),
        })
        .await
        .map_err(|e| format!("GetTable: {}", status_text(&e)))?
        .into_inner()
        .table
        .ok_or_else(|| "GetTable: no table".into())
}

async fn join(
    client: &TableServiceClient<Channel>,
    table_id: &str,
    s: &Value,
) -> Check<RemoteSeat> {
    let seat = number(s, "seat")? as u32;
    RemoteSeat::join(client.clone(), table_id, Some(seat), PLAYER)
        .await
        .map_err(|e| format!("JoinTable: {}", status_text(&e)))
}

/// The match as the client saw it end agrees with the engine's replay of the table's record.
async fn summary_check(
    client: &mut TableServiceClient<Channel>,
    table_id: &str,
    ended: &v1::MatchEnded,
) -> Check<()> {
    ensure(ended.reason == v1::EndReason::Completed as i32, || {
        format!("the match ended with reason {}", ended.reason)
    })?;
    let result = ended.result.clone().unwrap_or_default();
    let record = client
        .get_record(v1::GetRecordRequest {
            table_id: table_id.to_owned(),
        })
        .await
        .map_err(|e| format!("GetRecord: {}", status_text(&e)))?
        .into_inner();
    ensure(record.match_over, || {
        "the record's match is not over".into()
    })?;
    let out = cli("replay", &record.record_json).await?;
    ensure(out.status.success(), || {
        format!(
            "the record does not replay: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })?;
    let engine: Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("replay output: {e}"))?;
    let m = &engine["match"];
    ensure(m["over"] == true, || {
        "the replayed match is not over".into()
    })?;
    let mut winners: Vec<u64> = result.winners.iter().map(|&w| u64::from(w)).collect();
    let mut seats: Vec<u64> = m["winning_seats"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    winners.sort_unstable();
    seats.sort_unstable();
    ensure(winners == seats, || {
        format!("winners {winners:?} but the replay says {seats:?}")
    })?;
    ensure(m["draw"] == result.draw, || {
        "draw differs from the replay".into()
    })?;
    let totals: Vec<i64> = m["totals"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default();
    let signed: Vec<i64> = result.signed_totals.iter().map(|&t| i64::from(t)).collect();
    ensure(signed == totals, || {
        format!("totals {signed:?} but the replay says {totals:?}")
    })?;
    let hands = engine["hands"].as_array().map_or(0, Vec::len);
    ensure(result.hands as usize == hands, || {
        format!("{} hands but the record has {hands}", result.hands)
    })
}

/// Runs `$CALABRESELLA_BIN <command> -` with `input` on its standard input.
async fn cli(command: &str, input: &str) -> Check<std::process::Output> {
    let bin = std::env::var("CALABRESELLA_BIN").map_err(|_| "CALABRESELLA_BIN is not set")?;
    let mut child = tokio::process::Command::new(bin)
        .args([command, "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("{command}: {e}"))?;
    {
        use tokio::io::AsyncWriteExt;
        let mut stdin = child.stdin.take().ok_or("no stdin")?;
        stdin
            .write_all(input.as_bytes())
            .await
            .map_err(|e| format!("{command}: {e}"))?;
    }
    child
        .wait_with_output()
        .await
        .map_err(|e| format!("{command}: {e}"))
}

/// Passes when `r` failed with the scenario's expected code and reason.
fn expect_error<T>(s: &Value, r: Result<T, Status>) -> Check<()> {
    let (code, why) = (text(&s["expect"], "code")?, text(&s["expect"], "reason")?);
    match r {
        Ok(_) => Err(format!("the call succeeded; expected {code} {why}")),
        Err(e) => ensure(code_name(e.code()) == code && reason(&e) == why, || {
            format!("got {}, expected {code} {why}", status_text(&e))
        }),
    }
}

/// The turn an update makes due for `seat`, if any.
fn my_turn(u: &v1::Update, seat: u32) -> Option<&v1::Turn> {
    let from_kind = match &u.kind {
        Some(v1::update::Kind::Turn(t)) => Some(t),
        Some(v1::update::Kind::Snapshot(s)) => s.turn.as_ref(),
        _ => None,
    };
    [from_kind, u.next_turn.as_deref()]
        .into_iter()
        .flatten()
        .find(|t| t.decider == seat && !t.legal_actions.is_empty())
}

/// The first legal action of a turn.
fn first(t: &v1::Turn) -> v1::Action {
    t.legal_actions.first().cloned().unwrap_or_default()
}

fn action(notation: &str) -> v1::Action {
    v1::Action {
        notation: notation.to_owned(),
        ..v1::Action::default()
    }
}

/// Answers turns with the first legal action until one satisfies `want`; returns it.
async fn first_turn(seat: &mut RemoteSeat, want: impl Fn(&v1::Turn) -> bool) -> Check<v1::Turn> {
    let mut stream = seat
        .observe()
        .await
        .map_err(|e| format!("Observe: {}", status_text(&e)))?;
    while let Some(u) = next_update(&mut stream).await? {
        seat.accept(&u).map_err(|e| e.to_string())?;
        if let Some(t) = my_turn(&u, seat.seat) {
            if want(t) {
                return Ok(t.clone());
            }
            seat.act(t.decision, first(t))
                .await
                .map_err(|e| format!("Act: {}", status_text(&e)))?;
        }
    }
    Err("the match ended before a suitable turn".into())
}

async fn run_match(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut seat = join(&client, &table_id, s).await?;
    let mut asked = 0;
    let ended = seat
        .play(
            |turn, _refused| {
                asked += 1;
                first(turn)
            },
            |_| {},
        )
        .await
        .map_err(|e| format!("play: {e}"))?;
    ensure(asked > 0, || "the bot was never asked".into())?;
    summary_check(&mut client, &table_id, &ended).await
}

/// A committed table: its commitment before any deal, the seat's own 32 bytes in the deals,
/// and a record that `calabresella verify` accepts.
async fn run_fair(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let created = create_table(&mut client, s, None).await?;
    let table_id = created.table_id.clone();
    let before = table(&mut client, &table_id).await?;
    for t in [&created, &before] {
        ensure(t.deal_scheme == "calabresella-deal/1", || {
            format!("deal scheme {:?}", t.deal_scheme)
        })?;
        ensure(!t.seeded, || {
            "a table created without a seed is seeded".into()
        })?;
        ensure(
            t.commitment.len() == 64
                && t.commitment
                    .bytes()
                    .all(|b| b"0123456789abcdef".contains(&b)),
            || {
                format!(
                    "commitment {:?} is not 64 lower-case hex digits",
                    t.commitment
                )
            },
        )?;
    }
    ensure(created.commitment == before.commitment, || {
        "the commitment changed".into()
    })?;
    let mut seat = join(&client, &table_id, s).await?;
    let ended = seat
        .play(|turn, _refused| first(turn), |_| {})
        .await
        .map_err(|e| format!("play: {e}"))?;
    summary_check(&mut client, &table_id, &ended).await?;
    let after = table(&mut client, &table_id).await?;
    let mine = number(s, "seat")? as usize;
    for (i, info) in after.seats.iter().enumerate() {
        let want = if i == mine { 32 } else { 0 };
        ensure(
            info.entropy.len() == want && info.contributed == (want > 0),
            || format!("seat {i} contributed {} bytes", info.entropy.len()),
        )?;
    }
    let record = client
        .get_record(v1::GetRecordRequest {
            table_id: table_id.clone(),
        })
        .await
        .map_err(|e| format!("GetRecord: {}", status_text(&e)))?
        .into_inner()
        .record_json;
    let parsed: Value = serde_json::from_str(&record).map_err(|e| format!("record: {e}"))?;
    let deals = &parsed["meta"]["deals"];
    ensure(deals["commitment"] == created.commitment.as_str(), || {
        "the record has another commitment".into()
    })?;
    ensure(
        deals["secret"].as_str().is_some_and(|h| h.len() == 64),
        || "the record reveals no secret".into(),
    )?;
    let hex: String = after.seats[mine]
        .entropy
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    ensure(deals["contributions"][mine] == hex.as_str(), || {
        "the record's contribution differs from the seat's entropy".into()
    })?;
    let out = cli("verify", &record).await?;
    ensure(out.status.success(), || {
        format!("verify: {}", String::from_utf8_lossy(&out.stdout).trim())
    })
}

async fn run_resume(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut seat = join(&client, &table_id, s).await?;
    let drop_after = number(s, "drop_after_updates")?;
    let mut answered = HashSet::new();
    let mut seqs: Vec<u64> = Vec::new();
    let mut ended = None;
    let mut first_after_drop = None;
    for part in 0..2 {
        let mut stream = seat
            .observe()
            .await
            .map_err(|e| format!("Observe: {}", status_text(&e)))?;
        let mut n = 0;
        while let Some(u) = next_update(&mut stream).await? {
            let snapshot = matches!(u.kind, Some(v1::update::Kind::Snapshot(_)));
            if part == 1 && n == 0 {
                first_after_drop = Some((u.seq, snapshot));
            }
            if let Some(&last) = seqs.last() {
                ensure(snapshot || u.seq == last + 1, || {
                    format!("update {} after {last}", u.seq)
                })?;
            }
            seqs.push(u.seq);
            seat.accept(&u).map_err(|e| e.to_string())?;
            n += 1;
            if let Some(v1::update::Kind::MatchEnded(m)) = &u.kind {
                ended = Some(m.clone());
                break;
            }
            if let Some(t) = my_turn(&u, seat.seat)
                && answered.insert(t.decision)
            {
                seat.act(t.decision, first(t))
                    .await
                    .map_err(|e| format!("Act: {}", status_text(&e)))?;
            }
            if part == 0 && n >= drop_after {
                break;
            }
        }
        // Leaving the loop drops the stream: the client cancels it.
        drop(stream);
        if part == 0 {
            ensure(ended.is_none(), || "the match ended before the drop".into())?;
        }
    }
    let last_before = seqs
        .get(drop_after as usize - 1)
        .copied()
        .unwrap_or_default();
    let (seq, snapshot) = first_after_drop.ok_or("the resumed stream carried nothing")?;
    ensure(!snapshot, || {
        "the resumed stream opened with a snapshot".into()
    })?;
    ensure(seq == last_before + 1, || {
        format!("the resumed stream opened at {seq} after {last_before}")
    })?;
    let ended = ended.ok_or("the stream ended without MatchEnded")?;
    summary_check(&mut client, &table_id, &ended).await
}

async fn run_duplicate(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut seat = join(&client, &table_id, s).await?;
    let t = first_turn(&mut seat, |_| true).await?;
    let a = seat
        .act_once(t.decision, first(&t))
        .await
        .map_err(|e| status_text(&e))?;
    let b = seat
        .act_once(t.decision, first(&t))
        .await
        .map_err(|e| status_text(&e))?;
    ensure(!a.duplicate, || "the first answer was a duplicate".into())?;
    ensure(b.duplicate, || {
        "the second answer was not marked duplicate".into()
    })?;
    let notation = |r: &v1::ActResponse| r.action.clone().unwrap_or_default().notation;
    ensure(
        notation(&a) == notation(&b) && notation(&a) == first(&t).notation,
        || format!("actions differ: {a:?} {b:?}"),
    )
}

async fn run_stale(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut seat = join(&client, &table_id, s).await?;
    let t = first_turn(&mut seat, |t| t.legal_actions.len() >= 2).await?;
    seat.act(t.decision, first(&t))
        .await
        .map_err(|e| status_text(&e))?;
    let again = seat.act_once(t.decision, t.legal_actions[1].clone()).await;
    expect_error(s, again)
}

async fn run_illegal(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut seat = join(&client, &table_id, s).await?;
    let t = first_turn(&mut seat, |_| true).await?;
    let legal: HashSet<&str> = t
        .legal_actions
        .iter()
        .map(|a| a.notation.as_str())
        .collect();
    let tried = s["try"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|a| !legal.contains(a))
        .ok_or("every action of `try` is legal")?;
    let r = seat.act_once(t.decision, action(tried)).await;
    expect_error(s, r)
}

async fn run_bad_token(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let seat = join(&client, &table_id, s).await?;
    let mut forged = RemoteSeat {
        token: text(s, "token")?.to_owned(),
        last_seq: 0,
        epoch: String::new(),
        ..seat
    };
    let r = forged.act_once(0, action("pass")).await;
    expect_error(s, r)
}

async fn run_unknown_table(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let r = client
        .get_table(v1::GetTableRequest {
            table_id: text(s, "table_id")?.to_owned(),
        })
        .await;
    expect_error(s, r)
}

async fn run_spectate(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut spectator = Spectator::new(client.clone(), &table_id);
    let mut revealed = Vec::new();
    let mut ended = None;
    let mut last = 0;
    while let Some(u) = spectator.next().await.map_err(|e| e.to_string())? {
        let snapshot = matches!(u.kind, Some(v1::update::Kind::Snapshot(_)));
        ensure(last == 0 || snapshot || u.seq == last + 1, || {
            format!("update {} after {last}", u.seq)
        })?;
        last = u.seq;
        let mut turns: Vec<Option<&v1::Turn>> = vec![u.next_turn.as_deref()];
        match &u.kind {
            Some(v1::update::Kind::Snapshot(snap)) => {
                let o = snap.observation.clone().unwrap_or_default();
                ensure(o.hand.is_empty(), || "a snapshot shows a hand".into())?;
                ensure(o.visible_hands.is_empty(), || {
                    "a snapshot shows hands".into()
                })?;
                ensure(o.legal_actions.is_empty(), || {
                    "a snapshot shows legal actions".into()
                })?;
                turns.push(snap.turn.as_ref());
            }
            Some(v1::update::Kind::Turn(t)) => turns.push(Some(t)),
            Some(v1::update::Kind::HandRevealed(h)) => revealed.push(h.hand_number),
            Some(v1::update::Kind::MatchEnded(m)) => ended = Some(m.clone()),
            _ => {}
        }
        for t in turns.into_iter().flatten() {
            ensure(t.legal_actions.is_empty(), || {
                format!("a turn shows legal actions: {t:?}")
            })?;
        }
    }
    let ended = ended.ok_or("no MatchEnded")?;
    let hands = ended.result.as_ref().map_or(0, |r| r.hands);
    revealed.sort_unstable();
    ensure(revealed == (0..hands).collect::<Vec<_>>(), || {
        format!("hands revealed {revealed:?}, expected each of {hands} once")
    })?;
    summary_check(&mut client, &table_id, &ended).await
}

async fn run_restart(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let table_id = create(&mut client, s, None).await?;
    let mut seat = join(&client, &table_id, s).await?;
    let at = number(s, "restart_at_decision")?;
    let restart =
        std::env::var("CONFORMANCE_RESTART").map_err(|_| "CONFORMANCE_RESTART is not set")?;
    let mut asked = 0;
    let mut restarted = Ok(());
    let ended = seat
        .play(
            |turn, _refused| {
                asked += 1;
                if asked == at {
                    // The bot callback is synchronous; let the runtime move other work off
                    // this thread while the server restarts.
                    restarted = tokio::task::block_in_place(|| {
                        std::process::Command::new("sh")
                            .args(["-c", &restart])
                            .status()
                            .map_err(|e| e.to_string())
                            .and_then(|st| ensure(st.success(), || format!("restart: {st}")))
                    });
                }
                first(turn)
            },
            |_| {},
        )
        .await
        .map_err(|e| format!("play: {e}"))?;
    restarted?;
    ensure(asked >= at, || "the server was never restarted".into())?;
    summary_check(&mut client, &table_id, &ended).await
}

async fn run_bench(mut client: TableServiceClient<Channel>, s: &Value) -> Check<()> {
    let matches = number(s, "matches")?;
    let seed = number(s, "seed")?;
    let mut decisions = 0u64;
    let started = Instant::now();
    for i in 0..matches {
        let table_id = create(&mut client, s, Some(seed + i)).await?;
        let mut seat = join(&client, &table_id, s).await?;
        seat.reconnect_for = RECONNECT_FOR;
        seat.play(
            |turn, _| {
                decisions += 1;
                first(turn)
            },
            |_| {},
        )
        .await
        .map_err(|e| format!("play: {e}"))?;
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "BENCH {CLIENT} {} decisions={decisions} seconds={seconds:.3} decisions_per_second={:.0}",
        text(s, "name")?,
        decisions as f64 / seconds
    );
    Ok(())
}

/// Reading a seat's stream one update at a time.
mod seat_stream {
    use calabresella_proto::v1;

    /// The next update of `stream`: `None` when it ended cleanly.
    pub async fn next_update(
        stream: &mut tonic::Streaming<v1::ObserveResponse>,
    ) -> Result<Option<v1::Update>, String> {
        match stream.message().await {
            Ok(Some(r)) => Ok(Some(r.update.unwrap_or_default())),
            Ok(None) => Ok(None),
            Err(e) => Err(format!("Observe stream: {}", super::status_text(&e))),
        }
    }
}
