//! TLS on the listener: one port serves gRPC, gRPC-web and the web front end over TLS 1.2/1.3
//! (rustls with the ring provider, the same TLS stack tonic's clients use).
//!
//! - The certificate and key are read again on SIGHUP and whenever either file changes (a
//!   renewal by certbot or a secret mount), without dropping a connection; a file that does not
//!   load keeps the previous pair serving and logs why.
//! - Optional client certificates: with a client CA the server verifies a certificate a client
//!   offers (and refuses one it cannot verify); with `require_client_cert` it refuses clients
//!   without one.
//! - A plain-text client gets a clear refusal instead of a silent close: an HTTP/1 request an
//!   HTTP `400` saying TLS is required, a plain-text gRPC client (HTTP/2) the status
//!   `UNAVAILABLE` with the same words for each call.
//! - Handshakes run beside the accept loop with a time limit and a per-address budget, so a
//!   client that opens connections and never completes a handshake delays nobody else.

pub mod dev_certs;

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, SystemTime};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::crypto::{CryptoProvider, ring};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};
use tokio_rustls::rustls::server::{ClientHello, ResolvesServerCert, WebPkiClientVerifier};
use tokio_rustls::rustls::sign::CertifiedKey;
use tokio_rustls::rustls::{RootCertStore, ServerConfig};
use tokio_rustls::server::TlsStream;
use tokio_stream::{Stream, StreamExt as _};

use crate::connections::Counted;

/// What the server needs to speak TLS.
#[derive(Debug, Clone)]
pub struct TlsOptions {
    /// The certificate chain, PEM, the server's own certificate first.
    pub cert: PathBuf,
    /// The private key, PEM (PKCS#8, PKCS#1 or SEC1).
    pub key: PathBuf,
    /// CA certificates (PEM) that client certificates are verified against.
    pub client_ca: Option<PathBuf>,
    /// Refuse clients that present no certificate (needs `client_ca`).
    pub require_client_cert: bool,
    /// How often the certificate files are checked for a change.
    pub poll: Duration,
    /// How long a client has to complete its handshake.
    pub handshake_timeout: Duration,
    /// Handshakes in progress allowed to one client address.
    pub handshakes_per_client: usize,
}

impl TlsOptions {
    /// TLS from a certificate chain and its key, with the defaults for the rest.
    pub fn new(cert: impl Into<PathBuf>, key: impl Into<PathBuf>) -> Self {
        TlsOptions {
            cert: cert.into(),
            key: key.into(),
            client_ca: None,
            require_client_cert: false,
            poll: Duration::from_secs(10),
            handshake_timeout: Duration::from_secs(10),
            handshakes_per_client: 64,
        }
    }
}

/// Why TLS cannot start, or a certificate cannot be reloaded.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file cannot be read or holds nothing usable.
    #[error("{what} {path}: {why}")]
    File {
        /// Which file it is (certificate, key, client CA).
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// rustls refused the settings (a key that does not match its certificate, say).
    #[error("TLS settings: {0}")]
    Settings(String),
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

/// Reads the certificate chain and key and checks that they belong together.
fn load_pair(cert: &Path, key: &Path) -> Result<CertifiedKey, TlsError> {
    let file = |what, path: &Path, why: String| TlsError::File {
        what,
        path: path.to_owned(),
        why,
    };
    let chain = CertificateDer::pem_file_iter(cert)
        .map_err(|e| file("certificate", cert, e.to_string()))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| file("certificate", cert, e.to_string()))?;
    if chain.is_empty() {
        return Err(file("certificate", cert, "no PEM certificate in it".into()));
    }
    let secret = PrivateKeyDer::from_pem_file(key).map_err(|e| file("key", key, e.to_string()))?;
    CertifiedKey::from_der(chain, secret, &provider())
        .map_err(|e| TlsError::Settings(format!("{} with {}: {e}", cert.display(), key.display())))
}

/// When a file last changed, as far as a poll can tell (a renewal replaces the file or the
/// symlink to it; either changes the modification time or the length).
fn stamp(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

/// The server's certificate, swapped in place when its files change.
#[derive(Debug)]
pub struct Certificates {
    cert: PathBuf,
    key: PathBuf,
    current: RwLock<Arc<CertifiedKey>>,
    stamps: Mutex<[Option<(SystemTime, u64)>; 2]>,
}

impl Certificates {
    /// Loads the pair, or explains why it cannot.
    pub fn load(cert: &Path, key: &Path) -> Result<Self, TlsError> {
        let pair = load_pair(cert, key)?;
        Ok(Certificates {
            cert: cert.to_owned(),
            key: key.to_owned(),
            current: RwLock::new(Arc::new(pair)),
            stamps: Mutex::new([stamp(cert), stamp(key)]),
        })
    }

    /// Reads the files again and serves the new pair from the next handshake on. A pair that
    /// does not load leaves the current one serving.
    pub fn reload(&self) -> Result<(), TlsError> {
        // Recorded first: a pair that fails is tried again when a file changes again (or on
        // SIGHUP), not on every poll.
        *self.stamps.lock().unwrap_or_else(|p| p.into_inner()) =
            [stamp(&self.cert), stamp(&self.key)];
        let pair = load_pair(&self.cert, &self.key)?;
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Arc::new(pair);
        Ok(())
    }

    /// Whether either file changed since the last load.
    fn changed(&self) -> bool {
        let now = [stamp(&self.cert), stamp(&self.key)];
        *self.stamps.lock().unwrap_or_else(|p| p.into_inner()) != now
    }

    /// The certificate served now (its chain, the server's own first).
    pub fn chain(&self) -> Vec<CertificateDer<'static>> {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .cert
            .clone()
    }
}

impl ResolvesServerCert for Certificates {
    fn resolve(&self, _hello: ClientHello<'_>) -> Option<Arc<CertifiedKey>> {
        Some(
            self.current
                .read()
                .unwrap_or_else(|p| p.into_inner())
                .clone(),
        )
    }
}

/// A listener's TLS: its settings and the certificate that reloads.
#[derive(Clone)]
pub struct Tls {
    options: TlsOptions,
    certificates: Arc<Certificates>,
    acceptor: TlsAcceptor,
}

impl std::fmt::Debug for Tls {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tls")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl Tls {
    /// Loads every file `options` names; any that cannot be used stops the start.
    pub fn new(options: TlsOptions) -> Result<Self, TlsError> {
        let certificates = Arc::new(Certificates::load(&options.cert, &options.key)?);
        let builder = ServerConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .map_err(|e| TlsError::Settings(e.to_string()))?;
        let builder = match &options.client_ca {
            Some(path) => {
                let mut roots = RootCertStore::empty();
                let file = |why: String| TlsError::File {
                    what: "client CA",
                    path: path.clone(),
                    why,
                };
                for cert in CertificateDer::pem_file_iter(path).map_err(|e| file(e.to_string()))? {
                    roots
                        .add(cert.map_err(|e| file(e.to_string()))?)
                        .map_err(|e| file(e.to_string()))?;
                }
                if roots.is_empty() {
                    return Err(file("no PEM certificate in it".into()));
                }
                let verifier =
                    WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider());
                let verifier = if options.require_client_cert {
                    verifier
                } else {
                    verifier.allow_unauthenticated()
                };
                builder.with_client_cert_verifier(
                    verifier
                        .build()
                        .map_err(|e| TlsError::Settings(e.to_string()))?,
                )
            }
            None if options.require_client_cert => {
                return Err(TlsError::Settings(
                    "client certificates are required but no client CA is given to verify them"
                        .into(),
                ));
            }
            None => builder.with_no_client_auth(),
        };
        let mut config = builder.with_cert_resolver(certificates.clone());
        // gRPC clients (grpc-go among them) insist on ALPN h2; browsers and gRPC-web over
        // HTTP/1.1 offer http/1.1.
        config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
        Ok(Tls {
            acceptor: TlsAcceptor::from(Arc::new(config)),
            certificates,
            options,
        })
    }

    /// The certificate that reloads.
    pub fn certificates(&self) -> &Arc<Certificates> {
        &self.certificates
    }

    /// Reloads the certificate on SIGHUP and when its files change, until dropped.
    pub async fn watch(self) {
        #[cfg(unix)]
        let mut hangup =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup()).ok();
        let mut tick = tokio::time::interval(self.options.poll);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            #[cfg(unix)]
            let signalled = async {
                match hangup.as_mut() {
                    Some(s) => {
                        s.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            #[cfg(not(unix))]
            let signalled = std::future::pending::<()>();
            let why = tokio::select! {
                () = signalled => "SIGHUP",
                _ = tick.tick() => {
                    if !self.certificates.changed() {
                        continue;
                    }
                    "the files changed"
                }
            };
            match self.certificates.reload() {
                Ok(()) => tracing::info!(
                    cert = %self.options.cert.display(),
                    because = why,
                    "TLS certificate reloaded"
                ),
                Err(e) => tracing::error!(
                    error = %e,
                    because = why,
                    "TLS certificate not reloaded; the previous one is still served"
                ),
            }
        }
    }

    /// The connections of `tcp` after their handshakes, in the order handshakes complete.
    /// Each handshake runs in its own task; one that fails is logged at debug level and
    /// dropped. The stream ends when its reader is dropped.
    pub fn incoming<S>(&self, tcp: S) -> impl Stream<Item = io::Result<TlsStream<Counted>>> + use<S>
    where
        S: Stream<Item = Counted> + Send + 'static,
    {
        let (tx, rx) = mpsc::channel(64);
        let acceptor = self.acceptor.clone();
        let timeout = self.options.handshake_timeout;
        let budget = Budget::new(self.options.handshakes_per_client);
        tokio::spawn(async move {
            let mut tcp = std::pin::pin!(tcp);
            loop {
                let next = tokio::select! {
                    next = tcp.next() => next,
                    () = tx.closed() => break,
                };
                let Some(stream) = next else { break };
                let Some(slot) = budget.take(&stream) else {
                    // Over its budget of handshakes in progress: closed at once.
                    crate::metrics::tls_refused("budget");
                    continue;
                };
                let (acceptor, tx) = (acceptor.clone(), tx.clone());
                tokio::spawn(async move {
                    let _slot = slot;
                    if let Some(tls) = handshake(acceptor, stream, timeout).await {
                        let _ = tx.send(Ok(tls)).await;
                    }
                });
            }
        });
        tokio_stream::wrappers::ReceiverStream::new(rx)
    }
}

/// One connection's handshake: a plain-text client is told TLS is required.
async fn handshake(
    acceptor: TlsAcceptor,
    stream: Counted,
    timeout: Duration,
) -> Option<TlsStream<Counted>> {
    let peer = stream.peer_addr().ok();
    let mut first = [0u8; 4];
    let n = match tokio::time::timeout(timeout, stream.peek(&mut first)).await {
        Ok(Ok(n)) => n,
        Ok(Err(_)) => return None,
        Err(_) => {
            crate::metrics::tls_refused("timeout");
            return None;
        }
    };
    if n == 0 {
        return None; // Connected and closed (a port check): nothing to refuse or count.
    }
    // A TLS record starts with content type 22 (handshake).
    if first[0] != 0x16 {
        tracing::debug!(?peer, "plain-text connection to the TLS listener refused");
        crate::metrics::tls_refused("plain_text");
        refuse_plain_text(stream, &first[..n]).await;
        return None;
    }
    match tokio::time::timeout(timeout, acceptor.accept(stream)).await {
        Ok(Ok(tls)) => Some(tls),
        Ok(Err(e)) => {
            tracing::debug!(?peer, error = %e, "TLS handshake failed");
            crate::metrics::tls_refused("handshake");
            None
        }
        Err(_) => {
            crate::metrics::tls_refused("timeout");
            None
        }
    }
}

/// What a plain-text client is told.
pub const PLAIN_TEXT_REFUSAL: &str = "this calabresella server speaks TLS only: connect with https:// (and --ca-cert for a \
     private CA)";

async fn refuse_plain_text(stream: Counted, first: &[u8]) {
    if first.starts_with(b"PRI ") {
        // HTTP/2 with prior knowledge: a plain-text gRPC client. Every call it makes is
        // answered with UNAVAILABLE and the reason, as a gRPC status it can show (a GOAWAY's
        // reason is often lost to "connection closed"); the connection then ends.
        let service = hyper::service::service_fn(|_req| async {
            let mut r = http::Response::new(http_body_util::Empty::<bytes::Bytes>::new());
            let h = r.headers_mut();
            h.insert(
                "content-type",
                http::HeaderValue::from_static("application/grpc"),
            );
            h.insert("grpc-status", http::HeaderValue::from_static("14"));
            h.insert(
                "grpc-message",
                http::HeaderValue::from_static(PLAIN_TEXT_REFUSAL),
            );
            Ok::<_, std::convert::Infallible>(r)
        });
        let conn = hyper::server::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new())
            .timer(hyper_util::rt::TokioTimer::new())
            .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
        let _ = tokio::time::timeout(Duration::from_secs(5), conn).await;
        return;
    }
    let mut stream = stream;
    let answer = format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain; charset=utf-8\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n{PLAIN_TEXT_REFUSAL}\n",
        PLAIN_TEXT_REFUSAL.len() + 1
    );
    let _ = stream.write_all(answer.as_bytes()).await;
    // Closing at once can make the client report a closed connection before it reads the
    // reason: let it read, and close first.
    let mut sink = [0u8; 1024];
    let drain = async { while matches!(stream.read(&mut sink).await, Ok(n) if n > 0) {} };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
    let _ = stream.shutdown().await;
}

/// Handshakes in progress per client address.
#[derive(Debug, Clone)]
struct Budget {
    most: usize,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One handshake's place in its address's budget, given back when dropped.
struct Slot {
    ip: IpAddr,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl Budget {
    fn new(most: usize) -> Self {
        Budget {
            most: most.max(1),
            open: Arc::default(),
        }
    }

    fn take(&self, stream: &Counted) -> Option<Slot> {
        let ip = crate::connections::client_of(stream.peer_addr().ok()?.ip());
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let n = open.entry(ip).or_default();
        if *n >= self.most {
            tracing::debug!(%ip, "too many TLS handshakes in progress from one address");
            return None;
        }
        *n += 1;
        Some(Slot {
            ip,
            open: self.open.clone(),
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}
