//! The retry policy every client program shares, and how it reads a failed call: which
//! failures pass when the call or the stream is simply tried again, and how long to wait.

use std::time::Duration;

use tonic::{Code, Status};
use tonic_types::StatusExt;

/// How long an outage may last before play gives up.
pub const RECONNECT_FOR: Duration = Duration::from_secs(30);

/// How many refused answers to one decision before the first legal action is played.
pub const MAX_REFUSALS: usize = 3;

/// The retry policy of a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The longest outage tolerated, from its first failure to the connection being back.
    pub reconnect_for: Duration,
    /// Refused answers to one decision before the first legal action is played for the seat
    /// (`None`: ask again until the clock decides, as for a person at the keyboard).
    pub max_refusals: Option<usize>,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            reconnect_for: RECONNECT_FOR,
            max_refusals: Some(MAX_REFUSALS),
        }
    }
}

/// Waits before the `n`th retry: 50 ms doubling up to 1 s.
pub(crate) fn backoff_delay(n: u32) -> Duration {
    Duration::from_millis(50u64.saturating_mul(1 << n.min(5)).min(1000))
}

/// The `ErrorInfo` reason of a status ("" without one).
pub(crate) fn reason(s: &Status) -> String {
    s.get_details_error_info()
        .map(|i| i.reason)
        .unwrap_or_default()
}

/// Whether a stream error may pass when the stream is simply opened again: the server is
/// unreachable or restarting, cut a slow stream, or the connection broke.
pub fn transient(s: &Status) -> bool {
    matches!(
        s.code(),
        Code::Unavailable
            | Code::Unknown
            | Code::Internal
            | Code::ResourceExhausted
            | Code::Cancelled
    )
}

/// Whether a failed call may succeed when simply tried again: the server is unreachable or
/// restarting, its store refused a write without changing anything, the connection broke
/// under the call, or the caller went over its rate. A server's own refusals are final.
pub fn retryable(s: &Status) -> bool {
    // CANCELLED, or UNKNOWN carrying a source error, is what a call gets when its connection
    // breaks under it: a status the server sends is decoded from its trailers and carries no
    // source, while one the client library makes from a local failure (a transport error, a
    // body cut by a broken pipe, an h2 error) keeps that failure as its source.
    let local = std::error::Error::source(s).is_some();
    match s.code() {
        Code::Unavailable | Code::Cancelled => true,
        Code::Unknown => local,
        Code::ResourceExhausted => reason(s) == "RATE_LIMITED",
        _ => false,
    }
}
