//! `calabresella dev-certs`: a throwaway CA and certificates for TLS on this machine.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use calabresella_server::tls::dev_certs::{DevCerts, FILES};

/// Arguments of `dev-certs`.
#[derive(Debug, clap::Args)]
pub struct DevCertsArgs {
    /// The directory to write the files into (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// A name or IP address the server certificate is for (repeatable).
    #[arg(long = "host", default_values = ["localhost", "127.0.0.1", "::1"])]
    hosts: Vec<String>,
    /// Replace files already there.
    #[arg(long)]
    force: bool,
}

/// Runs `dev-certs`.
pub fn run(args: DevCertsArgs) -> Result<ExitCode> {
    if !args.force
        && let Some(there) = FILES.iter().find(|f| args.out.join(f).exists())
    {
        anyhow::bail!(
            "{} already exists: nothing written (pass --force to replace the files)",
            args.out.join(there).display()
        );
    }
    if let Some(bad) = args
        .hosts
        .iter()
        .find(|h| h.is_empty() || h.chars().any(|c| c.is_whitespace() || c.is_control()))
    {
        anyhow::bail!("--host {bad:?} is not a host name or an IP address");
    }
    let certs = DevCerts::generate(&args.hosts).context("cannot make the certificates")?;
    let first = args.hosts.first().map_or("localhost", String::as_str);
    let first = if first.contains(':') {
        format!("[{first}]")
    } else {
        first.to_owned()
    };
    certs
        .write(&args.out)
        .with_context(|| format!("cannot write into {}", args.out.display()))?;
    let dir = args.out.display();
    println!(
        "wrote {dir}/{{{}}} for {}\n\
         serve:   calabresella serve --tls-cert {dir}/server.pem --tls-key {dir}/server.key\n\
         connect: calabresella tables --server https://{first}:50051 --ca-cert {dir}/ca.pem\n\
         These are for tests and local use only: a public server needs a certificate from a \
         real CA (docs/DEPLOY.md).",
        FILES.join(","),
        args.hosts.join(", ")
    );
    Ok(ExitCode::SUCCESS)
}
