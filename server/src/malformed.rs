//! [`MalformedRequests`]: the service's answer to a request that never reaches it. tonic refuses
//! a request body that does not decode with `INTERNAL` and one over the size limit with
//! `OUT_OF_RANGE`, both without details; this layer turns them into what the API promises:
//! `INVALID_ARGUMENT` (reason `MALFORMED_REQUEST`) and `RESOURCE_EXHAUSTED` (reason
//! `REQUEST_TOO_LARGE`), each with an `ErrorInfo` like every other refusal.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tonic::server::NamedService;
use tonic::{Code, Status};

use crate::error::{Reason, ServiceError};

/// What tonic's prost codec says of a body that does not decode (tonic-prost maps every
/// `prost::DecodeError` to `INTERNAL` with the error's text, which starts so).
const DECODE_FAILED: &str = "failed to decode Protobuf message";
/// What tonic says of a message over `max_decoding_message_size`.
const TOO_LARGE: &str = "decoded message length too large";

/// The refusal the API promises for a status tonic made before the handler ran, if it is one.
/// The service's own refusals never use `INTERNAL` or `OUT_OF_RANGE`, so nothing else changes.
pub fn promised(status: &Status) -> Option<Status> {
    let error = match status.code() {
        Code::Internal if status.message().starts_with(DECODE_FAILED) => ServiceError::Invalid(
            Reason::MalformedRequest,
            format!("the request does not decode: {}", status.message()),
        ),
        Code::OutOfRange if status.message().contains(TOO_LARGE) => ServiceError::Exhausted(
            Reason::RequestTooLarge,
            // tonic's text names the size found and the limit: both are the caller's own.
            status
                .message()
                .trim_start_matches("Error, ")
                .replace("decoded message length", "the request"),
        ),
        _ => return None,
    };
    Some(error.into())
}

/// Wraps a gRPC service so that its decode and size refusals carry the promised code and reason.
#[derive(Debug, Clone)]
pub struct MalformedRequests<S>(pub S);

impl<S: NamedService> NamedService for MalformedRequests<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B> tower::Service<http::Request<B>> for MalformedRequests<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<tonic::body::Body>>,
    S::Future: Send + 'static,
    S::Error: 'static,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let call = self.0.call(request);
        Box::pin(async move {
            let response = call.await?;
            // A refusal before the handler is a trailers-only response: its status is in the
            // headers. Any other response passes untouched (its body is never read here).
            let Some(status) = Status::from_header_map(response.headers()) else {
                return Ok(response);
            };
            Ok(match promised(&status) {
                Some(promised) => promised.into_http(),
                None => response,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic_types::StatusExt;

    #[test]
    fn decode_and_size_refusals_carry_the_promised_code_and_reason() {
        let undecodable =
            Status::internal("failed to decode Protobuf message: invalid wire type value: 7");
        let s = promised(&undecodable).expect("mapped");
        assert_eq!(s.code(), Code::InvalidArgument);
        assert_eq!(
            s.get_details_error_info().expect("ErrorInfo").reason,
            "MALFORMED_REQUEST"
        );
        let large = Status::out_of_range(
            "Error, decoded message length too large: found 70000 bytes, the limit is: 65536 bytes",
        );
        let s = promised(&large).expect("mapped");
        assert_eq!(s.code(), Code::ResourceExhausted);
        assert_eq!(
            s.get_details_error_info().expect("ErrorInfo").reason,
            "REQUEST_TOO_LARGE"
        );
        assert!(s.message().contains("70000") && s.message().contains("65536"));
        for other in [
            Status::internal("something else"),
            Status::invalid_argument("failed to decode Protobuf message"),
            Status::out_of_range("a range"),
        ] {
            assert!(promised(&other).is_none(), "{other:?}");
        }
    }
}
