//! Hostile traffic against a real server process, from 127.0.0.2, while measured clients
//! call from 127.0.0.1 over gRPC (HTTP/2) and gRPC-web (HTTP/1.1), in plain text and over
//! TLS. Each attack must end the way the connection layer promises (GOAWAY
//! `ENHANCE_YOUR_CALM` for a flood, an eviction for a silent, stalled or idle connection, a
//! refusal for oversized headers and extra streams), the measured clients' p99 must stay
//! under 50 ms, and the server's memory must stay bounded.
//!
//! The tests take turns (one lock): they measure latency, and two attacks at once on two
//! cores would measure each other.

mod common;

#[path = "../src/bin/load/attack.rs"]
mod attack;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use attack::{Ending, Target};
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use prost::Message;
use tokio::io::AsyncWriteExt;

/// One test at a time: they measure latency.
static TURN: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The eviction timeouts the test server runs with: short, so that attacks cycle.
const HANDSHAKE_MS: u64 = 500;
const STALL_MS: u64 = 500;
const IDLE_S: u64 = 1;
/// How long each attack runs while the clients are measured.
const WINDOW: Duration = Duration::from_millis(2500);
/// The measured clients' p99 must stay under this.
const P99_MS: f64 = 50.0;
/// The server's memory may grow by at most this during an attack.
const MAX_GROWTH_KIB: u64 = 96 * 1024;

fn attacker() -> IpAddr {
    "127.0.0.2".parse().expect("ip")
}

struct Server {
    child: Child,
    addr: SocketAddr,
    /// The CA to trust when it speaks TLS.
    ca: Option<PathBuf>,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn start(tls: bool, extra: &[&str]) -> Server {
        use std::io::{BufRead, BufReader};
        let dir = tempfile::tempdir().expect("dir");
        let mut c = Command::new(env!("CARGO_BIN_EXE_calabresella"));
        c.args(["serve", "--listen", "127.0.0.1:0", "--db", ":memory:"])
            .args(["--log", "warn"])
            .args(["--handshake-timeout-ms", &HANDSHAKE_MS.to_string()])
            .args(["--frame-stall-ms", &STALL_MS.to_string()])
            .args(["--idle-timeout-s", &IDLE_S.to_string()])
            .args(extra);
        let mut ca = None;
        if tls {
            let certs =
                calabresella_server::tls::dev_certs::DevCerts::generate(&["127.0.0.1".to_owned()])
                    .expect("certificates");
            certs.write(dir.path()).expect("write");
            c.arg("--tls-cert")
                .arg(dir.path().join("server.pem"))
                .arg("--tls-key")
                .arg(dir.path().join("server.key"));
            ca = Some(dir.path().join("ca.pem"));
        }
        let mut child = c
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server says where it listens")
                .expect("line");
            if let Some(a) = line.strip_prefix("calabresella: listening on ") {
                break a
                    .split_whitespace()
                    .next()
                    .expect("address")
                    .parse()
                    .expect("addr");
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Server {
            child,
            addr,
            ca,
            _dir: dir,
        }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn url(&self) -> String {
        let scheme = if self.ca.is_some() { "https" } else { "http" };
        format!("{scheme}://{}", self.addr)
    }

    async fn client(&self) -> TableServiceClient<tonic::transport::Channel> {
        let tls = calabresella_client::TlsFiles::ca(self.ca.as_deref());
        let channel = calabresella_client::endpoint(&self.url(), &tls, Duration::from_secs(5))
            .expect("endpoint")
            .connect()
            .await
            .expect("connect");
        TableServiceClient::new(channel)
    }

    /// Where the attacker aims, offering `alpn` over TLS.
    fn target(&self, alpn: &[u8]) -> Target {
        match &self.ca {
            None => Target::plain(self.addr, attacker()),
            Some(ca) => Target::tls(self.addr, attacker(), ca, alpn).expect("TLS target"),
        }
    }

    /// The measured gRPC-web client's connection, from 127.0.0.1.
    async fn web_connection(&self) -> Box<dyn attack::Io> {
        let local: IpAddr = "127.0.0.1".parse().expect("ip");
        let t = match &self.ca {
            None => Target::plain(self.addr, local),
            Some(ca) => Target::tls(self.addr, local, ca, b"http/1.1").expect("TLS target"),
        };
        t.connect().await.expect("connect")
    }
}

/// A table of bots for the measured clients to ask about.
async fn a_table(c: &mut TableServiceClient<tonic::transport::Channel>) -> String {
    c.create_table(v1::CreateTableRequest {
        options: Some(common::options(v1::Game::Calabresella, 5)),
        seats: vec![v1::SeatKind::BotRandom as i32; 3],
        bot_delay_ms: 1000,
        ..Default::default()
    })
    .await
    .expect("create")
    .into_inner()
    .table
    .expect("table")
    .table_id
}

/// What the measured clients saw while an attack ran.
#[derive(Debug)]
struct Measured {
    grpc_p99_ms: f64,
    web_p99_ms: f64,
    calls: usize,
    peak_growth_kib: u64,
}

/// Runs `attack` (repeatedly, until the window ends) while a gRPC client and a gRPC-web client
/// call `GetTable` one call after another, and the server's memory is sampled.
async fn measure<F, Fut>(server: &Server, table: &str, attack: F) -> (Measured, Vec<Ending>)
where
    F: Fn() -> Fut + Send + Sync + 'static,
    Fut: std::future::Future<Output = Vec<Ending>> + Send,
{
    let mut client = server.client().await;
    let mut web = server.web_connection().await;
    let request = v1::GetTableRequest {
        table_id: table.to_owned(),
    };
    let bytes = request.encode_to_vec();
    // Warm both up, then note the memory before.
    for _ in 0..20 {
        client.get_table(request.clone()).await.expect("get");
        attack::grpc_web_call(&mut web, "GetTable", &bytes)
            .await
            .expect("web");
    }
    let before = attack::rss_kib(server.pid()).expect("rss");
    let stop = Arc::new(AtomicBool::new(false));
    let attack = Arc::new(attack);
    let attackers: Vec<_> = (0..2)
        .map(|_| {
            let (stop, attack) = (stop.clone(), attack.clone());
            tokio::spawn(async move {
                let mut endings = Vec::new();
                while !stop.load(Ordering::Relaxed) {
                    endings.extend(attack().await);
                }
                endings
            })
        })
        .collect();
    let pid = server.pid();
    let sampler = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut peak = 0;
            while !stop.load(Ordering::Relaxed) {
                peak = peak.max(attack::rss_kib(pid).unwrap_or(0));
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            peak
        })
    };
    let grpc = {
        let stop = stop.clone();
        let request = request.clone();
        tokio::spawn(async move {
            let mut times = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                client
                    .get_table(request.clone())
                    .await
                    .expect("gRPC call during the attack");
                times.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            times
        })
    };
    let webs = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut times = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let t = Instant::now();
                attack::grpc_web_call(&mut web, "GetTable", &bytes)
                    .await
                    .expect("gRPC-web call during the attack");
                times.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(2)).await;
            }
            times
        })
    };
    tokio::time::sleep(WINDOW).await;
    stop.store(true, Ordering::Relaxed);
    let mut g = grpc.await.expect("grpc");
    let mut w = webs.await.expect("web");
    let peak = sampler.await.expect("sampler");
    let mut endings = Vec::new();
    for a in attackers {
        endings.extend(a.await.expect("attacker"));
    }
    g.sort_unstable();
    w.sort_unstable();
    (
        Measured {
            grpc_p99_ms: attack::percentile_ms(&g, 0.99),
            web_p99_ms: attack::percentile_ms(&w, 0.99),
            calls: g.len() + w.len(),
            peak_growth_kib: peak.saturating_sub(before),
        },
        endings,
    )
}

fn check(name: &str, m: &Measured, endings: &[Ending]) {
    eprintln!("{name}: {m:?}, {} attacks", endings.len());
    assert!(!endings.is_empty(), "{name}: the attack ran");
    assert!(
        m.calls > 100,
        "{name}: the measured clients were served: {m:?}"
    );
    assert!(m.grpc_p99_ms < P99_MS, "{name}: gRPC p99 {m:?}");
    assert!(m.web_p99_ms < P99_MS, "{name}: gRPC-web p99 {m:?}");
    assert!(
        m.peak_growth_kib < MAX_GROWTH_KIB,
        "{name}: memory grew {} KiB",
        m.peak_growth_kib
    );
}

/// Each flood, and each kind of stalled or idle connection, on one server.
async fn every_attack(tls: bool) {
    let server = Server::start(tls, &[]);
    let mut c = server.client().await;
    let table = a_table(&mut c).await;
    let h2 = server.target(b"h2");
    let h1 = server.target(b"http/1.1");
    let calm = |e: &Ending| e.goaway() == Some(attack::ENHANCE_YOUR_CALM);
    let label = if tls { "TLS" } else { "plain" };

    // Floods: each ends with GOAWAY ENHANCE_YOUR_CALM long before it is sent whole.
    for (name, bytes) in [
        ("PING flood", attack::ping_flood(100_000)),
        ("SETTINGS flood", attack::settings_flood(100_000)),
        ("rapid reset", attack::rapid_reset(10_000)),
    ] {
        let t = h2.clone();
        let bytes = Arc::new(bytes);
        let (m, endings) = measure(&server, &table, move || {
            let (t, bytes) = (t.clone(), bytes.clone());
            async move {
                let Ok(io) = t.connect().await else {
                    return Vec::new();
                };
                let (end, _, _) =
                    attack::send_then_watch(io, bytes.to_vec(), 16 * 1024, Duration::from_secs(5))
                        .await;
                // Ended at once, not after the flood was all answered.
                assert!(
                    matches!(end, Ending::GoAway(_, d) if d < Duration::from_secs(2)),
                    "{end:?}"
                );
                vec![end]
            }
        })
        .await;
        check(&format!("{label} {name}"), &m, &endings);
        assert!(endings.iter().all(calm), "{label} {name}: {endings:?}");
    }

    // A header list over 16 KiB is refused: in one frame, with 431 and the stream reset
    // (the connection lives); spread over CONTINUATION frames, the connection ends with
    // GOAWAY ENHANCE_YOUR_CALM (the HTTP/2 library's guard against CONTINUATION floods).
    let t = h2.clone();
    let (m, endings) = measure(&server, &table, move || {
        let t = t.clone();
        async move {
            let Ok(mut io) = t.connect().await else {
                return Vec::new();
            };
            let _ = io.write_all(&attack::oversized_headers(32 * 1024)).await;
            let (end, seen) =
                attack::watch(&mut io, Instant::now(), Duration::from_millis(300)).await;
            assert!(
                seen.frames[usize::from(attack::HEADERS)] > 0
                    && seen.frames[usize::from(attack::RST_STREAM)] > 0,
                "431 and a reset: {seen:?} {end:?}"
            );
            assert_eq!(end, Ending::Open, "the connection lives on");
            let Ok(io) = t.connect().await else {
                return Vec::new();
            };
            let (block, _, _) = attack::send_then_watch(
                io,
                attack::oversized_header_block(64 * 1024),
                16 * 1024,
                Duration::from_secs(2),
            )
            .await;
            assert!(calm(&block), "{block:?}");
            vec![end, block]
        }
    })
    .await;
    check(&format!("{label} oversized headers"), &m, &endings);

    // More streams than a connection may open: the extra ones are refused.
    let t = h2.clone();
    let (m, endings) = measure(&server, &table, move || {
        let t = t.clone();
        async move {
            let Ok(io) = t.connect().await else {
                return Vec::new();
            };
            let (end, seen, _) = attack::send_then_watch(
                io,
                attack::many_streams(2000),
                16 * 1024,
                Duration::from_millis(1500),
            )
            .await;
            // REFUSED_STREAM (7) for the streams beyond the limit, or the connection ended
            // for too many of them.
            assert!(
                seen.resets.contains(&7) || calm(&end),
                "extra streams were refused: {end:?} {:?}",
                &seen.resets[..seen.resets.len().min(5)]
            );
            vec![end]
        }
    })
    .await;
    check(&format!("{label} too many streams"), &m, &endings);

    // Connections that never send a byte, stall inside a frame, idle after their handshake,
    // or trickle an HTTP/1.1 head: each is evicted, twenty at a time.
    type Attempt =
        fn(Target) -> std::pin::Pin<Box<dyn std::future::Future<Output = Ending> + Send>>;
    let silent: Attempt = |t| {
        Box::pin(async move {
            attack::silent(&t, Duration::from_secs(5))
                .await
                .unwrap_or(Ending::Closed(Duration::ZERO))
        })
    };
    let stalled: Attempt = |t| {
        Box::pin(async move {
            attack::trickle(
                &t,
                &attack::stall_in_frame(),
                1 << 20,
                Duration::ZERO,
                Duration::from_secs(5),
            )
            .await
            .unwrap_or(Ending::Closed(Duration::ZERO))
        })
    };
    let idle: Attempt = |t| {
        Box::pin(async move {
            attack::trickle(
                &t,
                &attack::handshake(),
                1 << 20,
                Duration::ZERO,
                Duration::from_secs(5),
            )
            .await
            .unwrap_or(Ending::Closed(Duration::ZERO))
        })
    };
    let slowloris: Attempt = |t| {
        Box::pin(async move {
            let head = attack::slow_http1_head().repeat(100);
            attack::trickle(
                &t,
                &head,
                4,
                Duration::from_millis(100),
                Duration::from_secs(5),
            )
            .await
            .unwrap_or(Ending::Closed(Duration::ZERO))
        })
    };
    let garbage: Attempt = |t| {
        Box::pin(async move {
            let Ok(io) = t.connect().await else {
                return Ending::Closed(Duration::ZERO);
            };
            let seed = Instant::now().elapsed().subsec_nanos() as u64 + 1;
            attack::send_then_watch(io, attack::garbage(4096, seed), 512, Duration::from_secs(5))
                .await
                .0
        })
    };
    let handshake = Duration::from_millis(HANDSHAKE_MS);
    for (name, attempt, target, within) in [
        ("silent", silent, h2.clone(), handshake),
        (
            "stalled in a frame",
            stalled,
            h2.clone(),
            Duration::from_millis(STALL_MS),
        ),
        ("idle", idle, h2.clone(), Duration::from_secs(IDLE_S)),
        ("slow HTTP/1.1 head", slowloris, h1.clone(), handshake),
        ("garbage", garbage, h1.clone(), handshake),
    ] {
        let (m, endings) = measure(&server, &table, move || {
            let t = target.clone();
            async move {
                let all = (0..20).map(|_| tokio::spawn(attempt(t.clone())));
                let mut out = Vec::new();
                for a in all {
                    out.push(a.await.expect("attempt"));
                }
                out
            }
        })
        .await;
        check(&format!("{label} {name}"), &m, &endings);
        for e in &endings {
            let after = match e {
                Ending::Closed(d) | Ending::GoAway(_, d) => *d,
                Ending::Open => panic!("{label} {name}: a connection was never evicted"),
            };
            // Evicted once its time was up, not long after (a second for a loaded machine).
            assert!(
                after < within + Duration::from_secs(1),
                "{label} {name}: evicted after {after:?}"
            );
        }
        if name == "idle" {
            assert!(
                endings.iter().all(|e| e.goaway() == Some(attack::NO_ERROR)),
                "{label}: an idle connection is told GOAWAY NO_ERROR: {endings:?}"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attack_over_plain_http2_and_http1() {
    let _turn = TURN.lock().await;
    every_attack(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_attack_over_tls() {
    let _turn = TURN.lock().await;
    every_attack(true).await;
}

/// The HEADERS frames (answers) and the streams still unanswered of `n` calls opened on one
/// connection and never finished, after `wait`.
async fn open_calls(target: &Target, n: usize, wait: Duration) -> (u32, attack::Seen) {
    let Ok(io) = target.connect().await else {
        return (0, attack::Seen::default());
    };
    let (_, seen, _) = attack::send_then_watch(io, attack::many_streams(n), 16 * 1024, wait).await;
    (seen.frames[usize::from(attack::HEADERS)], seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clients_calls_in_flight_are_bounded_over_all_its_connections() {
    let _turn = TURN.lock().await;
    let server = Server::start(false, &["--max-calls-per-client", "600"]);
    let mut c = server.client().await;
    let table = a_table(&mut c).await;
    let before = attack::rss_kib(server.pid()).expect("rss");
    // Eight connections of 400 calls each that never send their request's end: the first
    // 600 wait for it (the request timeout would end them), every other one is answered at
    // once with RESOURCE_EXHAUSTED (a trailers-only HEADERS frame).
    let target = server.target(b"h2");
    let all: Vec<_> = (0..8)
        .map(|_| {
            let t = target.clone();
            tokio::spawn(async move { open_calls(&t, 400, Duration::from_secs(3)).await })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // Meanwhile another client is served, the attacker's own address is refused with the
    // reason, and the server holds no more than the budget.
    c.get_table(v1::GetTableRequest {
        table_id: table.clone(),
    })
    .await
    .expect("another client is served");
    let mut same = attack_client(&server).await;
    let refused = same
        .list_tables(v1::ListTablesRequest::default())
        .await
        .expect_err("over its budget");
    assert_eq!(refused.code(), tonic::Code::ResourceExhausted);
    assert_eq!(common::reason(&refused), "TOO_MANY_CALLS");
    let during = attack::rss_kib(server.pid()).expect("rss");
    let mut answered = 0;
    for a in all {
        answered += a.await.expect("attacker").0;
    }
    // Exactly the calls over the budget were answered (refused) at once.
    assert_eq!(
        answered,
        3200 - 600,
        "of 3200 calls, {answered} answered at once"
    );
    assert!(
        during.saturating_sub(before) < 64 * 1024,
        "600 unfinished calls hold {} KiB",
        during.saturating_sub(before)
    );
}

/// A gRPC client whose connection comes from the attacker's address.
async fn attack_client(server: &Server) -> TableServiceClient<tonic::transport::Channel> {
    let addr = server.addr;
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .expect("url")
        .connect_with_connector(tower::service_fn(move |_| async move {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::new(attacker(), 0))?;
            let stream = socket.connect(addr).await?;
            Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
        }))
        .await
        .expect("connect");
    TableServiceClient::new(channel)
}

/// A tonic client whose streams take `window` bytes before they must be read.
async fn narrow_client(
    server: &Server,
    window: u32,
) -> TableServiceClient<tonic::transport::Channel> {
    let channel = tonic::transport::Endpoint::from_shared(server.url())
        .expect("url")
        .initial_stream_window_size(Some(window))
        .connect()
        .await
        .expect("connect");
    TableServiceClient::new(channel)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_never_read_is_cut_off_at_its_buffer_and_ends_with_a_resumable_reason() {
    let _turn = TURN.lock().await;
    const BUFFER: usize = 8;
    let server = Server::start(false, &["--stream-buffer", &BUFFER.to_string()]);
    let mut c = server.client().await;
    // A seat whose clock runs out at every decision (a bot answers for it), and a spectator,
    // both reading nothing while a whole match of hundreds of updates is played.
    let t = c
        .create_table(v1::CreateTableRequest {
            options: Some(common::options(v1::Game::Calabresella, 21)),
            seats: vec![
                v1::SeatKind::Open as i32,
                v1::SeatKind::BotRandom as i32,
                v1::SeatKind::BotRandom as i32,
            ],
            clock: Some(v1::Clock {
                move_ms: 20,
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
    let mut slow = narrow_client(&server, 1024).await;
    let mut spectator = slow
        .spectate(v1::SpectateRequest {
            table_id: t.table_id.clone(),
            ..Default::default()
        })
        .await
        .expect("spectate")
        .into_inner();
    let joined = c
        .join_table(v1::JoinTableRequest {
            table_id: t.table_id.clone(),
            player_name: "slow".into(),
            ..Default::default()
        })
        .await
        .expect("join")
        .into_inner();
    let mut seat = slow
        .observe(v1::ObserveRequest {
            table_id: t.table_id.clone(),
            seat_token: joined.seat_token.clone(),
            ..Default::default()
        })
        .await
        .expect("observe")
        .into_inner();
    // The match plays to its end without them.
    let deadline = Instant::now() + Duration::from_secs(60);
    let finished = loop {
        let now = common::table_of(&mut c, t.table_id.clone()).await;
        if now.state == v1::TableState::Finished as i32 {
            break now;
        }
        assert!(Instant::now() < deadline, "the match ends");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let public = common::fetch_record(&c, t.table_id.clone()).await;
    assert!(
        finished.decisions > 4 * BUFFER as u64,
        "{} decisions",
        finished.decisions
    );
    assert!(public.match_over);
    // Now they read: what was queued, then the reason, with the last number received to
    // resume from. Far fewer updates than the match made: the server kept no more.
    // How many updates the public feed holds: a fresh stream opens at the last one.
    let total = c
        .spectate(v1::SpectateRequest {
            table_id: t.table_id.clone(),
            ..Default::default()
        })
        .await
        .expect("spectate")
        .into_inner()
        .message()
        .await
        .expect("snapshot")
        .and_then(|m| m.update)
        .map_or(0, |u| u.seq);
    let spectated = drain(&mut spectator, |m| m.update.map(|u| u.seq)).await;
    let observed = drain(&mut seat, |m| m.update.map(|u| u.seq)).await;
    for (name, (got, last, end)) in [("spectator", spectated), ("seat", observed)] {
        let end = end.expect("cut off with a status");
        assert_eq!(
            end.code(),
            tonic::Code::ResourceExhausted,
            "{name}: {end:?}"
        );
        assert!(end.message().contains("resume_after"), "{name}: {end:?}");
        // What fit the 1 KiB window, and the buffer: a small part of the match.
        assert!(
            got <= BUFFER + 64 && (got as u64) * 2 < total,
            "{name}: {got} of {total} updates kept for a reader that read nothing"
        );
        assert!(last > 0, "{name}");
        // It resumes after the last update it read.
        let mut again = c
            .spectate(v1::SpectateRequest {
                table_id: t.table_id.clone(),
                resume_after: Some(last),
                ..Default::default()
            })
            .await
            .expect("resume")
            .into_inner();
        let next = again.message().await.expect("resumed").expect("an update");
        assert!(next.update.is_some(), "{name}");
    }
}

/// A stream read to its end: updates received, the last sequence number, the ending status.
async fn drain<T>(
    stream: &mut tonic::Streaming<T>,
    seq: impl Fn(T) -> Option<u64>,
) -> (usize, u64, Option<tonic::Status>) {
    let (mut got, mut last) = (0, 0);
    loop {
        match stream.message().await {
            Ok(Some(m)) => {
                got += 1;
                last = seq(m).unwrap_or(last);
            }
            Ok(None) => return (got, last, None),
            Err(e) => return (got, last, Some(e)),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_cannot_make_the_server_write_log_lines_without_bound() {
    let _turn = TURN.lock().await;
    let dir = tempfile::tempdir().expect("dir");
    let log = dir.path().join("server.log");
    let admin = dir.path().join("admin.key");
    std::fs::write(&admin, "an-admin-key-for-the-log-test").expect("key");
    let server = {
        use std::io::{BufRead, BufReader};
        let mut child = Command::new(env!("CARGO_BIN_EXE_calabresella"))
            .args([
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--db",
                ":memory:",
                "--log",
                "info",
            ])
            .arg("--admin-key-file")
            .arg(&admin)
            // Bad keys are blocked after a few a minute; this test wants every one logged
            // or not by the log limit alone.
            .args(["--max-bad-keys-per-minute", "0"])
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("log"))
            .spawn()
            .expect("serve");
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let addr: SocketAddr = loop {
            let line = lines.next().expect("listening").expect("line");
            if let Some(a) = line.strip_prefix("calabresella: listening on ") {
                break a.trim().parse().expect("addr");
            }
        };
        std::thread::spawn(move || lines.for_each(drop));
        Server {
            child,
            addr,
            ca: None,
            _dir: dir,
        }
    };
    // 300 floods (each connection evicted) and 300 calls with a bad admin key.
    let target = server.target(b"h2");
    for _ in 0..300 {
        if let Ok(io) = target.connect().await {
            attack::send_then_watch(
                io,
                attack::ping_flood(500),
                16 * 1024,
                Duration::from_secs(2),
            )
            .await;
        }
    }
    let mut c = server.client().await;
    for _ in 0..300 {
        let mut r = tonic::Request::new(v1::CreateTournamentRequest::default());
        calabresella_client::authorize(&mut r, Some("not-the-admin-key-at-all")).expect("key");
        let e = c.create_tournament(r).await.expect_err("a bad key");
        assert_eq!(e.code(), tonic::Code::Unauthenticated);
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    let text = std::fs::read_to_string(server._dir.path().join("server.log")).expect("log");
    let floods = text
        .lines()
        .filter(|l| l.contains("connection closed by its guard"))
        .count();
    let keys = text
        .lines()
        .filter(|l| l.contains("refused an admin key"))
        .count();
    let limit = calabresella_server::log_limit::PER_CLIENT_PER_MINUTE as usize;
    assert!(
        floods >= 1 && floods <= limit,
        "{floods} lines for 300 floods"
    );
    assert!(keys >= 1 && keys <= limit, "{keys} lines for 300 bad keys");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn legitimate_clients_are_never_evicted() {
    let _turn = TURN.lock().await;
    // Short limits (idle 1 s, frame stall 0.5 s, a small control budget), and clients that
    // a careless guard would take for attackers.
    let server = Server::start(false, &["--control-frames-burst", "20"]);
    let mut c = server.client().await;
    // A bot table that makes an update only every 1.5 s: its watcher's connection has no
    // other call, and must outlive the idle timeout while the stream is open.
    let slow = c
        .create_table(v1::CreateTableRequest {
            options: Some(common::options(v1::Game::Calabresella, 21)),
            seats: vec![v1::SeatKind::BotRandom as i32; 3],
            bot_delay_ms: 1500,
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    let mut watcher = server.client().await;
    let mut stream = watcher
        .spectate(v1::SpectateRequest {
            table_id: slow.table_id.clone(),
            ..Default::default()
        })
        .await
        .expect("spectate")
        .into_inner();
    // An eager client: adaptive flow-control windows (BDP pings) and a keepalive ping every
    // 100 ms, calling with large requests (about 60 KiB, several frames each) back to back.
    let eager = tonic::transport::Endpoint::from_shared(server.url())
        .expect("url")
        .http2_adaptive_window(true)
        .http2_keep_alive_interval(Duration::from_millis(100))
        .keep_alive_while_idle(true)
        .connect()
        .await
        .expect("connect");
    let mut eager = TableServiceClient::new(eager);
    let started = Instant::now();
    let mut calls = 0;
    while started.elapsed() < Duration::from_secs(4) {
        let e = eager
            .create_table(v1::CreateTableRequest {
                name: "x".repeat(60_000),
                ..Default::default()
            })
            .await
            .expect_err("a name that long is refused, by the service");
        assert_eq!(e.code(), tonic::Code::InvalidArgument, "{e:?}");
        calls += 1;
    }
    assert!(calls > 20, "{calls} calls");
    // The watcher saw updates throughout, and its stream is still open.
    let mut seen = 0;
    while let Ok(Some(m)) = tokio::time::timeout(Duration::from_secs(3), stream.message())
        .await
        .expect("an update within 3 s")
    {
        assert!(m.update.is_some());
        seen += 1;
        if seen == 4 {
            break;
        }
    }
    assert_eq!(seen, 4, "the stream lived past the idle timeout");
}
