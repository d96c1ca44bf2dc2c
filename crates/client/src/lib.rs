//! The client side of the `calabresella.v1` service shared by every Rust program that plays a
//! seat: the `calabresella` CLI, the load generator, the service tests and the Python package.
//!
//! [`RemoteSeat`] joins a table, follows the seat's observe stream (checking that sequence
//! numbers never skip or repeat), resumes after a dropped stream and answers each turn.

pub mod remote;

pub use remote::{MAX_ATTEMPTS, RECONNECT_FOR, RemoteError, RemoteSeat};
