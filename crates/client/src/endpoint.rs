//! [`endpoint`]: one way every Rust program turns an address into a channel's endpoint, plain
//! text or TLS.
//!
//! `https://` means TLS, verified against the system's root certificates or against the CA
//! certificate a caller names; `http://` or a bare `host:port` is plain text. The server's name
//! is always checked against its certificate: a CA file adds trust, it never turns checks off.
//! A client certificate and key ([`TlsFiles`]) answer a server that asks for one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tonic::transport::{Certificate, ClientTlsConfig, Endpoint, Identity};

/// The files of a TLS connection, each optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsFiles {
    /// A CA certificate (PEM) to verify the server against, instead of the system's roots.
    pub ca_cert: Option<PathBuf>,
    /// This client's certificate (PEM), for a server that asks for one; needs `client_key`.
    pub client_cert: Option<PathBuf>,
    /// The key of `client_cert` (PEM).
    pub client_key: Option<PathBuf>,
}

impl TlsFiles {
    /// Only a CA certificate.
    pub fn ca(ca_cert: Option<&Path>) -> Self {
        TlsFiles {
            ca_cert: ca_cert.map(Path::to_owned),
            ..TlsFiles::default()
        }
    }

    fn any(&self) -> bool {
        self.ca_cert.is_some() || self.client_cert.is_some() || self.client_key.is_some()
    }
}

/// Why an address and its TLS settings cannot make an endpoint.
#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    /// The address does not parse as a URL.
    #[error("bad server address {address:?}: {why}")]
    Address {
        /// The address given.
        address: String,
        /// What is wrong with it.
        why: String,
    },
    /// A CA or client certificate was given for a plain-text address.
    #[error(
        "a certificate was given but {address:?} is not an https:// address (plain text \
         has no certificates)"
    )]
    CaWithoutTls {
        /// The address given.
        address: String,
    },
    /// A client certificate without its key, or a key without its certificate.
    #[error("a client certificate needs its key, and a key its certificate: give both")]
    HalfIdentity,
    /// A certificate or key file cannot be read.
    #[error("cannot read {path}: {why}")]
    CaFile {
        /// The file named.
        path: PathBuf,
        /// Why it cannot be read.
        why: String,
    },
    /// The TLS settings were refused.
    #[error("TLS settings for {address:?}: {why}")]
    Tls {
        /// The address given.
        address: String,
        /// What the TLS layer said.
        why: String,
    },
}

/// The URL of `address`: `host:port` becomes `http://host:port`; a URL is kept as it is.
pub fn url(address: &str) -> String {
    if address.contains("://") {
        address.to_owned()
    } else {
        format!("http://{address}")
    }
}

/// Whether `address` asks for TLS.
pub fn is_tls(address: &str) -> bool {
    address
        .get(..8)
        .is_some_and(|s| s.eq_ignore_ascii_case("https://"))
}

/// An endpoint for `address` with the transport settings every client here uses (no delay,
/// keepalive pings while idle, a connect timeout). An `https://` address is verified against
/// `tls.ca_cert` (a PEM file) when given, else against the system's roots, and presents
/// `tls.client_cert` when given.
pub fn endpoint(
    address: &str,
    tls: &TlsFiles,
    connect_timeout: Duration,
) -> Result<Endpoint, EndpointError> {
    let url = url(address);
    let secure = is_tls(&url);
    if tls.any() && !secure {
        return Err(EndpointError::CaWithoutTls {
            address: address.to_owned(),
        });
    }
    let mut endpoint = Endpoint::from_shared(url)
        .map_err(|e| EndpointError::Address {
            address: address.to_owned(),
            why: e.to_string(),
        })?
        .connect_timeout(connect_timeout)
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(20))
        .keep_alive_while_idle(true);
    if secure {
        let mut config = match &tls.ca_cert {
            Some(path) => ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem(
                path,
                "-----BEGIN CERTIFICATE-----",
            )?)),
            None => ClientTlsConfig::new().with_native_roots(),
        };
        match (&tls.client_cert, &tls.client_key) {
            (Some(cert), Some(key)) => {
                let cert = pem(cert, "-----BEGIN CERTIFICATE-----")?;
                let key = pem(key, "PRIVATE KEY-----")?;
                config = config.identity(Identity::from_pem(cert, key));
            }
            (None, None) => {}
            _ => return Err(EndpointError::HalfIdentity),
        }
        endpoint = endpoint
            .tls_config(config)
            .map_err(|e| EndpointError::Tls {
                address: address.to_owned(),
                why: e.to_string(),
            })?;
    }
    Ok(endpoint)
}

/// An error and its sources on one line, each said once (a transport error's own text
/// often repeats its source's: "invalid peer certificate: UnknownIssuer" twice).
pub fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let text = s.to_string();
        if !out.contains(&text) {
            out = format!("{out}: {text}");
        }
        source = s.source();
    }
    out
}

/// A PEM file's bytes, checked for `marker`.
fn pem(path: &Path, marker: &str) -> Result<Vec<u8>, EndpointError> {
    let bytes = std::fs::read(path).map_err(|e| EndpointError::CaFile {
        path: path.to_owned(),
        why: e.to_string(),
    })?;
    if !bytes.windows(marker.len()).any(|w| w == marker.as_bytes()) {
        return Err(EndpointError::CaFile {
            path: path.to_owned(),
            why: format!("no PEM block ({marker}) in it"),
        });
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Duration = Duration::from_secs(1);

    #[test]
    fn bare_addresses_are_plain_text() {
        assert_eq!(url("127.0.0.1:1"), "http://127.0.0.1:1");
        assert!(!is_tls(&url("127.0.0.1:1")));
        assert!(is_tls("HTTPS://example.org"));
        assert!(endpoint("127.0.0.1:1", &TlsFiles::default(), T).is_ok());
    }

    #[test]
    fn a_ca_file_needs_https() {
        let err = endpoint(
            "http://127.0.0.1:1",
            &TlsFiles::ca(Some(Path::new("/x"))),
            T,
        );
        assert!(
            matches!(err, Err(EndpointError::CaWithoutTls { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn a_missing_or_empty_ca_file_is_named() {
        let missing = TlsFiles::ca(Some(Path::new("/nonexistent/ca.pem")));
        let err = endpoint("https://localhost:1", &missing, T).expect_err("missing file");
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
        let empty = TlsFiles::ca(Some(Path::new("/dev/null")));
        let err = endpoint("https://localhost:1", &empty, T).expect_err("empty file");
        assert!(err.to_string().contains("no PEM block"), "{err}");
        let half = TlsFiles {
            client_cert: Some("/x.pem".into()),
            ..TlsFiles::default()
        };
        let err = endpoint("https://localhost:1", &half, T).expect_err("half identity");
        assert!(matches!(err, EndpointError::HalfIdentity), "{err}");
    }

    #[test]
    fn https_without_a_ca_uses_the_system_roots() {
        assert!(endpoint("https://localhost:1", &TlsFiles::default(), T).is_ok());
    }

    #[test]
    fn bad_addresses_are_refused() {
        assert!(matches!(
            endpoint("http://[::1", &TlsFiles::default(), T),
            Err(EndpointError::Address { .. })
        ));
    }
}
