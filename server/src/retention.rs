//! Retention: a table abandoned before its first hand (nobody came) leaves an empty record;
//! the store deletes it once [`ServerConfig::abandoned_retention`] has passed.
//!
//! [`ServerConfig::abandoned_retention`]: crate::config::ServerConfig::abandoned_retention

use std::convert::Infallible;
use std::time::Duration;

use crate::store::{Store, now_ms};

/// The longest wait between two sweeps.
const MOST_BETWEEN_SWEEPS: Duration = Duration::from_secs(600);
/// The shortest (for short retentions, as tests use).
const LEAST_BETWEEN_SWEEPS: Duration = Duration::from_millis(10);

/// Sweeps the store for expired abandoned tables now and then, for ever (zero `keep`: never).
/// Drop the future to stop it.
pub async fn sweeps(store: Store, keep: Duration) -> Infallible {
    if keep.is_zero() {
        return std::future::pending().await;
    }
    // A table is at most a quarter of the retention late in leaving.
    let every = (keep / 4).clamp(LEAST_BETWEEN_SWEEPS, MOST_BETWEEN_SWEEPS);
    let keep_ms = i64::try_from(keep.as_millis()).unwrap_or(i64::MAX);
    loop {
        match store
            .prune_abandoned(now_ms().saturating_sub(keep_ms))
            .await
        {
            Ok(0) => {}
            Ok(n) => tracing::info!(
                tables = n,
                retention_s = keep.as_secs(),
                "deleted tables abandoned before their first hand"
            ),
            // A full or read-only disk: the next sweep tries again.
            Err(e) => tracing::warn!(error = %e, "retention sweep failed"),
        }
        tokio::time::sleep(every).await;
    }
}
