//! The service on a durable store, in process, on SQLite and (when configured) PostgreSQL:
//! a restart brings tables back with their seats, tokens and state, and tells streams so; a
//! store that refuses writes fails the act call with a clear status and changes nothing;
//! finished matches stay listable and fetchable after their tables leave memory.

mod common;

use std::time::Duration;

use calabresella_client::RemoteSeat;
use calabresella_engine::record::{self, Record};
use calabresella_proto::v1;
use calabresella_server::ServerConfig;
use calabresella_server::store::{Location, StoreOptions};
use common::{TestServer, create, fetch_record, join_all, options, reason};
use tokio_stream::StreamExt;
use tonic::Code;

fn clock() -> Option<v1::Clock> {
    Some(v1::Clock {
        move_ms: 120_000,
        bank_ms: 0,
        on_timeout: v1::TimeoutPolicy::Bot as i32,
    })
}

async fn observation(seat: &RemoteSeat) -> v1::GetObservationResponse {
    seat.client
        .clone()
        .get_observation(v1::GetObservationRequest {
            table_id: seat.table_id.clone(),
            seat_token: seat.token.clone(),
        })
        .await
        .expect("get observation")
        .into_inner()
}

/// Waits until the seat has a decision to answer; returns its number and first legal action.
async fn my_turn(seat: &RemoteSeat) -> Option<(u64, v1::Action)> {
    for _ in 0..2000 {
        let o = observation(seat).await;
        if o.state != v1::TableState::Playing as i32 {
            return None;
        }
        let obs = o.observation.unwrap_or_default();
        if obs.decider == Some(seat.seat) && !obs.legal_actions.is_empty() {
            return Some((o.decision, obs.legal_actions[0].clone()));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the seat's turn never came");
}

/// One `Act` call, without the client's retries (the tests look at each answer).
async fn act(
    seat: &mut RemoteSeat,
    decision: u64,
    action: v1::Action,
) -> Result<v1::ActResponse, tonic::Status> {
    seat.act_once(decision, action).await
}

/// Plays the seat's first legal action at each of its turns to the end of the match.
async fn play_first_legal(seat: &mut RemoteSeat) -> v1::MatchEnded {
    seat.play(
        |t, rejected| {
            assert!(rejected.is_none(), "{rejected:?}");
            t.legal_actions[0].clone()
        },
        |_| {},
    )
    .await
    .expect("play")
}

async fn record_of(server: &TestServer, id: &str) -> v1::GetRecordResponse {
    fetch_record(&server.client, id).await
}

fn actions_of(json: &str) -> Vec<String> {
    let r = Record::parse(json).expect("record parses");
    record::replay_json(&r).expect("record replays");
    r.hands
        .iter()
        .flat_map(|h| h.actions.iter().map(|a| a.text().to_owned()))
        .collect()
}

/// A table is stopped mid-match (graceful stop here; `crash.rs` kills the process) and
/// restored: the seat token still works, the seat's observation and the decision due are as
/// before, a resuming stream is told the server restarted, and the match plays to the same
/// end as the same table played without a stop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_keeps_tables_seats_tokens_and_streams() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, store) in common::backends(dir.path(), "restart") {
        let server = TestServer::start_on(store.clone()).await;
        // Every kind of bot: the random and heuristic bots are asked again on restore (their
        // streams), the search bot is not (it seeds each decision from the position).
        let mut client = server.client.clone();
        let table = table_of_every_bot(&mut client).await;
        let mut seat = join_all(&client, &table).await.remove(0);
        let mut stream = seat.observe().await.expect("observe");
        let first = stream.next().await.expect("update").expect("ok");
        seat.accept(first.update.as_ref().expect("update"))
            .expect("order");
        for _ in 0..6 {
            let (d, a) = my_turn(&seat).await.expect("playing");
            act(&mut seat, d, a).await.expect("act");
        }
        // The table answers calls between the bots' moves: wait until the bots have played and
        // the seat's turn is back, so nothing moves between `before` and the stop.
        my_turn(&seat).await.expect("playing");
        let before = observation(&seat).await;
        // Read the stream up to the stop: it must end with UNAVAILABLE, not MatchEnded.
        let mut stopped = server;
        stopped.stop();
        let mut end = None;
        while let Some(item) = stream.next().await {
            match item {
                Ok(u) => {
                    let u = u.update.expect("update");
                    assert!(
                        !matches!(u.kind, Some(v1::update::Kind::MatchEnded(_))),
                        "{kind}: a stop does not end the match"
                    );
                    seat.accept(&u).expect("order");
                }
                Err(s) => {
                    end = Some(s);
                    break;
                }
            }
        }
        assert_eq!(end.map(|s| s.code()), Some(Code::Unavailable), "{kind}");
        stopped.shut_down().await;

        let server = TestServer::start_on(store.clone()).await;
        seat.client = server.client.clone();
        let after = observation(&seat).await;
        assert_eq!(
            after.decision, before.decision,
            "{kind}: the decision due is the same"
        );
        assert_eq!(
            after.observation, before.observation,
            "{kind}: the seat sees the same"
        );
        let mut resumed = seat.observe().await.expect("resume");
        let u = resumed
            .next()
            .await
            .expect("update")
            .expect("ok")
            .update
            .expect("update");
        match &u.kind {
            Some(v1::update::Kind::Snapshot(s)) => {
                assert_eq!(
                    s.reason,
                    v1::SnapshotReason::ServerRestarted as i32,
                    "{kind}"
                )
            }
            other => {
                panic!("{kind}: a resume after a restart starts with a snapshot, got {other:?}")
            }
        }
        assert_ne!(u.stream_epoch, seat.epoch, "{kind}: a new epoch");
        drop(resumed);
        let ended = play_first_legal(&mut seat).await;
        assert_eq!(ended.reason, v1::EndReason::Completed as i32, "{kind}");
        let stopped_record = record_of(&server, &table.table_id).await;
        assert!(stopped_record.match_over);

        // The same table (seed, bots, first-legal player) with no stop.
        let t2 = table_of_every_bot(&mut server.client.clone()).await;
        let mut s2 = join_all(&server.client, &t2).await.remove(0);
        play_first_legal(&mut s2).await;
        let straight = record_of(&server, &t2.table_id).await;
        assert_eq!(
            actions_of(&stopped_record.record_json),
            actions_of(&straight.record_json),
            "{kind}: the stopped match is the uninterrupted match"
        );
        server.shut_down().await;
    }
}

/// A Tressette table: seat 0 open, then a heuristic, a random and a search bot (PIMC with a
/// budget in worlds, so its choices are the same in every run).
async fn table_of_every_bot(
    client: &mut calabresella_proto::v1::table_service_client::TableServiceClient<
        tonic::transport::Channel,
    >,
) -> v1::Table {
    client
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::Tressette, 21)),
            seats: [
                v1::SeatKind::Open,
                v1::SeatKind::BotHeuristic,
                v1::SeatKind::BotRandom,
                v1::SeatKind::BotNamed,
            ]
            .into_iter()
            .map(|k| k as i32)
            .collect(),
            seat_bots: ["", "", "", "pimc:worlds=4"].map(str::to_owned).to_vec(),
            seed: Some(77),
            clock: clock(),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table")
}

/// Seat 0 of a new Calabresella table against two heuristic bots.
async fn seat_against_bots(server: &TestServer, seed: u64) -> RemoteSeat {
    let seats = vec![
        v1::SeatKind::Open,
        v1::SeatKind::BotHeuristic,
        v1::SeatKind::BotHeuristic,
    ];
    let mut client = server.client.clone();
    let table = client
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::Calabresella, 21)),
            seats: seats.into_iter().map(|k| k as i32).collect(),
            seed: Some(seed),
            clock: clock(),
            // Slow enough bots that a test can act between a person's action and theirs.
            bot_delay_ms: 200,
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    join_all(&client, &table).await.remove(0)
}

/// Actions stored for `table` in the store's write-ahead log.
async fn logged_actions(server: &TestServer, table: &str) -> i64 {
    let table = table.to_owned();
    server
        .store
        .read(move |c| {
            c.query(
                "SELECT COUNT(*) FROM actions WHERE table_id = $1",
                &[table.into()],
            )
        })
        .await
        .expect("count")[0][0]
        .int()
}

/// A durable store holds every action before the table applies it (the log a restart
/// resumes from); an in-memory store dies with the process, so the table skips that log and
/// keeps its own (the records of finished matches come from it: every other test's server
/// runs in memory and checks them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_durable_store_keeps_the_write_ahead_log() {
    let dir = tempfile::tempdir().expect("dir");
    let mut stores = common::backends(dir.path(), "log");
    stores.push(("memory".to_owned(), StoreOptions::default()));
    for (kind, store) in stores {
        let durable = store.location.durable();
        let server = TestServer::start_on(store).await;
        let mut seat = seat_against_bots(&server, 9).await;
        let (d, a) = my_turn(&seat).await.expect("turn");
        act(&mut seat, d, a).await.expect("act");
        let logged = logged_actions(&server, &seat.table_id).await;
        if durable {
            assert!(
                logged > d as i64,
                "{kind}: {logged} logged after decision {d}"
            );
        } else {
            assert_eq!(logged, 0, "{kind}: nothing logged in memory");
        }
        // The table took the action all the same.
        let now = observation(&seat).await.decision;
        assert!(now > d, "{kind}: decision {now} after {d}");
        server.shut_down().await;
    }
}

/// A match that ended just before a restart (or whose table left memory) still shows its end
/// to its seat: a resuming stream gets a snapshot saying the server restarted and the same
/// `MatchEnded`, so a player cut off as the match ended learns how; answers and observations
/// are refused as the match being over; a table that never was is still not found.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_that_ended_before_a_restart_still_shows_its_end() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, store) in common::backends(dir.path(), "ended") {
        let server = TestServer::start_on(store.clone()).await;
        let mut client = server.client.clone();
        let table = create(
            &mut client,
            options(v1::Game::TressetteInDue, 11),
            vec![v1::SeatKind::Open, v1::SeatKind::BotRandom],
            77,
            clock(),
        )
        .await;
        let mut seat = join_all(&client, &table).await.remove(0);
        let live = play_first_legal(&mut seat).await;
        let live_table = server
            .client
            .clone()
            .get_table(v1::GetTableRequest {
                table_id: table.table_id.clone(),
            })
            .await
            .expect("table")
            .into_inner()
            .table
            .expect("table");
        server.shut_down().await;

        let server = TestServer::start_on(store.clone()).await;
        seat.client = server.client.clone();
        let updates: Vec<v1::Update> = seat
            .observe()
            .await
            .expect("the seat's stream opens on a finished table")
            .map(|u| u.expect("no error").update.expect("update"))
            .collect()
            .await;
        assert_eq!(
            updates.len(),
            2,
            "{kind}: a snapshot and the end: {updates:?}"
        );
        match &updates[0].kind {
            Some(v1::update::Kind::Snapshot(s)) => {
                assert_eq!(
                    s.reason,
                    v1::SnapshotReason::ServerRestarted as i32,
                    "{kind}"
                );
                let t = s.table.as_ref().expect("table");
                assert_eq!(t.state, v1::TableState::Finished as i32, "{kind}");
                assert_eq!(t.result, live_table.result, "{kind}: the result as played");
                assert_eq!(t.decisions, live_table.decisions, "{kind}");
                assert!(s.turn.is_none(), "{kind}: no decision is due");
            }
            other => panic!("{kind}: the stream starts with a snapshot, got {other:?}"),
        }
        assert_eq!(
            updates[1].kind,
            Some(v1::update::Kind::MatchEnded(Box::new(live.clone()))),
            "{kind}: the same end as played"
        );
        assert_eq!(updates[1].seq, updates[0].seq + 1, "{kind}");
        // The play loop of a client that lost its stream as the match ended returns the end.
        let again = play_first_legal(&mut seat).await;
        assert_eq!(again, live, "{kind}");
        // Answers and observations: the match is over.
        let e = act(&mut seat, 0, v1::Action::default())
            .await
            .expect_err("no answer after the end");
        assert_eq!(
            (e.code(), reason(&e).as_str()),
            (Code::FailedPrecondition, "MATCH_OVER"),
            "{kind}: {e:?}"
        );
        let e = seat
            .fetch()
            .await
            .expect_err("no observation after the end");
        assert_eq!(
            (e.code(), reason(&e).as_str()),
            (Code::FailedPrecondition, "MATCH_OVER"),
            "{kind}: {e:?}"
        );
        // Spectators see the end too.
        let watched: Vec<_> = server
            .client
            .clone()
            .spectate(v1::SpectateRequest {
                table_id: table.table_id.clone(),
                ..Default::default()
            })
            .await
            .expect("spectate a finished table")
            .into_inner()
            .map(|u| u.expect("no error").update.expect("update").kind)
            .collect()
            .await;
        assert_eq!(
            watched.last(),
            Some(&Some(v1::update::Kind::MatchEnded(Box::new(live.clone())))),
            "{kind}"
        );
        // A table that never was is still not found, on every call.
        let mut ghost = seat.clone();
        ghost.table_id = "t-never-was".into();
        let e = ghost.observe_once().await.expect_err("no such table");
        assert_eq!(reason(&e), "TABLE_NOT_FOUND", "{kind}");
        let e = act(&mut ghost, 0, v1::Action::default())
            .await
            .expect_err("no such table");
        assert_eq!(reason(&e), "TABLE_NOT_FOUND", "{kind}");
        server.shut_down().await;
    }
}

/// A store that refuses writes: the act call fails with STORE_READ_ONLY (or STORE_FULL for a
/// full store), nothing changes, and the same act succeeds once the store takes writes again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_store_that_refuses_writes_fails_the_act_and_changes_nothing() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, store) in common::backends(dir.path(), "refuse") {
        let server = TestServer::start_on(store).await;
        let mut seat = seat_against_bots(&server, 5).await;
        let (d, a) = my_turn(&seat).await.expect("turn");
        let before = observation(&seat).await;
        server.store.set_read_only(true).await.expect("read-only");
        let e = act(&mut seat, d, a.clone()).await.expect_err("refused");
        assert_eq!(
            (e.code(), reason(&e).as_str()),
            (Code::Unavailable, "STORE_READ_ONLY"),
            "{kind}: {e:?}"
        );
        assert_eq!(observation(&seat).await, before, "{kind}: nothing changed");
        server.store.set_read_only(false).await.expect("writable");
        let r = act(&mut seat, d, a).await.expect("accepted once writable");
        assert!(!r.duplicate);
        // Bots meet a refusing store too: they wait and try again rather than forfeit. Refuse
        // writes right after the seat's action, while a bot is to move.
        let stalled = loop {
            server.store.set_read_only(true).await.expect("read-only");
            let o = observation(&seat).await;
            let decider = o.observation.as_ref().and_then(|v| v.decider);
            if decider.is_some() && decider != Some(seat.seat) {
                break o;
            }
            server.store.set_read_only(false).await.expect("writable");
            let (d, a) = my_turn(&seat).await.expect("turn");
            act(&mut seat, d, a).await.expect("act");
        };
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let later = observation(&seat).await;
        assert_eq!(
            later.decision, stalled.decision,
            "{kind}: no action while refused"
        );
        assert_eq!(
            later.state,
            v1::TableState::Playing as i32,
            "{kind}: no forfeit"
        );
        server.store.set_read_only(false).await.expect("writable");
        assert!(my_turn(&seat).await.is_some(), "{kind}: play goes on");
        server.shut_down().await;
    }

    // A full disk, as the SQLite size cap stands in for it.
    let path = dir.path().join("full.db");
    let server = TestServer::start_on(StoreOptions {
        location: Location::Sqlite(path),
        max_bytes: 512 * 1024,
        ..StoreOptions::default()
    })
    .await;
    let mut seat = seat_against_bots(&server, 6).await;
    let (d, a) = my_turn(&seat).await.expect("turn");
    // Fill the store with another table's log, then the end of this table's own key range
    // (far past its last action), so that no page the act's row could go into has room:
    // smaller and smaller writes until not even the shortest action fits.
    let mut n = 0u64;
    let own = seat.table_id.clone();
    for (table, size, len) in [
        ("t-filler", 100, 200),
        ("t-filler", 10, 200),
        ("t-filler", 1, 200),
        ("t-filler", 1, 1),
        (own.as_str(), 1, 1),
    ] {
        let base = if table == "t-filler" { 0 } else { 1_000_000 };
        loop {
            let batch: Vec<_> = (n..n + size)
                .map(|i| calabresella_server::store::Write::Action {
                    table: table.into(),
                    index: base + i,
                    action: calabresella_server::store::StoredAction {
                        seat: 0,
                        action: "x".repeat(len),
                        ms: 0,
                        timeout: false,
                    },
                })
                .collect();
            if server.store.write(batch).await.is_err() {
                break;
            }
            n += size;
        }
    }
    let before = observation(&seat).await;
    let e = act(&mut seat, d, a.clone()).await.expect_err("full");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::ResourceExhausted, "STORE_FULL"),
        "{e:?}"
    );
    assert_eq!(observation(&seat).await, before, "nothing changed");
    server
        .store
        .read(move |c| {
            c.execute(
                "DELETE FROM actions WHERE table_id = $1 OR (table_id = $2 AND idx >= 1000000)",
                &["t-filler".into(), own.as_str().into()],
            )
        })
        .await
        .expect("make room");
    act(&mut seat, d, a).await.expect("room again");
    server.shut_down().await;
}

/// Finished matches stay: listed with filters and fetchable after their tables leave memory,
/// and counted in the results table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_matches_are_kept_listed_and_rated() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, store) in common::backends(dir.path(), "kept") {
        let config = ServerConfig {
            finished_ttl: Duration::ZERO,
            ..ServerConfig::default()
        };
        let server = TestServer::start_full(config, Default::default(), store).await;
        let mut client = server.client.clone();
        let mut ids = Vec::new();
        let mut results = Vec::new();
        for (i, game) in [
            v1::Game::Calabresella,
            v1::Game::TressetteInDue,
            v1::Game::Calabresella,
        ]
        .into_iter()
        .enumerate()
        {
            let seats = match game {
                v1::Game::Calabresella => vec![
                    v1::SeatKind::BotHeuristic,
                    v1::SeatKind::BotRandom,
                    v1::SeatKind::Open,
                ],
                _ => vec![v1::SeatKind::BotHeuristic, v1::SeatKind::Open],
            };
            let t = create(
                &mut client,
                options(game, 11),
                seats,
                100 + i as u64,
                clock(),
            )
            .await;
            let mut seat = RemoteSeat::join(client.clone(), &t.table_id, None, "lucia")
                .await
                .expect("join");
            let ended = play_first_legal(&mut seat).await;
            ids.push(t.table_id);
            results.push((game, ended.result.expect("a result")));
        }
        // The tables leave memory at once (ttl 0); records come from the store.
        for _ in 0..100 {
            let live = client
                .list_tables(v1::ListTablesRequest::default())
                .await
                .expect("list")
                .into_inner()
                .tables;
            if live.is_empty() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        for (id, (game, result)) in ids.iter().zip(&results) {
            let r = record_of(&server, id).await;
            assert!(r.match_over, "{kind}");
            let actions = actions_of(&r.record_json);
            // GetTable still describes the table from the store, as the match ended.
            let t = client
                .get_table(v1::GetTableRequest {
                    table_id: id.clone(),
                })
                .await
                .expect("a finished table is found after it left memory")
                .into_inner()
                .table
                .expect("table");
            assert_eq!(t.state, v1::TableState::Finished as i32, "{kind}");
            assert_eq!(
                t.result.as_ref(),
                Some(result),
                "{kind}: the result as played"
            );
            assert_eq!(
                t.options.as_ref().map(|o| o.game),
                Some(*game as i32),
                "{kind}"
            );
            assert_eq!(t.decisions, actions.len() as u64, "{kind}");
            assert!(t.clock.is_some(), "{kind}: the spec is kept");
            assert!(t.seats.iter().any(|s| s.player_name == "lucia"), "{kind}");
            assert_eq!(t.signed_totals, result.signed_totals, "{kind}");
        }
        let gone = client
            .get_table(v1::GetTableRequest {
                table_id: "t-never-was".into(),
            })
            .await
            .expect_err("no such table");
        assert_eq!(gone.code(), tonic::Code::NotFound, "{kind}");
        let list = |req: v1::ListRecordsRequest| {
            let mut c = client.clone();
            async move {
                c.list_records(req)
                    .await
                    .expect("list records")
                    .into_inner()
                    .records
                    .into_iter()
                    .map(|r| r.table_id)
                    .collect::<Vec<_>>()
            }
        };
        let all = list(v1::ListRecordsRequest::default()).await;
        assert_eq!(
            all,
            ids.iter().rev().cloned().collect::<Vec<_>>(),
            "{kind}: newest first"
        );
        let cal = list(v1::ListRecordsRequest {
            game: v1::Game::Calabresella as i32,
            player_name: "lucia".into(),
            ..Default::default()
        })
        .await;
        assert_eq!(cal, vec![ids[2].clone(), ids[0].clone()], "{kind}");
        assert!(
            list(v1::ListRecordsRequest {
                player_name: "nobody".into(),
                ..Default::default()
            })
            .await
            .is_empty()
        );
        let e = client
            .list_records(v1::ListRecordsRequest {
                page_token: "x".into(),
                ..Default::default()
            })
            .await
            .expect_err("bad token");
        assert_eq!(reason(&e), "BAD_PAGE_TOKEN");
        let results = client
            .get_results(v1::GetResultsRequest::default())
            .await
            .expect("results")
            .into_inner()
            .players;
        let lucia = results
            .iter()
            .find(|p| p.player_name == "lucia")
            .expect("lucia");
        assert_eq!(lucia.matches, 3, "{kind}");
        assert!(!lucia.bot);
        let people = client
            .get_results(v1::GetResultsRequest {
                people_only: true,
                ..Default::default()
            })
            .await
            .expect("results")
            .into_inner()
            .players;
        assert_eq!(people.len(), 1, "{kind}: bots left out");
        server.shut_down().await;
    }
}

/// Two server instances on one PostgreSQL database: each runs and restores only its own
/// tables, and names the owner of the other's (`TABLE_ELSEWHERE`, metadata `instance`) so a
/// router can send the call there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn instances_sharing_a_database_run_their_own_tables_and_name_the_owner() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, store) in common::backends(dir.path(), "instances") {
        if kind != "postgres" {
            continue;
        }
        let on = |instance: &str| StoreOptions {
            instance: instance.into(),
            ..store.clone()
        };
        let a = TestServer::start_on(on("a")).await;
        let b = TestServer::start_on(on("b")).await;
        let seats = vec![
            v1::SeatKind::Open,
            v1::SeatKind::BotHeuristic,
            v1::SeatKind::BotRandom,
        ];
        let t = create(
            &mut a.client.clone(),
            options(v1::Game::Calabresella, 21),
            seats,
            3,
            clock(),
        )
        .await;
        let e = b
            .client
            .clone()
            .get_table(v1::GetTableRequest {
                table_id: t.table_id.clone(),
            })
            .await
            .expect_err("not on b");
        assert_eq!(
            (e.code(), reason(&e).as_str()),
            (Code::NotFound, "TABLE_ELSEWHERE")
        );
        use tonic_types::StatusExt;
        let info = e.get_details_error_info().expect("ErrorInfo");
        assert_eq!(info.metadata.get("instance").map(String::as_str), Some("a"));
        // b restarted does not take a's table.
        b.shut_down().await;
        let b = TestServer::start_on(on("b")).await;
        let listed = b
            .client
            .clone()
            .list_tables(v1::ListTablesRequest::default())
            .await
            .expect("list")
            .into_inner()
            .tables;
        assert!(listed.is_empty(), "b restores only its own tables");
        a.shut_down().await;
        let a = TestServer::start_on(on("a")).await;
        common::table_of(&mut a.client.clone(), t.table_id.clone()).await;
        // A second server under a name already running is refused.
        match calabresella_server::store::Store::open(on("a")).await {
            Err(calabresella_server::store::StoreError::Locked(_)) => {}
            other => panic!("expected Locked, got {other:?}"),
        }
        a.shut_down().await;
        b.shut_down().await;
    }
}

/// The per-client allowance of unfinished tables: refused beyond it, freed when a match ends.
/// The per-table action log cap refuses the action beyond it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_per_client_and_per_table_are_enforced() {
    let config = ServerConfig {
        max_open_tables_per_client: 2,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut client = server.client.clone();
    let open = vec![
        v1::SeatKind::Open,
        v1::SeatKind::BotHeuristic,
        v1::SeatKind::BotHeuristic,
    ];
    for seed in [1, 2] {
        create(
            &mut client,
            options(v1::Game::Calabresella, 21),
            open.clone(),
            seed,
            clock(),
        )
        .await;
    }
    let e = client
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::Calabresella, 21)),
            ..Default::default()
        })
        .await
        .expect_err("third table");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::ResourceExhausted, "TOO_MANY_TABLES_FOR_CLIENT")
    );
    // A log of 3 actions cannot hold one hand (up to 48 actions): refused at creation, before
    // anything is stored, instead of abandoned mid-hand.
    server.shut_down().await;
    let small = |config: ServerConfig| ServerConfig {
        max_actions_per_table: 3,
        ..config
    };
    let server = TestServer::start(small(ServerConfig::default())).await;
    let mut client = server.client.clone();
    let e = client
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::Calabresella, 21)),
            ..Default::default()
        })
        .await
        .expect_err("one hand does not fit 3 actions");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::InvalidArgument, "BAD_OPTIONS")
    );
    server.shut_down().await;
    // A table created under a larger limit and restored under a lowered one: the log stops
    // at the new limit, the next action is refused, and the table is abandoned (nothing is
    // stored beyond the cap).
    let dir = tempfile::tempdir().expect("dir");
    let store = StoreOptions {
        location: Location::Sqlite(dir.path().join("limit.db")),
        ..StoreOptions::default()
    };
    let server = TestServer::start_on(store.clone()).await;
    let mut client = server.client.clone();
    let t = create(
        &mut client,
        options(v1::Game::Calabresella, 21),
        vec![],
        4,
        clock(),
    )
    .await;
    let mut seats = join_all(&client, &t).await;
    let mut taken = 0;
    'first: loop {
        for seat in seats.iter_mut() {
            let o = observation(seat).await;
            let obs = o.observation.unwrap_or_default();
            if obs.decider == Some(seat.seat) && !obs.legal_actions.is_empty() {
                act(seat, o.decision, obs.legal_actions[0].clone())
                    .await
                    .expect("within the limit");
                taken += 1;
                if taken == 3 {
                    break 'first;
                }
            }
        }
    }
    server.shut_down().await;
    let server = TestServer::start_full(
        small(ServerConfig::default()),
        Default::default(),
        store.clone(),
    )
    .await;
    let mut client = server.client.clone();
    // The same seats and tokens, on the new server.
    for seat in &mut seats {
        seat.client = client.clone();
    }
    let refused = 'play: loop {
        for seat in seats.iter_mut() {
            let o = observation(seat).await;
            let obs = o.observation.unwrap_or_default();
            if obs.decider == Some(seat.seat) && !obs.legal_actions.is_empty() {
                match act(seat, o.decision, obs.legal_actions[0].clone()).await {
                    Ok(_) => panic!("an action beyond the lowered limit was taken"),
                    Err(e) => break 'play e,
                }
            }
        }
    };
    assert_eq!(
        (refused.code(), reason(&refused).as_str()),
        (Code::ResourceExhausted, "TABLE_LOG_FULL")
    );
    let after = common::table_of(&mut client, t.table_id.clone()).await;
    assert_eq!(after.state, v1::TableState::Abandoned as i32);
    assert_eq!(after.decisions, 3);
    server.shut_down().await;

    // The allowance is freed when a match ends.
    let config = ServerConfig {
        max_open_tables_per_client: 1,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut client = server.client.clone();
    let bots = vec![
        v1::SeatKind::BotHeuristic,
        v1::SeatKind::BotRandom,
        v1::SeatKind::BotHeuristic,
    ];
    let t = create(
        &mut client,
        options(v1::Game::Calabresella, 11),
        bots.clone(),
        9,
        None,
    )
    .await;
    for _ in 0..500 {
        if common::table_of(&mut client, t.table_id.clone())
            .await
            .state
            == v1::TableState::Finished as i32
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    create(
        &mut client,
        options(v1::Game::Calabresella, 11),
        bots,
        10,
        None,
    )
    .await;
    server.shut_down().await;
}
