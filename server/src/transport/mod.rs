//! The connection layer under the gRPC service: what a client may do to a connection before
//! and between its calls. Two sets of limits, both set explicitly (docs/DEPLOY.md, "Hostile
//! traffic"):
//!
//! - [`Http2Limits`], enforced by the HTTP/2 library (h2, through tonic): concurrent streams,
//!   the size of a header list, streams reset before they are answered (CVE-2023-44487) and
//!   streams the server had to refuse, the frame size;
//! - [`GuardLimits`], enforced by [`guard::Guarded`] on the bytes before the library reads
//!   them: the handshake's time, frames stalled half sent, idle connections, and floods of
//!   control frames (PING, SETTINGS and the like), which end with GOAWAY
//!   `ENHANCE_YOUR_CALM`.
//!
//! [`activity`] counts each connection's calls in flight, for the idle timeout.

pub mod activity;
pub mod frames;
pub mod guard;

pub use activity::{ActivityLayer, Conns};
pub use guard::{Eviction, GuardLimits, Guarded};

/// `io`, a connection from `peer`, guarded by `limits` and counted in `conns`.
pub fn guard<IO>(
    io: IO,
    peer: Option<std::net::SocketAddr>,
    limits: GuardLimits,
    conns: &Conns,
) -> Guarded<IO> {
    let entry = conns.open(peer.unwrap_or_else(|| ([0, 0, 0, 0], 0).into()));
    Guarded::new(io, limits, peer.map(|p| p.ip()), entry)
}

/// The limits the HTTP/2 library enforces on each connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Http2Limits {
    /// Streams open at once on one connection (SETTINGS_MAX_CONCURRENT_STREAMS); a client
    /// that opens more has them refused.
    pub max_concurrent_streams: u32,
    /// Largest header list of a request, in bytes (SETTINGS_MAX_HEADER_LIST_SIZE); a larger
    /// one is answered 431 and its stream reset.
    pub max_header_list_bytes: u32,
    /// Largest frame payload the server accepts (SETTINGS_MAX_FRAME_SIZE).
    pub max_frame_bytes: u32,
    /// Streams a client may reset before the server answered them, at once, before the
    /// connection ends with GOAWAY `ENHANCE_YOUR_CALM` (the rapid reset attack).
    pub max_pending_reset_streams: usize,
    /// Streams the server may have to reset for a client's protocol errors (a stream beyond
    /// the concurrency limit, say) before the connection ends with GOAWAY
    /// `ENHANCE_YOUR_CALM`.
    pub max_error_reset_streams: usize,
}

impl Default for Http2Limits {
    fn default() -> Self {
        Http2Limits {
            max_concurrent_streams: 512,
            max_header_list_bytes: 16 * 1024,
            max_frame_bytes: 16 * 1024,
            max_pending_reset_streams: 20,
            max_error_reset_streams: 256,
        }
    }
}

impl Http2Limits {
    /// `server` with these limits set.
    pub fn apply<L>(&self, server: tonic::transport::Server<L>) -> tonic::transport::Server<L> {
        server
            .max_concurrent_streams(Some(self.max_concurrent_streams))
            .http2_max_header_list_size(Some(self.max_header_list_bytes))
            .max_frame_size(Some(self.max_frame_bytes))
            .http2_max_pending_accept_reset_streams(Some(self.max_pending_reset_streams))
            .http2_max_local_error_reset_streams(Some(self.max_error_reset_streams))
    }
}
