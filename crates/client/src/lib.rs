//! The client side of the `calabresella.v1` service shared by every Rust program that plays a
//! seat: the `calabresella` CLI, the load generator, the service tests and the Python package.
//!
//! [`RemoteSeat`] holds a joined seat and its calls; [`play::play`] is the one play loop (stream
//! order, resume after a drop, one answer per decision, one retry policy) with a [`Strategy`]
//! choosing the answers and a [`PlayReport`] out, under the [`retry`] policy. [`requests`] builds calls from names (seat
//! kinds, games, end reasons, table states, record filters) for the CLI and Python alike.
//! [`Spectator`] follows a table's public stream the same way. [`endpoint()`] turns an address
//! (plain text or `https://`) into a channel's endpoint for all of them.

pub mod endpoint;
pub mod entropy;
pub mod play;
pub mod remote;
pub mod requests;
pub mod retry;
pub mod spectator;

pub use endpoint::{EndpointError, TlsFiles, endpoint, error_chain};
pub use play::{Answer, FnStrategy, PlayError, PlayReport, Strategy};
pub use remote::{RemoteError, RemoteSeat, authorize};
pub use retry::{MAX_REFUSALS, RECONNECT_FOR, RetryPolicy};
pub use spectator::Spectator;
