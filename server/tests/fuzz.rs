//! Every RPC of the service, fuzzed through the real server (in this process, on loopback)
//! over plain HTTP/2, TLS and gRPC-web. Requests are arbitrary bytes, or messages of the
//! protobuf wire format with random fields whose values come from a dictionary of what the
//! server knows (a live table's id and seat token, a finished table, game and option names,
//! action notation, page tokens) and from the edges of every type; the metadata carries
//! random API keys. Every answer must be a contract answer: OK, or one of the status codes
//! the API documents with an `ErrorInfo` whose reason is one of the server's; a request over
//! the size limit is `RESOURCE_EXHAUSTED` naming the limit. Nothing may panic, and the server
//! must answer a health check at the end.
//!
//! Bounded by `PROPTEST_CASES` (default 24 cases, each one call of every RPC on every
//! transport); a long run: `PROPTEST_CASES=20000 cargo test -p calabresella-server --test
//! fuzz`. Every case that ever failed is kept in `fuzz.proptest-regressions` and runs first.

mod common;

#[path = "../src/bin/load/attack.rs"]
#[allow(unused)]
mod attack;

use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use calabresella_proto::v1;
use calabresella_server::error::Reason;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use prost::Message;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tonic::transport::Channel;
use tonic_types::StatusExt;

/// Panics anywhere in the process (the server's tasks included).
static PANICS: AtomicUsize = AtomicUsize::new(0);

/// One RPC of the package.
#[derive(Debug, Clone)]
struct Rpc {
    /// `TableService/CreateTable`, say.
    name: String,
    streaming: bool,
}

/// Every RPC of every service of `calabresella.v1`, from the contract itself.
fn rpcs() -> Vec<Rpc> {
    let set = prost_types::FileDescriptorSet::decode(v1::FILE_DESCRIPTOR_SET).expect("descriptors");
    let out: Vec<Rpc> = set
        .file
        .iter()
        .flat_map(|f| f.service.iter())
        .flat_map(|s| {
            s.method.iter().map(move |m| Rpc {
                name: format!("{}/{}", s.name(), m.name()),
                streaming: m.server_streaming(),
            })
        })
        .collect();
    assert!(out.len() >= 21, "{out:?}");
    out
}

/// What the fuzzer draws its values from.
#[derive(Debug, Clone)]
struct World {
    strings: Vec<String>,
}

/// One field of the protobuf wire format.
#[derive(Debug, Clone)]
enum Field {
    Varint(u32, u64),
    Bytes(u32, Vec<u8>),
    Nested(u32, Vec<Field>),
    Fixed32(u32, u32),
    Fixed64(u32, u64),
}

fn encode(fields: &[Field], out: &mut Vec<u8>) {
    let key = |n: u32, wire: u64, out: &mut Vec<u8>| {
        prost::encoding::encode_varint(u64::from(n) << 3 | wire, out)
    };
    for f in fields {
        match f {
            Field::Varint(n, v) => {
                key(*n, 0, out);
                prost::encoding::encode_varint(*v, out);
            }
            Field::Bytes(n, b) => {
                key(*n, 2, out);
                prost::encoding::encode_varint(b.len() as u64, out);
                out.extend_from_slice(b);
            }
            Field::Nested(n, inner) => {
                let mut b = Vec::new();
                encode(inner, &mut b);
                key(*n, 2, out);
                prost::encoding::encode_varint(b.len() as u64, out);
                out.extend(b);
            }
            Field::Fixed32(n, v) => {
                key(*n, 5, out);
                out.extend(v.to_le_bytes());
            }
            Field::Fixed64(n, v) => {
                key(*n, 1, out);
                out.extend(v.to_le_bytes());
            }
        }
    }
}

fn varint() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..8,
        Just(u64::from(u32::MAX)),
        Just(u64::MAX),
        Just(i64::MIN as u64),
        Just(1 << 31),
        any::<u64>(),
        0u64..70_000,
    ]
}

fn fields(world: World) -> impl Strategy<Value = Vec<Field>> {
    let text = prop::sample::select(world.strings).prop_map(String::into_bytes);
    let bytes = prop_oneof![
        4 => text,
        1 => prop::collection::vec(any::<u8>(), 0..80),
        1 => "\\PC{0,30}".prop_map(String::into_bytes),
    ];
    let number = prop_oneof![4 => 1u32..12, 1 => 12u32..40];
    let leaf = prop_oneof![
        (number.clone(), varint()).prop_map(|(n, v)| Field::Varint(n, v)),
        (number.clone(), bytes).prop_map(|(n, b)| Field::Bytes(n, b)),
        (number.clone(), any::<u32>()).prop_map(|(n, v)| Field::Fixed32(n, v)),
        (number.clone(), any::<u64>()).prop_map(|(n, v)| Field::Fixed64(n, v)),
    ];
    let field = leaf.prop_recursive(2, 24, 6, move |inner| {
        (number.clone(), prop::collection::vec(inner, 0..6)).prop_map(|(n, f)| Field::Nested(n, f))
    });
    prop::collection::vec(field, 0..8)
}

/// A request body: wire-format fields, or any bytes at all.
fn body(world: World) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => fields(world).prop_map(|f| {
            let mut out = Vec::new();
            encode(&f, &mut out);
            out
        }),
        1 => prop::collection::vec(any::<u8>(), 0..200),
    ]
}

/// An API key to present: none, a well-formed one nobody holds, the admin's, or junk.
fn key(world: &World) -> impl Strategy<Value = Option<String>> + use<> {
    let player = world
        .strings
        .iter()
        .find(|s| s.starts_with("cbk_"))
        .cloned()
        .unwrap_or_default();
    prop_oneof![
        3 => Just(None),
        1 => Just(Some(player)),
        1 => Just(Some(ADMIN.to_owned())),
        1 => "[ -~]{0,70}".prop_map(Some),
    ]
}

const ADMIN: &str = "the-admin-key-of-the-fuzzed-server";

/// A status is a contract answer: a documented code with a known reason.
fn contract(status: &tonic::Status) -> Result<(), String> {
    use tonic::Code::*;
    let allowed = [
        InvalidArgument,
        Unauthenticated,
        PermissionDenied,
        NotFound,
        FailedPrecondition,
        Aborted,
        ResourceExhausted,
        OutOfRange,
        Unavailable,
    ];
    if status.code() == Ok {
        return Result::Ok(());
    }
    if !allowed.contains(&status.code()) {
        return Err(format!("not a contract code: {status:?}"));
    }
    let Some(info) = status.get_details_error_info() else {
        return Err(format!("no ErrorInfo: {status:?}"));
    };
    if !Reason::ALL.iter().any(|r| r.as_str() == info.reason) {
        return Err(format!("unknown reason {:?}: {status:?}", info.reason));
    }
    Result::Ok(())
}

/// One call over gRPC (plain or TLS): its status (OK for an answer or an open stream).
async fn call_grpc(
    channel: &Channel,
    rpc: &Rpc,
    body: Vec<u8>,
    key: Option<&str>,
) -> tonic::Status {
    let mut grpc = tonic::client::Grpc::new(channel.clone());
    if let Err(e) = grpc.ready().await {
        return tonic::Status::unavailable(e.to_string());
    }
    let path = format!("/calabresella.v1.{}", rpc.name)
        .parse::<http::uri::PathAndQuery>()
        .expect("path");
    let mut request = tonic::Request::new(body);
    if let Some(k) = key
        && calabresella_client::authorize(&mut request, Some(k)).is_err()
    {
        return tonic::Status::ok("a key tonic cannot send");
    }
    if rpc.streaming {
        let answer = tokio::time::timeout(Duration::from_millis(500), async {
            match grpc.server_streaming(request, path, attack::Raw).await {
                Err(s) => s,
                Ok(r) => match r.into_inner().message().await {
                    Err(s) => s,
                    Ok(_) => tonic::Status::ok(""),
                },
            }
        })
        .await;
        // Still open: the call was taken (a stream that waits for a table, say).
        answer.unwrap_or_else(|_| tonic::Status::ok(""))
    } else {
        // A unary call must be answered: one that hangs is a failure, not an answer.
        match tokio::time::timeout(
            Duration::from_secs(10),
            grpc.unary(request, path, attack::Raw),
        )
        .await
        {
            Ok(Ok(_)) => tonic::Status::ok(""),
            Ok(Err(s)) => s,
            Err(_) => tonic::Status::unknown("no answer within 10 s"),
        }
    }
}

/// One call over gRPC-web (HTTP/1.1, its own connection): its status.
async fn call_web(server: SocketAddr, rpc: &Rpc, body: &[u8], key: Option<&str>) -> tonic::Status {
    let Ok(mut tcp) = tokio::net::TcpStream::connect(server).await else {
        return tonic::Status::unavailable("connect");
    };
    let message = attack::grpc_message(body);
    let auth = match key {
        Some(k) if k.bytes().all(|b| (b' '..=b'~').contains(&b)) => {
            format!("authorization: Bearer {k}\r\n")
        }
        _ => String::new(),
    };
    let head = format!(
        "POST /calabresella.v1.{} HTTP/1.1\r\nhost: localhost\r\n\
         content-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n{auth}\
         content-length: {}\r\nconnection: close\r\n\r\n",
        rpc.name,
        message.len()
    );
    if tcp.write_all(head.as_bytes()).await.is_err() {
        return tonic::Status::unavailable("write");
    }
    // A server may answer (and close) before taking the whole of a large body: the answer is
    // still there to read.
    let _ = tcp.write_all(&message).await;
    let mut all = Vec::new();
    // A stream may stay open (it is answered as it goes); a unary call must end.
    let wait = if rpc.streaming { 500 } else { 10_000 };
    let read = tokio::time::timeout(Duration::from_millis(wait), tcp.read_to_end(&mut all)).await;
    let text_end = all.windows(4).position(|w| w == b"\r\n\r\n");
    let Some(end) = text_end else {
        return match read {
            Err(_) => tonic::Status::ok(""), // a stream left open
            Ok(_) => {
                tonic::Status::unknown(format!("no HTTP head: {:?}", String::from_utf8_lossy(&all)))
            }
        };
    };
    let head = String::from_utf8_lossy(&all[..end]).to_string();
    if !head.starts_with("HTTP/1.1 200") {
        return tonic::Status::unknown(format!("HTTP status: {head}"));
    }
    let mut trailers = http::HeaderMap::new();
    let add = |trailers: &mut http::HeaderMap, line: &str| {
        if let Some((k, v)) = line.split_once(':')
            && let (Ok(k), Ok(v)) = (
                http::HeaderName::from_bytes(k.trim().to_ascii_lowercase().as_bytes()),
                http::HeaderValue::from_str(v.trim()),
            )
        {
            trailers.insert(k, v);
        }
    };
    head.lines().skip(1).for_each(|l| add(&mut trailers, l));
    if !trailers.contains_key("grpc-status") {
        // The trailers are the body's last frame (flag 0x80), after any messages.
        let body = dechunk(&all[end + 4..], &head);
        let mut at = 0;
        while at + 5 <= body.len() {
            let len = u32::from_be_bytes([body[at + 1], body[at + 2], body[at + 3], body[at + 4]])
                as usize;
            let end = (at + 5 + len).min(body.len());
            if body[at] & 0x80 != 0 {
                String::from_utf8_lossy(&body[at + 5..end])
                    .lines()
                    .for_each(|l| add(&mut trailers, l));
            }
            at = end;
        }
    }
    if !trailers.contains_key("grpc-status") {
        return match read {
            Err(_) => tonic::Status::ok(""),
            Ok(_) => tonic::Status::unknown(format!("no grpc-status: {head}")),
        };
    }
    tonic::Status::from_header_map(&trailers).unwrap_or_else(|| tonic::Status::unknown("unparsed"))
}

/// A chunked body's bytes (or the body as it is).
fn dechunk(raw: &[u8], head: &str) -> Vec<u8> {
    if !head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        return raw.to_vec();
    }
    let mut out = Vec::new();
    let mut rest = raw;
    while let Some(nl) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&rest[..nl])
                .split(';')
                .next()
                .unwrap_or("")
                .trim(),
            16,
        )
        .unwrap_or(0);
        if size == 0 || rest.len() < nl + 2 + size {
            break;
        }
        out.extend_from_slice(&rest[nl + 2..nl + 2 + size]);
        rest = &rest[(nl + 4 + size).min(rest.len())..];
    }
    out
}

/// The fuzzed server: plain and TLS listeners on one service, and what it holds.
struct Fuzzed {
    plain: SocketAddr,
    plain_channel: Channel,
    tls_channel: Channel,
    world: World,
    _dir: tempfile::TempDir,
}

async fn start() -> Fuzzed {
    use calabresella_server::store::{Store, StoreOptions};
    use calabresella_server::tls::{Tls, TlsOptions};
    use calabresella_server::{ServeOptions, ServerConfig, serve};
    let dir = tempfile::tempdir().expect("dir");
    let certs = calabresella_server::tls::dev_certs::DevCerts::generate(&["127.0.0.1".to_owned()])
        .expect("certs");
    certs.write(dir.path()).expect("write");
    let config = || ServerConfig {
        admin_key_sha256: Some(calabresella_server::store::players::key_hash(ADMIN)),
        ..ServerConfig::default()
    };
    let mut addrs = Vec::new();
    let mut player_key = String::new();
    for tls in [false, true] {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        addrs.push(listener.local_addr().expect("addr"));
        let tls = tls.then(|| {
            Tls::new(TlsOptions::new(
                dir.path().join("server.pem"),
                dir.path().join("server.key"),
            ))
            .expect("tls")
        });
        let opened = Store::open(StoreOptions {
            location: calabresella_server::store::Location::Sqlite(
                dir.path().join(format!("fuzz-{}.db", tls.is_some())),
            ),
            ..StoreOptions::default()
        })
        .await
        .expect("store");
        if tls.is_none() {
            player_key = opened
                .store
                .read(|c| {
                    calabresella_server::store::players::add(c, "fuzzer")
                        .map_err(|e| calabresella_server::store::StoreError::Other(e.to_string()))
                })
                .await
                .expect("player");
        }
        tokio::spawn(serve(
            listener,
            config(),
            ServeOptions {
                tls,
                ..ServeOptions::default()
            },
            opened,
            std::future::pending(),
        ));
    }
    let plain_channel = Channel::from_shared(format!("http://{}", addrs[0]))
        .expect("url")
        .connect()
        .await
        .expect("connect");
    let tls_files = calabresella_client::TlsFiles::ca(Some(&dir.path().join("ca.pem")));
    let tls_channel = calabresella_client::endpoint(
        &format!("https://{}", addrs[1]),
        &tls_files,
        Duration::from_secs(5),
    )
    .expect("endpoint")
    .connect()
    .await
    .expect("connect");
    // What the server knows, for the dictionary: tables on the plain server (the TLS one
    // answers NOT_FOUND for them, which is a contract answer too).
    let mut c = v1::table_service_client::TableServiceClient::new(plain_channel.clone());
    let live = c
        .create_table(v1::CreateTableRequest {
            options: Some(common::options(v1::Game::Calabresella, 21)),
            seats: vec![
                v1::SeatKind::Open as i32,
                v1::SeatKind::BotRandom as i32,
                v1::SeatKind::BotRandom as i32,
            ],
            ..Default::default()
        })
        .await
        .expect("create")
        .into_inner()
        .table
        .expect("table");
    let joined = c
        .join_table(v1::JoinTableRequest {
            table_id: live.table_id.clone(),
            player_name: "fuzzer-seat".into(),
            ..Default::default()
        })
        .await
        .expect("join")
        .into_inner();
    let mut strings: Vec<String> = [
        live.table_id.as_str(),
        joined.seat_token.as_str(),
        player_key.as_str(),
        "",
        " ",
        "0",
        "1",
        "50",
        "-1",
        "99999999999999999999",
        "t-",
        "t-0000000000000000",
        "calabresella",
        "tressette",
        "tressette-in-due",
        "tressette-chiamata",
        "briscola-chiamata",
        "no-such-game",
        "target",
        "target=5",
        "players",
        "hands=2",
        "pass",
        "bid 6",
        "bid solo",
        "play 4c",
        "play 3d",
        "call 3s",
        "take 1c 2c 3c 4c",
        "discard 5h",
        "return 7c",
        "busso",
        "heuristic",
        "random",
        "pimc:ms=50",
        "pimc:ms=999999",
        "guest",
        "dummy",
        "ann",
        "\u{200b}bob",
        "tn-0",
        "COMPLETED",
        "ABANDONED",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    strings.push("x".repeat(300));
    strings.push("é".repeat(70));
    for s in ["ab", "ff", "00"] {
        strings.push(s.repeat(32));
        strings.push(s.repeat(16));
    }
    Fuzzed {
        plain: addrs[0],
        plain_channel,
        tls_channel,
        world: World { strings },
        _dir: dir,
    }
}

fn runner(name: &'static str, default_cases: u32) -> TestRunner {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(default_cases);
    TestRunner::new(Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(name))),
        ..Config::default()
    })
}

#[test]
fn every_rpc_answers_fuzzed_requests_with_contract_answers_on_every_transport() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        default_hook(info);
    }));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let fuzzed = rt.block_on(start());
    let rpcs = rpcs();
    let world = fuzzed.world.clone();
    let strategy = (
        prop::collection::vec(body(world.clone()), rpcs.len()),
        prop::collection::vec(key(&world), rpcs.len()),
    );
    let mut runner = runner(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fuzz.proptest-regressions"
        ),
        24,
    );
    let result = runner.run(&strategy, |(bodies, keys)| {
        rt.block_on(async {
            for ((rpc, body), key) in rpcs.iter().zip(&bodies).zip(&keys) {
                for (transport, status) in [
                    (
                        "h2",
                        call_grpc(&fuzzed.plain_channel, rpc, body.clone(), key.as_deref()).await,
                    ),
                    (
                        "tls",
                        call_grpc(&fuzzed.tls_channel, rpc, body.clone(), key.as_deref()).await,
                    ),
                    (
                        "grpc-web",
                        call_web(fuzzed.plain, rpc, body, key.as_deref()).await,
                    ),
                ] {
                    if let Err(why) = contract(&status) {
                        return Err(TestCaseError::fail(format!(
                            "{} over {transport}: {why}",
                            rpc.name
                        )));
                    }
                }
            }
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
    rt.block_on(async {
        // Oversized requests: RESOURCE_EXHAUSTED naming the limit, on every transport (bot
        // submissions have a limit of their own, 5 MiB and 64 KiB).
        for rpc in &rpcs {
            let (big, limit) = if rpc.name.starts_with("BotService/") {
                (vec![0u8; 6 * 1024 * 1024], "5308416")
            } else {
                (vec![0u8; 70_000], "65536")
            };
            for (transport, status) in [
                (
                    "h2",
                    call_grpc(&fuzzed.plain_channel, rpc, big.clone(), None).await,
                ),
                (
                    "tls",
                    call_grpc(&fuzzed.tls_channel, rpc, big.clone(), None).await,
                ),
                ("grpc-web", call_web(fuzzed.plain, rpc, &big, None).await),
            ] {
                assert_eq!(
                    status.code(),
                    tonic::Code::ResourceExhausted,
                    "{} over {transport}: {status:?}",
                    rpc.name
                );
                assert_eq!(
                    status.get_details_error_info().map(|i| i.reason),
                    Some("REQUEST_TOO_LARGE".to_owned()),
                    "{} over {transport}",
                    rpc.name
                );
                assert!(status.message().contains(limit), "{status:?}");
            }
        }
        // Undecodable bytes: INVALID_ARGUMENT, MALFORMED_REQUEST, on every transport.
        for rpc in &rpcs {
            let junk = vec![0xff; 16];
            for (transport, status) in [
                (
                    "h2",
                    call_grpc(&fuzzed.plain_channel, rpc, junk.clone(), None).await,
                ),
                (
                    "tls",
                    call_grpc(&fuzzed.tls_channel, rpc, junk.clone(), None).await,
                ),
                ("grpc-web", call_web(fuzzed.plain, rpc, &junk, None).await),
            ] {
                assert_eq!(
                    status.get_details_error_info().map(|i| i.reason),
                    Some("MALFORMED_REQUEST".to_owned()),
                    "{} over {transport}: {status:?}",
                    rpc.name
                );
                assert_eq!(status.code(), tonic::Code::InvalidArgument);
            }
        }
        // The server is alive and answers everyone.
        let mut c = v1::table_service_client::TableServiceClient::new(fuzzed.plain_channel.clone());
        c.list_tables(v1::ListTablesRequest::default())
            .await
            .expect("alive");
    });
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "something panicked");
}
