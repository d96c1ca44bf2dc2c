//! Hostile clients, for `calabresella-load --abuse` and the hostile-traffic tests
//! (`server/tests/hostile.rs` includes this file): HTTP/2 written frame by frame as RFC 9113
//! lays it out (header blocks as HPACK literals, RFC 7541 section 6.2.2), HTTP/1.1 written by
//! hand, over plain TCP or TLS, from any loopback address. Each attack reports how the server
//! ended it.

#![allow(dead_code)] // The tests and the load generator each use a part.

use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_rustls::rustls;

/// The client connection preface of HTTP/2.
pub const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Frame types.
pub const DATA: u8 = 0x0;
/// HEADERS.
pub const HEADERS: u8 = 0x1;
/// RST_STREAM.
pub const RST_STREAM: u8 = 0x3;
/// SETTINGS.
pub const SETTINGS: u8 = 0x4;
/// PING.
pub const PING: u8 = 0x6;
/// GOAWAY.
pub const GOAWAY: u8 = 0x7;
/// WINDOW_UPDATE.
pub const WINDOW_UPDATE: u8 = 0x8;
/// CONTINUATION.
pub const CONTINUATION: u8 = 0x9;
/// END_STREAM.
pub const END_STREAM: u8 = 0x1;
/// END_HEADERS.
pub const END_HEADERS: u8 = 0x4;
/// ACK.
pub const ACK: u8 = 0x1;
/// GOAWAY ENHANCE_YOUR_CALM.
pub const ENHANCE_YOUR_CALM: u32 = 0xb;
/// GOAWAY NO_ERROR.
pub const NO_ERROR: u32 = 0x0;

/// A byte stream of either kind.
pub trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// Where an attack goes, and how.
#[derive(Clone)]
pub struct Target {
    /// The server's address.
    pub server: SocketAddr,
    /// The loopback address the attacker binds (127.0.0.2: another client than 127.0.0.1).
    pub from: IpAddr,
    /// TLS (with the CA to trust), or plain TCP.
    pub tls: Option<Arc<rustls::ClientConfig>>,
}

impl Target {
    /// A plain-text target.
    pub fn plain(server: SocketAddr, from: IpAddr) -> Target {
        Target {
            server,
            from,
            tls: None,
        }
    }

    /// A TLS target whose certificate `ca_pem` signed; `alpn` is offered (h2 or http/1.1).
    pub fn tls(
        server: SocketAddr,
        from: IpAddr,
        ca_pem: &std::path::Path,
        alpn: &[u8],
    ) -> io::Result<Target> {
        use rustls::pki_types::CertificateDer;
        use rustls::pki_types::pem::PemObject;
        let mut roots = rustls::RootCertStore::empty();
        for c in CertificateDer::pem_file_iter(ca_pem).map_err(io::Error::other)? {
            roots
                .add(c.map_err(io::Error::other)?)
                .map_err(io::Error::other)?;
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(io::Error::other)?
            .with_root_certificates(roots)
            .with_no_client_auth();
        config.alpn_protocols = vec![alpn.to_vec()];
        Ok(Target {
            server,
            from,
            tls: Some(Arc::new(config)),
        })
    }

    /// A TCP connection from `from`, the TLS handshake done when there is one.
    pub async fn connect(&self) -> io::Result<Box<dyn Io>> {
        let tcp = self.tcp().await?;
        match &self.tls {
            None => Ok(Box::new(tcp)),
            Some(config) => {
                let name = rustls::pki_types::ServerName::IpAddress(self.server.ip().into());
                let tls = tokio_rustls::TlsConnector::from(config.clone())
                    .connect(name, tcp)
                    .await?;
                Ok(Box::new(tls))
            }
        }
    }

    /// A bare TCP connection from `from` (no TLS, whatever the target speaks).
    pub async fn tcp(&self) -> io::Result<TcpStream> {
        let socket = match self.from {
            IpAddr::V4(_) => TcpSocket::new_v4()?,
            IpAddr::V6(_) => TcpSocket::new_v6()?,
        };
        socket.bind(SocketAddr::new(self.from, 0))?;
        let tcp = socket.connect(self.server).await?;
        tcp.set_nodelay(true)?;
        Ok(tcp)
    }
}

/// One frame.
pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut f = Vec::with_capacity(9 + payload.len());
    f.extend_from_slice(&(payload.len() as u32).to_be_bytes()[1..]);
    f.extend([kind, flags]);
    f.extend(stream.to_be_bytes());
    f.extend_from_slice(payload);
    f
}

/// An HPACK integer with an `n`-bit prefix under `first`'s high bits.
fn hpack_int(out: &mut Vec<u8>, first: u8, n: u8, mut v: usize) {
    let max = (1usize << n) - 1;
    if v < max {
        out.push(first | v as u8);
        return;
    }
    out.push(first | max as u8);
    v -= max;
    while v >= 128 {
        out.push((v % 128) as u8 | 0x80);
        v /= 128;
    }
    out.push(v as u8);
}

/// A header block of literal fields, never indexed and never Huffman-coded.
pub fn header_block(fields: &[(&str, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (name, value) in fields {
        out.push(0x00);
        hpack_int(&mut out, 0, 7, name.len());
        out.extend_from_slice(name.as_bytes());
        hpack_int(&mut out, 0, 7, value.len());
        out.extend_from_slice(value.as_bytes());
    }
    out
}

/// The header block of a gRPC call of `method` (`GetTable`, say).
pub fn grpc_headers(method: &str, extra: &[(&str, &str)]) -> Vec<u8> {
    let path = format!("/calabresella.v1.TableService/{method}");
    let mut fields = vec![
        (":method", "POST"),
        (":scheme", "http"),
        (":path", path.as_str()),
        (":authority", "localhost"),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
    ];
    fields.extend_from_slice(extra);
    header_block(&fields)
}

/// A gRPC message: the 5-byte prefix and `message`.
pub fn grpc_message(message: &[u8]) -> Vec<u8> {
    let mut out = vec![0];
    out.extend((message.len() as u32).to_be_bytes());
    out.extend_from_slice(message);
    out
}

/// The preface and an empty SETTINGS frame: a client's whole handshake.
pub fn handshake() -> Vec<u8> {
    let mut out = PREFACE.to_vec();
    out.extend(frame(SETTINGS, 0, 0, &[]));
    out
}

/// How the server ended an attack's connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// A GOAWAY with this error code, after this long.
    GoAway(u32, Duration),
    /// Closed without a GOAWAY, after this long.
    Closed(Duration),
    /// Still open when the watch gave up.
    Open,
}

impl Ending {
    /// The GOAWAY's error code, if one came.
    pub fn goaway(&self) -> Option<u32> {
        match self {
            Ending::GoAway(c, _) => Some(*c),
            _ => None,
        }
    }

    /// Whether the connection ended (either way).
    pub fn ended(&self) -> bool {
        !matches!(self, Ending::Open)
    }
}

/// What came back on a connection: frames by type, RST_STREAM codes, and its ending.
#[derive(Debug, Clone, Default)]
pub struct Seen {
    /// Frames seen, by type.
    pub frames: [u32; 16],
    /// RST_STREAM error codes seen.
    pub resets: Vec<u32>,
    /// The GOAWAY's code, when one came.
    pub goaway: Option<u32>,
}

/// Reads frames from `io` until the connection ends or `wait` passes since `started`;
/// PINGs are acknowledged so that keepalive never ends the connection.
pub async fn watch<R: AsyncRead + AsyncWrite + Unpin>(
    io: &mut R,
    started: Instant,
    wait: Duration,
) -> (Ending, Seen) {
    let mut seen = Seen::default();
    let mut buf = vec![0u8; 64 * 1024];
    let mut pending: Vec<u8> = Vec::new();
    let deadline = tokio::time::Instant::from_std(started + wait);
    loop {
        let n = match tokio::time::timeout_at(deadline, io.read(&mut buf)).await {
            Err(_) => return (Ending::Open, seen),
            Ok(Ok(0) | Err(_)) => {
                let after = started.elapsed();
                let end = match seen.goaway {
                    Some(c) => Ending::GoAway(c, after),
                    None => Ending::Closed(after),
                };
                return (end, seen);
            }
            Ok(Ok(n)) => n,
        };
        pending.extend_from_slice(&buf[..n]);
        let mut at = 0;
        while pending.len() - at >= 9 {
            let h = &pending[at..at + 9];
            let len = u32::from_be_bytes([0, h[0], h[1], h[2]]) as usize;
            if pending.len() - at < 9 + len {
                break;
            }
            let (kind, flags) = (h[3], h[4]);
            let payload = pending[at + 9..at + 9 + len].to_vec();
            seen.frames[usize::from(kind & 0xf)] += 1;
            match kind {
                GOAWAY if len >= 8 => {
                    seen.goaway = Some(u32::from_be_bytes([
                        payload[4], payload[5], payload[6], payload[7],
                    ]));
                }
                RST_STREAM if len >= 4 => seen.resets.push(u32::from_be_bytes([
                    payload[0], payload[1], payload[2], payload[3],
                ])),
                PING if flags & ACK == 0 => {
                    let _ = io.write_all(&frame(PING, ACK, 0, &payload)).await;
                }
                _ => {}
            }
            at += 9 + len;
        }
        pending.drain(..at);
    }
}

/// Sends `bytes` in pieces of `chunk` until done or the connection refuses them; then
/// watches how it ends for at most `wait`. Returns the ending and how many bytes went out.
pub async fn send_then_watch(
    mut io: Box<dyn Io>,
    bytes: Vec<u8>,
    chunk: usize,
    wait: Duration,
) -> (Ending, Seen, usize) {
    let started = Instant::now();
    let mut sent = 0;
    for piece in bytes.chunks(chunk.max(1)) {
        if io.write_all(piece).await.is_err() {
            break;
        }
        sent += piece.len();
    }
    let _ = io.flush().await;
    let (end, seen) = watch(&mut io, started, wait).await;
    (end, seen, sent)
}

/// `n` PINGs after the handshake.
pub fn ping_flood(n: usize) -> Vec<u8> {
    let mut out = handshake();
    for i in 0..n {
        out.extend(frame(PING, 0, 0, &(i as u64).to_be_bytes()));
    }
    out
}

/// `n` SETTINGS frames after the handshake.
pub fn settings_flood(n: usize) -> Vec<u8> {
    let mut out = handshake();
    for _ in 0..n {
        // SETTINGS_ENABLE_PUSH = 0, a legal value.
        out.extend(frame(SETTINGS, 0, 0, &[0, 2, 0, 0, 0, 0]));
    }
    out
}

/// `n` streams each opened and at once reset (CVE-2023-44487).
pub fn rapid_reset(n: usize) -> Vec<u8> {
    let mut out = handshake();
    let block = grpc_headers("ListTables", &[]);
    for i in 0..n {
        let stream = 1 + 2 * i as u32;
        out.extend(frame(HEADERS, END_HEADERS, stream, &block));
        out.extend(frame(RST_STREAM, 0, stream, &8u32.to_be_bytes()));
    }
    out
}

/// One call whose header list is `bytes` bytes as HTTP/2 counts it (each field's name and
/// value plus 32), in one HEADERS frame: many one-byte fields, so that the block itself stays
/// small.
pub fn oversized_headers(bytes: usize) -> Vec<u8> {
    let names: Vec<String> = (0..bytes / 34 + 1)
        .map(|i| format!("x{}", i % 10))
        .collect();
    let extra: Vec<(&str, &str)> = names.iter().map(|n| (n.as_str(), "v")).collect();
    let block = grpc_headers("ListTables", &extra);
    let mut out = handshake();
    out.extend(frame(HEADERS, END_HEADERS, 1, &block));
    out.extend(frame(DATA, END_STREAM, 1, &grpc_message(&[])));
    out
}

/// The same call with one header of `bytes` bytes, spread over CONTINUATION frames of
/// 16 KiB (a header block larger than a frame).
pub fn oversized_header_block(bytes: usize) -> Vec<u8> {
    let big = "x".repeat(bytes);
    let block = grpc_headers("ListTables", &[("x-padding", &big)]);
    let mut out = handshake();
    let mut pieces = block.chunks(16 * 1024).peekable();
    let first = pieces.next().unwrap_or_default();
    let flags = if pieces.peek().is_none() {
        END_HEADERS
    } else {
        0
    };
    out.extend(frame(HEADERS, flags, 1, first));
    while let Some(p) = pieces.next() {
        let flags = if pieces.peek().is_none() {
            END_HEADERS
        } else {
            0
        };
        out.extend(frame(CONTINUATION, flags, 1, p));
    }
    out.extend(frame(DATA, END_STREAM, 1, &grpc_message(&[])));
    out
}

/// `n` calls opened at once on one connection and never finished (no END_STREAM).
pub fn many_streams(n: usize) -> Vec<u8> {
    let mut out = handshake();
    let block = grpc_headers("ListTables", &[]);
    for i in 0..n {
        out.extend(frame(HEADERS, END_HEADERS, 1 + 2 * i as u32, &block));
    }
    out
}

/// The handshake, then five bytes of a frame header and nothing more.
pub fn stall_in_frame() -> Vec<u8> {
    let mut out = handshake();
    out.extend(&frame(PING, 0, 0, &[0; 8])[..5]);
    out
}

/// An HTTP/1.1 request head sent a few bytes at a time and never finished (Slowloris).
pub fn slow_http1_head() -> Vec<u8> {
    b"POST /calabresella.v1.TableService/ListTables HTTP/1.1\r\nhost: localhost\r\nx-a: ".to_vec()
}

/// Bytes that are no protocol at all.
pub fn garbage(n: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 32) as u8
        })
        .collect()
}

/// Connects and sends nothing; how the server ends it within `wait`.
pub async fn silent(target: &Target, wait: Duration) -> io::Result<Ending> {
    let mut io = target.connect().await?;
    Ok(watch(&mut io, Instant::now(), wait).await.0)
}

/// Sends `bytes` slowly: a piece of `piece` bytes every `every`, for at most `wait`; how the
/// server ended it.
pub async fn trickle(
    target: &Target,
    bytes: &[u8],
    piece: usize,
    every: Duration,
    wait: Duration,
) -> io::Result<Ending> {
    let (mut r, mut w) = tokio::io::split(target.connect().await?);
    let started = Instant::now();
    let bytes = bytes.to_vec();
    let writer = tokio::spawn(async move {
        for p in bytes.chunks(piece.max(1)) {
            if w.write_all(p).await.is_err() {
                return;
            }
            tokio::time::sleep(every).await;
        }
        // Then nothing more: the stall itself.
        std::future::pending::<()>().await;
    });
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::from_std(started + wait);
    let mut goaway = None;
    let ending = loop {
        match tokio::time::timeout_at(deadline, r.read(&mut buf)).await {
            Err(_) => break Ending::Open,
            Ok(Ok(0) | Err(_)) => {
                break match goaway {
                    Some(c) => Ending::GoAway(c, started.elapsed()),
                    None => Ending::Closed(started.elapsed()),
                };
            }
            Ok(Ok(n)) => {
                // A GOAWAY in what came (the guard's is 17 bytes on its own).
                if let Some(i) = buf[..n]
                    .windows(4)
                    .position(|w| w[0..3] == [0, 0, 8] && w[3] == GOAWAY)
                    && n >= i + 17
                {
                    goaway = Some(u32::from_be_bytes([
                        buf[i + 13],
                        buf[i + 14],
                        buf[i + 15],
                        buf[i + 16],
                    ]));
                }
            }
        }
    };
    writer.abort();
    Ok(ending)
}

/// A gRPC-web call over an HTTP/1.1 connection kept open: returns the response's body (the
/// gRPC-web frames, trailers included) once whole.
pub async fn grpc_web_call<S: AsyncRead + AsyncWrite + Unpin>(
    io: &mut S,
    method: &str,
    message: &[u8],
) -> io::Result<Vec<u8>> {
    let body = grpc_message(message);
    let head = format!(
        "POST /calabresella.v1.TableService/{method} HTTP/1.1\r\nhost: localhost\r\n\
         content-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n\
         content-length: {}\r\n\r\n",
        body.len()
    );
    io.write_all(head.as_bytes()).await?;
    io.write_all(&body).await?;
    read_http1_response(io).await
}

/// Reads one HTTP/1.1 response (content-length or chunked) and returns its body.
pub async fn read_http1_response<S: AsyncRead + Unpin>(io: &mut S) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        if io.read(&mut byte).await? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf.push(byte[0]);
        if buf.len() > 64 * 1024 {
            return Err(io::Error::other("response head too long"));
        }
    }
    let head = String::from_utf8_lossy(&buf).to_ascii_lowercase();
    if !head.starts_with("http/1.1 200") {
        return Err(io::Error::other(format!(
            "status {}",
            head.lines().next().unwrap_or_default()
        )));
    }
    if let Some(len) = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        let mut body = vec![0u8; len];
        io.read_exact(&mut body).await?;
        return Ok(body);
    }
    // Chunked.
    let mut body = Vec::new();
    loop {
        let mut line = Vec::new();
        while !line.ends_with(b"\r\n") {
            if io.read(&mut byte).await? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
            line.push(byte[0]);
        }
        let size = usize::from_str_radix(
            String::from_utf8_lossy(&line[..line.len() - 2])
                .split(';')
                .next()
                .unwrap_or_default()
                .trim(),
            16,
        )
        .map_err(io::Error::other)?;
        let mut chunk = vec![0u8; size + 2];
        io.read_exact(&mut chunk).await?;
        if size == 0 {
            return Ok(body);
        }
        body.extend_from_slice(&chunk[..size]);
    }
}

/// Latencies in milliseconds, sorted, and their percentile `p` (0 to 1).
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// Resident memory of process `pid`, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// A boxed stream of either kind, as `Pin`.
pub type Pinned = Pin<Box<dyn Io>>;

/// Bytes in, bytes out: a call whose request is any bytes.
#[derive(Debug, Clone, Copy, Default)]
pub struct Raw;

impl tonic::codec::Codec for Raw {
    type Encode = Vec<u8>;
    type Decode = Vec<u8>;
    type Encoder = Raw;
    type Decoder = Raw;
    fn encoder(&mut self) -> Raw {
        Raw
    }
    fn decoder(&mut self) -> Raw {
        Raw
    }
}

impl tonic::codec::Encoder for Raw {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn encode(
        &mut self,
        item: Vec<u8>,
        dst: &mut tonic::codec::EncodeBuf<'_>,
    ) -> Result<(), tonic::Status> {
        use bytes::BufMut;
        dst.put_slice(&item);
        Ok(())
    }
}

impl tonic::codec::Decoder for Raw {
    type Item = Vec<u8>;
    type Error = tonic::Status;
    fn decode(
        &mut self,
        src: &mut tonic::codec::DecodeBuf<'_>,
    ) -> Result<Option<Vec<u8>>, tonic::Status> {
        use bytes::Buf;
        let mut out = vec![0; src.remaining()];
        src.copy_to_slice(&mut out);
        Ok(Some(out))
    }
}
