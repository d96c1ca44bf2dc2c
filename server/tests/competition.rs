//! Tournaments and guests over real gRPC: the admin key guards tournament creation; Swiss and
//! duplicate tournaments of built-in bots run to the end with the schedule their format
//! promises; a table a crash left half-seated is seated by the scheduler; guests are marked
//! in seats and results and never rated.

mod common;

use std::time::{Duration, Instant};

use calabresella_proto::v1;
use calabresella_server::ServerConfig;
use calabresella_server::competition::request_hex;
use calabresella_server::store::StoreError;
use calabresella_server::store::players;
use calabresella_server::store::tournaments::{self, MatchRow, TournamentRow};
use common::{TestServer, create, fetch_record, join_all, options, reason, register, table_of};
use tonic::Code;

const ADMIN: &str = "an-admin-key-for-tests";

fn config() -> ServerConfig {
    ServerConfig {
        admin_key_sha256: Some(players::key_hash(ADMIN)),
        ..ServerConfig::default()
    }
}

fn with_key<T>(message: T, key: Option<&str>) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    calabresella_client::authorize(&mut r, key).expect("ascii key");
    r
}

fn bots_tournament(format: v1::TournamentFormat, entrants: &[&str]) -> v1::CreateTournamentRequest {
    v1::CreateTournamentRequest {
        name: "bots".into(),
        options: Some(options(v1::Game::Calabresella, 1)),
        clock: None,
        format: format as i32,
        deals: 2,
        start_unix_ms: 0,
        entrants: entrants.iter().map(|e| (*e).to_owned()).collect(),
        open_registration: false,
        seed: Some(5),
    }
}

async fn finished(server: &TestServer, id: &str) -> v1::GetTournamentResponse {
    let mut c = server.client.clone();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let r = c
            .get_tournament(v1::GetTournamentRequest {
                tournament_id: id.to_owned(),
            })
            .await
            .expect("get tournament")
            .into_inner();
        let t = r.tournament.clone().expect("tournament");
        if t.state == v1::TournamentState::Finished as i32 {
            return r;
        }
        assert!(Instant::now() < deadline, "unfinished: {t:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn organiser_calls_need_the_admin_key() {
    let without = TestServer::start(ServerConfig::default()).await;
    let mut c = without.client.clone();
    let request = bots_tournament(
        v1::TournamentFormat::RoundRobin,
        &["random", "heuristic", "pimc"],
    );
    let e = c
        .create_tournament(with_key(request.clone(), Some(ADMIN)))
        .await
        .expect_err("no admin key on this server");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::FailedPrecondition, "NO_ADMIN_KEY")
    );

    let server = TestServer::start(config()).await;
    let mut c = server.client.clone();
    for (key, code, why) in [
        (None, Code::Unauthenticated, "ADMIN_KEY_REQUIRED"),
        (
            Some("not-the-admin-key"),
            Code::Unauthenticated,
            "BAD_ADMIN_KEY",
        ),
    ] {
        let e = c
            .create_tournament(with_key(request.clone(), key))
            .await
            .expect_err(why);
        assert_eq!((e.code(), reason(&e).as_str()), (code, why));
    }
    // A malformed header is a bad admin key; eleven of them block the address for bad keys,
    // not for the right key.
    let mut r = tonic::Request::new(request.clone());
    r.metadata_mut()
        .insert("authorization", "Basic abc".parse().expect("ascii"));
    let e = c.create_tournament(r).await.expect_err("malformed");
    assert_eq!(reason(&e), "BAD_ADMIN_KEY");
    for _ in 0..11 {
        let _ = c
            .create_tournament(with_key(request.clone(), Some("wrong-admin-key")))
            .await;
    }
    let e = c
        .create_tournament(with_key(request.clone(), Some("wrong-admin-key")))
        .await
        .expect_err("blocked");
    assert_eq!(reason(&e), "TOO_MANY_BAD_KEYS");
    // Bad settings are refused and nothing is stored.
    for (entrants, deals) in [
        (vec!["random", "heuristic"], 2),
        (vec!["random", "heuristic", "nobody"], 2),
        (vec!["random", "random", "heuristic"], 2),
        (vec!["random", "heuristic", "pimc"], 0),
        // A bot whose budget the server does not take is no entrant.
        (vec!["random", "heuristic", "ismcts:infer=30:pool=5000"], 2),
        (vec!["random", "heuristic", "best:ms=5000"], 2),
    ] {
        let mut r = bots_tournament(v1::TournamentFormat::RoundRobin, &entrants);
        r.deals = deals;
        let e = c
            .create_tournament(with_key(r, Some(ADMIN)))
            .await
            .expect_err("bad tournament");
        assert_eq!(reason(&e), "BAD_TOURNAMENT", "{e:?}");
    }
    // A disabled player is no entrant.
    for name in ["ann", "ben"] {
        register(&server, name).await;
    }
    server
        .store
        .read(|c| {
            players::set_disabled(c, "ben", true).map_err(|e| StoreError::Other(e.to_string()))
        })
        .await
        .expect("disable");
    let e = c
        .create_tournament(with_key(
            bots_tournament(
                v1::TournamentFormat::RoundRobin,
                &["ann", "ben", "heuristic"],
            ),
            Some(ADMIN),
        ))
        .await
        .expect_err("a disabled entrant");
    assert!(e.message().contains("disabled"), "{e:?}");
    let list = c
        .list_tournaments(v1::ListTournamentsRequest {})
        .await
        .expect("list")
        .into_inner();
    assert!(list.tournaments.is_empty());
    // The right key still passes from the blocked address.
    c.create_tournament(with_key(request.clone(), Some(ADMIN)))
        .await
        .expect("the admin key passes a block made by bad keys");
    let e = c
        .get_tournament(v1::GetTournamentRequest {
            tournament_id: "tn-nope".into(),
        })
        .await
        .expect_err("unknown");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::NotFound, "TOURNAMENT_NOT_FOUND")
    );
}

#[tokio::test]
async fn swiss_and_duplicate_tournaments_of_bots_play_their_whole_schedule() {
    let server = TestServer::start(config()).await;
    let mut c = server.client.clone();
    // Swiss: four bots in groups of three, the last group filled; two rounds.
    let swiss = c
        .create_tournament(with_key(
            bots_tournament(
                v1::TournamentFormat::Swiss,
                &["random", "heuristic", "pimc:ms=2", "pimc:ms=3"],
            ),
            Some(ADMIN),
        ))
        .await
        .expect("create swiss")
        .into_inner()
        .tournament
        .expect("tournament");
    assert_eq!(swiss.seed, None, "the seed stays hidden until the end");
    let done = finished(&server, &swiss.tournament_id).await;
    assert_eq!(done.matches.len(), 4);
    for round in 0..2 {
        let mut seated: Vec<String> = done
            .matches
            .iter()
            .filter(|m| m.round == round)
            .flat_map(|m| m.seats.clone())
            .filter(|s| !s.starts_with('~'))
            .collect();
        seated.sort();
        assert_eq!(
            seated,
            ["heuristic", "pimc:ms=2", "pimc:ms=3", "random"],
            "round {round}"
        );
    }
    assert_eq!(done.standings.len(), 4, "fillers take no place");
    assert!(done.standings.iter().all(|s| s.matches == 2 && s.bot));
    assert_eq!(done.tournament.expect("t").seed, Some(5));

    // Duplicate: three bots, two deals, every rotation of the seats: six matches, each deal's
    // three sharing their cards.
    let dup = c
        .create_tournament(with_key(
            bots_tournament(
                v1::TournamentFormat::Duplicate,
                &["random", "heuristic", "pimc:ms=2"],
            ),
            Some(ADMIN),
        ))
        .await
        .expect("create duplicate")
        .into_inner()
        .tournament
        .expect("tournament");
    let done = finished(&server, &dup.tournament_id).await;
    assert_eq!(done.matches.len(), 6);
    let mut seeds = std::collections::HashMap::new();
    for m in &done.matches {
        let record = fetch_record(&c, m.table_id.clone()).await;
        let json: serde_json::Value = serde_json::from_str(&record.record_json).expect("json");
        let seed = json["meta"]["seed"].as_u64().expect("seed");
        seeds
            .entry(seed)
            .or_insert_with(Vec::new)
            .push(m.seats.clone());
    }
    assert_eq!(seeds.len(), 2);
    for seatings in seeds.values() {
        assert_eq!(seatings.len(), 3);
        for seat in 0..3 {
            let mut who: Vec<&String> = seatings.iter().map(|s| &s[seat]).collect();
            who.sort();
            who.dedup();
            assert_eq!(who.len(), 3, "each entrant plays the deal from every seat");
        }
    }
    let hands: u32 = done.standings.iter().map(|s| s.hands).sum();
    assert!(
        hands >= 3 * 6,
        "every match has a hand for each seat: {hands}"
    );
}

#[tokio::test]
async fn a_tournament_table_a_crash_left_unseated_is_seated_by_the_scheduler() {
    let server = TestServer::start(config()).await;
    for name in ["ann", "ben", "cat"] {
        register(&server, name).await;
    }
    let mut c = server.client.clone();
    // The table as the scheduler makes it (committed deals: the scheduler seats no one at a
    // table seeded by someone else), stored before its players are seated.
    let table = c
        .create_table(v1::CreateTableRequest {
            name: "test".into(),
            options: Some(options(v1::Game::Calabresella, 1)),
            seats: vec![v1::SeatKind::Open as i32; 3],
            ..Default::default()
        })
        .await
        .expect("create table")
        .into_inner()
        .table
        .expect("table");
    let request = v1::CreateTournamentRequest {
        name: "crash".into(),
        options: Some(options(v1::Game::Calabresella, 1)),
        deals: 1,
        entrants: vec!["ann".into(), "ben".into(), "cat".into()],
        seed: Some(1),
        ..Default::default()
    };
    let row = TournamentRow {
        id: "tn-crash".into(),
        name: "crash".into(),
        request: request_hex(&request),
        state: "RUNNING".into(),
        start_unix_ms: 0,
        created_unix_ms: 0,
        secret: "5a".repeat(32),
        entrants: ["ann", "ben", "cat"]
            .iter()
            .map(|e| ((*e).to_owned(), false))
            .collect(),
    };
    let owner = server.store.instance().to_owned();
    let id = table.table_id.clone();
    server
        .store
        .read(move |c| {
            tournaments::create(c, &row, &owner)?;
            tournaments::add_matches(
                c,
                "tn-crash",
                &[MatchRow {
                    number: 0,
                    round: 0,
                    seats: vec!["ann".into(), "ben".into(), "cat".into()],
                    seed: 9,
                    table_id: String::new(),
                    over: false,
                }],
            )?;
            tournaments::set_table(c, "tn-crash", 0, &id)
        })
        .await
        .expect("store the tournament");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let t = table_of(&mut c, table.table_id.clone()).await;
        if t.seats.iter().all(|s| s.taken) {
            let names: Vec<&str> = t.seats.iter().map(|s| s.player_name.as_str()).collect();
            assert_eq!(names, ["ann", "ben", "cat"]);
            assert!(t.seats.iter().all(|s| !s.guest));
            break;
        }
        assert!(Instant::now() < deadline, "the table was not seated: {t:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn guests_are_marked_and_never_rated() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let table = create(
        &mut c,
        options(v1::Game::TressetteInDue, 1),
        vec![v1::SeatKind::Open, v1::SeatKind::BotHeuristic],
        3,
        None,
    )
    .await;
    let seats = join_all(&c, &table).await;
    let t = table_of(&mut c, table.table_id.clone()).await;
    assert!(t.seats[0].guest && !t.seats[1].guest);
    for mut s in seats {
        s.play(common::random_choice(1), |_| {})
            .await
            .expect("play");
    }
    let results = c
        .get_results(v1::GetResultsRequest::default())
        .await
        .expect("results")
        .into_inner()
        .players;
    let guest = results.iter().find(|p| !p.bot).expect("the guest's line");
    assert!(guest.guest && guest.matches == 1);
    assert_eq!((guest.mu, guest.sigma, guest.rating), (0.0, 0.0, 0.0));
    let bot = results.iter().find(|p| p.bot).expect("the bot's line");
    assert!(!bot.guest && bot.sigma > 0.0, "the bot is rated: {bot:?}");
    assert_eq!(
        results.last().map(|p| p.guest),
        Some(true),
        "guests come last"
    );
}

/// The next assignment of a Compete stream within `wait`, if any.
async fn next_assignment(
    stream: &mut tonic::Streaming<v1::CompeteResponse>,
    wait: Duration,
) -> Option<v1::Assignment> {
    match tokio::time::timeout(wait, stream.message()).await {
        Ok(Ok(Some(r))) => r.assignment,
        Ok(other) => panic!("the call ended: {other:?}"),
        Err(_) => None,
    }
}

#[tokio::test]
async fn a_duplicate_entrant_never_holds_two_seatings_of_one_deal_at_once() {
    let server = TestServer::start(config()).await;
    let key = register(&server, "ann").await;
    let mut c = server.client.clone();
    let mut calls = c
        .compete(with_key(
            v1::CompeteRequest {
                max_tables: 3,
                entropy: vec![3; 32],
            },
            Some(&key),
        ))
        .await
        .expect("compete")
        .into_inner();
    let mut r = bots_tournament(
        v1::TournamentFormat::Duplicate,
        &["ann", "random", "heuristic"],
    );
    r.deals = 1;
    // A player entrant: the deals are committed, and every seating shares them.
    r.seed = None;
    c.create_tournament(with_key(r, Some(ADMIN)))
        .await
        .expect("create");
    let first = next_assignment(&mut calls, Duration::from_secs(10))
        .await
        .expect("a first table");
    assert!(!first.seat_token.is_empty());
    // Three tables may be in play for ann, but the other two seatings share the deal: none
    // comes while the first is unfinished (ann does not play it; its clock is a minute).
    assert!(
        next_assignment(&mut calls, Duration::from_millis(1500))
            .await
            .is_none(),
        "a second seating of the same deal was sent at once"
    );
}

#[tokio::test]
async fn a_player_has_a_bounded_number_of_matchmaking_tables() {
    let server = TestServer::start(ServerConfig::default()).await;
    let key = register(&server, "ann").await;
    let mut c = server.client.clone();
    let seek = || v1::SeekRequest {
        options: Some(options(v1::Game::Calabresella, 1)),
        clock: None,
        bots_after_ms: 1,
        rating_window: 0.0,
        entropy: vec![7; 32],
        bot: String::new(),
    };
    for _ in 0..4 {
        let mut s = c
            .seek(with_key(seek(), Some(&key)))
            .await
            .expect("seek")
            .into_inner();
        let mut seated = None;
        while let Some(m) = s.message().await.expect("seek stream") {
            if let Some(v1::seek_response::Event::Seated(a)) = m.event {
                seated = Some(a);
            }
        }
        let a = seated.expect("seated with bots");
        let t = table_of(&mut c, a.table_id).await;
        assert_eq!(t.seats[a.seat as usize].player_name, "ann");
    }
    let e = c
        .seek(with_key(seek(), Some(&key)))
        .await
        .expect_err("a fifth unfinished table");
    assert_eq!(reason(&e), "TOO_MANY_TABLES_FOR_CLIENT");
    // Without a key there is no seeking at all.
    let e = c.seek(with_key(seek(), None)).await.expect_err("no key");
    assert_eq!(reason(&e), "KEY_REQUIRED");
}

#[tokio::test]
async fn stopping_the_server_ends_compete_calls_and_seeks_with_unavailable() {
    let server = TestServer::start(config()).await;
    let ann = register(&server, "ann").await;
    let ben = register(&server, "ben").await;
    let mut c = server.client.clone();
    let mut call = c
        .compete(with_key(
            v1::CompeteRequest {
                max_tables: 1,
                entropy: Vec::new(),
            },
            Some(&ann),
        ))
        .await
        .expect("compete")
        .into_inner();
    let mut seek = c
        .seek(with_key(
            v1::SeekRequest {
                options: Some(options(v1::Game::Calabresella, 1)),
                ..Default::default()
            },
            Some(&ben),
        ))
        .await
        .expect("seek")
        .into_inner();
    let waiting = seek.message().await.expect("waiting").expect("a message");
    assert!(matches!(
        waiting.event,
        Some(v1::seek_response::Event::Waiting(_))
    ));
    let stopped = tokio::time::timeout(Duration::from_secs(10), server.shut_down()).await;
    assert!(stopped.is_ok(), "the server did not stop with calls open");
    let e = tokio::time::timeout(Duration::from_secs(5), call.message())
        .await
        .expect("the call ends")
        .expect_err("the call ends with an error");
    assert_eq!(e.code(), Code::Unavailable, "{e:?}");
    let e = tokio::time::timeout(Duration::from_secs(5), seek.message())
        .await
        .expect("the seek ends")
        .expect_err("the seek ends with an error");
    assert_eq!(e.code(), Code::Unavailable, "{e:?}");
}

#[tokio::test]
async fn a_committed_duplicate_tournament_reveals_its_secret_and_its_records_verify_together() {
    use calabresella_engine::fair;
    use calabresella_engine::record::Record;
    let server = TestServer::start(config()).await;
    let mut c = server.client.clone();
    let mut r = bots_tournament(
        v1::TournamentFormat::Duplicate,
        &["random", "heuristic", "pimc:ms=2"],
    );
    // No seed: the tournament's deals are committed.
    r.seed = None;
    let created = c
        .create_tournament(with_key(r, Some(ADMIN)))
        .await
        .expect("create")
        .into_inner()
        .tournament
        .expect("tournament");
    assert_eq!(created.deal_scheme, fair::SCHEME);
    assert!(!created.seeded && created.secret.is_empty());
    assert_eq!(created.commitment.len(), 64);
    let listed = c
        .list_tournaments(v1::ListTournamentsRequest::default())
        .await
        .expect("list")
        .into_inner()
        .tournaments;
    let shown = listed
        .iter()
        .find(|t| t.tournament_id == created.tournament_id)
        .expect("listed");
    assert_eq!(shown.commitment, created.commitment);
    assert!(shown.state == v1::TournamentState::Finished as i32 || shown.secret.is_empty());

    let done = finished(&server, &created.tournament_id).await;
    let t = done.tournament.clone().expect("tournament");
    let secret: [u8; 32] = fair::unhex(&t.secret)
        .and_then(|b| b.try_into().ok())
        .expect("the secret is revealed at the end");
    assert_eq!(fair::hex(&fair::commitment(&secret)), created.commitment);

    let dir = tempfile::tempdir().expect("tempdir");
    let mut records = Vec::new();
    let mut files = Vec::new();
    for m in &done.matches {
        let text = fetch_record(&c, m.table_id.clone()).await.record_json;
        let path = dir.path().join(format!("{}.json", m.number));
        std::fs::write(&path, &text).expect("write");
        files.push(path);
        records.push(Record::parse(&text).expect("a record"));
    }
    // Each seating of a duplicate deal shares its table secret with the others, so a table
    // withholds it until the whole tournament is over: the store keeps the record without
    // it, and GetRecord fills it in only once the tournament is finished.
    let first = done.matches[0].table_id.clone();
    let stored = server
        .store
        .record(first.clone())
        .await
        .expect("store")
        .expect("stored");
    let stored = Record::parse(&stored).expect("a record");
    let deals = &stored.meta.as_ref().expect("meta")["deals"];
    assert!(deals["secret"].is_null(), "{deals}");
    let e = fair::verify(&stored).expect_err("withheld");
    assert!(e.to_string().contains("tournament"), "{e}");
    let tid = t.tournament_id.clone();
    let set_state = |state: &'static str| {
        let tid = tid.clone();
        server
            .store
            .read(move |c| calabresella_server::store::tournaments::set_state(c, &tid, state))
    };
    set_state("RUNNING").await.expect("state");
    let running = fetch_record(&c, first.clone()).await.record_json;
    assert!(
        Record::parse(&running)
            .expect("a record")
            .meta
            .expect("meta")["deals"]["secret"]
            .is_null(),
        "a running tournament's table shows no secret"
    );
    set_state("FINISHED").await.expect("state");
    // The CLI derives a withheld secret from the tournament's.
    let withheld = dir.path().join("withheld.json");
    std::fs::write(&withheld, &running).expect("write");
    let derived = std::process::Command::new(env!("CARGO_BIN_EXE_calabresella"))
        .arg("verify")
        .args(["--tournament-secret", &t.secret])
        .arg(&withheld)
        .output()
        .expect("run verify");
    assert!(
        derived.status.success(),
        "{}",
        String::from_utf8_lossy(&derived.stdout)
    );

    // Two deals, three seatings each: every seating of a deal got the same cards.
    let v = fair::verify_tournament(&secret, &records).expect("the records verify together");
    assert_eq!((v.records, v.labels, v.shared), (6, 2, 2));
    let (i, e) = fair::verify_tournament(&[9; 32], &records).expect_err("another secret");
    assert_eq!(i, 0);
    assert!(
        e.to_string().contains("does not match the commitment"),
        "{e}"
    );
    // One record of another tournament's secret (a forged table secret) fails by its index.
    let mut forged = records.clone();
    if let Some(d) = forged[3].meta.as_mut().and_then(|m| m.get_mut("deals")) {
        d["tournament"]["label"] = serde_json::json!("1");
    }
    let (i, e) = fair::verify_tournament(&secret, &forged).expect_err("a wrong label");
    assert_eq!(i, 3, "{e}");

    // The command line says the same.
    let verify = |secret: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_calabresella"))
            .arg("verify")
            .args(["--tournament-secret", secret])
            .args(&files)
            .output()
            .expect("run verify")
    };
    let ok = verify(&t.secret);
    let out = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{out}");
    assert!(
        out.contains(&format!(
            "tournament {} verified: 6 records",
            t.tournament_id
        )),
        "{out}"
    );
    let bad = verify(&"ab".repeat(32));
    let out = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{out}");
    assert!(out.contains("FAILED") && out.contains("0.json"), "{out}");
}

#[tokio::test]
async fn a_tournament_seed_is_refused_when_a_player_could_know_the_deals() {
    let server = TestServer::start(config()).await;
    register(&server, "ann").await;
    let mut c = server.client.clone();
    let with_player = bots_tournament(
        v1::TournamentFormat::RoundRobin,
        &["ann", "random", "heuristic"],
    );
    let mut open = bots_tournament(
        v1::TournamentFormat::RoundRobin,
        &["random", "heuristic", "pimc:ms=2"],
    );
    open.open_registration = true;
    for r in [with_player, open] {
        let e = c
            .create_tournament(with_key(r, Some(ADMIN)))
            .await
            .expect_err("a seed with a player");
        assert_eq!(
            (e.code(), reason(&e).as_str()),
            (Code::InvalidArgument, "BAD_TOURNAMENT")
        );
        assert!(e.message().contains("seed"), "{}", e.message());
    }
    let listed = c
        .list_tournaments(v1::ListTournamentsRequest::default())
        .await
        .expect("list")
        .into_inner()
        .tournaments;
    assert!(listed.is_empty(), "nothing is stored: {listed:?}");
}

#[tokio::test]
async fn seek_and_compete_contributions_reach_their_tables() {
    let server = TestServer::start(config()).await;
    let ann = register(&server, "ann").await;
    let ben = register(&server, "ben").await;
    let mut c = server.client.clone();

    // Over 64 bytes is refused by both, before anything is scheduled.
    let e = c
        .seek(with_key(
            v1::SeekRequest {
                options: Some(options(v1::Game::Calabresella, 1)),
                entropy: vec![1; 65],
                ..Default::default()
            },
            Some(&ben),
        ))
        .await
        .expect_err("too long");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::InvalidArgument, "BAD_ENTROPY")
    );
    let e = c
        .compete(with_key(
            v1::CompeteRequest {
                max_tables: 1,
                entropy: vec![1; 65],
            },
            Some(&ann),
        ))
        .await
        .expect_err("too long");
    assert_eq!(
        (e.code(), reason(&e).as_str()),
        (Code::InvalidArgument, "BAD_ENTROPY")
    );

    // Seek: the seat's contribution is the one sent, shown once the match starts.
    let mut s = c
        .seek(with_key(
            v1::SeekRequest {
                options: Some(options(v1::Game::Calabresella, 1)),
                bots_after_ms: 1,
                entropy: vec![7; 32],
                ..Default::default()
            },
            Some(&ben),
        ))
        .await
        .expect("seek")
        .into_inner();
    let mut seated = None;
    while let Some(m) = s.message().await.expect("seek stream") {
        if let Some(v1::seek_response::Event::Seated(a)) = m.event {
            seated = Some(a);
        }
    }
    let a = seated.expect("seated with bots");
    let t = table_of(&mut c, a.table_id).await;
    assert_eq!(t.state, v1::TableState::Playing as i32);
    assert_eq!(t.seats[a.seat as usize].entropy, vec![7; 32]);
    assert!(!t.seeded && t.commitment.len() == 64);

    // Compete: a committed round robin; ann's bytes are her seat's at every table she gets.
    let mut call = c
        .compete(with_key(
            v1::CompeteRequest {
                max_tables: 1,
                entropy: vec![3; 32],
            },
            Some(&ann),
        ))
        .await
        .expect("compete")
        .into_inner();
    let mut r = bots_tournament(
        v1::TournamentFormat::RoundRobin,
        &["ann", "random", "heuristic"],
    );
    r.seed = None;
    let created = c
        .create_tournament(with_key(r, Some(ADMIN)))
        .await
        .expect("create")
        .into_inner()
        .tournament
        .expect("tournament");
    let given = next_assignment(&mut call, Duration::from_secs(10))
        .await
        .expect("a table");
    let t = table_of(&mut c, given.table_id.clone()).await;
    assert_eq!(t.state, v1::TableState::Playing as i32);
    assert_eq!(t.seats[given.seat as usize].entropy, vec![3; 32]);
    // While it runs, GetTournament shows the commitment and not the secret.
    let running = c
        .get_tournament(v1::GetTournamentRequest {
            tournament_id: created.tournament_id.clone(),
        })
        .await
        .expect("get")
        .into_inner()
        .tournament
        .expect("tournament");
    assert_eq!(running.commitment, created.commitment);
    assert_eq!(running.commitment.len(), 64);
    assert!(running.secret.is_empty());
}

/// A tournament's match is analysed only once the whole tournament is over: until then its
/// deals may be in play at the tournament's other tables.
#[tokio::test]
async fn a_tournament_match_is_analysed_only_once_the_tournament_is_over() {
    let server = TestServer::start(config()).await;
    // ann is entered and never plays: the tables with her wait, the tournament stays in play.
    register(&server, "ann").await;
    let mut c = server.client.clone();
    let mut r = bots_tournament(
        v1::TournamentFormat::RoundRobin,
        &["ann", "random", "heuristic", "pimc"],
    );
    r.deals = 1;
    r.seed = None;
    let id = c
        .create_tournament(with_key(r, Some(ADMIN)))
        .await
        .expect("create")
        .into_inner()
        .tournament
        .expect("tournament")
        .tournament_id;
    // The bots' own table finishes.
    let deadline = Instant::now() + Duration::from_secs(60);
    let table = loop {
        let t = c
            .get_tournament(v1::GetTournamentRequest {
                tournament_id: id.clone(),
            })
            .await
            .expect("get tournament")
            .into_inner();
        if let Some(m) = t
            .matches
            .iter()
            .find(|m| m.state == v1::TableState::Finished as i32)
        {
            break m.table_id.clone();
        }
        assert!(Instant::now() < deadline, "no table finished: {t:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let refused = c
        .analyse_record(v1::AnalyseRecordRequest {
            table_id: table.clone(),
            budget_ms: 0,
            seed: 0,
        })
        .await
        .expect_err("a match of a tournament in play");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "MATCH_IN_PROGRESS");
    assert!(
        refused.message().contains("tournament"),
        "{}",
        refused.message()
    );
}

#[tokio::test]
async fn a_tournament_shows_each_outcome_and_a_cross_table_and_its_players_have_pages() {
    let server = TestServer::start(config()).await;
    let mut c = server.client.clone();
    let t = c
        .create_tournament(with_key(
            bots_tournament(
                v1::TournamentFormat::RoundRobin,
                &["random", "heuristic", "pimc:ms=2"],
            ),
            Some(ADMIN),
        ))
        .await
        .expect("create")
        .into_inner()
        .tournament
        .expect("tournament");
    let done = finished(&server, &t.tournament_id).await;
    assert_eq!(done.matches.len(), 2);
    // Each match's outcome agrees with the standings' wins.
    for s in &done.standings {
        let wins: u32 = done
            .matches
            .iter()
            .map(|m| {
                assert_eq!(m.totals.len(), 3, "{m:?}");
                assert_eq!(m.won.len(), 3, "{m:?}");
                let seat = m
                    .seats
                    .iter()
                    .position(|e| *e == s.entrant)
                    .expect("seated");
                u32::from(m.won[seat])
            })
            .sum();
        assert_eq!(wins, s.wins, "{}", s.entrant);
    }
    // The cross-table: every ordered pair met twice; each side of a pair mirrors the other.
    assert_eq!(done.cross_table.len(), 6);
    for cell in &done.cross_table {
        assert_eq!(cell.matches, 2);
        assert_eq!(cell.wins + cell.draws + cell.losses, 2);
        let back = done
            .cross_table
            .iter()
            .find(|o| o.entrant == cell.opponent && o.opponent == cell.entrant)
            .expect("the mirror cell");
        assert_eq!(
            (cell.wins, cell.draws, cell.losses),
            (back.losses, back.draws, back.wins)
        );
    }

    // A built-in bot's page, asked for by its spec or by the name tables show.
    let page = c
        .get_player(v1::GetPlayerRequest {
            player_name: "heuristic".into(),
        })
        .await
        .expect("the bot's page")
        .into_inner();
    assert_eq!(page.player_name, "heuristic bot");
    assert!(page.bot && !page.registered);
    assert_eq!(page.games.len(), 1);
    let game = &page.games[0];
    assert_eq!(game.game, v1::Game::Calabresella as i32);
    let result = game.result.clone().expect("result");
    assert_eq!(result.matches, 2);
    assert_eq!(game.history.len(), 2);
    assert_eq!(
        game.history[1].rating, result.rating,
        "the last point is today's rating"
    );
    assert!(game.history[0].ended_unix_ms <= game.history[1].ended_unix_ms);
    // It matches the results table.
    let table = c
        .get_results(v1::GetResultsRequest {
            game: v1::Game::Calabresella as i32,
            people_only: false,
        })
        .await
        .expect("results")
        .into_inner();
    let line = table
        .players
        .iter()
        .find(|p| p.player_name == "heuristic bot")
        .expect("in the results");
    assert_eq!(line.rating, result.rating);
    assert_eq!(page.recent.len(), 2);
    for m in &page.recent {
        assert_eq!(m.players[m.seat as usize], "heuristic bot");
        assert!(done.matches.iter().any(|d| d.table_id == m.table_id));
    }
    assert_eq!(page.opponents.len(), 2);
    let by_name = |p: &v1::GetPlayerResponse, name: &str| {
        p.opponents
            .iter()
            .find(|o| o.opponent == name)
            .cloned()
            .expect("opponent")
    };
    let vs_random = by_name(&page, "random bot");
    assert_eq!(vs_random.matches, 2);
    let random = c
        .get_player(v1::GetPlayerRequest {
            player_name: "random bot".into(),
        })
        .await
        .expect("random's page")
        .into_inner();
    let back = by_name(&random, "heuristic bot");
    assert_eq!(
        (vs_random.wins, vs_random.draws, vs_random.losses),
        (back.losses, back.draws, back.wins)
    );
}

#[tokio::test]
async fn who_am_i_and_player_pages_refuse_what_they_should() {
    let server = TestServer::start(config()).await;
    let mut c = server.client.clone();
    let key = register(&server, "Ann Example").await;
    let me = c
        .who_am_i(with_key(v1::WhoAmIRequest {}, Some(&key)))
        .await
        .expect("signed in")
        .into_inner();
    assert_eq!(me.player_name, "Ann Example");
    let none = c.who_am_i(v1::WhoAmIRequest {}).await.expect_err("no key");
    assert_eq!(
        (none.code(), reason(&none).as_str()),
        (Code::Unauthenticated, "KEY_REQUIRED")
    );
    let bad = c
        .who_am_i(with_key(
            v1::WhoAmIRequest {},
            Some(&format!("cbk_{}", "0".repeat(64))),
        ))
        .await
        .expect_err("bad key");
    assert_eq!(
        (bad.code(), reason(&bad).as_str()),
        (Code::Unauthenticated, "BAD_KEY")
    );
    // A registered player with no match yet has a page, found by any case.
    let page = c
        .get_player(v1::GetPlayerRequest {
            player_name: "ann EXAMPLE".into(),
        })
        .await
        .expect("page")
        .into_inner();
    assert_eq!(page.player_name, "Ann Example");
    assert!(page.registered && !page.bot);
    assert!(page.games.is_empty() && page.recent.is_empty() && page.opponents.is_empty());
    for (name, code, why) in [
        ("nobody at all", Code::NotFound, "PLAYER_NOT_FOUND"),
        ("", Code::InvalidArgument, "BAD_NAME"),
        ("a\u{202e}b", Code::InvalidArgument, "BAD_NAME"),
        (&"x".repeat(201), Code::InvalidArgument, "BAD_NAME"),
    ] {
        let e = c
            .get_player(v1::GetPlayerRequest {
                player_name: name.to_owned(),
            })
            .await
            .expect_err(name);
        assert_eq!((e.code(), reason(&e).as_str()), (code, why), "{name:?}");
    }
}
