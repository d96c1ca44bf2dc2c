//! [`ServiceError`]: every way a call can fail, and its one mapping to a gRPC status with a
//! machine-readable `google.rpc.ErrorInfo` (domain `calabresella.v1`, reason in upper case).

use calabresella_engine::IllegalAction;
use calabresella_proto::convert::WireError;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::store::StoreError;

/// The `ErrorInfo` domain of every error this service returns.
pub const ERROR_DOMAIN: &str = "calabresella.v1";

/// Why a call failed. Messages never name a card the caller may not see.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ServiceError {
    /// Malformed input: the reason code and what is wrong.
    #[error("{1}")]
    Invalid(&'static str, String),
    /// No seat token given.
    #[error("a seat token is required")]
    NoToken,
    /// The seat token is not one of this table's.
    #[error("the seat token is not valid for this table")]
    BadToken,
    /// No such table.
    #[error("no table {0:?}")]
    TableNotFound(String),
    /// The action is not legal now (the engine's reason).
    #[error("illegal action: {0}")]
    Illegal(IllegalAction),
    /// Another seat decides now, or no decision is due.
    #[error("not your turn: {0}")]
    NotYourTurn(String),
    /// A state that makes the call impossible: reason code and explanation.
    #[error("{1}")]
    Precondition(&'static str, String),
    /// The decision quoted was already answered (differently) or timed out.
    #[error("decision {0} is stale: {1}")]
    Stale(u64, String),
    /// A server limit: reason code and which limit.
    #[error("{1}")]
    Exhausted(&'static str, String),
    /// The server is shutting down or the table's task is gone.
    #[error("the table is unavailable: {0}")]
    Unavailable(String),
    /// Another server instance sharing the database runs the table: id and instance.
    #[error("table {0:?} is run by server instance {1:?}")]
    Elsewhere(String, String),
    /// The store refused a write or a read; nothing changed.
    #[error("{}: nothing was changed", store_message(.0))]
    Store(StoreError),
}

fn store_message(e: &StoreError) -> String {
    match e {
        StoreError::Full(_) => "the server's store is full".into(),
        StoreError::ReadOnly(_) => "the server's store is read-only".into(),
        StoreError::Closed => "the server's store has stopped".into(),
        // Other database errors may quote data: only the kind of failure goes out.
        _ => "the server's store failed".into(),
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> Self {
        ServiceError::Store(e)
    }
}

impl From<WireError> for ServiceError {
    fn from(e: WireError) -> Self {
        let reason = match e {
            WireError::Mismatch(_) => "ACTION_MISMATCH",
            WireError::Options(_) => "BAD_OPTIONS",
            WireError::Card(_) | WireError::Action(_) => "BAD_ACTION",
        };
        ServiceError::Invalid(reason, e.to_string())
    }
}

impl ServiceError {
    /// The status code and the `ErrorInfo` reason.
    pub fn code_and_reason(&self) -> (Code, &'static str) {
        match self {
            ServiceError::Invalid(r, _) => (Code::InvalidArgument, r),
            ServiceError::NoToken => (Code::Unauthenticated, "NO_TOKEN"),
            ServiceError::BadToken => (Code::PermissionDenied, "BAD_TOKEN"),
            ServiceError::TableNotFound(_) => (Code::NotFound, "TABLE_NOT_FOUND"),
            ServiceError::Elsewhere(..) => (Code::NotFound, "TABLE_ELSEWHERE"),
            ServiceError::Illegal(_) => (Code::FailedPrecondition, "ILLEGAL_ACTION"),
            ServiceError::NotYourTurn(_) => (Code::FailedPrecondition, "NOT_YOUR_TURN"),
            ServiceError::Precondition(r, _) => (Code::FailedPrecondition, r),
            ServiceError::Stale(..) => (Code::Aborted, "STALE_DECISION"),
            ServiceError::Exhausted(r, _) => (Code::ResourceExhausted, r),
            ServiceError::Unavailable(_) => (Code::Unavailable, "UNAVAILABLE"),
            ServiceError::Store(StoreError::Full(_)) => (Code::ResourceExhausted, "STORE_FULL"),
            ServiceError::Store(StoreError::ReadOnly(_)) => (Code::Unavailable, "STORE_READ_ONLY"),
            ServiceError::Store(_) => (Code::Unavailable, "STORE_FAILED"),
        }
    }
}

impl From<ServiceError> for Status {
    fn from(e: ServiceError) -> Status {
        let (code, reason) = e.code_and_reason();
        let mut metadata = std::collections::HashMap::<String, String>::new();
        if let ServiceError::Elsewhere(_, instance) = &e {
            metadata.insert("instance".into(), instance.clone());
        }
        let details = ErrorDetails::with_error_info(reason, ERROR_DOMAIN, metadata);
        Status::with_error_details(code, e.to_string(), details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_carries_its_code_and_reason() {
        let cases = [
            (ServiceError::NoToken, Code::Unauthenticated, "NO_TOKEN"),
            (ServiceError::BadToken, Code::PermissionDenied, "BAD_TOKEN"),
            (
                ServiceError::TableNotFound("x".into()),
                Code::NotFound,
                "TABLE_NOT_FOUND",
            ),
            (
                ServiceError::Stale(3, "answered".into()),
                Code::Aborted,
                "STALE_DECISION",
            ),
            (
                ServiceError::Exhausted("TOO_MANY_TABLES", "limit".into()),
                Code::ResourceExhausted,
                "TOO_MANY_TABLES",
            ),
            (
                StoreError::Full("disk".into()).into(),
                Code::ResourceExhausted,
                "STORE_FULL",
            ),
            (
                StoreError::ReadOnly("ro".into()).into(),
                Code::Unavailable,
                "STORE_READ_ONLY",
            ),
            (
                WireError::Mismatch("x".into()).into(),
                Code::InvalidArgument,
                "ACTION_MISMATCH",
            ),
        ];
        for (e, code, reason) in cases {
            let status = Status::from(e.clone());
            assert_eq!(status.code(), code, "{e}");
            let info = status.get_details_error_info().expect("ErrorInfo");
            assert_eq!(info.reason, reason);
            assert_eq!(info.domain, ERROR_DOMAIN);
        }
    }
}
