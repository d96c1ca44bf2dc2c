//! [`endpoint`]: one way every Rust program turns an address into a channel's endpoint, plain
//! text or TLS.
//!
//! `https://` means TLS, verified against the system's root certificates or against the CA
//! certificate a caller names; `http://` or a bare `host:port` is plain text. The server's name
//! is always checked against its certificate: a CA file adds trust, it never turns checks off.

use std::path::{Path, PathBuf};
use std::time::Duration;

use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};

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
    /// A CA certificate was given for a plain-text address.
    #[error(
        "a CA certificate was given but {address:?} is not an https:// address (plain text \
         has no certificate to verify)"
    )]
    CaWithoutTls {
        /// The address given.
        address: String,
    },
    /// The CA certificate file cannot be read.
    #[error("cannot read the CA certificate {path}: {why}")]
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
/// `ca_cert` (a PEM file) when given, else against the system's roots.
pub fn endpoint(
    address: &str,
    ca_cert: Option<&Path>,
    connect_timeout: Duration,
) -> Result<Endpoint, EndpointError> {
    let url = url(address);
    let tls = is_tls(&url);
    if ca_cert.is_some() && !tls {
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
    if tls {
        let config = match ca_cert {
            Some(path) => {
                let pem = std::fs::read(path).map_err(|e| EndpointError::CaFile {
                    path: path.to_owned(),
                    why: e.to_string(),
                })?;
                if !pem.windows(27).any(|w| w == b"-----BEGIN CERTIFICATE-----") {
                    return Err(EndpointError::CaFile {
                        path: path.to_owned(),
                        why: "no PEM certificate in it".into(),
                    });
                }
                ClientTlsConfig::new().ca_certificate(Certificate::from_pem(pem))
            }
            None => ClientTlsConfig::new().with_native_roots(),
        };
        endpoint = endpoint
            .tls_config(config)
            .map_err(|e| EndpointError::Tls {
                address: address.to_owned(),
                why: e.to_string(),
            })?;
    }
    Ok(endpoint)
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
        assert!(endpoint("127.0.0.1:1", None, T).is_ok());
    }

    #[test]
    fn a_ca_file_needs_https() {
        let err = endpoint("http://127.0.0.1:1", Some(Path::new("/nonexistent")), T);
        assert!(
            matches!(err, Err(EndpointError::CaWithoutTls { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn a_missing_or_empty_ca_file_is_named() {
        let err = endpoint(
            "https://localhost:1",
            Some(Path::new("/nonexistent/ca.pem")),
            T,
        )
        .expect_err("missing file");
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
        let err = endpoint("https://localhost:1", Some(Path::new("/dev/null")), T)
            .expect_err("empty file");
        assert!(err.to_string().contains("no PEM certificate"), "{err}");
    }

    #[test]
    fn https_without_a_ca_uses_the_system_roots() {
        assert!(endpoint("https://localhost:1", None, T).is_ok());
    }

    #[test]
    fn bad_addresses_are_refused() {
        assert!(matches!(
            endpoint("http://[::1", None, T),
            Err(EndpointError::Address { .. })
        ));
    }
}
