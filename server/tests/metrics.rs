//! The Prometheus endpoint of `calabresella serve --metrics-listen`, scraped and parsed during a
//! match: each counter moves by exactly what the match did.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use calabresella_client::RemoteSeat;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;

/// The server, killed when the test ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `serve` with metrics on free ports; returns it, its gRPC URL and the metrics address.
fn start() -> (Server, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_calabresella"))
        .args(["serve", "--listen", "127.0.0.1:0", "--db", ":memory:"])
        .args(["--metrics-listen", "127.0.0.1:0", "--no-web"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let (mut grpc, mut metrics) = (None, None);
    while grpc.is_none() || metrics.is_none() {
        let line = lines
            .next()
            .expect("the server prints its addresses")
            .expect("line");
        if let Some(a) = line.strip_prefix("calabresella: listening on ") {
            grpc = Some(format!("http://{}", a.trim()));
        }
        if let Some(a) = line.strip_prefix("calabresella: metrics at http://") {
            metrics = Some(a.trim().trim_end_matches("/metrics").to_owned());
        }
    }
    std::thread::spawn(move || lines.for_each(drop));
    (
        Server(child),
        grpc.expect("grpc"),
        metrics.expect("metrics"),
    )
}

/// `GET path` on `addr`: the status line and the body.
fn get(addr: &str, path: &str) -> (String, String) {
    let mut tcp = std::net::TcpStream::connect(addr).expect("connect to metrics");
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n"
    )
    .expect("send");
    let mut text = String::new();
    tcp.read_to_string(&mut text).expect("read");
    let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
    (
        head.lines().next().unwrap_or("").to_owned(),
        body.to_owned(),
    )
}

/// Every sample of the Prometheus text format: `name{labels}` to its value. Checks each line
/// is a comment or a well-formed sample.
fn scrape(addr: &str) -> HashMap<String, f64> {
    let (status, body) = get(addr, "/metrics");
    assert!(status.contains("200"), "{status}");
    let mut out = HashMap::new();
    for line in body.lines() {
        if line.is_empty() || line.starts_with('#') {
            assert!(
                line.is_empty() || line.starts_with("# HELP ") || line.starts_with("# TYPE "),
                "{line}"
            );
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect("a sample is `series value`");
        let name = series.split('{').next().unwrap_or("");
        assert!(
            name.starts_with("calabresella_")
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()),
            "{name}"
        );
        let value: f64 = value.parse().unwrap_or_else(|_| panic!("value of {line}"));
        out.insert(series.to_owned(), value);
    }
    out
}

fn at(m: &HashMap<String, f64>, series: &str) -> f64 {
    m.get(series).copied().unwrap_or(0.0)
}

#[test]
fn counters_move_by_what_a_match_did() {
    let (_server, url, metrics) = start();
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let before = scrape(&metrics);
    assert!(
        get(&metrics, "/").0.contains("404"),
        "other paths are not found"
    );

    let (decisions, record) = rt.block_on(async {
        let mut client = TableServiceClient::connect(url.clone())
            .await
            .expect("connect");
        let table = common::create(
            &mut client,
            common::options(v1::Game::Calabresella, 11),
            vec![
                v1::SeatKind::Open,
                v1::SeatKind::BotHeuristic,
                v1::SeatKind::BotRandom,
            ],
            11,
            None,
        )
        .await;
        let id = table.table_id.clone();

        // While a seat's stream is open, the gauge counts it.
        let mut seat = RemoteSeat::join(client.clone(), &id, Some(0), "metrics")
            .await
            .expect("join");
        let mut decisions = 0u64;
        let ended = seat
            .play(
                |t, _| {
                    decisions += 1;
                    t.legal_actions[0].clone()
                },
                |_| {},
            )
            .await
            .expect("the match ends");
        assert_eq!(ended.reason, v1::EndReason::Completed as i32);

        // Two refusals: an Act after the end, and a table that does not exist.
        let late = client
            .act(v1::ActRequest {
                table_id: id.clone(),
                seat_token: seat.token.clone(),
                decision: 0,
                action: Some(v1::Action {
                    notation: "pass".into(),
                    ..Default::default()
                }),
            })
            .await;
        assert!(late.is_err());
        let missing = client
            .get_table(v1::GetTableRequest {
                table_id: "t-0000000000000000".into(),
            })
            .await;
        assert_eq!(
            missing.expect_err("no such table").code(),
            tonic::Code::NotFound
        );
        let record = common::fetch_record(&client, id).await.record_json;
        (decisions, record)
    });
    let actions: usize = calabresella_engine::record::Record::parse(&record)
        .expect("record")
        .hands
        .iter()
        .map(|h| h.actions.len())
        .sum();

    assert!(
        decisions > 0 && actions as u64 > decisions,
        "{decisions} of {actions}"
    );

    // The stream's end is seen by the server a moment after the client's.
    let mut after = scrape(&metrics);
    for _ in 0..50 {
        if at(&after, "calabresella_open_streams{kind=\"seat\"}") == 0.0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        after = scrape(&metrics);
    }
    let delta = |s: &str| at(&after, s) - at(&before, s);
    assert_eq!(
        delta("calabresella_actions_total{game=\"calabresella\"}"),
        actions as f64,
        "every action of the record, players' and bots' alike"
    );
    assert_eq!(
        delta("calabresella_matches_ended_total{game=\"calabresella\",reason=\"COMPLETED\"}"),
        1.0
    );
    assert_eq!(
        delta("calabresella_act_duration_seconds_count{outcome=\"ok\"}"),
        decisions as f64,
        "one accepted Act per decision this seat answered"
    );
    assert_eq!(
        delta("calabresella_act_duration_seconds_count{outcome=\"error\"}"),
        1.0
    );
    assert_eq!(
        delta("calabresella_errors_total{reason=\"TABLE_NOT_FOUND\"}"),
        1.0
    );
    assert_eq!(at(&after, "calabresella_tables{state=\"finished\"}"), 1.0);
    assert_eq!(at(&after, "calabresella_tables{state=\"playing\"}"), 0.0);
    assert_eq!(at(&after, "calabresella_open_streams{kind=\"seat\"}"), 0.0);
    // The table, its seat and its end; an in-memory store is sent no actions (nothing could
    // resume from them), so a match commits a few times whatever its length.
    assert!(delta("calabresella_store_commit_duration_seconds_count") >= 3.0);
    // Nothing secret in any series: no table id, no token, no player's name.
    let (_, body) = get(&metrics, "/metrics");
    assert!(
        !body.contains("t-") && !body.contains("metrics\""),
        "{body}"
    );
}
