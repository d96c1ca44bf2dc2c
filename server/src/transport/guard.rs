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
    /// `tail`, until the head ends (`done`).
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
    /// When the frame now half received began (reset by every frame that completes).
    mid_since: Option<Instant>,
    /// When the client last began a call: an HTTP/2 HEADERS frame, or the first byte of an
    /// HTTP/1.1 request head read while no call was in flight. A call counts as in flight
    /// only once the service has it; until then this keeps the idle clock from running.
    began_call: Option<Instant>,
    /// The server's own frames, to know when it is between two and to credit the client.
    written: FrameReader,
    /// The part of the guard's GOAWAY not yet written: it goes out before any more of the
    /// server's bytes.
    goaway_tail: Vec<u8>,
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
            began_call: None,
            written: FrameReader::default(),
            goaway_tail: Vec::new(),
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

    /// Reads what the client sent; the eviction it calls for, if any. Nothing of a chunk
    /// that calls for one counts (it is not passed on).
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
                if let Some(e) = self.feed_http1(&PREFACE[..seen], now) {
                    return Some(e);
                }
            }
        }
        if matches!(self.reading, Reading::Http1 { .. }) {
            return self.feed_http1(bytes, now);
        }
        let Reading::Http2 { frames, settled } = &mut self.reading else {
            return None;
        };
        let mut flood = false;
        let mut completed = false;
        let mut last = self.last_stream;
        let mut began = false;
        let bucket = &mut self.bucket;
        frames.feed(bytes, |h: Header| {
            completed = true;
            if h.kind == kind::HEADERS && h.stream % 2 == 1 {
                last = last.max(h.stream);
                began = true;
            }
            if h.is_control() && !bucket.take(now) {
                flood = true;
            }
        });
        if flood {
            return Some(Eviction::Flood);
        }
        *settled |= completed;
        self.last_stream = last;
        if began {
            self.began_call = Some(now);
        }
        // The stall clock times the frame in progress only: any frame that completed in
        // these bytes restarts it.
        self.mid_since = match (frames.mid_frame(), self.mid_since) {
            (false, _) => None,
            (true, Some(since)) if !completed => Some(since),
            (true, _) => Some(now),
        };
        None
    }

    fn feed_http1(&mut self, bytes: &[u8], now: Instant) -> Option<Eviction> {
        let Reading::Http1 { head, tail, done } = &mut self.reading else {
            return None;
        };
        if *done {
            // A later request's first byte, with no call in flight: its head has the
            // handshake's time to arrive (`deadlines`), and the idle clock stops for it.
            if !bytes.is_empty() && self.entry.activity().in_flight() == 0 {
                self.began_call.get_or_insert(now);
            }
            return None;
        }
        for &b in bytes {
            *head += 1;
            // CRLF CRLF, or bare LF LF, which HTTP/1.1 servers accept too.
            if b == b'\n' && (tail == b"\r\n\r" || tail[2] == b'\n') {
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
    fn deadlines(&mut self, now: Instant) -> (Option<Eviction>, Option<Instant>) {
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
        if activity.in_flight() > 0 {
            // The call the client began is with the service now.
            self.began_call = None;
        } else if self.handshaken() {
            let http1 = !self.is_http2();
            match self.began_call {
                // An HTTP/1.1 request head begun while idle has the handshake's time.
                Some(at) if http1 => check(at + self.limits.handshake, Eviction::Handshake),
                _ if self.limits.idle.is_zero() => {}
                began => {
                    let since =
                        began.map_or(activity.idle_since(), |b| b.max(activity.idle_since()));
                    check(since + self.limits.idle, Eviction::Idle);
                }
            }
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
    /// (else the frame would corrupt one of its own). What does not go out at once goes out
    /// before the server's next bytes.
    fn say_goaway(&mut self, cx: &mut Context<'_>, why: Eviction) {
        let error = match why {
            Eviction::Idle => code::NO_ERROR,
            Eviction::Flood => code::ENHANCE_YOUR_CALM,
            _ => return,
        };
        if !self.is_http2() || self.written.mid_frame() {
            return;
        }
        self.goaway_tail = frames::goaway(self.last_stream, error).to_vec();
        if self.drain_goaway(cx).is_ready() {
            let _ = Pin::new(&mut self.inner).poll_flush(cx);
        }
    }

    /// Writes what is left of the guard's GOAWAY; ready once none is.
    fn drain_goaway(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.goaway_tail.is_empty() {
            match Pin::new(&mut self.inner).poll_write(cx, &self.goaway_tail) {
                Poll::Ready(Ok(0)) => {
                    self.goaway_tail.clear();
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                Poll::Ready(Ok(n)) => {
                    self.goaway_tail.drain(..n);
                }
                Poll::Ready(Err(e)) => {
                    self.goaway_tail.clear();
                    return Poll::Ready(Err(e));
                }
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Credits the client for the server's frames among `written` bytes.
    fn track_written(&mut self, written: &[u8]) {
        if !self.is_http2() {
            return;
        }
        let bucket = &mut self.bucket;
        self.written.feed(written, |h| {
            // Each response frame lets the client send one control frame back.
            if matches!(h.kind, kind::HEADERS | kind::DATA) {
                bucket.earn();
            }
        });
    }

    /// While the server cannot write, a deadline that is due still ends the connection (the
    /// HTTP library reads no more until it can write).
    fn due_while_blocked(&mut self) -> Option<io::Error> {
        if self.evicted.is_some() {
            return None;
        }
        let (due, _) = self.deadlines(Instant::now());
        let why = due?;
        self.evict(why);
        Some(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("connection closed by its guard: {}", why.as_str()),
        ))
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
        // Parked first, so that a call ending from now on wakes this reader to arm its idle
        // timer.
        if !this.limits.idle.is_zero() {
            this.entry.activity().park_reader(cx.waker());
        }
        loop {
            // What is there is read first: a deadline only counts against bytes not sent.
            let before = buf.filled().len();
            match Pin::new(&mut this.inner).poll_read(cx, buf) {
                Poll::Ready(Ok(())) => {
                    let now = Instant::now();
                    if buf.filled().len() == before {
                        return Poll::Ready(Ok(()));
                    }
                    let verdict = this.feed(&buf.filled()[before..], now);
                    if let Some(why) = verdict {
                        // What called for it is not passed on.
                        buf.set_filled(before);
                        this.evict(why);
                        this.say_goaway(cx, why);
                    }
                    return Poll::Ready(Ok(()));
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => {}
            }
            let now = Instant::now();
            let (due, next) = this.deadlines(now);
            if let Some(why) = due {
                this.evict(why);
                this.say_goaway(cx, why);
                return Poll::Ready(Ok(()));
            }
            // Nothing to read: wake up at the next deadline.
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
        std::task::ready!(this.drain_goaway(cx))?;
        match Pin::new(&mut this.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                this.track_written(&buf[..n]);
                Poll::Ready(Ok(n))
            }
            Poll::Pending => match this.due_while_blocked() {
                Some(e) => Poll::Ready(Err(e)),
                None => Poll::Pending,
            },
            other => other,
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        std::task::ready!(this.drain_goaway(cx))?;
        match Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            Poll::Ready(Ok(n)) => {
                let mut left = n;
                for b in bufs {
                    if left == 0 {
                        break;
                    }
                    let take = left.min(b.len());
                    this.track_written(&b[..take]);
                    left -= take;
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending => match this.due_while_blocked() {
                Some(e) => Poll::Ready(Err(e)),
                None => Poll::Pending,
            },
            other => other,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.drain_goaway(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        std::task::ready!(this.drain_goaway(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
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

    #[tokio::test]
    async fn a_busy_connection_is_not_stalled_and_a_new_call_stops_the_idle_clock() {
        let limits = GuardLimits {
            frame_stall: Duration::from_secs(2),
            idle: Duration::from_secs(3),
            ..GuardLimits::default()
        };
        let mut g = guard(limits);
        let t0 = g.born;
        g.feed(PREFACE, t0);
        g.feed(&frame(kind::SETTINGS, 0, 0, &[]), t0);
        // Back-to-back frames whose reads never end on a boundary: each completed frame
        // restarts the stall clock.
        let stream: Vec<u8> = (0..20)
            .flat_map(|_| frame(kind::DATA, 0, 1, &[7; 100]))
            .collect();
        let mut at = t0;
        for chunk in stream.chunks(109 + 50) {
            at += Duration::from_secs(1);
            g.feed(chunk, at);
            assert!(g.mid_since.is_none() || g.mid_since == Some(at));
            assert_ne!(
                g.deadlines(at + Duration::from_millis(1500)).0,
                Some(Eviction::FrameStall)
            );
        }
        // A HEADERS frame at the idle deadline moves it: the call is the service's soon.
        let mut g = guard(limits);
        g.feed(PREFACE, t0);
        g.feed(&frame(kind::SETTINGS, 0, 0, &[]), t0);
        let late = t0 + Duration::from_millis(2900);
        g.feed(&frame(kind::HEADERS, 4, 1, b"h"), late);
        assert_eq!(g.deadlines(t0 + Duration::from_secs(3)).0, None);
        assert_eq!(
            g.deadlines(late + Duration::from_secs(3)).0,
            Some(Eviction::Idle)
        );
    }

    #[tokio::test]
    async fn a_flood_names_no_stream_it_was_not_passed_and_heads_may_end_in_bare_newlines() {
        let mut g = guard(GuardLimits {
            control_burst: 1,
            control_per_second: 0,
            ..GuardLimits::default()
        });
        let t0 = g.born;
        g.feed(PREFACE, t0);
        g.feed(&frame(kind::HEADERS, 4, 3, b"h"), t0);
        let mut chunk = frame(kind::HEADERS, 4, 9, b"h");
        chunk.extend(frame(kind::PING, 0, 0, &[0; 8]));
        chunk.extend(frame(kind::PING, 0, 0, &[0; 8]));
        assert_eq!(g.feed(&chunk, t0), Some(Eviction::Flood));
        assert_eq!(g.last_stream, 3, "stream 9 was never passed on");
        let mut g = guard(GuardLimits::default());
        assert_eq!(g.feed(b"GET / HTTP/1.1\nhost: a\n\n", t0), None);
        assert!(g.handshaken());
    }

    #[tokio::test]
    async fn a_later_http1_head_has_the_handshakes_time() {
        let limits = GuardLimits {
            handshake: Duration::from_secs(1),
            idle: Duration::from_secs(100),
            ..GuardLimits::default()
        };
        let mut g = guard(limits);
        let t0 = g.born;
        g.feed(b"GET / HTTP/1.1\r\n\r\n", t0);
        assert!(g.handshaken());
        // The next request's first bytes, and then nothing: evicted a second later, long
        // before the idle timeout.
        let t1 = t0 + Duration::from_secs(5);
        g.feed(b"POST /x HT", t1);
        assert_eq!(g.deadlines(t1 + Duration::from_millis(900)).0, None);
        assert_eq!(
            g.deadlines(t1 + Duration::from_secs(1)).0,
            Some(Eviction::Handshake)
        );
    }
}
