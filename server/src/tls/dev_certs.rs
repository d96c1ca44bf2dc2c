//! Throwaway certificates for tests and local TLS: a CA made on the spot, a server certificate
//! for the names given, and a client certificate, all signed by that CA. Nothing here is meant
//! for a server on the internet: use a certificate from a real CA there (docs/DEPLOY.md).

use std::path::Path;

use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, ExtendedKeyUsagePurpose, IsCa,
    KeyPair, KeyUsagePurpose,
};

/// A CA and the certificates it signed, PEM-encoded.
#[derive(Debug, Clone)]
pub struct DevCerts {
    /// The CA's certificate: what clients verify the server against.
    pub ca: String,
    /// The server's certificate, for the names given.
    pub server_cert: String,
    /// The server's private key.
    pub server_key: String,
    /// A client certificate (common name `client`).
    pub client_cert: String,
    /// The client's private key.
    pub client_key: String,
}

/// The file names [`DevCerts::write`] uses, in the order of the fields.
pub const FILES: [&str; 5] = [
    "ca.pem",
    "server.pem",
    "server.key",
    "client.pem",
    "client.key",
];

impl DevCerts {
    /// A new CA, and certificates for the server `hosts` (DNS names or IP addresses) and one
    /// client.
    pub fn generate(hosts: &[String]) -> Result<DevCerts, rcgen::Error> {
        let mut ca = CertificateParams::new(Vec::<String>::new())?;
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.distinguished_name
            .push(DnType::CommonName, "calabresella throwaway CA");
        ca.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate()?)?;
        let leaf =
            |names: Vec<String>, cn: &str, purpose| -> Result<(String, String), rcgen::Error> {
                let key = KeyPair::generate()?;
                let mut params = CertificateParams::new(names)?;
                params.distinguished_name.push(DnType::CommonName, cn);
                params.extended_key_usages = vec![purpose];
                let cert = params.signed_by(&key, &ca)?;
                Ok((cert.pem(), key.serialize_pem()))
            };
        let (server_cert, server_key) = leaf(
            hosts.to_vec(),
            hosts.first().map_or("localhost", String::as_str),
            ExtendedKeyUsagePurpose::ServerAuth,
        )?;
        let (client_cert, client_key) =
            leaf(Vec::new(), "client", ExtendedKeyUsagePurpose::ClientAuth)?;
        Ok(DevCerts {
            ca: ca.pem(),
            server_cert,
            server_key,
            client_cert,
            client_key,
        })
    }

    /// Writes the five files ([`FILES`]) into `dir`, creating it; the keys readable by their
    /// owner only.
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(dir)?;
        let contents = [
            &self.ca,
            &self.server_cert,
            &self.server_key,
            &self.client_cert,
            &self.client_key,
        ];
        for (name, text) in FILES.iter().zip(contents) {
            let path = dir.join(name);
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create(true).truncate(true);
            // A key is never readable by others, not even for a moment.
            #[cfg(unix)]
            if name.ends_with(".key") {
                use std::os::unix::fs::OpenOptionsExt as _;
                options.mode(0o600);
            }
            use std::io::Write as _;
            options.open(&path)?.write_all(text.as_bytes())?;
            #[cfg(unix)]
            if name.ends_with(".key") {
                // An existing file keeps its mode through `open`: set it.
                use std::os::unix::fs::PermissionsExt as _;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
            }
        }
        Ok(())
    }
}
