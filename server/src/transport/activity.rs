//! Which connections have a request in flight: [`ActivityLayer`] counts each connection's
//! calls from the request to the end of its response body (a stream's whole life), so the
//! connection guard can evict a connection that has had none for its idle timeout, whatever
//! it keeps sending (PING acknowledgements, a request head never finished).
//!
//! The guard and the layer meet in [`Conns`], keyed by the client's socket address: the only
//! thing tonic passes from a connection to its requests is its connect info (the addresses).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Waker};
use std::time::Instant;

use http_body::{Body, Frame, SizeHint};
use tonic::transport::server::{TcpConnectInfo, TlsConnectInfo};

/// One connection's calls in flight, and since when it has had none.
#[derive(Debug)]
pub struct Activity {
    born: Instant,
    in_flight: AtomicUsize,
    /// Milliseconds from `born` to the moment the last call ended (0: none yet).
    idle_since_ms: AtomicU64,
    /// The connection's reader, woken when its last call ends (to arm its idle timer).
    reader: Mutex<Option<Waker>>,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            born: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(0),
            reader: Mutex::new(None),
        }
    }

    /// Calls in flight now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }

    /// When the connection last became idle (its birth when it never had a call).
    pub fn idle_since(&self) -> Instant {
        self.born + std::time::Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire))
    }

    /// Keeps the reader's waker, woken when the last call in flight ends.
    pub fn park_reader(&self, waker: &Waker) {
        let mut r = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        if !r.as_ref().is_some_and(|w| w.will_wake(waker)) {
            *r = Some(waker.clone());
        }
    }

    fn begin(&self) {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
    }

    fn end(&self) {
        // The time first: a reader that sees no call in flight must never see an older one.
        let ms = self.born.elapsed().as_millis().max(1) as u64;
        self.idle_since_ms.fetch_max(ms, Ordering::AcqRel);
        if self.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            let waker = self.reader.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(w) = waker {
                w.wake();
            }
        }
    }
}

/// The live connections' activity, by client socket address.
#[derive(Debug, Clone, Default)]
pub struct Conns(Arc<Mutex<HashMap<SocketAddr, Arc<Activity>>>>);

impl Conns {
    /// Registers a new connection from `peer`; it is forgotten when the returned entry drops.
    pub fn open(&self, peer: SocketAddr) -> ConnEntry {
        let activity = Arc::new(Activity::new());
        self.lock().insert(peer, activity.clone());
        ConnEntry {
            conns: self.clone(),
            peer,
            activity,
        }
    }

    /// How many connections are registered.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, peer: &SocketAddr) -> Option<Arc<Activity>> {
        self.lock().get(peer).cloned()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SocketAddr, Arc<Activity>>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A connection's place in [`Conns`].
#[derive(Debug)]
pub struct ConnEntry {
    conns: Conns,
    peer: SocketAddr,
    activity: Arc<Activity>,
}

impl ConnEntry {
    /// The connection's activity.
    pub fn activity(&self) -> &Activity {
        &self.activity
    }
}

impl Drop for ConnEntry {
    fn drop(&mut self) {
        let mut map = self.conns.lock();
        // The address may have been taken by a newer connection already: keep that one.
        if map
            .get(&self.peer)
            .is_some_and(|a| Arc::ptr_eq(a, &self.activity))
        {
            map.remove(&self.peer);
        }
    }
}

/// Counts every call on its connection's [`Activity`] until its response body ends.
#[derive(Debug, Clone)]
pub struct ActivityLayer {
    conns: Conns,
}

impl ActivityLayer {
    /// The layer over `conns`.
    pub fn new(conns: Conns) -> Self {
        ActivityLayer { conns }
    }
}

impl<S> tower::Layer<S> for ActivityLayer {
    type Service = ActivityService<S>;

    fn layer(&self, inner: S) -> Self::Service {
        ActivityService {
            inner,
            conns: self.conns.clone(),
        }
    }
}

/// See [`ActivityLayer`].
#[derive(Debug, Clone)]
pub struct ActivityService<S> {
    inner: S,
    conns: Conns,
}

/// The client's socket address, from the connect info tonic puts on every request.
pub fn peer_of<B>(request: &http::Request<B>) -> Option<SocketAddr> {
    let x = request.extensions();
    x.get::<TcpConnectInfo>()
        .and_then(|i| i.remote_addr)
        .or_else(|| {
            x.get::<TlsConnectInfo<TcpConnectInfo>>()
                .and_then(|i| i.get_ref().remote_addr)
        })
}

/// A call's place in its connection's count, given back when dropped.
struct InFlight(Arc<Activity>);

impl InFlight {
    fn new(a: Arc<Activity>) -> InFlight {
        a.begin();
        InFlight(a)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.end();
    }
}

impl<S, B, R> tower::Service<http::Request<B>> for ActivityService<S>
where
    S: tower::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
{
    type Response = http::Response<Counted<R>>;
    type Error = S::Error;
    type Future =
        Pin<Box<dyn std::future::Future<Output = Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let guard = peer_of(&request)
            .and_then(|p| self.conns.get(&p))
            .map(InFlight::new);
        let call = self.inner.call(request);
        Box::pin(async move {
            let response = call.await?;
            Ok(response.map(|body| Counted {
                body,
                _in_flight: guard,
            }))
        })
    }
}

pin_project_lite::pin_project! {
    /// A response body that holds its call's place in the count until it ends or is dropped.
    pub struct Counted<B> {
        #[pin]
        body: B,
        _in_flight: Option<InFlight>,
    }
}

impl<B: Body> Body for Counted<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let this = self.project();
        let polled = this.body.poll_frame(cx);
        if let Poll::Ready(None) = polled {
            // Ended: the call no longer counts, even if hyper keeps the body a while.
            this._in_flight.take();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_connection_is_idle_from_its_birth_and_again_when_its_last_call_ends() {
        let conns = Conns::default();
        let peer: SocketAddr = "127.0.0.1:4000".parse().expect("addr");
        let entry = conns.open(peer);
        assert_eq!(entry.activity().in_flight(), 0);
        let born = entry.activity().idle_since();
        let a = conns.get(&peer).expect("registered");
        let first = InFlight::new(a.clone());
        let second = InFlight::new(a.clone());
        assert_eq!(entry.activity().in_flight(), 2);
        drop(first);
        assert_eq!(entry.activity().in_flight(), 1, "one call still runs");
        std::thread::sleep(std::time::Duration::from_millis(5));
        drop(second);
        assert_eq!(entry.activity().in_flight(), 0);
        assert!(entry.activity().idle_since() > born);
        // A newer connection from the same address is not forgotten with the old one.
        let newer = conns.open(peer);
        drop(entry);
        assert_eq!(conns.len(), 1);
        drop(newer);
        assert!(conns.is_empty());
    }
}
