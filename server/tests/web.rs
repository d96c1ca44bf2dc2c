//! The browser front end on the gRPC port, and `GetReplay`, over a real server.

mod common;

use common::*;

use calabresella_proto::v1;
use calabresella_server::web::{CONTENT_SECURITY_POLICY, WebRoot};
use calabresella_server::{ServeOptions, ServerConfig};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_stream::StreamExt;

/// One HTTP/1.1 exchange on a fresh connection: the response's head (lower case) and body.
async fn http(addr: std::net::SocketAddr, request: &str, body: &[u8]) -> (String, Vec<u8>) {
    let mut tcp = tokio::net::TcpStream::connect(addr).await.expect("tcp");
    tcp.write_all(request.as_bytes()).await.expect("write");
    tcp.write_all(body).await.expect("write");
    let mut response = Vec::new();
    tcp.read_to_end(&mut response).await.expect("read");
    let split = response
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&response[..split]).to_lowercase();
    (head, response[split + 4..].to_vec())
}

fn get(path: &str, extra: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}Connection: close\r\n\r\n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_app_shares_the_grpc_port_with_its_security_headers() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("index.html"),
        "<!doctype html><title>t</title>",
    )
    .expect("as expected");
    std::fs::write(dir.path().join("app.js"), "console.log(1)").expect("as expected");
    std::fs::write(dir.path().join("app.js.gz"), [0x1f, 0x8b, 1, 2, 3]).expect("as expected");
    let options = ServeOptions {
        web_root: WebRoot::Dir(dir.path().to_owned()),
        ..ServeOptions::default()
    };
    let server = TestServer::start_with(ServerConfig::default(), options).await;

    let (head, body) = http(server.addr, &get("/", ""), b"").await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(
        head.contains("content-type: text/html; charset=utf-8"),
        "{head}"
    );
    let csp = format!(
        "content-security-policy: {}",
        CONTENT_SECURITY_POLICY.to_lowercase()
    );
    assert!(head.contains(&csp), "{head}");
    assert!(!CONTENT_SECURITY_POLICY.contains("unsafe-inline"));
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");
    assert_eq!(body, b"<!doctype html><title>t</title>");

    let (head, body) = http(
        server.addr,
        &get("/app.js", "Accept-Encoding: gzip, br\r\n"),
        b"",
    )
    .await;
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert_eq!(body, [0x1f, 0x8b, 1, 2, 3]);

    let (head, _) = http(server.addr, &get("/../../etc/passwd", ""), b"").await;
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(head.contains("x-content-type-options: nosniff"), "{head}");

    // gRPC-web from another origin still works, CORS preflight included.
    let (head, _) = http(
        server.addr,
        "OPTIONS /calabresella.v1.TableService/ListTables HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Origin: http://example.test\r\nAccess-Control-Request-Method: POST\r\n\
         Access-Control-Request-Headers: content-type,x-grpc-web\r\nConnection: close\r\n\r\n",
        b"",
    )
    .await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("access-control-allow-origin: *"), "{head}");
    let (head, body) = http(
        server.addr,
        "POST /calabresella.v1.TableService/ListTables HTTP/1.1\r\nHost: 127.0.0.1\r\n\
         Origin: http://example.test\r\nContent-Type: application/grpc-web+proto\r\n\
         X-Grpc-Web: 1\r\nContent-Length: 5\r\nConnection: close\r\n\r\n",
        &[0, 0, 0, 0, 0],
    )
    .await;
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("access-control-allow-origin"), "{head}");
    assert!(String::from_utf8_lossy(&body).contains("grpc-status:0"));

    // And plain gRPC over HTTP/2.
    let mut client = server.client.clone();
    client
        .list_tables(v1::ListTablesRequest::default())
        .await
        .expect("gRPC answers beside the app");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_app_the_index_says_how_to_build_it_and_no_web_passes_get_on() {
    let empty = tempfile::tempdir().expect("dir");
    let options = ServeOptions {
        web_root: WebRoot::Dir(empty.path().to_owned()),
        ..ServeOptions::default()
    };
    let server = TestServer::start_with(ServerConfig::default(), options).await;
    let (head, body) = http(server.addr, &get("/", ""), b"").await;
    assert!(head.starts_with("http/1.1 404"), "{head}");
    assert!(String::from_utf8_lossy(&body).contains("clients/web/check.sh"));

    let options = ServeOptions {
        web_root: WebRoot::Disabled,
        ..ServeOptions::default()
    };
    let server = TestServer::start_with(ServerConfig::default(), options).await;
    let (head, _) = http(server.addr, &get("/", ""), b"").await;
    assert!(!head.starts_with("http/1.1 200"), "{head}");
    assert!(!head.contains("content-security-policy"), "{head}");
}

/// Plays an all-bot table to its end and returns its id.
async fn finished_table(server: &TestServer, game: v1::Game, target: u32, seed: u64) -> String {
    let mut client = server.client.clone();
    let seats = match game {
        v1::Game::TressetteInDue => 2,
        v1::Game::Calabresella => 3,
        v1::Game::Tressette => 4,
        _ => 5,
    };
    let table = create(
        &mut client,
        options(game, target),
        vec![v1::SeatKind::BotHeuristic; seats],
        seed,
        None,
    )
    .await;
    let mut feed = client
        .spectate(v1::SpectateRequest {
            table_id: table.table_id.clone(),
            ..Default::default()
        })
        .await
        .expect("spectate")
        .into_inner();
    while feed.next().await.is_some() {}
    table.table_id
}

async fn replay(
    client: &mut v1::table_service_client::TableServiceClient<tonic::transport::Channel>,
    id: &str,
    step: u32,
) -> Result<v1::GetReplayResponse, tonic::Status> {
    client
        .get_replay(v1::GetReplayRequest {
            table_id: id.into(),
            step,
        })
        .await
        .map(tonic::Response::into_inner)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replay_walks_every_hand_from_its_deal_to_its_end_with_every_card_shown() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut client = server.client.clone();
    for (game, target, seed) in [
        (v1::Game::TressetteInDue, 11, 3),
        (v1::Game::Calabresella, 5, 4),
        (v1::Game::BriscolaChiamata, 0, 5),
    ] {
        let id = finished_table(&server, game, target, seed).await;
        let record = fetch_record(&client, id.clone()).await;
        let json: serde_json::Value =
            serde_json::from_str(&record.record_json).expect("as expected");
        let hands = json["hands"].as_array().expect("as expected");
        let first = replay(&mut client, &id, 0).await.expect("step 0");
        assert!(first.match_over);
        assert_eq!(first.hand_starts.len(), hands.len());
        let steps: usize = hands
            .iter()
            .map(|h| h["actions"].as_array().expect("as expected").len() + 1)
            .sum();
        assert_eq!(first.steps as usize, steps, "{game:?}");
        for step in 0..first.steps {
            let r = replay(&mut client, &id, step).await.expect("step");
            let o = r.observation.as_ref().expect("observation");
            let hand = &hands[r.hand_number as usize];
            let actions = hand["actions"].as_array().expect("as expected");
            assert_eq!(r.hand_starts[r.hand_number as usize] + r.action_index, step);
            assert_eq!(r.hand_actions as usize, actions.len());
            assert_eq!(o.hand_number, r.hand_number);
            // Every seat's cards are shown, as many as it holds.
            assert_eq!(o.visible_hands.len(), o.hand_sizes.len(), "{game:?} {step}");
            for seat in &o.visible_hands {
                assert_eq!(
                    seat.cards.len() as u32,
                    o.hand_sizes[seat.seat as usize],
                    "{game:?} step {step} seat {}",
                    seat.seat
                );
            }
            if r.action_index == 0 {
                assert!(r.action.is_empty() && r.seat.is_none());
                // As dealt: each seat holds exactly its dealt cards.
                for (seat, dealt) in o.visible_hands.iter().zip(&r.deal) {
                    let mut a: Vec<_> = seat.cards.iter().map(|c| c.notation.clone()).collect();
                    let mut b: Vec<_> = dealt.cards.iter().map(|c| c.notation.clone()).collect();
                    a.sort();
                    b.sort();
                    assert_eq!(a, b, "{game:?} hand {}", r.hand_number);
                }
            } else {
                let taken = &actions[r.action_index as usize - 1];
                assert_eq!(r.action, taken["action"].as_str().expect("as expected"));
                assert_eq!(r.seat, taken["seat"].as_u64().map(|s| s as u32));
            }
            if r.action_index == r.hand_actions {
                // A hand's last step shows it over and scored.
                assert_eq!(o.phase, v1::Phase::Over as i32, "{game:?} step {step}");
                assert!(o.outcome.is_some());
            } else {
                assert!(
                    o.legal_actions.is_empty(),
                    "the public view decides nothing"
                );
            }
        }
        let beyond = replay(&mut client, &id, first.steps)
            .await
            .expect_err("beyond the end");
        assert_eq!(beyond.code(), tonic::Code::OutOfRange);
        assert_eq!(reason(&beyond), "NO_SUCH_STEP");
    }

    // A table that has not finished a hand has nothing to replay; unknown tables are not found.
    let open = create(
        &mut client,
        options(v1::Game::Tressette, 21),
        vec![],
        9,
        None,
    )
    .await;
    let none = replay(&mut client, &open.table_id, 0)
        .await
        .expect_err("nothing over yet");
    assert_eq!(reason(&none), "NO_SUCH_STEP");
    let missing = replay(&mut client, "no-such-table", 0)
        .await
        .expect_err("unknown");
    assert_eq!(missing.code(), tonic::Code::NotFound);
    let empty = replay(&mut client, " ", 0).await.expect_err("empty id");
    assert_eq!(empty.code(), tonic::Code::InvalidArgument);
}
