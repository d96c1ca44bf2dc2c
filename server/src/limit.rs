//! Budgets per client address, so one client cannot starve the others: [`RateLimiter`], a token
//! bucket as a tonic interceptor (refusals are `RESOURCE_EXHAUSTED` with reason
//! `RATE_LIMITED`), and [`StreamBudget`], the streams a client has open.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tonic::service::Interceptor;
use tonic::{Request, Status};

use crate::error::{Reason, ServiceError};

/// Buckets kept before idle ones are dropped.
const MAX_CLIENTS: usize = 100_000;

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// Calls per second per client address, with a burst of one second's worth.
#[derive(Debug, Clone)]
pub struct RateLimiter {
    per_second: u32,
    buckets: Arc<Mutex<HashMap<IpAddr, Bucket>>>,
}

impl RateLimiter {
    /// A limiter; `per_second == 0` lets everything through.
    pub fn new(per_second: u32) -> RateLimiter {
        RateLimiter {
            per_second,
            buckets: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Takes one token for `client` at `now`; false when its bucket is empty.
    pub fn allow(&self, client: IpAddr, now: Instant) -> bool {
        if self.per_second == 0 {
            return true;
        }
        let rate = f64::from(self.per_second);
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() >= MAX_CLIENTS {
            buckets.retain(|_, b| now.duration_since(b.at).as_secs_f64() * rate < rate);
        }
        let b = buckets.entry(client).or_insert(Bucket {
            tokens: rate,
            at: now,
        });
        b.tokens = (b.tokens + now.duration_since(b.at).as_secs_f64() * rate).min(rate);
        b.at = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

impl Interceptor for RateLimiter {
    fn call(&mut self, request: Request<()>) -> Result<Request<()>, Status> {
        let Some(addr) = request.remote_addr() else {
            return Ok(request);
        };
        if self.allow(addr.ip(), Instant::now()) {
            Ok(request)
        } else {
            Err(ServiceError::Exhausted(
                Reason::RateLimited,
                format!("more than {} calls per second", self.per_second),
            )
            .into())
        }
    }
}

/// Streams open per client address, for a budget per client: [`StreamBudget::take`] counts one
/// more and hands back a [`StreamSlot`] that gives it back when the stream is dropped.
#[derive(Debug, Clone, Default)]
pub struct StreamBudget {
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One counted stream; dropping it frees the slot.
#[derive(Debug)]
pub struct StreamSlot {
    budget: StreamBudget,
    client: IpAddr,
}

impl StreamBudget {
    /// Takes a slot for `client` if it has fewer than `max` open (`max == 0`: no limit); else
    /// the number it has open.
    pub fn take(&self, client: IpAddr, max: usize) -> Result<StreamSlot, usize> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(client).or_insert(0);
        if max > 0 && *n >= max {
            return Err(*n);
        }
        *n += 1;
        Ok(StreamSlot {
            budget: self.clone(),
            client,
        })
    }

    /// Streams `client` has open now.
    pub fn open(&self, client: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(&client).copied().unwrap_or(0)
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.budget.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                // Clients that left leave nothing behind.
                open.remove(&self.client);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_client_gets_its_burst_then_its_rate_and_others_are_unaffected() {
        let l = RateLimiter::new(10);
        let t0 = Instant::now();
        let a: IpAddr = "10.0.0.1".parse().expect("ip");
        let b: IpAddr = "10.0.0.2".parse().expect("ip");
        assert_eq!((0..20).filter(|_| l.allow(a, t0)).count(), 10);
        assert!(l.allow(b, t0));
        assert!(!l.allow(a, t0));
        assert!(l.allow(a, t0 + Duration::from_millis(150)));
        assert!(RateLimiter::new(0).allow(a, t0));
    }

    #[test]
    fn a_stream_budget_counts_per_client_and_frees_on_drop() {
        let budget = StreamBudget::default();
        let a: IpAddr = "10.0.0.1".parse().expect("ip");
        let b: IpAddr = "10.0.0.2".parse().expect("ip");
        let first = budget.take(a, 2).expect("first");
        let second = budget.take(a, 2).expect("second");
        assert_eq!(budget.take(a, 2).err(), Some(2), "a third is refused");
        let other = budget
            .take(b, 2)
            .expect("another client has its own budget");
        drop(first);
        let again = budget.take(a, 2).expect("a dropped stream frees its slot");
        drop((second, again, other));
        assert_eq!(budget.open(a), 0);
        assert!(
            budget.open.lock().expect("lock").is_empty(),
            "nothing left behind"
        );
        let unlimited: Vec<_> = (0..100)
            .map(|_| budget.take(a, 0).expect("no limit"))
            .collect();
        assert_eq!(budget.open(a), 100);
        drop(unlimited);
    }
}

/// Failed calls per client address over the last minute (bad API keys): a client with as many
/// as its budget allows is refused until the oldest is a minute old, so keys cannot be guessed
/// at speed.
#[derive(Debug, Clone, Default)]
pub struct FailureBudget {
    failures: Arc<Mutex<HashMap<IpAddr, std::collections::VecDeque<Instant>>>>,
}

impl FailureBudget {
    const WINDOW: std::time::Duration = std::time::Duration::from_secs(60);

    /// Whether `client` has used up its `max` failures a minute (`max == 0`: never).
    pub fn blocked(&self, client: IpAddr, max: u32, now: Instant) -> bool {
        if max == 0 {
            return false;
        }
        let mut all = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        let Some(times) = all.get_mut(&client) else {
            return false;
        };
        while times
            .front()
            .is_some_and(|t| now.duration_since(*t) >= Self::WINDOW)
        {
            times.pop_front();
        }
        if times.is_empty() {
            all.remove(&client);
            return false;
        }
        times.len() >= max as usize
    }

    /// Counts a failure of `client` at `now` (keeping at most `max` per client).
    pub fn failed(&self, client: IpAddr, max: u32, now: Instant) {
        let mut all = self.failures.lock().unwrap_or_else(|e| e.into_inner());
        if all.len() >= MAX_CLIENTS {
            all.retain(|_, t| {
                t.back()
                    .is_some_and(|b| now.duration_since(*b) < Self::WINDOW)
            });
        }
        let times = all.entry(client).or_default();
        times.push_back(now);
        while times.len() > (max as usize).max(1) {
            times.pop_front();
        }
    }
}

#[cfg(test)]
mod failure_tests {
    use super::*;

    #[test]
    fn a_client_is_refused_after_its_failures_until_they_age() {
        let b = FailureBudget::default();
        let (a, other) = (IpAddr::from([10, 0, 0, 1]), IpAddr::from([10, 0, 0, 2]));
        let t0 = Instant::now();
        for i in 0..3 {
            assert!(!b.blocked(a, 3, t0), "after {i} failures");
            b.failed(a, 3, t0);
        }
        assert!(b.blocked(a, 3, t0));
        assert!(
            !b.blocked(other, 3, t0),
            "another address has its own budget"
        );
        assert!(b.blocked(a, 3, t0 + std::time::Duration::from_secs(59)));
        assert!(!b.blocked(a, 3, t0 + std::time::Duration::from_secs(60)));
        assert!(!b.blocked(a, 0, t0), "0: no limit");
    }
}
