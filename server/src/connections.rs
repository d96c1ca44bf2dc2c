//! Connections per client and in all: every accepted connection holds a slot of its client's
//! budget and of the server's until it closes, plain text and TLS alike. A client that opens
//! connections and leaves them idle (before or after a TLS handshake) fills its own budget,
//! not the server's file descriptors.
//!
//! A client is its address, and for IPv6 its /64 network (one host usually holds a whole /64,
//! so counting single addresses would give it billions of budgets). Accept errors (out of file
//! descriptors, say) pause the accept loop for a moment instead of spinning on them.

use std::collections::HashMap;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::mpsc;
use tokio_stream::{Stream, StreamExt as _};
use tonic::transport::server::{Connected, TcpConnectInfo};

/// How many connections may be open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// Per client (address, or IPv6 /64); 0: no limit.
    pub per_client: usize,
    /// On the whole server; 0: no limit.
    pub total: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            per_client: 256,
            total: 8192,
        }
    }
}

/// The client a peer address counts as: the address, an IPv4-mapped IPv6 address as IPv4,
/// any other IPv6 address as its /64 network.
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

#[derive(Debug, Default)]
struct Open {
    total: usize,
    per_client: HashMap<IpAddr, usize>,
}

/// An accepted connection and its place in the budgets, given back when it closes.
#[derive(Debug)]
pub struct Counted {
    inner: TcpStream,
    _slot: Slot,
}

#[derive(Debug)]
struct Slot {
    client: IpAddr,
    open: Arc<Mutex<Open>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(n) = open.per_client.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                open.per_client.remove(&self.client);
            }
        }
    }
}

impl Counted {
    /// The peer's address.
    pub fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.inner.peer_addr()
    }

    /// Reads without consuming (to tell a TLS client from a plain-text one).
    pub async fn peek(&self, buf: &mut [u8]) -> io::Result<usize> {
        self.inner.peek(buf).await
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

impl Connected for Counted {
    type ConnectInfo = TcpConnectInfo;

    fn connect_info(&self) -> TcpConnectInfo {
        self.inner.connect_info()
    }
}

/// The connections of `tcp` within `limits`: one over a budget is closed at once (and
/// counted in the metrics); an accept error pauses accepting for 100 ms and is not passed
/// on. The stream ends when its reader is dropped.
pub fn limit<S>(tcp: S, limits: ConnectionLimits) -> impl Stream<Item = Counted>
where
    S: Stream<Item = io::Result<TcpStream>> + Send + 'static,
{
    let (tx, rx) = mpsc::channel(64);
    let open = Arc::new(Mutex::new(Open::default()));
    tokio::spawn(async move {
        let mut tcp = std::pin::pin!(tcp);
        loop {
            let next = tokio::select! {
                next = tcp.next() => next,
                () = tx.closed() => break,
            };
            let stream = match next {
                None => break,
                Some(Ok(stream)) => stream,
                Some(Err(e)) => {
                    // Out of file descriptors, typically: retrying at once would spin.
                    tracing::warn!(error = %e, "accepting a connection failed; pausing 100 ms");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let Ok(peer) = stream.peer_addr() else {
                continue;
            };
            let client = client_of(peer.ip());
            let slot = {
                let mut o = open.lock().unwrap_or_else(|p| p.into_inner());
                let mine = o.per_client.get(&client).copied().unwrap_or(0);
                if (limits.total > 0 && o.total >= limits.total)
                    || (limits.per_client > 0 && mine >= limits.per_client)
                {
                    None
                } else {
                    o.total += 1;
                    *o.per_client.entry(client).or_default() += 1;
                    Some(Slot {
                        client,
                        open: open.clone(),
                    })
                }
            };
            let Some(slot) = slot else {
                tracing::debug!(%client, "connection refused: over its budget of connections");
                crate::metrics::refused_connection();
                continue;
            };
            let counted = Counted {
                inner: stream,
                _slot: slot,
            };
            if tx.send(counted).await.is_err() {
                break;
            }
        }
    });
    tokio_stream::wrappers::ReceiverStream::new(rx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_network_and_a_mapped_address_is_ipv4() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().expect("ip");
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().expect("ip");
        let c: IpAddr = "2001:db8:1:3::1".parse().expect("ip");
        assert_eq!(client_of(a), client_of(b));
        assert_ne!(client_of(a), client_of(c));
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().expect("ip");
        assert_eq!(client_of(mapped), "10.0.0.1".parse::<IpAddr>().expect("ip"));
        let v4: IpAddr = "10.0.0.1".parse().expect("ip");
        assert_eq!(client_of(v4), v4);
    }
}
