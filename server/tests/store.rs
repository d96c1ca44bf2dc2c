//! The store on its own, on SQLite and (when configured) PostgreSQL: the log reads back as
//! written whatever the interleaving of tables, migrations apply in order, a damaged or alien
//! database file is refused at start without being touched, full and read-only stores refuse
//! writes and keep what they had, and records and results filter and rate correctly.

mod common;

use calabresella_engine::rng::GameRng;
use calabresella_server::store::migrate;
use calabresella_server::store::{
    Finished, Location, MatchSummary, RecordFilter, ResultRow, Store, StoreError, StoreOptions,
    StoredAction, StoredSeat, StoredTable, Write,
};

fn table(id: &str, creator: &str) -> Write {
    Write::Table {
        id: id.into(),
        owner: "main".into(),
        creator: creator.into(),
        game: "calabresella".into(),
        spec: format!("{{\"spec\":\"{id}\"}}"),
        created_unix_ms: 1_000,
    }
}

fn action(table: &str, index: u64, seed: u64) -> Write {
    let mut r = GameRng::from_seed(seed ^ index);
    Write::Action {
        table: table.into(),
        index,
        action: StoredAction {
            seat: r.below(3) as u8,
            action: format!("a{}", r.below(1000)),
            ms: r.below(100_000),
            timeout: r.below(10) == 0,
        },
    }
}

fn expected(writes: &[Write]) -> Vec<StoredTable> {
    let mut tables: Vec<StoredTable> = Vec::new();
    for w in writes {
        match w {
            Write::Table {
                id,
                creator,
                spec,
                created_unix_ms,
                ..
            } => tables.push(StoredTable {
                id: id.clone(),
                creator: creator.clone(),
                spec: spec.clone(),
                created_unix_ms: *created_unix_ms,
                seats: Vec::new(),
                actions: Vec::new(),
            }),
            Write::Seat {
                table,
                seat,
                name,
                token_sha256,
                guest,
                entropy,
            } => {
                let t = tables.iter_mut().find(|t| t.id == *table).expect("table");
                t.seats.push(StoredSeat {
                    seat: *seat,
                    name: name.clone(),
                    token_sha256: token_sha256.clone(),
                    guest: *guest,
                    entropy: entropy.clone(),
                    fault: String::new(),
                    fault_decision: 0,
                });
                t.seats.sort_by_key(|s| s.seat);
            }
            Write::Token {
                table,
                seat,
                token_sha256,
            } => {
                let t = tables.iter_mut().find(|t| t.id == *table).expect("table");
                if let Some(s) = t.seats.iter_mut().find(|s| s.seat == *seat) {
                    s.token_sha256 = token_sha256.clone();
                }
            }
            Write::Fault {
                table,
                seat,
                reason,
                decision,
            } => {
                let t = tables.iter_mut().find(|t| t.id == *table).expect("table");
                if let Some(s) = t.seats.iter_mut().find(|s| s.seat == *seat) {
                    s.fault = reason.clone();
                    s.fault_decision = *decision;
                }
            }
            Write::Action { table, action, .. } => tables
                .iter_mut()
                .find(|t| t.id == *table)
                .expect("table")
                .actions
                .push(action.clone()),
            Write::Ended(f) => tables.retain(|t| t.id != f.summary.table_id),
        }
    }
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    tables
}

fn finished(id: &str, game: &str, players: &[&str], winners: &[u32], ended: i64) -> Finished {
    let totals: Vec<i32> = (0..players.len() as u32)
        .map(|i| {
            if winners.contains(&i) {
                21
            } else {
                10 + i as i32
            }
        })
        .collect();
    Finished {
        summary: MatchSummary {
            table_id: id.into(),
            name: format!("match {id}"),
            game: game.into(),
            players: players.iter().map(|p| p.to_string()).collect(),
            reason: "COMPLETED".into(),
            winners: winners.to_vec(),
            draw: false,
            totals: totals.clone(),
            hands: 3,
            created_unix_ms: ended - 100,
            ended_unix_ms: ended,
        },
        record: format!("{{\"table\":\"{id}\"}}"),
        results: players
            .iter()
            .enumerate()
            .map(|(i, p)| ResultRow {
                seat: i as u8,
                player: p.to_string(),
                side: i as u8,
                points: totals[i],
                won: winners.contains(&(i as u32)),
                draw: false,
                bot: false,
                guest: false,
            })
            .collect(),
    }
}

/// Tables written concurrently in random interleavings (several callers, so commits group
/// writes of different tables) read back exactly: seats with their faults, actions in order,
/// ended tables gone.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_log_reads_back_exactly_as_written() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, options) in common::backends(dir.path(), "log") {
        let opened = Store::open(options.clone()).await.expect("open");
        assert!(
            opened.tables.is_empty(),
            "{kind}: a new store has no tables"
        );
        let store = opened.store;
        let mut all = Vec::new();
        let mut tasks = Vec::new();
        for t in 0..24u64 {
            let id = format!("t-{t:02}");
            let mut writes = vec![table(&id, &format!("10.0.0.{}", t % 3))];
            let mut rng = GameRng::from_seed(t);
            for s in 0..rng.below(4) {
                writes.push(Write::Seat {
                    table: id.clone(),
                    seat: s as u8,
                    name: format!("p{s}"),
                    token_sha256: format!("{:064x}", t * 100 + u64::from(s)),
                    guest: s % 2 == 1,
                    // Contributions of every length the scheme takes, none included.
                    entropy: "ab".repeat((t as usize * 7 + s as usize) % 65),
                });
            }
            if rng.below(2) == 1 && rng.below(4) > 0 {
                writes.push(Write::Token {
                    table: id.clone(),
                    seat: 0,
                    token_sha256: format!("{:064x}", t * 100 + 99),
                });
            }
            let n = u64::from(rng.below(300));
            for i in 0..n {
                writes.push(action(&id, i, t));
            }
            // A fault on a seat that is taken, and one on a seat that is not (nothing to mark).
            if t % 3 == 1 {
                for seat in [0, 3] {
                    writes.push(Write::Fault {
                        table: id.clone(),
                        seat,
                        reason: ["TLE", "MLE", "RE", "BAD_OUTPUT"][(t % 4) as usize].into(),
                        decision: n / 2 + u64::from(seat),
                    });
                }
            }
            if t % 5 == 0 {
                writes.push(Write::Ended(Box::new(finished(
                    &id,
                    "calabresella",
                    &["a", "b", "c"],
                    &[0],
                    5,
                ))));
            }
            all.extend(writes.clone());
            // Each table writes one fact per call, as a table task does.
            let store = store.clone();
            tasks.push(tokio::spawn(async move {
                for w in writes {
                    store.write(vec![w]).await.expect("write");
                }
            }));
        }
        for t in tasks {
            t.await.expect("task");
        }
        drop(store);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let reopened = Store::open(options).await.expect("reopen");
        let mut got = reopened.tables;
        got.sort_by(|a, b| a.id.cmp(&b.id));
        assert_eq!(got, expected(&all), "{kind}");
    }
}

/// A store at schema 1 with a table in it is migrated to the latest schema on open, the
/// table intact; each migration runs once; a database newer than the server is refused.
#[tokio::test]
async fn migrations_apply_in_order_once_and_keep_the_data() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, options) in common::backends(dir.path(), "migrate") {
        let old = Store::open_at(options.clone(), 1).await.expect("schema 1");
        assert_eq!(old.migrated, vec![1], "{kind}");
        old.store
            .write(vec![table("t-old", "c"), action("t-old", 0, 1)])
            .await
            .expect("write at schema 1");
        drop(old);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let new = Store::open(options.clone()).await.expect("latest");
        let versions: Vec<i64> = (2..=migrate::latest()).collect();
        assert_eq!(
            new.migrated, versions,
            "{kind}: only the newer migrations ran"
        );
        assert_eq!(new.tables.len(), 1, "{kind}");
        assert_eq!(new.tables[0].actions.len(), 1, "{kind}");
        // Schema 2 works: a match can end and be listed.
        new.store
            .write(vec![Write::Ended(Box::new(finished(
                "t-old",
                "calabresella",
                &["a", "b", "c"],
                &[1],
                9,
            )))])
            .await
            .expect("end");
        let (list, _) = new
            .store
            .matches(RecordFilter {
                limit: 10,
                ..RecordFilter::default()
            })
            .await
            .expect("list");
        assert_eq!(list.len(), 1);
        // A version this server does not know.
        new.store
            .read(|c| {
                c.execute(
                    "INSERT INTO schema_migrations (version, name, applied_unix_ms) VALUES ($1, $2, $3)",
                    &[999i64.into(), "future".into(), 0i64.into()],
                )
            })
            .await
            .expect("insert");
        drop(new);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        match Store::open(options).await {
            Err(StoreError::TooNew { found: 999, known }) => assert_eq!(known, migrate::latest()),
            other => panic!("{kind}: a newer schema must be refused, got {other:?}"),
        }
    }
}

async fn filled_sqlite(path: &std::path::Path) {
    let store = Store::open(StoreOptions {
        location: Location::Sqlite(path.to_owned()),
        ..StoreOptions::default()
    })
    .await
    .expect("open")
    .store;
    for t in 0..40 {
        let id = format!("t-{t}");
        let mut w = vec![table(&id, "c")];
        w.extend((0..200).map(|i| action(&id, i, t)));
        store.write(w).await.expect("write");
    }
    // Move everything from the write-ahead log into the main file before it is damaged.
    store
        .read(|c| c.batch("PRAGMA wal_checkpoint(TRUNCATE)"))
        .await
        .expect("checkpoint");
    drop(store);
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
}

async fn refused(path: &std::path::Path, what: &str) {
    let before = std::fs::read(path).expect("read");
    let r = Store::open(StoreOptions {
        location: Location::Sqlite(path.to_owned()),
        ..StoreOptions::default()
    })
    .await;
    match r {
        Err(StoreError::Corrupt(msg)) => assert!(!msg.is_empty()),
        other => panic!("{what}: expected a corrupt-database error, got {other:?}"),
    }
    assert_eq!(
        std::fs::read(path).expect("read"),
        before,
        "{what}: a refused file is left as it was"
    );
}

/// Files that are not sound databases are refused at open with `Corrupt`, untouched.
#[tokio::test]
async fn damaged_or_alien_files_are_refused_at_start_and_left_untouched() {
    let dir = tempfile::tempdir().expect("dir");
    // Not a database at all.
    let junk = dir.path().join("junk.db");
    std::fs::write(
        &junk,
        b"these are the minutes of the card club, not a database".repeat(100),
    )
    .expect("write");
    refused(&junk, "a text file").await;

    // A real database cut in half.
    let cut = dir.path().join("cut.db");
    filled_sqlite(&cut).await;
    let bytes = std::fs::read(&cut).expect("read");
    assert!(bytes.len() > 64 * 1024, "the database is big enough to cut");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("truncate");
    refused(&cut, "a truncated database").await;

    // A real database with pages overwritten in the middle.
    let flipped = dir.path().join("flipped.db");
    filled_sqlite(&flipped).await;
    let mut bytes = std::fs::read(&flipped).expect("read");
    let mid = bytes.len() / 2;
    for b in &mut bytes[mid..mid + 8192] {
        *b ^= 0x5a;
    }
    std::fs::write(&flipped, &bytes).expect("write");
    refused(&flipped, "a database with damaged pages").await;

    // A damaged header.
    let header = dir.path().join("header.db");
    filled_sqlite(&header).await;
    let mut bytes = std::fs::read(&header).expect("read");
    bytes[..16].copy_from_slice(b"SQLite format 2\0");
    std::fs::write(&header, &bytes).expect("write");
    refused(&header, "a database with a damaged header").await;
}

/// A second server on the same SQLite file is refused while the first runs.
#[tokio::test]
async fn a_second_server_on_the_same_file_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let options = StoreOptions {
        location: Location::Sqlite(dir.path().join("shared.db")),
        ..StoreOptions::default()
    };
    let first = Store::open(options.clone()).await.expect("first");
    match Store::open(options.clone()).await {
        Err(StoreError::Locked(_)) => {}
        other => panic!("expected Locked, got {other:?}"),
    }
    drop(first);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    Store::open(options)
        .await
        .expect("free again once the first is gone");
}

/// A full store (the size cap standing in for a full disk) and a read-only one refuse the
/// write that does not fit, keep everything committed before, and take writes again once
/// there is room.
#[tokio::test]
async fn full_and_read_only_stores_refuse_writes_and_keep_their_data() {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("small.db");
    let options = StoreOptions {
        location: Location::Sqlite(path.clone()),
        max_bytes: 256 * 1024,
        ..StoreOptions::default()
    };
    let store = Store::open(options.clone()).await.expect("open").store;
    store
        .write(vec![table("t-full", "c")])
        .await
        .expect("table");
    let mut written = 0u64;
    let err = loop {
        let batch: Vec<Write> = (written..written + 50)
            .map(|i| action("t-full", i, 3))
            .collect();
        match store.write(batch).await {
            Ok(()) => written += 50,
            Err(e) => break e,
        }
        assert!(written < 100_000, "the cap never bit");
    };
    assert!(matches!(err, StoreError::Full(_)), "got {err:?}");
    drop(store);
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let reopened = Store::open(StoreOptions {
        max_bytes: 0,
        ..options
    })
    .await
    .expect("reopen without the cap");
    assert_eq!(
        reopened.tables[0].actions.len() as u64,
        written,
        "nothing committed was lost"
    );
    reopened
        .store
        .write(vec![action("t-full", written, 3)])
        .await
        .expect("room again");

    for (kind, options) in common::backends(dir.path(), "readonly") {
        let store = Store::open(options).await.expect("open").store;
        store.write(vec![table("t-ro", "c")]).await.expect("table");
        store.set_read_only(true).await.expect("read-only");
        match store.write(vec![action("t-ro", 0, 1)]).await {
            Err(StoreError::ReadOnly(_)) => {}
            other => panic!("{kind}: expected ReadOnly, got {other:?}"),
        }
        store.set_read_only(false).await.expect("writable");
        store
            .write(vec![action("t-ro", 0, 1)])
            .await
            .expect("writable again");
    }
}

/// Every filter of the record list agrees with filtering the same matches by hand, pages
/// cover the list without overlap, and the results table counts and rates players.
#[tokio::test]
async fn records_filter_and_results_rate_players() {
    let dir = tempfile::tempdir().expect("dir");
    let names = ["anna", "bruno", "carla", "dario"];
    for (kind, options) in common::backends(dir.path(), "records") {
        let store = Store::open(options).await.expect("open").store;
        let mut rng = GameRng::from_seed(11);
        let mut all = Vec::new();
        for m in 0..60i64 {
            let game = if m % 4 == 3 {
                "tressette"
            } else {
                "calabresella"
            };
            let mut players: Vec<&str> = names.to_vec();
            for i in (1..players.len()).rev() {
                players.swap(i, rng.below(i as u32 + 1) as usize);
            }
            players.truncate(3);
            // anna wins far more often than the others.
            let winner = players
                .iter()
                .position(|p| *p == "anna")
                .filter(|_| rng.below(10) < 8)
                .unwrap_or(rng.below(3) as usize) as u32;
            let f = finished(
                &format!("t-{m:03}"),
                game,
                &players,
                &[winner],
                10_000 + m * 1000,
            );
            store
                .write(vec![table(&f.summary.table_id, "c")])
                .await
                .expect("table");
            store
                .write(vec![Write::Ended(Box::new(f.clone()))])
                .await
                .expect("end");
            all.push(f.summary);
        }
        let filters = [
            RecordFilter::default(),
            RecordFilter {
                player: "bruno".into(),
                ..RecordFilter::default()
            },
            RecordFilter {
                winner: "anna".into(),
                ..RecordFilter::default()
            },
            RecordFilter {
                game: "tressette".into(),
                player: "carla".into(),
                ..RecordFilter::default()
            },
            RecordFilter {
                since_unix_ms: 30_000,
                until_unix_ms: 50_000,
                ..RecordFilter::default()
            },
            RecordFilter {
                reason: "FORFEIT".into(),
                ..RecordFilter::default()
            },
        ];
        for f in filters {
            let mut want: Vec<&MatchSummary> = all
                .iter()
                .filter(|m| f.player.is_empty() || m.players.contains(&f.player))
                .filter(|m| {
                    f.winner.is_empty()
                        || m.winners.iter().any(|&w| m.players[w as usize] == f.winner)
                })
                .filter(|m| f.game.is_empty() || m.game == f.game)
                .filter(|m| f.reason.is_empty() || m.reason == f.reason)
                .filter(|m| f.since_unix_ms == 0 || m.ended_unix_ms >= f.since_unix_ms)
                .filter(|m| f.until_unix_ms == 0 || m.ended_unix_ms < f.until_unix_ms)
                .collect();
            want.reverse();
            // Pages of 7 put together give the whole list, newest first.
            let mut got = Vec::new();
            let mut offset = 0;
            loop {
                let (page, more) = store
                    .matches(RecordFilter {
                        offset,
                        limit: 7,
                        ..f.clone()
                    })
                    .await
                    .expect("list");
                offset += page.len();
                got.extend(page);
                if !more {
                    break;
                }
            }
            let got_ids: Vec<&str> = got.iter().map(|m| m.table_id.as_str()).collect();
            let want_ids: Vec<&str> = want.iter().map(|m| m.table_id.as_str()).collect();
            assert_eq!(got_ids, want_ids, "{kind}: {f:?}");
            for (g, w) in got.iter().zip(&want) {
                assert_eq!(
                    (&g.players, &g.winners, &g.totals),
                    (&w.players, &w.winners, &w.totals)
                );
            }
        }
        assert_eq!(
            store
                .record("t-007".into())
                .await
                .expect("record")
                .as_deref(),
            Some("{\"table\":\"t-007\"}")
        );
        assert_eq!(store.record("t-none".into()).await.expect("record"), None);

        let results = store.results(String::new()).await.expect("results");
        assert_eq!(results.len(), 4, "{kind}");
        for p in &results {
            let played: Vec<&MatchSummary> = all
                .iter()
                .filter(|m| m.players.contains(&p.player))
                .collect();
            let wins = played
                .iter()
                .filter(|m| m.winners.iter().any(|&w| m.players[w as usize] == p.player))
                .count();
            assert_eq!(p.matches as usize, played.len(), "{kind}: {}", p.player);
            assert_eq!(p.wins as usize, wins, "{kind}: {}", p.player);
            assert!((p.rating - (p.mu - 3.0 * p.sigma)).abs() < 1e-9);
            assert!(p.sigma < 25.0 / 3.0, "played matches lower the uncertainty");
        }
        assert_eq!(
            results[0].player, "anna",
            "{kind}: the frequent winner rates best"
        );
        let tressette = store.results("tressette".into()).await.expect("results");
        let n: u32 = tressette.iter().map(|p| p.matches).sum();
        assert_eq!(
            n as usize,
            all.iter().filter(|m| m.game == "tressette").count() * 3
        );
    }
}

/// A name on two seats of one match (two built-in bots of one kind) counts one match, a win
/// if either seat won, and both seats' points; such a match is not rated.
#[tokio::test]
async fn a_name_on_two_seats_counts_once() {
    let store = Store::memory().await.expect("store");
    let mut f = finished(
        "t-bots",
        "calabresella",
        &["heuristic bot", "heuristic bot", "random bot"],
        &[0, 1],
        50,
    );
    for r in &mut f.results {
        r.bot = true;
    }
    let points: u64 = f.results[..2].iter().map(|r| r.points as u64).sum();
    store
        .write(vec![table("t-bots", "c"), Write::Ended(Box::new(f))])
        .await
        .expect("write");
    let results = store.results(String::new()).await.expect("results");
    let h = results
        .iter()
        .find(|p| p.player == "heuristic bot")
        .expect("heuristic");
    assert_eq!((h.matches, h.wins, h.points), (1, 1, points));
    assert!(h.bot);
    let r = results
        .iter()
        .find(|p| p.player == "random bot")
        .expect("random");
    assert_eq!((r.matches, r.wins), (1, 0));
    for p in &results {
        assert!((p.sigma - 25.0 / 3.0).abs() < 1e-9, "not rated: {p:?}");
    }
}

/// Retention deletes exactly the tables abandoned before their first hand that ended before
/// the cutoff (rows of every kind), keeps every real record, and the figures and VACUUM follow.
#[tokio::test]
async fn retention_deletes_only_old_unplayed_abandoned_tables_and_stats_count_what_is_kept() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, options) in common::backends(dir.path(), "retention") {
        let store = Store::open(options).await.expect("open").store;
        // (id, reason, hands, ended): only a1 and a2 qualify (unplayed, abandoned, old).
        let cases = [
            ("a1", "ABANDONED", 0, 1_000),
            ("a2", "ABANDONED", 0, 4_999),
            ("a3", "ABANDONED", 0, 5_000), // at the cutoff: kept
            ("a4", "ABANDONED", 2, 1_000), // hands were played: a record
            ("c1", "COMPLETED", 3, 1_000),
            ("f1", "FORFEIT", 0, 1_000),
        ];
        for (id, reason, hands, ended) in cases {
            let mut f = finished(id, "calabresella", &["anna", "bruno", "carla"], &[0], ended);
            f.summary.reason = reason.into();
            f.summary.hands = hands;
            if reason == "ABANDONED" {
                f.results.clear();
            }
            store
                .write(vec![table(id, "client"), Write::Ended(Box::new(f))])
                .await
                .expect("write");
        }
        // One table still open, with a logged action.
        store
            .write(vec![table("open", "client"), action("open", 0, 1)])
            .await
            .expect("write");
        let before = store.stats().await.expect("stats");
        assert_eq!(before.kind, kind);
        assert_eq!((before.open_tables, before.ended_tables), (1, 6), "{kind}");
        assert_eq!(before.abandoned_unplayed, 3, "{kind}");
        assert_eq!(before.matches.get("ABANDONED"), Some(&4), "{kind}");
        assert_eq!(before.logged_actions, 1, "{kind}");
        assert!(
            before.bytes > 0 && before.record_chars > 0,
            "{kind}: {before:?}"
        );

        assert_eq!(
            store.prune_abandoned(5_000).await.expect("prune"),
            2,
            "{kind}"
        );
        // Nothing is left of a1 and a2; every other table is as it was.
        for id in ["a1", "a2"] {
            assert_eq!(
                store.record(id.into()).await.expect("read"),
                None,
                "{kind} {id}"
            );
            assert_eq!(
                store.owner(id.into()).await.expect("read"),
                None,
                "{kind} {id}"
            );
        }
        for id in ["a3", "a4", "c1", "f1"] {
            assert!(
                store.record(id.into()).await.expect("read").is_some(),
                "{kind} {id}"
            );
        }
        let after = store.stats().await.expect("stats");
        assert_eq!((after.open_tables, after.ended_tables), (1, 4), "{kind}");
        assert_eq!(after.abandoned_unplayed, 1, "{kind}");
        assert_eq!(
            after.result_rows, before.result_rows,
            "{kind}: results kept"
        );
        // A second sweep finds nothing; VACUUM keeps the data.
        assert_eq!(
            store.prune_abandoned(5_000).await.expect("prune"),
            0,
            "{kind}"
        );
        store.vacuum().await.expect("vacuum");
        let vacuumed = store.stats().await.expect("stats");
        assert_eq!(vacuumed.ended_tables, 4, "{kind}");
        if kind == "sqlite" {
            assert_eq!(vacuumed.free_bytes, 0, "VACUUM leaves no free page");
        }
    }
}

/// A database from before schema 3 recorded an unplayed abandoned table with one hand (the one
/// dealt at creation): the migration finds it by its record, which holds no hand, so retention
/// deletes it like a new one; an abandoned match with hands played keeps its count.
#[tokio::test]
async fn the_migration_marks_old_unplayed_abandoned_tables_for_retention() {
    let dir = tempfile::tempdir().expect("dir");
    for (kind, options) in common::backends(dir.path(), "retention-migration") {
        let old = Store::open_at(options.clone(), 2).await.expect("open at 2");
        for (id, record) in [
            ("u1", "{\n  \"hands\": [],\n  \"meta\": {}\n}"),
            ("p1", "{\n  \"hands\": [\n    {\"dealer\": 0}\n  ]\n}"),
        ] {
            let mut f = finished(id, "calabresella", &["", "", ""], &[], 1_000);
            f.summary.reason = "ABANDONED".into();
            f.summary.hands = 1;
            f.results.clear();
            f.record = record.into();
            old.store
                .write(vec![table(id, "client"), Write::Ended(Box::new(f))])
                .await
                .expect("write");
        }
        drop(old);
        let mut tries = 0;
        let new = loop {
            match Store::open(options.clone()).await {
                Err(StoreError::Locked(_)) if tries < 50 => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                }
                other => break other.expect("open"),
            }
        };
        assert_eq!(
            new.migrated,
            (3..=migrate::latest()).collect::<Vec<i64>>(),
            "{kind}"
        );
        assert_eq!(
            new.store.stats().await.expect("stats").abandoned_unplayed,
            1
        );
        assert_eq!(new.store.prune_abandoned(2_000).await.expect("prune"), 1);
        assert_eq!(new.store.record("u1".into()).await.expect("read"), None);
        assert!(new.store.record("p1".into()).await.expect("read").is_some());
    }
}

/// Registered players on every backend: a key is shown once and only its hash is kept; names
/// are unique by look; rotating retires the old key; disabling refuses the key; unknown names
/// are errors.
#[tokio::test]
async fn registered_players_and_their_keys_on_every_backend() {
    use calabresella_server::store::players;
    let dir = tempfile::tempdir().expect("dir");
    for (kind, options) in common::backends(dir.path(), "players") {
        let opened = Store::open(options).await.expect("open");
        let out = opened
            .store
            .read(|c| {
                let other = |e: players::PlayerError| StoreError::Other(e.to_string());
                let key = players::add(c, "Zoë").map_err(other)?;
                let look_alike = players::add(c, "ZOË")
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                let found = players::by_key(c, &key)?;
                let stored: Vec<String> = c
                    .query("SELECT key_sha256 FROM players", &[])?
                    .into_iter()
                    .map(|mut r| r[0].take_text())
                    .collect();
                let new = players::rotate(c, "Zoë").map_err(other)?;
                let old_after = players::by_key(c, &key)?;
                players::set_disabled(c, "Zoë", true).map_err(other)?;
                let disabled = players::by_key(c, &new)?;
                let unknown = players::rotate(c, "Nobody")
                    .map(|_| ())
                    .map_err(|e| e.to_string());
                Ok((
                    key,
                    look_alike,
                    found,
                    stored,
                    old_after,
                    disabled,
                    unknown,
                    players::list(c)?,
                ))
            })
            .await
            .expect("players");
        let (key, look_alike, found, stored, old_after, disabled, unknown, list) = out;
        assert!(players::well_formed(&key), "{kind}: {key}");
        assert!(
            look_alike.is_err_and(|e| e.contains("looks like")),
            "{kind}"
        );
        assert_eq!(found, Some(("Zoë".to_owned(), false)), "{kind}");
        assert_eq!(
            stored,
            vec![players::key_hash(&key)],
            "{kind}: only the hash is kept"
        );
        assert_eq!(old_after, None, "{kind}: the old key is retired");
        assert_eq!(disabled, Some(("Zoë".to_owned(), true)), "{kind}");
        assert!(unknown.is_err_and(|e| e.contains("Nobody")), "{kind}");
        assert_eq!(list.len(), 1);
        assert!(list[0].disabled && list[0].key_unix_ms >= list[0].created_unix_ms);
    }
}
