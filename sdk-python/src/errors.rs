//! The Python exception hierarchy under `CalabresellaError`, and the one mapping from each Rust
//! error to it.

use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::{PyErr, create_exception};

create_exception!(
    _core,
    CalabresellaError,
    PyException,
    "Base class of every error the calabresella package raises."
);
create_exception!(
    _core,
    IllegalActionError,
    CalabresellaError,
    "An action that is not legal now (or out of turn); the game did not change."
);
create_exception!(
    _core,
    NotationError,
    CalabresellaError,
    "A card, action, seat or option that does not parse."
);
create_exception!(
    _core,
    InvalidRecordError,
    CalabresellaError,
    "A game record that is malformed or does not replay."
);
create_exception!(
    _core,
    DealMismatchError,
    CalabresellaError,
    "A record whose deals are not the ones its scheme committed to (or its seed gives)."
);
create_exception!(
    _core,
    BotError,
    CalabresellaError,
    "A bot raised, returned something that is not an action, or kept answering illegally."
);
create_exception!(
    _core,
    ServerError,
    CalabresellaError,
    "The server refused a call: `code` is the gRPC status name, `reason` the ErrorInfo reason."
);
create_exception!(
    _core,
    ConnectionLostError,
    ServerError,
    "The server could not be reached, or the connection broke and could not be resumed."
);

/// An `IllegalActionError`.
pub fn illegal(msg: impl std::fmt::Display) -> PyErr {
    IllegalActionError::new_err(msg.to_string())
}

/// A `NotationError`.
pub fn notation(msg: impl std::fmt::Display) -> PyErr {
    NotationError::new_err(msg.to_string())
}

/// A `DealMismatchError`.
pub fn deal_mismatch(msg: impl std::fmt::Display) -> PyErr {
    DealMismatchError::new_err(msg.to_string())
}

/// An `InvalidRecordError`.
pub fn record(msg: impl std::fmt::Display) -> PyErr {
    InvalidRecordError::new_err(msg.to_string())
}

/// A `ServerError` (or `ConnectionLostError` for `UNAVAILABLE`) with `code`, `reason` and
/// `message` attributes, from a gRPC status.
pub fn status(py: Python<'_>, s: &tonic::Status) -> PyErr {
    use tonic_types::StatusExt;
    let reason = s
        .get_details_error_info()
        .map(|i| i.reason)
        .unwrap_or_default();
    let code = format!("{:?}", s.code());
    let code = grpc_code_name(s.code()).unwrap_or(&code).to_owned();
    let mut text = if reason.is_empty() {
        format!("{code}: {}", s.message())
    } else {
        format!("{code} {reason}: {}", s.message())
    };
    // A transport failure says what happened only in its sources (a refused certificate, a
    // server that speaks TLS only).
    if let Some(source) = std::error::Error::source(s) {
        text = format!("{text}: {}", calabresella_client::error_chain(source));
    }
    let err = if s.code() == tonic::Code::Unavailable {
        ConnectionLostError::new_err(text)
    } else {
        ServerError::new_err(text)
    };
    let value = err.value(py);
    // Attributes for programs; setting them on a fresh exception object cannot fail.
    let _ = value.setattr("code", code);
    let _ = value.setattr("reason", reason);
    let _ = value.setattr("message", s.message());
    err
}

fn grpc_code_name(c: tonic::Code) -> Option<&'static str> {
    use tonic::Code as C;
    Some(match c {
        C::Ok => "OK",
        C::Cancelled => "CANCELLED",
        C::Unknown => "UNKNOWN",
        C::InvalidArgument => "INVALID_ARGUMENT",
        C::DeadlineExceeded => "DEADLINE_EXCEEDED",
        C::NotFound => "NOT_FOUND",
        C::AlreadyExists => "ALREADY_EXISTS",
        C::PermissionDenied => "PERMISSION_DENIED",
        C::ResourceExhausted => "RESOURCE_EXHAUSTED",
        C::FailedPrecondition => "FAILED_PRECONDITION",
        C::Aborted => "ABORTED",
        C::OutOfRange => "OUT_OF_RANGE",
        C::Unimplemented => "UNIMPLEMENTED",
        C::Internal => "INTERNAL",
        C::Unavailable => "UNAVAILABLE",
        C::DataLoss => "DATA_LOSS",
        C::Unauthenticated => "UNAUTHENTICATED",
    })
}

/// Registers the exception classes on the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CalabresellaError", py.get_type::<CalabresellaError>())?;
    m.add("IllegalActionError", py.get_type::<IllegalActionError>())?;
    m.add("NotationError", py.get_type::<NotationError>())?;
    m.add("InvalidRecordError", py.get_type::<InvalidRecordError>())?;
    m.add("BotError", py.get_type::<BotError>())?;
    m.add("DealMismatchError", py.get_type::<DealMismatchError>())?;
    m.add("ServerError", py.get_type::<ServerError>())?;
    m.add("ConnectionLostError", py.get_type::<ConnectionLostError>())?;
    Ok(())
}
