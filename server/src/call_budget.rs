//! [`CallBudget`]: calls in flight per client (address, or IPv6 /64), over all its
//! connections. A call counts from its request's first frame to the end of its answer (a
//! stream's whole life), so a client that opens calls and never finishes them (HEADERS
//! without END_STREAM, on every stream its connections allow) holds at most its own budget of
//! the server's memory. A call over the budget is answered at once with `RESOURCE_EXHAUSTED`
//! (reason `TOO_MANY_CALLS`).

use std::future::Future;
use std::net::IpAddr;
use std::pin::Pin;
use std::task::{Context, Poll};

use http_body::{Body, Frame, SizeHint};
use tonic::server::NamedService;

use crate::error::{Reason, ServiceError};
use crate::limit::{StreamBudget, StreamSlot};

/// Wraps a gRPC service with a budget of `max` calls in flight per client (0: no limit).
#[derive(Debug, Clone)]
pub struct CallBudget<S> {
    inner: S,
    budget: StreamBudget,
    max: usize,
}

impl<S> CallBudget<S> {
    /// `inner` with at most `max` calls in flight per client (0: no limit), counted in
    /// `budget`: every service of a server shares one, so a client's calls count wherever
    /// they go (the game, health, reflection).
    pub fn new(inner: S, budget: StreamBudget, max: usize) -> Self {
        CallBudget { inner, budget, max }
    }
}

impl<S: NamedService> NamedService for CallBudget<S> {
    const NAME: &'static str = S::NAME;
}

/// The client a request comes from (its address, an IPv6 one as its /64).
fn client_of<B>(request: &http::Request<B>) -> Option<IpAddr> {
    crate::transport::activity::peer_of(request).map(|p| crate::connections::client_of(p.ip()))
}

impl<S, B, R> tower::Service<http::Request<B>> for CallBudget<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    R: Body<Data = bytes::Bytes> + Send + 'static,
    R::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let slot = match client_of(&request).map(|c| self.budget.take(c, self.max)) {
            None => None,
            Some(Ok(slot)) => Some(slot),
            Some(Err(open)) => {
                let refusal = ServiceError::Exhausted(
                    Reason::TooManyCalls,
                    format!(
                        "{open} calls in flight from this client: at most {} at once \
                         (finish or cancel some)",
                        self.max
                    ),
                );
                let status: tonic::Status = refusal.into();
                return Box::pin(std::future::ready(Ok(status.into_http())));
            }
        };
        let call = self.inner.call(request);
        Box::pin(async move {
            let response = call.await?;
            Ok(response.map(|body| tonic::body::Body::new(Counted { body, slot })))
        })
    }
}

pin_project_lite::pin_project! {
    /// An answer that holds its call's slot until it ends or is dropped.
    struct Counted<R> {
        #[pin]
        body: R,
        slot: Option<StreamSlot>,
    }
}

impl<R: Body> Body for Counted<R> {
    type Data = R::Data;
    type Error = R::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<R::Data>, R::Error>>> {
        let this = self.project();
        let polled = this.body.poll_frame(cx);
        if let Poll::Ready(None) = polled {
            this.slot.take();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
