//! [`RateLimiter`]: a token bucket per client address, as a tonic interceptor, so one client
//! cannot starve the others. Refusals are `RESOURCE_EXHAUSTED` with reason `RATE_LIMITED`.

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
}
