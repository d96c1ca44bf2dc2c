//! [`Command`]: every request a table's task serves, each with where to send its answer.

use calabresella_engine::Seat;
use calabresella_proto::v1;
use tokio::sync::oneshot;

use super::Joiner;
use super::feed::UpdateStream;
use crate::error::ServiceError;

/// A request to a table's task. Each carries where to send the answer.
pub enum Command {
    /// The table's public state.
    Info(oneshot::Sender<v1::Table>),
    /// Take a seat.
    Join {
        /// The seat wanted, or the lowest open one.
        seat: Option<Seat>,
        /// The player's name.
        name: String,
        /// Taken without an API key.
        guest: bool,
        /// The player's contribution to the deals (empty: none).
        entropy: Vec<u8>,
        /// Who asks (a seeded table seats only its creator).
        client: Joiner,
        /// The answer: seat, token, table.
        reply: oneshot::Sender<Result<(Seat, String, v1::Table), ServiceError>>,
    },
    /// Open a seat's stream (`token` set) or the public stream (`token` empty).
    Observe {
        /// The seat token, or `None` for the public stream.
        token: Option<String>,
        /// Resume point: last sequence number seen and its epoch.
        resume: Option<(u64, String)>,
        /// The stream.
        reply: oneshot::Sender<Result<UpdateStream, ServiceError>>,
    },
    /// Answer a decision.
    Act {
        /// The seat token.
        token: String,
        /// The decision answered.
        decision: u64,
        /// The action as sent.
        action: Box<v1::Action>,
        /// The action applied.
        reply: oneshot::Sender<Result<v1::ActResponse, ServiceError>>,
    },
    /// A fresh token for a seat player `name` holds, while the match is not over (the
    /// server hands it to the registered player; the old token stops working).
    Reissue {
        /// The seat.
        seat: Seat,
        /// Who must hold it.
        name: String,
        /// The new token and the table.
        reply: oneshot::Sender<Result<(String, v1::Table), ServiceError>>,
    },
    /// The record of completed hands.
    Record(oneshot::Sender<v1::GetRecordResponse>),
    /// A seat's observation now.
    Observation {
        /// The seat token.
        token: String,
        /// The answer.
        reply: oneshot::Sender<Result<v1::GetObservationResponse, ServiceError>>,
    },
    /// The submitted bot at `seat` failed (it crashed, ran out of memory, wrote garbage or an
    /// illegal action): the table's timeout policy applies to the seat from now on.
    Fault {
        /// The seat.
        seat: Seat,
        /// `MLE`, `RE` or `BAD_OUTPUT` (`TLE` is the table's own clock).
        reason: String,
        /// Done.
        reply: oneshot::Sender<()>,
    },
    /// The submitted bots' seats not yet played by their drivers, and whether each is taken
    /// already (a restored table's).
    SubmittedSeats(oneshot::Sender<Vec<(Seat, String, bool)>>),
    /// End the match now (server shutdown).
    Shutdown,
    /// A finished table leaves memory now instead of at the end of its time to live (the
    /// server holds enough finished tables; its record is in the store).
    Retire,
}
