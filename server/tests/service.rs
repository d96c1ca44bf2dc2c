//! The service over real gRPC on 127.0.0.1:0: full matches of every game, every status code,
//! idempotent retries, reconnects, clocks, spectators, shutdown, gRPC-web, and the
//! observation-leak test over the wire.

mod common;

use std::collections::HashSet;
use std::time::Duration;

use calabresella_client::RemoteSeat;
use calabresella_engine::Seat;
use calabresella_engine::game::Rules;
use calabresella_engine::record::{Record, RecordAction, replay_json};
use calabresella_proto::convert;
use calabresella_proto::v1;
use calabresella_server::ServerConfig;
use calabresella_server::table::session::Session;
use common::*;
use tokio_stream::StreamExt;
use tonic::Code;

/// Every configuration the full-match and leak tests cover.
fn configurations() -> Vec<(&'static str, v1::GameOptions)> {
    let cal = |f: fn(&mut v1::CalabresellaOptions)| {
        let mut o = v1::CalabresellaOptions {
            target: Some(4),
            ..Default::default()
        };
        f(&mut o);
        v1::GameOptions {
            settings: Default::default(),
            game: v1::Game::Calabresella as i32,
            rules: Some(v1::game_options::Rules::Calabresella(o)),
        }
    };
    vec![
        ("calabresella 4 players", cal(|o| o.players = Some(4))),
        ("calabresella aperta", cal(|o| o.aperta = Some(true))),
        ("calabresella a due", cal(|o| o.a_due = Some(true))),
    ]
    .into_iter()
    .chain(
        // Every registered game with its default rules (to a short target).
        calabresella_engine::game::game_names()
            .into_iter()
            .filter_map(|name| convert::game_by_name(name).map(|g| (name, options(g, 4)))),
    )
    .collect()
}

/// The engine's own view of hand `hand` for `viewer` in `s`, as wire cards.
fn known_cards(s: &Session, hand: usize, viewer: Option<u32>) -> HashSet<String> {
    let seat = viewer.and_then(|v| Seat::new(v as u8));
    let obs = s.hand_observation(hand, seat);
    let mut out = Vec::new();
    if let Some(o) = obs {
        cards_in_observation(&o, &mut out);
    }
    out.into_iter().collect()
}

/// Replays `actions` into `replica` up to `n` actions.
fn advance(
    replica: &mut Session,
    applied: &mut usize,
    n: usize,
    actions: &[(Seat, calabresella_engine::Action)],
) {
    while *applied < n.min(actions.len()) {
        let (seat, a) = actions[*applied];
        replica.apply(seat, a).expect("recorded action replays");
        *applied += 1;
    }
}

/// Checks that every card in every update `viewer` received was one the rules let it see at
/// that moment: the oracle is the engine's observation of a replica replayed from the record
/// to the same decision.
fn check_no_leak(
    label: &str,
    rules: &Rules,
    seed: u64,
    actions: &[(Seat, calabresella_engine::Action)],
    viewer: Option<u32>,
    updates: &[v1::Update],
) {
    let mut replica = Session::seeded(rules, seed, None).expect("replica");
    let mut applied = 0usize;
    let mut hand = 0usize;
    let mut after_turn: usize = 0;
    for u in updates {
        let (target, h) = match &u.kind {
            Some(v1::update::Kind::Snapshot(s)) => {
                let n = s.turn.as_ref().map_or(0, |t| t.decision as usize);
                hand = s.observation.as_ref().map_or(0, |o| o.hand_number as usize);
                // Events after a snapshot come from answering its pending decision.
                after_turn = s.turn.as_ref().map_or(0, |t| t.decision as usize + 1);
                (n, hand)
            }
            Some(v1::update::Kind::HandStarted(h)) => {
                hand = h.hand_number as usize;
                (after_turn, hand)
            }
            Some(v1::update::Kind::Turn(t)) => {
                after_turn = t.decision as usize + 1;
                (t.decision as usize, hand)
            }
            Some(v1::update::Kind::HandRevealed(r)) => {
                assert!(
                    viewer.is_none(),
                    "{label}: seat {viewer:?} got a HandRevealed"
                );
                advance(&mut replica, &mut applied, after_turn, actions);
                assert!(
                    replica.hand_over(r.hand_number as usize),
                    "{label}: revealed a hand in play"
                );
                (after_turn, r.hand_number as usize)
            }
            _ => (after_turn, hand),
        };
        advance(&mut replica, &mut applied, target, actions);
        // A turn riding on this update is due in this same state; later events come from it.
        if let Some(t) = &u.next_turn {
            assert_eq!(
                t.decision as usize, target,
                "{label}: the attached turn is the next decision"
            );
            after_turn = target + 1;
        }
        if matches!(u.kind, Some(v1::update::Kind::HandRevealed(_))) {
            continue;
        }
        let known = known_cards(&replica, h, viewer);
        for c in cards_in_update(u) {
            assert!(
                known.contains(&c),
                "{label}: viewer {viewer:?} got {c} it may not see (update {}: {:?})",
                u.seq,
                u.kind
            );
        }
    }
}

/// The record's actions with their seats.
fn record_actions(record: &Record) -> Vec<(Seat, calabresella_engine::Action)> {
    record
        .hands
        .iter()
        .flat_map(|h| h.actions.iter())
        .map(|a| match a {
            RecordAction::Detailed { seat, action, .. } => (
                Seat::new(*seat).expect("seat"),
                action.parse().expect("action"),
            ),
            RecordAction::Plain(_) => panic!("server records name seats"),
        })
        .collect()
}

async fn play_match(server: &TestServer, label: &str, opts: v1::GameOptions, seed: u64) {
    let mut client = server.client.clone();
    let rules = convert::rules_from_wire(&opts).expect("rules");
    let table = create(&mut client, opts, vec![], seed, None).await;
    let mut spectator = client
        .spectate(v1::SpectateRequest {
            table_id: table.table_id.clone(),
            ..Default::default()
        })
        .await
        .expect("spectate")
        .into_inner();
    let seats = join_all(&client, &table).await;
    let mut tasks = Vec::new();
    for mut seat in seats {
        let choose = random_choice(seed ^ u64::from(seat.seat) << 8);
        tasks.push(tokio::spawn(async move {
            let mut updates = Vec::new();
            let end = seat
                .play(choose, |u| updates.push(u.clone()))
                .await
                .expect("play");
            (seat.seat, end, updates)
        }));
    }
    let mut public = Vec::new();
    while let Some(r) = spectator.next().await {
        public.push(r.expect("spectator update").update.expect("update"));
    }
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.expect("seat task"));
    }
    let record_json = fetch_record(&client, table.table_id.clone()).await;
    assert!(record_json.match_over, "{label}");
    let record = Record::parse(&record_json.record_json).expect("valid record");
    let replay = replay_json(&record).expect("record replays");
    assert_eq!(replay["match"]["over"], true, "{label}");
    let end = &results[0].1;
    assert_eq!(end.reason, v1::EndReason::Completed as i32, "{label}");
    let result = end.result.as_ref().expect("result");
    assert_eq!(
        replay["match"]["totals"],
        serde_json::json!(result.signed_totals),
        "{label}: totals of the stream and the record agree"
    );
    for (_, e, _) in &results {
        assert_eq!(e, end, "{label}: every seat sees the same end");
    }
    assert!(matches!(
        public.last().and_then(|u| u.kind.as_ref()),
        Some(v1::update::Kind::MatchEnded(_))
    ));
    // The leak test over the wire, for every seat and the spectator.
    let actions = record_actions(&record);
    for (seat, _, updates) in &results {
        check_no_leak(label, &rules, seed, &actions, Some(*seat), updates);
    }
    check_no_leak(label, &rules, seed, &actions, None, &public);
    // The spectator saw each finished hand's deal, and only then.
    let revealed = public
        .iter()
        .filter(|u| matches!(u.kind, Some(v1::update::Kind::HandRevealed(_))))
        .count();
    assert_eq!(revealed as u32, result.hands, "{label}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn full_matches_of_every_game_never_show_a_seat_a_card_it_may_not_see() {
    let server = TestServer::start(ServerConfig::default()).await;
    for seed in 1..=4u64 {
        for (label, opts) in configurations() {
            tokio::time::timeout(
                Duration::from_secs(120),
                play_match(&server, label, opts, seed * 7919),
            )
            .await
            .unwrap_or_else(|_| panic!("{label}: the match did not finish"));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bots_plays_its_match_alone_and_health_and_grpc_web_answer() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut client = server.client.clone();
    let bots = vec![
        v1::SeatKind::BotHeuristic,
        v1::SeatKind::BotRandom,
        v1::SeatKind::BotHeuristic,
    ];
    let table = create(
        &mut client,
        options(v1::Game::Calabresella, 21),
        bots,
        5,
        None,
    )
    .await;
    let mut s = client
        .spectate(v1::SpectateRequest {
            table_id: table.table_id.clone(),
            ..Default::default()
        })
        .await
        .expect("spectate")
        .into_inner();
    let mut last = None;
    while let Some(u) = s.next().await {
        last = u.expect("update").update;
    }
    let Some(v1::update::Kind::MatchEnded(end)) = last.and_then(|u| u.kind) else {
        panic!("the stream ends with MatchEnded");
    };
    assert_eq!(end.reason, v1::EndReason::Completed as i32);
    let t = table_of(&mut client, table.table_id.clone()).await;
    assert_eq!(t.state, v1::TableState::Finished as i32);
    assert!(t.totals.iter().any(|&x| x >= 21));

    // Listing: newest first, filtered by state, paged.
    let open = create(
        &mut client,
        options(v1::Game::Tressette, 21),
        vec![],
        6,
        None,
    )
    .await;
    let list = |state: v1::TableState, page_size: u32, page_token: String| v1::ListTablesRequest {
        state: state as i32,
        page_size,
        page_token,
    };
    let all = client
        .list_tables(list(v1::TableState::Unspecified, 0, String::new()))
        .await
        .expect("list")
        .into_inner();
    let ids: Vec<&str> = all.tables.iter().map(|t| t.table_id.as_str()).collect();
    assert_eq!(ids, vec![open.table_id.as_str(), table.table_id.as_str()]);
    let finished = client
        .list_tables(list(v1::TableState::Finished, 0, String::new()))
        .await
        .expect("list")
        .into_inner();
    assert_eq!(finished.tables.len(), 1);
    assert_eq!(finished.tables[0].table_id, table.table_id);
    let first = client
        .list_tables(list(v1::TableState::Unspecified, 1, String::new()))
        .await
        .expect("list")
        .into_inner();
    assert_eq!(first.tables.len(), 1);
    let second = client
        .list_tables(list(
            v1::TableState::Unspecified,
            1,
            first.next_page_token.clone(),
        ))
        .await
        .expect("list")
        .into_inner();
    assert_eq!(second.tables[0].table_id, table.table_id);
    assert!(second.next_page_token.is_empty());
    let bad = client
        .list_tables(list(v1::TableState::Unspecified, 1, "x".into()))
        .await
        .expect_err("bad token");
    assert_eq!(reason(&bad), "BAD_PAGE_TOKEN");

    // Health.
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .connect()
        .await
        .expect("connect");
    let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
    let h = health
        .check(tonic_health::pb::HealthCheckRequest {
            service: "calabresella.v1.TableService".into(),
        })
        .await
        .expect("health")
        .into_inner();
    assert_eq!(
        h.status,
        tonic_health::pb::health_check_response::ServingStatus::Serving as i32
    );

    // gRPC-web over HTTP/1.1, as a browser sends it.
    use prost::Message;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let msg = v1::GetTableRequest {
        table_id: table.table_id.clone(),
    }
    .encode_to_vec();
    let mut body = vec![0u8];
    body.extend((msg.len() as u32).to_be_bytes());
    body.extend(msg);
    let mut tcp = tokio::net::TcpStream::connect(server.addr)
        .await
        .expect("tcp");
    let head = format!(
        "POST /calabresella.v1.TableService/GetTable HTTP/1.1\r\nHost: localhost\r\nOrigin: http://example.test\r\nContent-Type: application/grpc-web+proto\r\nX-Grpc-Web: 1\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    tcp.write_all(head.as_bytes()).await.expect("write");
    tcp.write_all(&body).await.expect("write");
    let mut response = Vec::new();
    tcp.read_to_end(&mut response).await.expect("read");
    let text = String::from_utf8_lossy(&response).to_lowercase();
    assert!(text.starts_with("http/1.1 200"), "{text}");
    assert!(text.contains("access-control-allow-origin"), "{text}");
    assert!(text.contains("grpc-status:0"), "{text}");
    assert!(text.contains(&table.table_id), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undecodable_and_oversized_requests_and_old_reflection_clients_get_real_answers() {
    let server = TestServer::start(ServerConfig::default()).await;
    let channel = tonic::transport::Channel::from_shared(format!("http://{}", server.addr))
        .expect("uri")
        .connect()
        .await
        .expect("connect");
    // A body that is not a GetTableRequest: `bytes` in field 1 that are not UTF-8 text,
    // where the message has a string.
    let path = http::uri::PathAndQuery::from_static("/calabresella.v1.TableService/GetTable");
    let send = |body: Vec<u8>| {
        let mut grpc = tonic::client::Grpc::new(channel.clone());
        let path = path.clone();
        async move {
            grpc.ready().await.expect("ready");
            grpc.unary(
                tonic::Request::new(body),
                path,
                tonic_prost::ProstCodec::<Vec<u8>, v1::GetTableResponse>::default(),
            )
            .await
        }
    };
    expect_code(
        send(vec![0xff, 0xfe, 0xfd]).await,
        Code::InvalidArgument,
        "MALFORMED_REQUEST",
    )
    .await;
    // Over the server's 64 KiB request limit.
    let e = send(vec![b'a'; 70_000]).await.expect_err("too large");
    assert_eq!(e.code(), Code::ResourceExhausted, "{e:?}");
    assert_eq!(reason(&e), "REQUEST_TOO_LARGE");
    assert!(e.message().contains("65536"), "{e:?}");
    // The server still answers well-formed calls on the same connection.
    let mut client = server.client.clone();
    client
        .list_tables(v1::ListTablesRequest::default())
        .await
        .expect("list");
    // A refusal that quotes a long input stays a clear refusal: the quote is cut, so the status
    // fits the trailers every client accepts.
    let table = create(
        &mut client,
        options(v1::Game::TressetteInDue, 11),
        vec![v1::SeatKind::Open, v1::SeatKind::BotRandom],
        3,
        None,
    )
    .await;
    let mut seat = RemoteSeat::join(client.clone(), &table.table_id, Some(0), "quoter")
        .await
        .expect("join");
    let long = v1::Action {
        notation: format!("play {}", "Z".repeat(20_000)),
        ..v1::Action::default()
    };
    let e = seat.act_once(0, long).await.expect_err("not an action");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert_eq!(reason(&e), "BAD_ACTION");
    assert!(e.message().len() <= 512, "{}", e.message().len());

    // Reflection answers the v1alpha protocol as well as v1.
    use tonic_reflection::pb::v1alpha as alpha;
    let mut reflection =
        alpha::server_reflection_client::ServerReflectionClient::new(channel.clone());
    let ask = alpha::ServerReflectionRequest {
        host: String::new(),
        message_request: Some(
            alpha::server_reflection_request::MessageRequest::ListServices(String::new()),
        ),
    };
    let mut answers = reflection
        .server_reflection_info(tokio_stream::iter([ask]))
        .await
        .expect("v1alpha reflection")
        .into_inner();
    let answer = answers.next().await.expect("an answer").expect("ok");
    let Some(alpha::server_reflection_response::MessageResponse::ListServicesResponse(list)) =
        answer.message_response
    else {
        panic!("not a service list: {answer:?}");
    };
    assert!(
        list.service
            .iter()
            .any(|s| s.name == "calabresella.v1.TableService"),
        "{list:?}"
    );
}

async fn expect_code<T: std::fmt::Debug>(
    r: Result<tonic::Response<T>, tonic::Status>,
    code: Code,
    why: &str,
) {
    let e = r.expect_err(why);
    assert_eq!(e.code(), code, "{why}: {e:?}");
    assert_eq!(reason(&e), why, "{e:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_status_code_is_returned_with_its_reason_and_changes_nothing() {
    let config = ServerConfig {
        max_tables: 3,
        max_streams_per_table: 3,
        max_streams_per_seat: 2,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();

    // INVALID_ARGUMENT on creation.
    let bad_opts = v1::GameOptions {
        settings: Default::default(),
        game: v1::Game::Calabresella as i32,
        rules: Some(v1::game_options::Rules::Calabresella(
            v1::CalabresellaOptions {
                players: Some(7),
                ..Default::default()
            },
        )),
    };
    let req = |o: Option<v1::GameOptions>, seats: Vec<i32>| v1::CreateTableRequest {
        options: o,
        seats,
        ..Default::default()
    };
    expect_code(
        c.create_table(req(Some(bad_opts), vec![])).await,
        Code::InvalidArgument,
        "BAD_OPTIONS",
    )
    .await;
    expect_code(
        c.create_table(req(None, vec![])).await,
        Code::InvalidArgument,
        "BAD_OPTIONS",
    )
    .await;
    expect_code(
        c.create_table(req(Some(options(v1::Game::Tressette, 21)), vec![1, 1]))
            .await,
        Code::InvalidArgument,
        "BAD_SEATS",
    )
    .await;

    // NOT_FOUND.
    expect_code(
        c.get_table(v1::GetTableRequest {
            table_id: "t-nope".into(),
        })
        .await,
        Code::NotFound,
        "TABLE_NOT_FOUND",
    )
    .await;
    // A huge table id is refused without being echoed (its message stays short).
    let huge = c
        .get_table(v1::GetTableRequest {
            table_id: "t".repeat(10_000),
        })
        .await
        .expect_err("a 10 KB table id");
    assert_eq!(
        (huge.code(), reason(&huge).as_str()),
        (Code::InvalidArgument, "BAD_TABLE_ID")
    );
    assert!(huge.message().len() < 100, "{}", huge.message());
    // A page token that overflows is not one this server gave.
    expect_code(
        c.list_tables(v1::ListTablesRequest {
            page_token: u64::MAX.to_string(),
            ..Default::default()
        })
        .await,
        Code::InvalidArgument,
        "BAD_PAGE_TOKEN",
    )
    .await;

    // A two-seat table: seat 0 and seat 1 both people.
    let table = create(
        &mut c,
        options(v1::Game::TressetteInDue, 21),
        vec![],
        11,
        None,
    )
    .await;
    let id = table.table_id.clone();
    let mut first = RemoteSeat::join(c.clone(), &id, Some(0), "ann")
        .await
        .expect("join");
    let act = |token: &str, decision: u64, notation: &str| v1::ActRequest {
        table_id: id.clone(),
        seat_token: token.into(),
        decision,
        action: Some(v1::Action {
            notation: notation.into(),
            ..Default::default()
        }),
    };
    // Before the match starts.
    expect_code(
        c.act(act(&first.token, 0, "play Ad")).await,
        Code::FailedPrecondition,
        "NOT_STARTED",
    )
    .await;
    expect_code(
        c.join_table(v1::JoinTableRequest {
            table_id: id.clone(),
            seat: Some(0),
            player_name: "bob".into(),
            ..Default::default()
        })
        .await,
        Code::FailedPrecondition,
        "SEAT_TAKEN",
    )
    .await;
    expect_code(
        c.join_table(v1::JoinTableRequest {
            table_id: id.clone(),
            seat: None,
            player_name: " ".into(),
            ..Default::default()
        })
        .await,
        Code::InvalidArgument,
        "BAD_NAME",
    )
    .await;
    let mut second = RemoteSeat::join(c.clone(), &id, None, "bob")
        .await
        .expect("join");
    // A table in play has no open seat (it is not finished).
    expect_code(
        c.join_table(v1::JoinTableRequest {
            table_id: id.clone(),
            seat: None,
            player_name: "cy".into(),
            ..Default::default()
        })
        .await,
        Code::FailedPrecondition,
        "NO_OPEN_SEAT",
    )
    .await;

    // Whose turn: read the first seat's snapshot.
    let mut stream = first.observe().await.expect("observe");
    let snap = stream
        .next()
        .await
        .expect("snapshot")
        .expect("ok")
        .update
        .expect("update");
    let Some(v1::update::Kind::Snapshot(snap)) = snap.kind else {
        panic!("snapshot first")
    };
    let turn = snap.turn.expect("a turn is due");
    let (mover, other) = if turn.decider == first.seat {
        (&mut first, &mut second)
    } else {
        (&mut second, &mut first)
    };
    let mut mover_stream = mover.observe().await.expect("observe");
    let Some(v1::update::Kind::Snapshot(ms)) = mover_stream
        .next()
        .await
        .expect("s")
        .expect("ok")
        .update
        .expect("u")
        .kind
    else {
        panic!("snapshot")
    };
    let legal = ms.turn.expect("turn").legal_actions;
    assert!(!legal.is_empty());
    let info = |c: &mut v1::table_service_client::TableServiceClient<tonic::transport::Channel>| {
        let mut c = c.clone();
        let id = id.clone();
        async move {
            let t = table_of(&mut c, id.clone()).await;
            let r = c
                .get_record(v1::GetRecordRequest { table_id: id })
                .await
                .expect("r")
                .into_inner();
            (t.decisions, t.totals, r.record_json)
        }
    };
    let before = info(&mut c).await;

    // UNAUTHENTICATED / PERMISSION_DENIED.
    expect_code(
        c.act(act("", 0, &legal[0].notation)).await,
        Code::Unauthenticated,
        "NO_TOKEN",
    )
    .await;
    expect_code(
        c.act(act(
            "00112233445566778899aabbccddeeff",
            0,
            &legal[0].notation,
        ))
        .await,
        Code::PermissionDenied,
        "BAD_TOKEN",
    )
    .await;
    expect_code(
        c.act(act("not-a-token", 0, &legal[0].notation)).await,
        Code::PermissionDenied,
        "BAD_TOKEN",
    )
    .await;
    expect_code(
        c.observe(v1::ObserveRequest {
            table_id: id.clone(),
            ..Default::default()
        })
        .await,
        Code::Unauthenticated,
        "NO_TOKEN",
    )
    .await;
    expect_code(
        c.observe(v1::ObserveRequest {
            table_id: id.clone(),
            seat_token: "ff".repeat(16),
            ..Default::default()
        })
        .await,
        Code::PermissionDenied,
        "BAD_TOKEN",
    )
    .await;
    // INVALID_ARGUMENT on actions.
    expect_code(
        c.act(act(&mover.token, 0, "play Zz")).await,
        Code::InvalidArgument,
        "BAD_ACTION",
    )
    .await;
    let mut mismatch = act(&mover.token, 0, &legal[0].notation);
    if let Some(a) = mismatch.action.as_mut() {
        a.id = Some(0);
    }
    expect_code(
        c.act(mismatch).await,
        Code::InvalidArgument,
        "ACTION_MISMATCH",
    )
    .await;
    // FAILED_PRECONDITION: out of turn, illegal, future decision.
    expect_code(
        c.act(act(&other.token, 0, &legal[0].notation)).await,
        Code::FailedPrecondition,
        "NOT_YOUR_TURN",
    )
    .await;
    expect_code(
        c.act(act(&mover.token, 0, "bid solo")).await,
        Code::FailedPrecondition,
        "ILLEGAL_ACTION",
    )
    .await;
    let not_held = [
        "4b", "4c", "4d", "4s", "5b", "5c", "5d", "5s", "6b", "6c", "6d",
    ]
    .into_iter()
    .find(|c| {
        !legal
            .iter()
            .any(|a| a.card.as_ref().is_some_and(|x| &x.notation == c))
    })
    .expect("a card not playable");
    expect_code(
        c.act(act(&mover.token, 0, &format!("play {not_held}")))
            .await,
        Code::FailedPrecondition,
        "ILLEGAL_ACTION",
    )
    .await;
    expect_code(
        c.act(act(&mover.token, 5, &legal[0].notation)).await,
        Code::FailedPrecondition,
        "FUTURE_DECISION",
    )
    .await;
    // Nothing changed.
    assert_eq!(info(&mut c).await, before);
    // A real move, then ABORTED for a different answer to the same decision.
    let ok = c
        .act(act(&mover.token, 0, &legal[0].notation))
        .await
        .expect("legal")
        .into_inner();
    assert!(!ok.duplicate);
    if legal.len() > 1 {
        expect_code(
            c.act(act(&mover.token, 0, &legal[1].notation)).await,
            Code::Aborted,
            "STALE_DECISION",
        )
        .await;
    }
    // RESOURCE_EXHAUSTED: spectator streams (3 per table), while the seats, which have their
    // own budget (2 each here), can still open theirs: spectators never lock a player out.
    let spectate = v1::SpectateRequest {
        table_id: id.clone(),
        ..Default::default()
    };
    let mut watchers = Vec::new();
    for _ in 0..3 {
        watchers.push(c.spectate(spectate.clone()).await.expect("a spectator"));
    }
    expect_code(
        c.spectate(spectate.clone()).await,
        Code::ResourceExhausted,
        "TOO_MANY_STREAMS",
    )
    .await;
    let mut extra = Vec::new();
    let refused = loop {
        match other.observe_once().await {
            Ok(s) => extra.push(s),
            Err(e) => break e,
        }
        assert!(extra.len() <= 2, "a seat's budget is 2 streams");
    };
    assert!(
        !extra.is_empty(),
        "the seat opened a stream though spectators are at their limit"
    );
    assert_eq!(refused.code(), Code::ResourceExhausted, "{refused:?}");
    assert_eq!(reason(&refused), "TOO_MANY_STREAMS");
    drop(extra);
    drop(watchers);
    // The freed slots are usable again (closed streams are noticed on the next open).
    let mut reopened = None;
    for _ in 0..100 {
        match c.spectate(spectate.clone()).await {
            Ok(s) => {
                reopened = Some(s);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    assert!(
        reopened.is_some(),
        "a spectator slot is freed when its stream ends"
    );
    // RESOURCE_EXHAUSTED: tables (3 allowed, one exists).
    create(&mut c, options(v1::Game::Tressette, 21), vec![], 1, None).await;
    create(&mut c, options(v1::Game::Tressette, 21), vec![], 2, None).await;
    expect_code(
        c.create_table(req(Some(options(v1::Game::Tressette, 21)), vec![]))
            .await,
        Code::ResourceExhausted,
        "TOO_MANY_TABLES",
    )
    .await;
    drop(stream);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_cannot_take_every_spectator_slot_of_the_server() {
    let config = ServerConfig {
        max_spectators_per_client: 2,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let mut tables = Vec::new();
    for seed in 0..3 {
        let t = create(
            &mut c,
            options(v1::Game::TressetteInDue, 21),
            vec![],
            seed,
            None,
        )
        .await;
        tables.push(t.table_id);
    }
    let watch = |id: &String| v1::SpectateRequest {
        table_id: id.clone(),
        ..Default::default()
    };
    // Two streams on two tables, then the client's budget is spent, whichever the table.
    let a = c.spectate(watch(&tables[0])).await.expect("first");
    let _b = c.spectate(watch(&tables[1])).await.expect("second");
    expect_code(
        c.spectate(watch(&tables[2])).await,
        Code::ResourceExhausted,
        "TOO_MANY_STREAMS",
    )
    .await;
    // The players are not spectators: their seats' streams open as before.
    let mut seat = RemoteSeat::join(c.clone(), &tables[2], Some(0), "player")
        .await
        .expect("join");
    let _own = seat
        .observe_once()
        .await
        .expect("a seat's stream is not a spectator's");
    // A stream that ends gives its slot back.
    drop(a);
    let mut again = None;
    for _ in 0..100 {
        match c.spectate(watch(&tables[2])).await {
            Ok(s) => {
                again = Some(s);
                break;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    assert!(again.is_some(), "the dropped stream's slot is free again");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_of_bots_at_server_speed_still_answers_while_it_plays() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    // Random bots to a target of 1,000: hundreds of hands, thousands of moves with no pause.
    let rules = calabresella_engine::game::Rules::parse("tressette-in-due", [("target", "1000")])
        .expect("rules");
    let busy = create(
        &mut c,
        convert::rules(&rules),
        vec![v1::SeatKind::BotRandom, v1::SeatKind::BotRandom],
        11,
        None,
    )
    .await;
    // CreateTable's answer came from the table mid-match, not after its last move...
    assert_eq!(busy.state, v1::TableState::Playing as i32, "{busy:?}");
    // ...and so do GetTable and ListTables, while the match goes on.
    let mut seen = Vec::new();
    for _ in 0..3 {
        let t = c
            .get_table(v1::GetTableRequest {
                table_id: busy.table_id.clone(),
            })
            .await
            .expect("get")
            .into_inner()
            .table
            .expect("table");
        let listed = c
            .list_tables(v1::ListTablesRequest::default())
            .await
            .expect("list")
            .into_inner()
            .tables;
        assert!(listed.iter().any(|l| l.table_id == busy.table_id));
        seen.push((t.state, t.decisions));
    }
    assert!(
        seen.iter()
            .any(|(state, _)| *state == v1::TableState::Playing as i32),
        "answered mid-match: {seen:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retried_action_is_applied_once() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let table = create(
        &mut c,
        options(v1::Game::TressetteInDue, 21),
        vec![],
        3,
        None,
    )
    .await;
    let mut seats = join_all(&c, &table).await;
    let mut streams = Vec::new();
    for s in &mut seats {
        streams.push(s.observe().await.expect("observe"));
    }
    let mut turn = None;
    for st in &mut streams {
        let u = st.next().await.expect("u").expect("ok").update.expect("u");
        if let Some(v1::update::Kind::Snapshot(s)) = u.kind
            && let Some(t) = s.turn.filter(|t| !t.legal_actions.is_empty())
        {
            turn = Some(t);
        }
    }
    let turn = turn.expect("one seat has the turn");
    let mover = seats
        .iter_mut()
        .find(|s| s.seat == turn.decider)
        .expect("mover");
    let a = turn.legal_actions[0].clone();
    let r1 = mover.act(turn.decision, a.clone()).await.expect("first");
    let r2 = mover.act(turn.decision, a.clone()).await.expect("retry");
    assert!(!r1.duplicate && r2.duplicate);
    assert_eq!(r1.action, r2.action);
    let t = table_of(&mut c, table.table_id.clone()).await;
    assert_eq!(t.decisions, 1, "applied once");
    // The record leaves out the hand in play: its deal is secret.
    let record = fetch_record(&c, table.table_id.clone()).await;
    assert_eq!((record.hands, record.match_over), (0, false));
    let json: serde_json::Value = serde_json::from_str(&record.record_json).expect("json");
    assert_eq!(json["meta"]["deals"]["scheme"], "seeded");
    assert!(
        json["meta"]["deals"]["seed"].is_null() && json["meta"].get("seed").is_none(),
        "no seed while in play: {}",
        json["meta"]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reconnecting_seat_resumes_with_no_gap_and_no_duplicate() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let seats = vec![v1::SeatKind::Open, v1::SeatKind::BotHeuristic];
    let table = create(
        &mut c,
        options(v1::Game::TressetteInDue, 11),
        seats,
        21,
        None,
    )
    .await;
    let mut me = RemoteSeat::join(c.clone(), &table.table_id, Some(0), "ann")
        .await
        .expect("join");
    let mut seen: Vec<v1::Update> = Vec::new();
    let mut choose = random_choice(4);
    // First connection: answer three turns, then drop the stream mid-match.
    {
        let mut stream = me.observe().await.expect("observe");
        let mut answered = 0;
        while answered < 3 {
            let u = stream
                .next()
                .await
                .expect("update")
                .expect("ok")
                .update
                .expect("u");
            me.accept(&u).expect("in order");
            seen.push(u.clone());
            let turn = match &u.kind {
                Some(v1::update::Kind::Turn(t)) => Some(t.clone()),
                Some(v1::update::Kind::Snapshot(s)) => s.turn.clone(),
                _ => u.next_turn.as_deref().cloned(),
            };
            if let Some(t) = turn.filter(|t| !t.legal_actions.is_empty()) {
                me.act(t.decision, choose(&t, None)).await.expect("act");
                answered += 1;
            }
        }
    }
    let last = me.last_seq;
    // Resume: the next update is last + 1, not a snapshot.
    let mut resumed = me.observe().await.expect("resume");
    let next = resumed
        .next()
        .await
        .expect("u")
        .expect("ok")
        .update
        .expect("u");
    assert_eq!(next.seq, last + 1);
    assert!(!matches!(next.kind, Some(v1::update::Kind::Snapshot(_))));
    drop(resumed);
    // A wrong epoch or an unknown point gives a fresh snapshot instead: GAP for a point or an
    // epoch this server cannot place, SERVER_RESTARTED only for an epoch of an earlier run.
    for (after, epoch, reason) in [
        (last, "other-epoch".to_owned(), v1::SnapshotReason::Gap),
        (last + 1000, me.epoch.clone(), v1::SnapshotReason::Gap),
        (
            last,
            "1-000000000000".to_owned(),
            v1::SnapshotReason::ServerRestarted,
        ),
    ] {
        let mut s = c
            .observe(v1::ObserveRequest {
                table_id: table.table_id.clone(),
                seat_token: me.token.clone(),
                resume_after: Some(after),
                stream_epoch: epoch.clone(),
            })
            .await
            .expect("observe")
            .into_inner();
        let u = s.next().await.expect("u").expect("ok").update.expect("u");
        match &u.kind {
            Some(v1::update::Kind::Snapshot(snap)) => {
                assert_eq!(snap.reason, reason as i32, "{epoch:?} after {after}");
            }
            other => panic!("{epoch:?}: not a snapshot: {other:?}"),
        }
    }
    // Play on to the end: `play` resumes after `last` and checks every number.
    let end = me
        .play(choose, |u| seen.push(u.clone()))
        .await
        .expect("play to the end");
    assert_eq!(end.reason, v1::EndReason::Completed as i32);
    let seqs: Vec<u64> = seen.iter().map(|u| u.seq).collect();
    let expected: Vec<u64> = (seqs[0]..seqs[0] + seqs.len() as u64).collect();
    assert_eq!(seqs, expected, "one run of numbers: no gap, no duplicate");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_seat_times_out_and_a_bot_plays_for_it_or_it_forfeits() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    for policy in [v1::TimeoutPolicy::Bot, v1::TimeoutPolicy::Forfeit] {
        let clock = v1::Clock {
            move_ms: 20,
            bank_ms: 30,
            on_timeout: policy as i32,
        };
        let seats = vec![v1::SeatKind::Open, v1::SeatKind::BotRandom];
        let table = create(
            &mut c,
            options(v1::Game::TressetteInDue, 3),
            seats,
            8,
            Some(clock),
        )
        .await;
        // The player joins and never acts.
        let _idle = RemoteSeat::join(c.clone(), &table.table_id, Some(0), "sleepy")
            .await
            .expect("join");
        let mut s = c
            .spectate(v1::SpectateRequest {
                table_id: table.table_id.clone(),
                ..Default::default()
            })
            .await
            .expect("spectate")
            .into_inner();
        let mut timeouts = 0;
        let mut end = None;
        while let Some(u) = s.next().await {
            match u.expect("update").update.and_then(|u| u.kind) {
                Some(v1::update::Kind::TimedOut(t)) => {
                    assert_eq!(t.seat, 0);
                    timeouts += 1;
                }
                Some(v1::update::Kind::MatchEnded(m)) => end = Some(m),
                _ => {}
            }
        }
        let end = end.expect("the match ended");
        let record = fetch_record(&c, table.table_id.clone()).await;
        let t = table_of(&mut c, table.table_id.clone()).await;
        assert_eq!(t.seats[0].timeouts, timeouts);
        match policy {
            v1::TimeoutPolicy::Bot => {
                assert_eq!(end.reason, v1::EndReason::Completed as i32);
                assert!(
                    timeouts >= 5,
                    "every decision of seat 0 timed out: {timeouts}"
                );
                let rec = Record::parse(&record.record_json).expect("record");
                let timed: Vec<&RecordAction> = rec
                    .hands
                    .iter()
                    .flat_map(|h| h.actions.iter())
                    .filter(|a| matches!(a, RecordAction::Detailed { seat: 0, .. }))
                    .collect();
                assert_eq!(timed.len() as u32, timeouts);
                for a in timed {
                    let RecordAction::Detailed { extra, .. } = a else {
                        unreachable!()
                    };
                    assert_eq!(extra.get("timeout"), Some(&serde_json::json!(true)));
                    assert!(extra["ms"].as_u64().is_some_and(|ms| ms >= 20));
                }
                assert!(replay_json(&rec).is_ok());
            }
            _ => {
                assert_eq!(timeouts, 1);
                assert_eq!(end.reason, v1::EndReason::Forfeit as i32);
                let r = end.result.expect("result");
                assert_eq!((r.forfeited_by, r.winners), (Some(0), vec![1]));
                let rec: serde_json::Value =
                    serde_json::from_str(&record.record_json).expect("json");
                assert_eq!(rec["meta"]["forfeited_by"], 0);
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_ends_every_stream_with_match_ended() {
    let mut server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let table = create(&mut c, options(v1::Game::Tressette, 21), vec![], 2, None).await;
    let mut seat = RemoteSeat::join(c.clone(), &table.table_id, None, "ann")
        .await
        .expect("join");
    let mut s = seat.observe().await.expect("observe");
    let first = s.next().await.expect("u").expect("ok").update.expect("u");
    assert!(matches!(first.kind, Some(v1::update::Kind::Snapshot(_))));
    server.stop();
    let mut last = None;
    while let Some(Ok(u)) = s.next().await {
        last = u.update;
    }
    let Some(v1::update::Kind::MatchEnded(end)) = last.and_then(|u| u.kind) else {
        panic!("ends with MatchEnded");
    };
    assert_eq!(
        end.reason,
        v1::EndReason::Abandoned as i32,
        "the table had not started"
    );
    let stopped = tokio::time::timeout(Duration::from_secs(10), &mut server.task).await;
    assert!(
        matches!(stopped, Ok(Ok(Ok(())))),
        "the server stops cleanly: {stopped:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_observation_gives_the_snapshot_observation_and_the_decision_due() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut client = server.client.clone();
    let opts = options(v1::Game::Calabresella, 21);
    let table = create(&mut client, opts, vec![], 7, None).await;
    let mut seats = join_all(&client, &table).await;
    let seat = &mut seats[0];
    let mut stream = seat.observe().await.expect("observe");
    let first = stream
        .next()
        .await
        .expect("an update")
        .expect("ok")
        .update
        .expect("update");
    let Some(v1::update::Kind::Snapshot(snapshot)) = first.kind else {
        panic!("the stream opens with a snapshot")
    };
    let got = client
        .get_observation(v1::GetObservationRequest {
            table_id: table.table_id.clone(),
            seat_token: seat.token.clone(),
        })
        .await
        .expect("get_observation")
        .into_inner();
    assert_eq!(got.observation, snapshot.observation);
    assert_eq!(got.decision, 0);
    let bad = client
        .get_observation(v1::GetObservationRequest {
            table_id: table.table_id.clone(),
            seat_token: "not-a-token".into(),
        })
        .await
        .expect_err("a wrong token is refused");
    assert_eq!(bad.code(), tonic::Code::PermissionDenied);
    let none = client
        .get_observation(v1::GetObservationRequest {
            table_id: table.table_id.clone(),
            seat_token: String::new(),
        })
        .await
        .expect_err("no token is refused");
    assert_eq!(none.code(), tonic::Code::Unauthenticated);
}

/// How many tables the server lists.
async fn table_count(
    c: &mut calabresella_proto::v1::table_service_client::TableServiceClient<
        tonic::transport::Channel,
    >,
) -> usize {
    c.list_tables(v1::ListTablesRequest::default())
        .await
        .expect("list")
        .into_inner()
        .tables
        .len()
}

/// Creates an all-bot table of `game` that plays at server speed.
async fn bots_table(
    c: &mut calabresella_proto::v1::table_service_client::TableServiceClient<
        tonic::transport::Channel,
    >,
    game: v1::Game,
    seed: u64,
) -> Result<v1::Table, tonic::Status> {
    let opts = options(game, 11);
    let seats = match game {
        v1::Game::TressetteInDue => 2,
        _ => 4,
    };
    c.create_table(v1::CreateTableRequest {
        name: "bots".into(),
        options: Some(opts),
        seats: vec![v1::SeatKind::BotRandom as i32; seats],
        seed: Some(seed),
        ..Default::default()
    })
    .await
    .map(|r| r.into_inner().table.expect("table"))
}

/// Waits until table `id` says it is finished.
async fn until_finished(
    c: &mut calabresella_proto::v1::table_service_client::TableServiceClient<
        tonic::transport::Channel,
    >,
    id: &str,
) {
    let mut last = None;
    for _ in 0..500 {
        let t = table_of(c, id).await;
        if t.state == v1::TableState::Finished as i32 {
            return;
        }
        last = Some(t);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("table {id} did not finish: {last:?}");
}

/// The record of table `id`, parsed.
async fn record_of(
    c: &mut calabresella_proto::v1::table_service_client::TableServiceClient<
        tonic::transport::Channel,
    >,
    id: &str,
) -> Record {
    Record::parse(&fetch_record(c, id).await.record_json).expect("record")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_tables_free_their_slot_and_the_oldest_leave_memory_but_not_the_store() {
    let config = ServerConfig {
        max_tables: 2,
        max_finished_tables: 2,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    // Five matches one after the other on a server that holds two unfinished tables: a
    // finished table frees its slot (before the fix the third creation was refused).
    let mut ids = Vec::new();
    for seed in 0..5 {
        let t = bots_table(&mut c, v1::Game::TressetteInDue, seed)
            .await
            .expect("a finished table takes no slot");
        until_finished(&mut c, &t.table_id).await;
        ids.push(t.table_id);
    }
    // Two unfinished tables fill the server; a third is refused.
    let _a = create(
        &mut c,
        options(v1::Game::TressetteInDue, 21),
        vec![],
        1,
        None,
    )
    .await;
    let _b = create(
        &mut c,
        options(v1::Game::TressetteInDue, 21),
        vec![],
        2,
        None,
    )
    .await;
    expect_code(
        c.create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::TressetteInDue, 21)),
            ..Default::default()
        })
        .await,
        Code::ResourceExhausted,
        "TOO_MANY_TABLES",
    )
    .await;
    // Only the two newest finished tables stay in memory: the listing shows them...
    let mut listed = Vec::new();
    for _ in 0..200 {
        listed = c
            .list_tables(v1::ListTablesRequest::default())
            .await
            .expect("list")
            .into_inner()
            .tables
            .into_iter()
            .map(|t| t.table_id)
            .filter(|id| ids.contains(id))
            .collect::<Vec<_>>();
        if listed.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    listed.sort();
    let mut newest = ids[3..].to_vec();
    newest.sort();
    assert_eq!(listed, newest, "the oldest finished tables retire");
    // ...and every one, retired or not, is still served with its record from the store.
    for id in &ids {
        let t = table_of(&mut c, id.clone()).await;
        assert_eq!(t.state, v1::TableState::Finished as i32, "{t:?}");
        let record = c
            .get_record(v1::GetRecordRequest {
                table_id: id.clone(),
            })
            .await
            .expect("the record of a retired table")
            .into_inner();
        assert!(record.match_over && record.hands > 0, "{record:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_client_is_capped_in_bot_tables_and_in_creations_per_minute() {
    let config = ServerConfig {
        max_bot_tables_per_client: 2,
        max_creates_per_client_per_minute: 5,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    // Long all-bot matches (a slow pace keeps them unfinished): two, then the cap.
    let slow = |seed| v1::CreateTableRequest {
        name: "slow bots".into(),
        options: Some(options(v1::Game::TressetteInDue, 21)),
        seats: vec![v1::SeatKind::BotRandom as i32; 2],
        seed: Some(seed),
        bot_delay_ms: 10_000,
        ..Default::default()
    };
    c.create_table(slow(1)).await.expect("first bot table");
    c.create_table(slow(2)).await.expect("second bot table");
    expect_code(
        c.create_table(slow(3)).await,
        Code::ResourceExhausted,
        "TOO_MANY_TABLES_FOR_CLIENT",
    )
    .await;
    // Tables with seats for people are not bot tables: they count only in the window.
    for seed in 4..=6 {
        create(
            &mut c,
            options(v1::Game::TressetteInDue, 21),
            vec![],
            seed,
            None,
        )
        .await;
    }
    // Five admitted in the last minute: the sixth is refused, and changes nothing.
    let before = table_count(&mut c).await;
    expect_code(
        c.create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::TressetteInDue, 21)),
            ..Default::default()
        })
        .await,
        Code::ResourceExhausted,
        "RATE_LIMITED",
    )
    .await;
    let after = table_count(&mut c).await;
    assert_eq!(before, after, "a refused creation leaves no table");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_that_could_outgrow_the_action_log_is_capped_or_refused_before_it_starts() {
    // 480 actions: ten Calabresella deals of at most 48.
    let config = ServerConfig {
        max_actions_per_table: 480,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let rules_of = |t: &v1::Table| {
        convert::rules_from_wire(t.options.as_ref().expect("options")).expect("rules")
    };
    // Unset max_deals (1000 by default): lowered to what the log holds, and shown.
    let t = create(&mut c, options(v1::Game::Calabresella, 21), vec![], 1, None).await;
    let rules = rules_of(&t);
    assert!(rules.max_actions() <= 480, "{rules}");
    assert_eq!(
        rules.non_default().get("max_deals"),
        Some(&serde_json::json!(10)),
        "{rules}"
    );
    // Set by the caller: refused with the largest value that fits, and nothing is created.
    let before = table_count(&mut c).await;
    let mut asked = options(v1::Game::Calabresella, 21);
    if let Some(v1::game_options::Rules::Calabresella(o)) = &mut asked.rules {
        o.max_deals = Some(500);
    }
    let e = c
        .create_table(v1::CreateTableRequest {
            options: Some(asked),
            ..Default::default()
        })
        .await
        .expect_err("max_deals 500 cannot fit 480 actions");
    assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
    assert_eq!(reason(&e), "BAD_OPTIONS");
    assert!(
        e.message().contains("max_deals at most 10"),
        "{}",
        e.message()
    );
    // A fixed number of hands too long by itself: refused, naming the hands.
    let long = calabresella_engine::game::Rules::parse("briscola-chiamata", [("hands", "50")])
        .expect("rules");
    let e = c
        .create_table(v1::CreateTableRequest {
            options: Some(convert::rules(&long)),
            ..Default::default()
        })
        .await
        .expect_err("50 hands of up to 120 actions");
    assert_eq!(reason(&e), "BAD_OPTIONS");
    assert!(e.message().contains("fewer hands"), "{}", e.message());
    let after = table_count(&mut c).await;
    assert_eq!(before, after, "a refused creation leaves no table");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_abandoned_before_their_first_hand_leave_the_store_after_the_retention() {
    let config = ServerConfig {
        waiting_timeout: Duration::from_millis(50),
        abandoned_retention: Duration::from_millis(300),
        finished_ttl: Duration::ZERO,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    // Nobody comes to this one: abandoned after the waiting timeout.
    let empty = create(
        &mut c,
        options(v1::Game::TressetteInDue, 21),
        vec![],
        1,
        None,
    )
    .await;
    let mut abandoned = false;
    for _ in 0..100 {
        let t = table_of(&mut c, empty.table_id.clone()).await;
        if t.state == v1::TableState::Abandoned as i32 {
            abandoned = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert!(abandoned, "nobody came: the table is abandoned");
    let record = |id: &str| v1::GetRecordRequest {
        table_id: id.to_owned(),
    };
    // Its empty record is kept for the retention...
    let kept = c
        .get_record(record(&empty.table_id))
        .await
        .expect("the abandoned table's record is kept a while")
        .into_inner();
    assert_eq!(kept.hands, 0, "{kept:?}");
    // This one is played to its end by bots.
    let played = bots_table(&mut c, v1::Game::TressetteInDue, 2)
        .await
        .expect("bots");
    until_finished(&mut c, &played.table_id).await;
    // ...and then deleted; the played match stays.
    let mut gone = false;
    for _ in 0..300 {
        match c.get_record(record(&empty.table_id)).await {
            Err(e) if e.code() == Code::NotFound => {
                gone = true;
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(10)).await,
        }
    }
    assert!(
        gone,
        "the abandoned table left the store after its retention"
    );
    c.get_record(record(&played.table_id))
        .await
        .expect("a played match is kept");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn simultaneous_creations_cannot_pass_the_per_client_caps() {
    let config = ServerConfig {
        max_bot_tables_per_client: 3,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    // Twenty slow all-bot tables asked for at once, counted as they
    // are admitted, not once stored, so exactly three get through.
    let mut calls = Vec::new();
    for i in 0..20u64 {
        let mut c = server.client.clone();
        calls.push(tokio::spawn(async move {
            c.create_table(v1::CreateTableRequest {
                options: Some(options(v1::Game::TressetteInDue, 21)),
                seats: vec![v1::SeatKind::BotRandom as i32; 2],
                seed: Some(i),
                bot_delay_ms: 10_000,
                ..Default::default()
            })
            .await
        }));
    }
    let mut created = 0;
    for call in calls {
        match call.await.expect("task") {
            Ok(_) => created += 1,
            Err(e) => assert_eq!(reason(&e), "TOO_MANY_TABLES_FOR_CLIENT", "{e:?}"),
        }
    }
    assert_eq!(created, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_named_search_bot_takes_a_seat_within_the_servers_time_cap() {
    let config = ServerConfig {
        max_bot_ms: 40,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let request = |seats: Vec<v1::SeatKind>, bots: Vec<&str>| v1::CreateTableRequest {
        name: "search".into(),
        options: Some(options(v1::Game::TressetteInDue, 3)),
        seats: seats.into_iter().map(|s| s as i32).collect(),
        seat_bots: bots.into_iter().map(str::to_owned).collect(),
        seed: Some(5),
        ..Default::default()
    };
    let named = v1::SeatKind::BotNamed;
    let heuristic = v1::SeatKind::BotHeuristic;
    // Refused, and nothing created.
    let before = table_count(&mut c).await;
    for (seats, bots) in [
        (vec![named, heuristic], vec!["alphazero", ""]),
        (vec![named, heuristic], vec!["pimc:ms=5000", ""]),
        (vec![named, heuristic], vec!["pimc:depth=3", ""]),
        (vec![named, heuristic], vec!["pimc:solve=12", ""]),
        (vec![named, heuristic], vec!["pimc:work=99999999", ""]),
        (vec![named, heuristic], vec!["", ""]),
        (vec![named, heuristic], vec!["pimc"]),
        (vec![heuristic, heuristic], vec!["", "pimc"]),
        (vec![named, heuristic], vec!["pimc\u{202e}", ""]),
        (vec![named, heuristic], vec!["ismcts:ms=50", ""]),
        (
            vec![named, heuristic],
            vec!["ismcts:iterations=99999999", ""],
        ),
        (vec![named, heuristic], vec!["ismcts:solve=12", ""]),
        (vec![named, heuristic], vec!["ismcts:finish=12", ""]),
        (
            vec![named, heuristic],
            vec!["ismcts:infer=30:pool=5000", ""],
        ),
        (vec![named, heuristic], vec!["ismcts:pool=64", ""]),
        (vec![named, heuristic], vec!["best:ms=41", ""]),
        (vec![named, heuristic], vec!["best:worlds=3", ""]),
        (vec![named, heuristic], vec!["bestx", ""]),
    ] {
        expect_code(
            c.create_table(request(seats, bots)).await,
            Code::InvalidArgument,
            "BAD_SEATS",
        )
        .await;
    }
    assert_eq!(
        table_count(&mut c).await,
        before,
        "a refused table is not created"
    );
    // A bare `pimc` gets the default budget in worlds under the server's cap.
    let bare = c
        .create_table(request(vec![heuristic, named], vec!["", "pimc"]))
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    assert_eq!(
        bare.seats[1].player_name, "pimc bot",
        "the default budget's name"
    );
    // A PIMC seat with a budget in worlds thinks within the server's cap, and plays to the
    // end, answering every decision at the pace of its time budget (its timing says nothing
    // of its cards).
    let started = std::time::Instant::now();
    let t = c
        .create_table(request(vec![named, heuristic], vec!["PIMC:worlds=6", ""]))
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    assert_eq!(t.seats[0].kind, named as i32);
    assert_eq!(t.seats[0].player_name, "pimc:worlds=6:ms=40 bot");
    assert_eq!(t.seats[1].player_name, "heuristic bot");
    until_finished(&mut c, &t.table_id).await;
    let elapsed = started.elapsed();
    let t = table_of(&mut c, &t.table_id).await;
    assert!(t.decisions > 20, "{t:?}");
    let record = record_of(&mut c, &t.table_id).await;
    let searched = record_actions(&record)
        .iter()
        .filter(|(s, _)| s.index() == 0)
        .count() as u32;
    assert!(
        elapsed >= Duration::from_millis(40) * searched,
        "{searched} decisions at 40 ms each took {elapsed:?}"
    );
}

/// The thinking time of each action of `seat` in a finished table's record (the `ms` the server
/// writes beside each action).
fn thinking_ms(record: &Record, seat: usize) -> Vec<u64> {
    record
        .hands
        .iter()
        .flat_map(|h| h.actions.iter())
        .filter_map(|a| match a {
            RecordAction::Detailed { seat: s, extra, .. } if usize::from(*s) == seat => {
                extra.get("ms").and_then(serde_json::Value::as_u64)
            }
            _ => None,
        })
        .collect()
}

/// `ismcts` and `best` (the strongest bot of each game) take seats like `pimc`: a bare name
/// gets the server's cap as its ceiling, and a budget that would think far longer is cut to
/// it, so every decision is answered at the cap's pace, however much the bot would search.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ismcts_and_best_think_within_the_servers_time_cap() {
    const CAP: u64 = 40;
    let config = ServerConfig {
        max_bot_ms: CAP as u32,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let named = v1::SeatKind::BotNamed as i32;
    // Fifty thousand iterations take about two seconds a decision on one core: only the cap
    // keeps this seat's answers near 40 ms.
    let t = c
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::TressetteInDue, 3)),
            seats: vec![named, named],
            // Spelt loosely: stored in one spelling.
            seat_bots: vec!["Best".into(), "ISMCTS : iterations=50000".into()],
            seed: Some(12),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    assert_eq!(t.seats[0].player_name, "best bot");
    assert_eq!(
        t.seats[1].player_name, "ismcts:iterations=50000:ms=40 bot",
        "a stronger budget than the default is a different player, with the cap written in"
    );
    until_finished(&mut c, &t.table_id).await;
    let record = record_of(&mut c, &t.table_id).await;
    for seat in 0..2 {
        let mut ms = thinking_ms(&record, seat);
        assert!(ms.len() >= 10, "seat {seat}: {ms:?}");
        // Paced: no answer comes before the cap, so its timing says nothing of the cards.
        assert!(ms.iter().all(|&m| m >= CAP), "seat {seat}: {ms:?}");
        // Capped: the typical answer is at the cap, and none comes near a second (a loaded
        // machine may delay a few).
        ms.sort_unstable();
        let median = ms[ms.len() / 2];
        assert!(
            median < 3 * CAP,
            "seat {seat}: median {median} ms of {ms:?}"
        );
        assert!(ms.iter().all(|&m| m < 1000), "seat {seat}: {ms:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_whose_search_bot_is_thinking_still_answers_its_callers() {
    let config = ServerConfig {
        max_bot_ms: 3000,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let named = v1::SeatKind::BotNamed as i32;
    let t = c
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::TressetteInDue, 3)),
            seats: vec![named, named],
            seat_bots: vec!["pimc:worlds=4:ms=3000".into(); 2],
            seed: Some(9),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    // Every decision is answered at the pace of three seconds; meanwhile the table's own
    // calls are served at once, so they still see the first decision pending.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..3 {
        let now = table_of(&mut c, &t.table_id).await;
        assert_eq!(now.state, v1::TableState::Playing as i32);
        assert_eq!(now.decisions, 0, "the call waited for the bot: {now:?}");
        // The thinking bot is still in its seat.
        assert!(now.seats.iter().all(|s| s.taken), "{now:?}");
        c.get_record(v1::GetRecordRequest {
            table_id: t.table_id.clone(),
        })
        .await
        .expect("record while the bot thinks");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_cannot_take_a_bot_s_name_or_a_look_alike() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let t = c
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::TressetteInDue, 3)),
            seats: vec![v1::SeatKind::Open as i32, v1::SeatKind::BotHeuristic as i32],
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    let join = |name: &str| v1::JoinTableRequest {
        table_id: t.table_id.clone(),
        seat: Some(0),
        player_name: name.into(),
        ..Default::default()
    };
    for name in [
        "heuristic bot",
        "Heuristic Bot",
        "\u{FF28}euristic\u{00A0}bot",
        "pimc:ms=50 bot",
        "random",
        "dummy",
        "heuristic\u{202E} bot",
        "heur\u{200B}istic bot",
        "Maria\u{2066}",
        "\u{0440}imc bot",
        "heuristic\u{2800}bot",
    ] {
        expect_code(
            c.join_table(join(name)).await,
            Code::InvalidArgument,
            "BAD_NAME",
        )
        .await;
    }
    // Nothing changed: the seat is still open, and a plain name takes it.
    let now = table_of(&mut c, &t.table_id).await;
    assert!(!now.seats[0].taken, "{now:?}");
    let joined = c
        .join_table(join("Željko"))
        .await
        .expect("join")
        .into_inner();
    assert_eq!(joined.table.expect("table").seats[0].player_name, "Željko");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_bots_play_on_past_the_waiting_timeout() {
    // The waiting timeout once set the table's next wake while a bot thought: past it, the
    // table spun without ever reading the answer.
    let config = ServerConfig {
        max_bot_ms: 20,
        waiting_timeout: Duration::from_millis(30),
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let named = v1::SeatKind::BotNamed as i32;
    let t = c
        .create_table(v1::CreateTableRequest {
            options: Some(options(v1::Game::TressetteInDue, 1)),
            seats: vec![named, named],
            seat_bots: vec!["pimc:worlds=2:ms=20".into(); 2],
            seed: Some(4),
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    let mut last = 0;
    for _ in 0..600 {
        let now = table_of(&mut c, &t.table_id).await;
        if now.state == v1::TableState::Finished as i32 {
            assert!(now.decisions >= 20 && now.hands_completed >= 1, "{now:?}");
            return;
        }
        last = now.decisions;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the match stopped after {last} decisions");
}

/// `ListGames` describes every game the engine registers, and a table made from those
/// descriptions alone (`GameOptions.settings`) has the rules the engine reads from the same
/// text: a client needs no copy of any game's options. Settings the game refuses, or given
/// with the typed rules too, are refused and create nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tables_are_made_from_the_described_options_alone() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let games = c
        .list_games(v1::ListGamesRequest {})
        .await
        .expect("list games")
        .into_inner()
        .games;
    let names: Vec<&str> = games.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, calabresella_engine::game::game_names());
    for g in &games {
        assert_eq!(convert::game_name(g.game), Some(g.name.as_str()));
        assert!(g.min_players <= g.default_players && g.default_players <= g.max_players);
        assert!(!g.options.is_empty(), "{}: no options described", g.name);
        let settings = |pairs: &[(&str, String)]| v1::GameOptions {
            game: g.game,
            rules: None,
            settings: pairs
                .iter()
                .map(|(k, v)| ((*k).to_owned(), v.clone()))
                .collect(),
        };
        // Every option at its described default, as text: the game's defaults.
        let defaults: Vec<(&str, String)> = g
            .options
            .iter()
            .filter(|o| !o.default_value.is_empty())
            .map(|o| (o.key.as_str(), o.default_value.clone()))
            .collect();
        // (The server fits `max_deals` to its bound on a table's actions either way: the two
        // tables compare what it made of each.)
        let t = create(&mut c, settings(&defaults), vec![], 1, None).await;
        let expected = Rules::defaults(&g.name).expect("registered");
        let typed = create(&mut c, convert::rules(&expected), vec![], 1, None).await;
        assert_eq!(t.options, typed.options, "{}", g.name);
        // Each number at its least (the greatest may be lowered to the server's bound on a
        // match's length): the table takes it, as the engine reads it.
        for o in g
            .options
            .iter()
            .filter(|o| o.kind == v1::OptionKind::Number as i32)
        {
            if o.key == "players" {
                continue;
            }
            let pairs = [(o.key.as_str(), o.min.to_string())];
            let t = create(&mut c, settings(&pairs), vec![], 1, None).await;
            let want = Rules::parse(&g.name, [(o.key.as_str(), o.min.to_string().as_str())])
                .expect("the engine takes the described minimum");
            let typed = create(&mut c, convert::rules(&want), vec![], 1, None).await;
            assert_eq!(t.options, typed.options, "{} {}", g.name, o.key);
        }
    }

    let listed =
        |c: &mut v1::table_service_client::TableServiceClient<tonic::transport::Channel>| {
            let mut c = c.clone();
            async move {
                c.list_tables(v1::ListTablesRequest::default())
                    .await
                    .expect("list")
                    .into_inner()
                    .tables
                    .len()
            }
        };
    let before = listed(&mut c).await;
    let tressette = |pairs: &[(&str, &str)], typed: bool| v1::GameOptions {
        game: v1::Game::TressetteInDue as i32,
        rules: typed.then(|| v1::game_options::Rules::Tressette(v1::TressetteOptions::default())),
        settings: pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect(),
    };
    let long = "9".repeat(300);
    for (bad, says) in [
        (
            tressette(&[("target", "11"), (" TARGET", "12")], false),
            "twice",
        ),
        (tressette(&[("target", &long)], false), "at most"),
        (
            tressette(&[("no_such_option", "1")], false),
            "no_such_option",
        ),
        (tressette(&[("target", "0")], false), "target"),
        (tressette(&[("accusi", "maybe")], false), "accusi"),
        (tressette(&[("target", "11")], true), "not both"),
    ] {
        let e = c
            .create_table(v1::CreateTableRequest {
                options: Some(bad),
                ..Default::default()
            })
            .await
            .expect_err("refused");
        assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
        assert_eq!(reason(&e), "BAD_OPTIONS", "{e:?}");
        assert!(e.message().contains(says), "{says}: {e:?}");
    }
    assert_eq!(listed(&mut c).await, before, "nothing was created");
}
