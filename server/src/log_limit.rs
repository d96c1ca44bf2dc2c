//! Log lines that a client's own mistakes cause (a bad key, a flood, a connection evicted) are
//! limited, so that no client can make the server write without bound: each kind of line is
//! written at most [`PER_CLIENT_PER_MINUTE`] times a minute for one client and
//! [`PER_KIND_PER_MINUTE`] times a minute in all; the lines held back are counted, and the
//! next line of that kind that is written says how many (`suppressed`).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Lines of one kind one client may cause in a minute.
pub const PER_CLIENT_PER_MINUTE: u32 = 10;
/// Lines of one kind all clients together may cause in a minute.
pub const PER_KIND_PER_MINUTE: u32 = 120;
/// Clients remembered at once: beyond it the oldest windows are forgotten (their clients
/// then still count against the kind's limit in all).
const MAX_CLIENTS: usize = 4096;
const MINUTE: Duration = Duration::from_secs(60);

#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    written: u32,
}

impl Window {
    fn new(now: Instant) -> Window {
        Window {
            started: now,
            written: 0,
        }
    }

    /// Starts a new minute when this one is over; whether another line fits in `most`.
    fn has_room(&mut self, now: Instant, most: u32) -> bool {
        if now.duration_since(self.started) >= MINUTE {
            *self = Window::new(now);
        }
        self.written < most
    }
}

/// The windows of every client and kind, and the lines of each kind held back.
#[derive(Debug, Default)]
pub struct LogLimiter {
    clients: HashMap<(Option<IpAddr>, &'static str), Window>,
    kinds: HashMap<&'static str, (Window, u64)>,
}

impl LogLimiter {
    /// Whether a line of `kind` that `client` caused may be written at `now`: `Some(n)` with
    /// the number of lines of that kind held back (from any client) since the last one
    /// written, `None` to hold it back.
    pub fn allow(
        &mut self,
        client: Option<IpAddr>,
        kind: &'static str,
        now: Instant,
    ) -> Option<u64> {
        let key = (client, kind);
        if self.clients.len() >= MAX_CLIENTS && !self.clients.contains_key(&key) {
            self.clients
                .retain(|_, w| now.duration_since(w.started) < MINUTE);
        }
        let (per_kind, held) = self
            .kinds
            .entry(kind)
            .or_insert_with(|| (Window::new(now), 0));
        // Too many clients at once to tell apart: only the kind's limit applies to a new one.
        let mut spare = Window::new(now);
        let mine = if self.clients.len() >= MAX_CLIENTS && !self.clients.contains_key(&key) {
            &mut spare
        } else {
            self.clients.entry(key).or_insert_with(|| Window::new(now))
        };
        if !mine.has_room(now, PER_CLIENT_PER_MINUTE)
            || !per_kind.has_room(now, PER_KIND_PER_MINUTE)
        {
            *held += 1;
            return None;
        }
        mine.written += 1;
        per_kind.written += 1;
        Some(std::mem::take(held))
    }
}

/// [`LogLimiter::allow`] on the server's one limiter, now.
pub fn allow(client: Option<IpAddr>, kind: &'static str) -> Option<u64> {
    static LIMITER: OnceLock<Mutex<LogLimiter>> = OnceLock::new();
    let mut limiter = LIMITER
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    limiter.allow(client, kind, Instant::now())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Option<IpAddr> {
        Some(IpAddr::from([10, 0, 0, n]))
    }

    #[test]
    fn a_client_writes_its_quota_a_minute_and_the_next_line_counts_the_rest() {
        let mut l = LogLimiter::default();
        let t0 = Instant::now();
        let written = (0..100)
            .filter(|_| l.allow(ip(1), "bad_key", t0).is_some())
            .count();
        assert_eq!(written as u32, PER_CLIENT_PER_MINUTE);
        // Another kind has its own quota.
        assert_eq!(l.allow(ip(1), "flood", t0), Some(0));
        // The next line of the kind written says how many were held back.
        let held = 100 - u64::from(PER_CLIENT_PER_MINUTE);
        assert_eq!(l.allow(ip(3), "bad_key", t0), Some(held));
        // A minute later the client writes again.
        let later = t0 + MINUTE;
        assert_eq!(l.allow(ip(1), "bad_key", later), Some(0));
        assert_eq!(l.allow(ip(1), "bad_key", later), Some(0));
    }

    #[test]
    fn many_clients_together_write_at_most_the_kinds_quota() {
        let mut l = LogLimiter::default();
        let t0 = Instant::now();
        let mut written = 0;
        for n in 0..=255u8 {
            for _ in 0..3 {
                if l.allow(ip(n), "bad_key", t0).is_some() {
                    written += 1;
                }
            }
        }
        assert_eq!(written, PER_KIND_PER_MINUTE);
        // More clients than it remembers: still bounded.
        let mut l = LogLimiter::default();
        let mut written = 0;
        for n in 0..(MAX_CLIENTS as u32 + 500) {
            let client = Some(IpAddr::from(n.to_be_bytes()));
            if l.allow(client, "flood", t0).is_some() {
                written += 1;
            }
        }
        assert_eq!(written, PER_KIND_PER_MINUTE);
        assert!(l.clients.len() <= MAX_CLIENTS);
    }
}
