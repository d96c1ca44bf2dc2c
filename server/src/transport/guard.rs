//! [`Guarded`]: every accepted connection (after TLS, so it reads plain HTTP) passes through a
//! guard that reads along with the HTTP library and ends the connection when its client
//!
//! - does not finish its handshake in time: the HTTP/2 preface and first frame, or a first
//!   HTTP/1.1 request head, within [`GuardLimits::handshake`] (a connection that never sends
//!   a byte included);
//! - stalls inside an HTTP/2 frame for [`GuardLimits::frame_stall`];
//! - has had no call in flight for [`GuardLimits::idle`] ([`super::activity`]);
//! - floods it with frames that cost the server work and no request pays for (PING,
//!   SETTINGS, RST_STREAM, PRIORITY, empty DATA or CONTINUATION) beyond
//!   [`GuardLimits::control_burst`], refilled at [`GuardLimits::control_per_second`] and by
//!   one for each response frame the server sends (so a client may answer what it gets);
//! - sends a first HTTP/1.1 request head over [`GuardLimits::max_http1_head`].
//!
//! A flood ends with GOAWAY `ENHANCE_YOUR_CALM` (as grpc-go ends a ping flood), an idle
//! connection with GOAWAY `NO_ERROR`, each naming the last stream the client opened, when the
//! server is between frames of its own; then the guard reports the end of the input, which
//! makes the HTTP library close the connection. The HTTP/2 library's own limits (stream
//! resets, concurrent streams, header lists) stay in force: see `crate::transport`.

use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;
use tonic::transport::server::Connected;

use super::activity::ConnEntry;
use super::frames::{self, FrameReader, Header, PREFACE, code, kind};

/// What the guard enforces on each connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GuardLimits {
    /// From the connection's start (after TLS) to a whole HTTP/2 preface and first frame, or
    /// a whole first HTTP/1.1 request head.
    pub handshake: Duration,
    /// Longest an HTTP/2 frame may stay half received.
    pub frame_stall: Duration,
    /// A connection with no call in flight this long is closed (zero: never).
    pub idle: Duration,
    /// Control frames a connection may send at once.
    pub control_burst: u32,
    /// Control frames a connection may send per second beyond the burst.
    pub control_per_second: u32,
    /// Largest first HTTP/1.1 request head, in bytes.
    pub max_http1_head: usize,
}

impl Default for GuardLimits {
    fn default() -> Self {
        GuardLimits {
            handshake: Duration::from_secs(10),
            frame_stall: Duration::from_secs(10),
            idle: Duration::from_secs(300),
            control_burst: 100,
            control_per_second: 10,
            max_http1_head: 16 * 1024,
        }
    }
}

/// Why the guard ended a connection (the metric's `reason` label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eviction {
    /// No handshake in time.
    Handshake,
    /// A frame stalled half received.
    FrameStall,
    /// No call in flight for the idle timeout.
    Idle,
    /// Too many control frames.
    Flood,
    /// A first HTTP/1.1 request head over the limit.
    HeadTooLarge,
}

impl Eviction {
    /// The label.
    pub fn as_str(self) -> &'static str {
        match self {
            Eviction::Handshake => "handshake_timeout",
            Eviction::FrameStall => "frame_stall",
            Eviction::Idle => "idle",
            Eviction::Flood => "flood",
            Eviction::HeadTooLarge => "head_too_large",
        }
    }
}

/// What the client speaks, as far as the guard has read.
#[derive(Debug)]
enum Reading {
    /// Matching the HTTP/2 preface: this many bytes of it so far.
    Preface(usize),
    /// HTTP/2, after the preface; `settled` once its first frame is whole.
    Http2 { frames: FrameReader, settled: bool },
    /// HTTP/1.1: `head` bytes of the first request head so far, the last three of them in
    /// `tail`, until the head ends (then the guard only watches for idleness).
    Http1 {
        head: usize,
        tail: [u8; 3],
        done: bool,
    },
}

/// A token bucket of control frames, in thousandths of a frame.
#[derive(Debug)]
struct Bucket {
    milli: u64,
    cap: u64,
    per_ms: u64,
    at: Instant,
}

impl Bucket {
    fn new(limits: &GuardLimits, now: Instant) -> Bucket {
        let cap = u64::from(limits.control_burst.max(1)) * 1000;
        Bucket {
            milli: cap,
            cap,
            per_ms: u64::from(limits.control_per_second),
            at: now,
        }
    }

    fn refill(&mut self, now: Instant) {
        let ms = now.saturating_duration_since(self.at).as_millis() as u64;
        if ms > 0 {
            self.milli = (self.milli + ms * self.per_ms).min(self.cap);
            self.at = now;
        }
    }

    /// Takes one frame's worth; false when there is none left.
    fn take(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.milli < 1000 {
            return false;
        }
        self.milli -= 1000;
        true
    }

    fn earn(&mut self) {
        self.milli = (self.milli + 1000).min(self.cap);
    }
}

/// A connection read and written through the guard.
pub struct Guarded<IO> {
    inner: IO,
    limits: GuardLimits,
    client: Option<IpAddr>,
    entry: ConnEntry,
    born: Instant,
    reading: Reading,
    /// When the frame now half received began.
    mid_since: Option<Instant>,
    /// The server's own frames, to know when it is between two and to credit the client.
    written: FrameReader,
    bucket: Bucket,
    last_stream: u32,
    timer: Option<Pin<Box<Sleep>>>,
    armed: Option<Instant>,
    evicted: Option<Eviction>,
}

impl<IO> std::fmt::Debug for Guarded<IO> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Guarded")
            .field("reading", &self.reading)
            .field("evicted", &self.evicted)
            .finish_non_exhaustive()
    }
}

impl<IO> Guarded<IO> {
    /// Guards `inner`, a connection from `client` whose calls `entry` counts.
    pub fn new(inner: IO, limits: GuardLimits, client: Option<IpAddr>, entry: ConnEntry) -> Self {
        let now = Instant::now();
        Guarded {
            inner,
            limits,
            client,
            entry,
            born: now,
            reading: Reading::Preface(0),
            mid_since: None,
            written: FrameReader::default(),
            bucket: Bucket::new(&limits, now),
            last_stream: 0,
            timer: None,
            armed: None,
            evicted: None,
        }
    }

    fn is_http2(&self) -> bool {
        matches!(self.reading, Reading::Http2 { .. })
    }

    fn handshaken(&self) -> bool {
        match &self.reading {
            Reading::Preface(_) => false,
            Reading::Http2 { settled, .. } => *settled,
            Reading::Http1 { done, .. } => *done,
        }
    }

    /// Reads what the client sent; the eviction it calls for, if any.
    fn feed(&mut self, mut bytes: &[u8], now: Instant) -> Option<Eviction> {
        if let Reading::Preface(matched) = &mut self.reading {
            let n = (PREFACE.len() - *matched).min(bytes.len());
            if bytes[..n] == PREFACE[*matched..*matched + n] {
                *matched += n;
                bytes = &bytes[n..];
                if *matched == PREFACE.len() {
                    self.reading = Reading::Http2 {
                        frames: FrameReader::default(),
                        settled: false,
                    };
                }
            } else {
                // Not HTTP/2: the bytes matched so far began an HTTP/1.1 request.
                let seen = *matched;
                self.reading = Reading::Http1 {
                    head: 0,
                    tail: [0; 3],
                    done: false,
                };
                if let Some(e) = self.feed_http1(&PREFACE[..seen]) {
                    return Some(e);
                }
            }
        }
        if matches!(self.reading, Reading::Http1 { .. }) {
            return self.feed_http1(bytes);
        }
        let Reading::Http2 { frames, settled } = &mut self.reading else {
            return None;
        };
        let mut flood = false;
        let (bucket, last) = (&mut self.bucket, &mut self.last_stream);
        frames.feed(bytes, |h: Header| {
            *settled = true;
            if h.kind == kind::HEADERS && h.stream % 2 == 1 {
                *last = (*last).max(h.stream);
            }
            if h.is_control() && !bucket.take(now) {
                flood = true;
            }
        });
        let mid = frames.mid_frame();
        self.mid_since = match (mid, self.mid_since) {
            (false, _) => None,
            (true, None) => Some(now),
            (true, since) => since,
        };
        flood.then_some(Eviction::Flood)
    }

    fn feed_http1(&mut self, bytes: &[u8]) -> Option<Eviction> {
        let Reading::Http1 { head, tail, done } = &mut self.reading else {
            return None;
        };
        if *done {
            return None;
        }
        for &b in bytes {
            *head += 1;
            if tail == b"\r\n\r" && b == b'\n' {
                *done = true;
                return None;
            }
            *tail = [tail[1], tail[2], b];
            if *head > self.limits.max_http1_head {
                return Some(Eviction::HeadTooLarge);
            }
        }
        None
    }

    /// The deadline now due, if any, and the next one.
    fn deadlines(&self, now: Instant) -> (Option<Eviction>, Option<Instant>) {
        let mut next: Option<Instant> = None;
        let mut due = None;
        let mut check = |at: Instant, why: Eviction| {
            if at <= now {
                due.get_or_insert(why);
            } else {
                next = Some(next.map_or(at, |n| n.min(at)));
            }
        };
        if !self.handshaken() {
            check(self.born + self.limits.handshake, Eviction::Handshake);
        }
        if let Some(since) = self.mid_since {
            check(since + self.limits.frame_stall, Eviction::FrameStall);
        }
        let activity = self.entry.activity();
        if self.handshaken() && !self.limits.idle.is_zero() && activity.in_flight() == 0 {
            check(activity.idle_since() + self.limits.idle, Eviction::Idle);
        }
        (due, next)
    }

    fn evict(&mut self, why: Eviction) {
        self.evicted = Some(why);
        crate::metrics::evicted(why.as_str());
        if let Some(suppressed) = crate::log_limit::allow(self.client, why.as_str()) {
            tracing::info!(client = ?self.client, reason = why.as_str(), suppressed, "connection closed by its guard");
        }
    }
}

impl<IO: AsyncWrite + Unpin> Guarded<IO> {
    /// Tells an HTTP/2 client why the connection ends, when the server is between frames
    /// (else the frame would corrupt one of its own): best effort, never waits.
    fn say_goaway(&mut self, cx: &mut Context<'_>, why: Eviction) {
        let error = match why {
            Eviction::Idle => code::NO_ERROR,
            Eviction::Flood => code::ENHANCE_YOUR_CALM,
            _ => return,
        };
        if !self.is_http2() || self.written.mid_frame() {
            return;
        }
        let frame = frames::goaway(self.last_stream, error);
        if let Poll::Ready(Ok(n)) = Pin::new(&mut self.inner).poll_write(cx, &frame) {
            // Whatever of it went out is a frame the server began: keep the count true.
            self.written.feed(&frame[..n], |_| {});
            let _ = Pin::new(&mut self.inner).poll_flush(cx);
        }
    }
}

impl<IO: AsyncRead + AsyncWrite + Unpin> AsyncRead for Guarded<IO> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.evicted.is_some() {
            // The end of the input: the HTTP library closes the connection.
            return Poll::Ready(Ok(()));
        }
        loop {
            let now = Instant::now();
            if let (Some(why), _) = this.deadlines(now) {
                this.evict(why);
                this.say_goaway(cx, why);
                return Poll::Ready(Ok(()));
            }
            let before = buf.filled().len();
            match Pin::new(&mut this.inner).poll_read(cx, buf) {
                Poll::Ready(Ok(())) => {
                    let got = buf.filled().len() - before;
                    if got == 0 {
                        return Poll::Ready(Ok(()));
                    }
                    let read = buf.filled()[before..].to_vec();
                    if let Some(why) = this.feed(&read, now) {
                        // What called for it is not passed on.
                        buf.set_filled(before);
                        this.evict(why);
                        this.say_goaway(cx, why);
                        return Poll::Ready(Ok(()));
                    }
                    return Poll::Ready(Ok(()));
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {}
            }
            // Nothing to read: wake up at the next deadline.
            let (_, next) = this.deadlines(now);
            if !this.limits.idle.is_zero() {
                this.entry.activity().park_reader(cx.waker());
            }
            let Some(at) = next else {
                this.timer = None;
                this.armed = None;
                return Poll::Pending;
            };
            if this.armed != Some(at) {
                let deadline = tokio::time::Instant::from_std(at);
                match &mut this.timer {
                    Some(t) => t.as_mut().reset(deadline),
                    None => this.timer = Some(Box::pin(tokio::time::sleep_until(deadline))),
                }
                this.armed = Some(at);
            }
            match this.timer.as_mut().map(|t| t.as_mut().poll(cx)) {
                Some(Poll::Ready(())) => {
                    this.armed = None;
                    continue;
                }
                _ => return Poll::Pending,
            }
        }
    }
}

impl<IO: AsyncWrite + Unpin> AsyncWrite for Guarded<IO> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = polled
            && this.is_http2()
        {
            let bucket = &mut this.bucket;
            this.written.feed(&buf[..n], |h| {
                // Each response frame lets the client send one control frame back.
                if matches!(h.kind, kind::HEADERS | kind::DATA) {
                    bucket.earn();
                }
            });
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl<IO: Connected> Connected for Guarded<IO> {
    type ConnectInfo = IO::ConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.inner.connect_info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::activity::Conns;

    fn guard(limits: GuardLimits) -> Guarded<tokio::io::DuplexStream> {
        let (a, _b) = tokio::io::duplex(64);
        let conns = Conns::default();
        let entry = conns.open("127.0.0.1:1".parse().expect("addr"));
        Guarded::new(a, limits, None, entry)
    }

    fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
        let mut f = (payload.len() as u32).to_be_bytes()[1..].to_vec();
        f.extend([kind, flags]);
        f.extend(stream.to_be_bytes());
        f.extend(payload);
        f
    }

    #[tokio::test]
    async fn the_preface_and_a_first_frame_are_the_handshake_and_pings_beyond_the_budget_a_flood() {
        let limits = GuardLimits {
            control_burst: 3,
            control_per_second: 0,
            ..GuardLimits::default()
        };
        let mut g = guard(limits);
        let now = Instant::now();
        assert_eq!(g.feed(&PREFACE[..10], now), None);
        assert!(!g.handshaken());
        assert_eq!(g.feed(&PREFACE[10..], now), None);
        assert!(g.is_http2() && !g.handshaken());
        // The client's SETTINGS: one control frame of three.
        assert_eq!(g.feed(&frame(kind::SETTINGS, 0, 0, &[]), now), None);
        assert!(g.handshaken());
        assert_eq!(g.feed(&frame(kind::HEADERS, 0, 5, b"h"), now), None);
        assert_eq!(g.last_stream, 5);
        let ping = frame(kind::PING, 0, 0, &[0; 8]);
        assert_eq!(g.feed(&ping, now), None);
        // An acknowledgement costs nothing.
        assert_eq!(
            g.feed(&frame(kind::PING, frames::ACK, 0, &[0; 8]), now),
            None
        );
        assert_eq!(g.feed(&ping, now), None);
        assert_eq!(g.feed(&ping, now), Some(Eviction::Flood));
    }

    #[tokio::test]
    async fn response_frames_earn_control_frames_and_time_refills_them() {
        let limits = GuardLimits {
            control_burst: 2,
            control_per_second: 1000,
            ..GuardLimits::default()
        };
        let mut b = Bucket::new(&limits, Instant::now());
        let t0 = b.at;
        assert!(b.take(t0) && b.take(t0) && !b.take(t0));
        b.earn();
        assert!(b.take(t0) && !b.take(t0));
        assert!(b.take(t0 + Duration::from_millis(1)));
        assert!(b.take(t0 + Duration::from_secs(60)) && b.take(t0 + Duration::from_secs(60)));
        assert!(
            !b.take(t0 + Duration::from_secs(60)),
            "no more than the burst"
        );
    }

    #[tokio::test]
    async fn an_http1_head_ends_the_handshake_and_one_too_long_is_refused() {
        let mut g = guard(GuardLimits {
            max_http1_head: 64,
            ..GuardLimits::default()
        });
        let now = Instant::now();
        assert_eq!(g.feed(b"POST /x HTTP/1.1\r\nhost: a\r\n", now), None);
        assert!(!g.is_http2() && !g.handshaken());
        assert_eq!(g.feed(b"\r\nbody bytes of any length", now), None);
        assert!(g.handshaken());
        let mut g = guard(GuardLimits {
            max_http1_head: 64,
            ..GuardLimits::default()
        });
        assert_eq!(
            g.feed(&[b'x'; 65], now),
            Some(Eviction::HeadTooLarge),
            "a head over the limit"
        );
        // A client that began like HTTP/2 and was not is read as HTTP/1.1.
        let mut g = guard(GuardLimits::default());
        assert_eq!(g.feed(b"PRI * HTTP/1.1\r\n\r\n", now), None);
        assert!(!g.is_http2() && g.handshaken());
    }

    #[tokio::test]
    async fn deadlines_come_in_order() {
        let limits = GuardLimits {
            handshake: Duration::from_secs(1),
            frame_stall: Duration::from_secs(2),
            idle: Duration::from_secs(3),
            ..GuardLimits::default()
        };
        let mut g = guard(limits);
        let t0 = g.born;
        assert_eq!(g.deadlines(t0).0, None);
        assert_eq!(
            g.deadlines(t0 + Duration::from_secs(1)).0,
            Some(Eviction::Handshake)
        );
        // Handshaken, then half a frame.
        g.feed(PREFACE, t0);
        g.feed(&frame(kind::SETTINGS, 0, 0, &[]), t0);
        g.feed(&frame(kind::DATA, 0, 1, &[1, 2, 3])[..10], t0);
        assert_eq!(g.deadlines(t0 + Duration::from_secs(1)).0, None);
        assert_eq!(
            g.deadlines(t0 + Duration::from_secs(2)).0,
            Some(Eviction::FrameStall)
        );
        g.feed(&[2, 3], t0);
        assert_eq!(g.mid_since, None);
        assert_eq!(g.deadlines(t0 + Duration::from_secs(2)).0, None);
        assert_eq!(
            g.deadlines(t0 + Duration::from_secs(3)).0,
            Some(Eviction::Idle)
        );
    }
}
