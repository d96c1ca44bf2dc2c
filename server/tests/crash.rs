//! Crash recovery of the real server process: many matches (bot tables, and tables with a
//! seat played over the network) run while the server is killed with SIGKILL at random
//! moments and started again on the same database. Every match must finish, and its record
//! must be identical to the record of the same table played on a server that never stopped.
//! Runs on SQLite and (when configured) PostgreSQL.

mod common;

use std::process::Stdio;
use std::time::Duration;

use calabresella_client::RemoteSeat;
use calabresella_engine::record::{self, Record};
use calabresella_engine::rng::GameRng;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use calabresella_server::store::{Location, StoreOptions};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};
use tonic::transport::Channel;

const BIN: &str = env!("CARGO_BIN_EXE_calabresella");

fn store_args(store: &StoreOptions) -> Vec<String> {
    match &store.location {
        Location::Sqlite(p) => vec!["--db".into(), p.display().to_string()],
        Location::Postgres(url) => vec!["--database-url".into(), url.clone()],
        Location::Memory => vec!["--db".into(), ":memory:".into()],
    }
}

/// Starts `calabresella serve` on `port`; returns once it listens.
async fn start(port: u16, store: &StoreOptions) -> Child {
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--log",
            "warn",
        ])
        .args(store_args(store))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("start the server");
    let out = child.stdout.take().expect("stdout");
    let mut lines = BufReader::new(out).lines();
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("the server starts in time")
        .expect("read")
        .expect("the server printed its address");
    assert!(line.contains("listening on"), "{line}");
    child
}

async fn client(port: u16) -> TableServiceClient<Channel> {
    let channel = Channel::from_shared(format!("http://127.0.0.1:{port}"))
        .expect("uri")
        .connect_timeout(Duration::from_secs(2))
        .connect_lazy();
    TableServiceClient::new(channel)
}

/// The tables of one run: (game options, seat kinds, seed).
fn plan() -> Vec<(v1::GameOptions, Vec<v1::SeatKind>, u64)> {
    use v1::SeatKind::{BotHeuristic as H, BotRandom as R, Open as O};
    let mut out = Vec::new();
    for i in 0..12u64 {
        let (game, seats) = match i % 4 {
            0 => (v1::Game::Calabresella, vec![H, R, H]),
            1 => (v1::Game::Calabresella, vec![O, H, R]),
            2 => (v1::Game::Tressette, vec![H, R, H, R]),
            _ => (v1::Game::TressetteInDue, vec![R, O]),
        };
        out.push((common::options(game, 21), seats, 1000 + i));
    }
    out
}

/// Creates the planned tables and starts a network player (first legal action, retrying
/// through restarts) on every open seat. Returns the table ids and the players' tasks.
async fn run_plan(
    port: u16,
    bot_delay_ms: u32,
) -> (Vec<String>, Vec<tokio::task::JoinHandle<v1::MatchEnded>>) {
    let mut c = client(port).await;
    let mut ids = Vec::new();
    let mut players = Vec::new();
    for (options, seats, seed) in plan() {
        let open: Vec<u32> = seats
            .iter()
            .enumerate()
            .filter(|(_, k)| **k == v1::SeatKind::Open)
            .map(|(i, _)| i as u32)
            .collect();
        let table = c
            .create_table(v1::CreateTableRequest {
                name: format!("crash {seed}"),
                options: Some(options),
                seats: seats.iter().map(|k| *k as i32).collect(),
                seed: Some(seed),
                bot_delay_ms,
                clock: Some(v1::Clock {
                    move_ms: 600_000,
                    bank_ms: 0,
                    on_timeout: v1::TimeoutPolicy::Bot as i32,
                }),
                ..Default::default()
            })
            .await
            .expect("create")
            .into_inner()
            .table
            .expect("table");
        for s in open {
            let mut seat =
                RemoteSeat::join(c.clone(), &table.table_id, Some(s), &format!("net{s}"))
                    .await
                    .expect("join");
            seat.reconnect_for = Duration::from_secs(60);
            players.push(tokio::spawn(async move {
                seat.play(|t, _| t.legal_actions[0].clone(), |_| {})
                    .await
                    .expect("the network player finishes its match")
            }));
        }
        ids.push(table.table_id);
    }
    (ids, players)
}

/// Waits until every table's match is over; returns their records.
async fn records(port: u16, ids: &[String]) -> Vec<String> {
    let mut c = client(port).await;
    let mut out = Vec::new();
    for id in ids {
        let mut waited = 0;
        loop {
            let r = c
                .get_record(v1::GetRecordRequest {
                    table_id: id.clone(),
                })
                .await;
            if let Ok(r) = r {
                let r = r.into_inner();
                if r.match_over {
                    out.push(r.record_json);
                    break;
                }
            }
            waited += 1;
            assert!(waited < 1200, "table {id} never finished");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    out
}

/// What must match between two runs of a table: every hand's deal and actions, and the
/// match result (times and table ids differ).
fn essence(json: &str) -> serde_json::Value {
    let r = Record::parse(json).expect("record parses");
    let replay = record::replay_json(&r).expect("record replays through the engine");
    let hands: Vec<serde_json::Value> = r
        .hands
        .iter()
        .map(|h| {
            serde_json::json!({
                "actions": h.actions.iter().map(|a| a.text().to_owned()).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({"hands": hands, "replay": replay})
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn killing_the_server_at_random_moments_loses_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, store) in common::backends(dir.path(), "crash") {
        // The reference: the same tables on a server that is never stopped.
        let port = free_port();
        let reference_store = StoreOptions {
            location: Location::Memory,
            ..StoreOptions::default()
        };
        let mut server = start(port, &reference_store).await;
        let (ids, players) = run_plan(port, 0).await;
        for p in players {
            p.await.expect("player");
        }
        let reference = records(port, &ids).await;
        server.kill().await.expect("stop");

        // The same tables, killed again and again.
        let port = free_port();
        let mut server = start(port, &store).await;
        // Bots pause 30 ms a decision, so that the matches are still in play when the kills come.
        let (ids, players) = run_plan(port, 30).await;
        let mut rng = GameRng::from_seed(2026);
        let mut kills = 0;
        let mut in_play_at_kills = Vec::new();
        for _ in 0..10 {
            tokio::time::sleep(Duration::from_millis(100 + u64::from(rng.below(500)))).await;
            let playing = client(port)
                .await
                .list_tables(v1::ListTablesRequest {
                    state: v1::TableState::Playing as i32,
                    ..Default::default()
                })
                .await
                .map(|r| r.into_inner().tables.len())
                .unwrap_or(0);
            in_play_at_kills.push(playing);
            server.kill().await.expect("SIGKILL");
            kills += 1;
            server = start(port, &store).await;
        }
        for p in players {
            p.await.expect("player");
        }
        let crashed = records(port, &ids).await;
        let _ = server.kill().await;

        assert_eq!(crashed.len(), reference.len());
        for (i, (a, b)) in crashed.iter().zip(&reference).enumerate() {
            assert_eq!(
                essence(a),
                essence(b),
                "{kind}: table {} after {kills} kills differs from the uninterrupted run",
                ids[i]
            );
        }
        // The kills must have hit matches in play, or the test proves nothing.
        assert!(
            in_play_at_kills.iter().filter(|&&n| n > 0).count() >= kills / 2,
            "{kind}: tables in play at each kill: {in_play_at_kills:?}"
        );
        eprintln!(
            "{kind}: {} matches identical after {kills} kills (tables in play at each kill: \
             {in_play_at_kills:?})",
            ids.len()
        );
    }
}

/// Holds the PostgreSQL instance lock of the default instance (`main`) in a session of its
/// own, as a killed server's session does until the database notices; the session ends when
/// `release` fires (or is dropped).
fn hold_instance_lock(
    url: &str,
    release: std::sync::mpsc::Receiver<()>,
) -> std::thread::JoinHandle<()> {
    let url = url.to_owned();
    let (held, is_held) = std::sync::mpsc::channel();
    let holder = std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("PostgreSQL");
        // The server's lock key (store/postgres.rs).
        c.query_one("SELECT pg_advisory_lock(7163, hashtext('main'))", &[])
            .expect("lock");
        held.send(()).expect("held");
        let _ = release.recv();
    });
    is_held.recv().expect("the lock is held");
    holder
}

/// A server started at once after a crash may find its PostgreSQL instance lock still held by
/// the dead server's session: it waits for the lock to go instead of failing. A lock that stays
/// held, as a running server's does, still stops it, with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_waits_for_the_lock_of_a_stopped_server_but_not_for_a_running_one() {
    let dir = tempfile::tempdir().expect("dir");
    let Some((_, store)) = common::backends(dir.path(), "lock_grace")
        .into_iter()
        .find(|(kind, _)| kind == "postgres")
    else {
        return;
    };
    let Location::Postgres(url) = &store.location else {
        panic!("a PostgreSQL store");
    };

    // Released a second after the server starts: it comes up once the lock is free.
    let (release, released) = std::sync::mpsc::channel();
    let holder = hold_instance_lock(url, released);
    let began = std::time::Instant::now();
    let releaser = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(1)).await;
        release.send(()).expect("release");
    });
    let mut server = start(free_port(), &store).await;
    assert!(
        began.elapsed() >= Duration::from_secs(1),
        "the server came up while the lock was held"
    );
    server.kill().await.expect("stop");
    releaser.await.expect("releaser");
    holder.join().expect("holder");

    // Held throughout: the server stops after its grace, saying the database is locked.
    let (release, released) = std::sync::mpsc::channel::<()>();
    let holder = hold_instance_lock(url, released);
    let out = Command::new(BIN)
        .args(["serve", "--listen", &format!("127.0.0.1:{}", free_port())])
        .args(store_args(&store))
        .kill_on_drop(true)
        .output()
        .await
        .expect("run the server");
    drop(release);
    holder.join().expect("holder");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a second server ran beside the lock");
    assert!(err.contains("the database is locked"), "{err}");
}
