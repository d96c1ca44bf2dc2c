//! TLS to PostgreSQL with libpq's meaning of `sslmode` (rustls, through
//! `tokio-postgres-rustls`).
//!
//! The PostgreSQL driver knows `disable`, `prefer` and `require` only, and checks no
//! certificate; libpq's users also write `verify-ca` and `verify-full`, and `sslrootcert`. The
//! URL is read here first, and the certificate check chosen as libpq does:
//!
//! | `sslmode` | encrypted | certificate checked |
//! |---|---|---|
//! | `disable` | no | - |
//! | `prefer` (the default) | when the server offers TLS | no |
//! | `require` | always | no (libpq checks the chain when `sslrootcert` is given; so does this) |
//! | `verify-ca` | always | the chain, against `sslrootcert` |
//! | `verify-full` | always | the chain and the host name |
//!
//! `sslrootcert` names a PEM file; without it (or with `sslrootcert=system`) the system's root
//! certificates are used.

use std::sync::Arc;

use postgres::Client;
use tokio_postgres_rustls::MakeRustlsConnect;
use tokio_rustls::rustls::client::WebPkiServerVerifier;
use tokio_rustls::rustls::client::danger::{
    HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier,
};
use tokio_rustls::rustls::crypto::{CryptoProvider, ring};
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use tokio_rustls::rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, Error, RootCertStore, SignatureScheme,
};

use super::StoreError;

/// How the server's certificate is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Check {
    /// Encrypted, nothing verified (libpq's `prefer` and `require`).
    None,
    /// The chain, not the name (`verify-ca`).
    Chain,
    /// The chain and the name (`verify-full`).
    Full,
}

/// A connection URL split into what the driver reads and what is checked here.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Target {
    /// The URL for the driver: `verify-*` becomes `require`, `sslrootcert` is removed.
    url: String,
    check: Check,
    root: Option<String>,
}

fn invalid(why: String) -> StoreError {
    StoreError::Invalid(why)
}

/// Reads `sslmode` and `sslrootcert` from a `postgres://` URL or a `key=value` string.
fn target(url: &str) -> Result<Target, StoreError> {
    let (mut mode, mut root) = (None::<String>, None::<String>);
    let mut take = |key: &str, value: &str| -> bool {
        match key {
            "sslmode" => {
                mode = Some(value.to_owned());
                true
            }
            "sslrootcert" => {
                root = Some(value.to_owned());
                true
            }
            _ => false,
        }
    };
    let mut kept = Vec::new();
    let rebuilt = if let Some((base, query)) = url.split_once('?') {
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            if !take(k, &percent_decode(v)) {
                kept.push(pair.to_owned());
            }
        }
        (base, '&')
    } else if !url.contains("://") {
        for pair in url.split_whitespace() {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            if !take(k, v) {
                kept.push(pair.to_owned());
            }
        }
        ("", ' ')
    } else {
        (url, '&')
    };
    let (check, driver_mode) = match mode.as_deref() {
        None => (Check::None, None),
        Some("disable") => (Check::None, Some("disable")),
        Some("allow" | "prefer") => (Check::None, Some("prefer")),
        Some("require") if root.is_some() => (Check::Chain, Some("require")),
        Some("require") => (Check::None, Some("require")),
        Some("verify-ca") => (Check::Chain, Some("require")),
        Some("verify-full") => (Check::Full, Some("require")),
        Some(other) => {
            return Err(invalid(format!(
                "sslmode={other} is not one of disable, allow, prefer, require, verify-ca, \
                 verify-full"
            )));
        }
    };
    if let Some(m) = driver_mode {
        kept.push(format!("sslmode={m}"));
    }
    let (base, sep) = rebuilt;
    let url = match (base, sep) {
        ("", _) => kept.join(" "),
        (base, _) if kept.is_empty() => base.to_owned(),
        (base, _) => format!("{base}?{}", kept.join("&")),
    };
    Ok(Target { url, check, root })
}

/// `%XX` escapes in a query value (a file path may carry them).
fn percent_decode(v: &str) -> String {
    let bytes = v.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(b) = v
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

fn roots(root: Option<&str>) -> Result<RootCertStore, StoreError> {
    let mut store = RootCertStore::empty();
    match root {
        Some(path) if path != "system" => {
            let certs = CertificateDer::pem_file_iter(path)
                .map_err(|e| invalid(format!("sslrootcert {path}: {e}")))?;
            for c in certs {
                let c = c.map_err(|e| invalid(format!("sslrootcert {path}: {e}")))?;
                store
                    .add(c)
                    .map_err(|e| invalid(format!("sslrootcert {path}: {e}")))?;
            }
            if store.is_empty() {
                return Err(invalid(format!(
                    "sslrootcert {path}: no PEM certificate in it"
                )));
            }
        }
        _ => {
            let found = rustls_native_certs::load_native_certs();
            store.add_parsable_certificates(found.certs);
            if store.is_empty() {
                return Err(invalid(
                    "no system root certificates to verify PostgreSQL with: give sslrootcert"
                        .into(),
                ));
            }
        }
    }
    Ok(store)
}

/// The TLS connector for a check.
fn connector(check: Check, root: Option<&str>) -> Result<MakeRustlsConnect, StoreError> {
    let builder = ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| invalid(e.to_string()))?;
    let chain = match check {
        Check::None => None,
        Check::Chain | Check::Full => Some(
            WebPkiServerVerifier::builder_with_provider(Arc::new(roots(root)?), provider())
                .build()
                .map_err(|e| invalid(e.to_string()))?,
        ),
    };
    let config = match (check, chain) {
        (Check::Full, Some(verifier)) => builder.with_webpki_verifier(verifier),
        (_, chain) => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Partial {
                chain,
                provider: provider(),
            })),
    };
    Ok(MakeRustlsConnect::new(config.with_no_client_auth()))
}

/// Connects to PostgreSQL at `url`, with TLS as its `sslmode` asks.
pub fn connect(url: &str) -> Result<Client, StoreError> {
    let t = target(url)?;
    let tls = connector(t.check, t.root.as_deref())?;
    Client::connect(&t.url, tls).map_err(|e| {
        StoreError::Other(format!(
            "cannot connect to PostgreSQL: {}",
            calabresella_client::error_chain(&e)
        ))
    })
}

/// The checks libpq makes short of `verify-full`: with `chain`, the chain but not the name
/// (`verify-ca`); without, no certificate check at all (`prefer`, `require`). Either way the
/// handshake signatures are verified: the server proves it holds the key it shows.
#[derive(Debug)]
struct Partial {
    chain: Option<Arc<WebPkiServerVerifier>>,
    provider: Arc<CryptoProvider>,
}

impl ServerCertVerifier for Partial {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp, now) {
            Err(Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        tokio_rustls::rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        tokio_rustls::rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sslmode_is_read_as_libpq_reads_it() {
        let t = target("postgres://u:p@h:5/db").expect("plain");
        assert_eq!(
            (t.url.as_str(), t.check),
            ("postgres://u:p@h:5/db", Check::None)
        );
        let t = target("postgres://h/db?sslmode=verify-full&application_name=x").expect("full");
        assert_eq!(t.check, Check::Full);
        assert_eq!(t.url, "postgres://h/db?application_name=x&sslmode=require");
        let t =
            target("postgres://h/db?sslmode=verify-ca&sslrootcert=%2Ftmp%2Fca.pem").expect("ca");
        assert_eq!(
            (t.check, t.root.as_deref()),
            (Check::Chain, Some("/tmp/ca.pem"))
        );
        assert_eq!(t.url, "postgres://h/db?sslmode=require");
        let t = target("postgres://h/db?sslmode=require&sslrootcert=/ca.pem").expect("require");
        assert_eq!(
            t.check,
            Check::Chain,
            "libpq verifies the chain when a root is given"
        );
        let t = target("postgres://h/db?sslmode=require").expect("require");
        assert_eq!(t.check, Check::None);
        let t = target("host=h dbname=d sslmode=verify-full sslrootcert=/ca.pem").expect("kv");
        assert_eq!(
            (t.url.as_str(), t.check),
            ("host=h dbname=d sslmode=require", Check::Full)
        );
        assert!(target("postgres://h/db?sslmode=sometimes").is_err());
    }

    #[test]
    fn a_missing_root_file_is_named() {
        let Err(err) = connector(Check::Full, Some("/nonexistent/ca.pem")) else {
            panic!("a missing root file is refused");
        };
        assert!(err.to_string().contains("/nonexistent/ca.pem"), "{err}");
    }
}
