//! TLS to PostgreSQL as `sslmode` asks (libpq's meaning), against the test server of
//! `scripts/postgres.sh` with TLS turned on by this test: `verify-ca` checks the chain,
//! `verify-full` the name too, a wrong CA is refused, `require` encrypts, `disable` does not,
//! and the store opens over TLS.

use std::os::unix::fs::MetadataExt as _;
use std::path::Path;
use std::time::Duration;

use calabresella_server::store::pg_tls;
use calabresella_server::store::{Location, Store, StoreOptions};
use calabresella_server::tls::dev_certs::DevCerts;

/// The test server's URL, or `None` (skipped) when none is configured.
fn admin_url() -> Option<String> {
    match std::env::var("CALABRESELLA_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var("CALABRESELLA_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "CALABRESELLA_REQUIRE_POSTGRES=1 but CALABRESELLA_TEST_DATABASE_URL is unset"
            );
            eprintln!("(PostgreSQL not configured: TLS to PostgreSQL not tested)");
            None
        }
    }
}

/// Turns TLS on in the test server with a certificate for `db.invalid` (not the address the
/// tests connect to) signed by `certs`' CA. The files live in the data directory, so the
/// cluster still starts next time.
fn enable_tls(admin: &str, certs: &DevCerts) {
    let mut c = postgres::Client::connect(admin, postgres::NoTls).expect("PostgreSQL");
    let data: String = c
        .query_one("SHOW data_directory", &[])
        .expect("data directory")
        .get(0);
    let data = Path::new(&data);
    let owner = std::fs::metadata(data).expect("data directory").uid();
    let (cert, key) = (
        data.join("calabresella-test-server.crt"),
        data.join("calabresella-test-server.key"),
    );
    std::fs::write(&cert, &certs.server_cert).expect("write certificate");
    std::fs::write(&key, &certs.server_key).expect("write key");
    for f in [&cert, &key] {
        std::os::unix::fs::chown(f, Some(owner), None).expect("chown to the cluster's owner");
    }
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    // One statement per call: ALTER SYSTEM refuses to run inside a multi-statement batch.
    for sql in [
        format!("ALTER SYSTEM SET ssl_cert_file = '{}'", cert.display()),
        format!("ALTER SYSTEM SET ssl_key_file = '{}'", key.display()),
        "ALTER SYSTEM SET ssl = on".to_owned(),
        "SELECT pg_reload_conf()".to_owned(),
    ] {
        c.batch_execute(&sql).expect("turn TLS on");
    }
    for _ in 0..50 {
        let on: String = postgres::Client::connect(admin, postgres::NoTls)
            .expect("PostgreSQL")
            .query_one("SHOW ssl", &[])
            .expect("ssl")
            .get(0);
        if on == "on" {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("PostgreSQL did not turn TLS on");
}

fn with(admin: &str, query: &str) -> String {
    let sep = if admin.contains('?') { '&' } else { '?' };
    format!("{admin}{sep}{query}")
}

fn encrypted(c: &mut postgres::Client) -> bool {
    c.query_one(
        "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
        &[],
    )
    .expect("pg_stat_ssl")
    .get(0)
}

#[test]
fn postgres_connections_use_tls_as_sslmode_asks() {
    let Some(admin) = admin_url() else { return };
    let certs = DevCerts::generate(&["db.invalid".to_owned()]).expect("certificates");
    enable_tls(&admin, &certs);
    let dir = tempfile::tempdir().expect("tempdir");
    let ca = dir.path().join("ca.pem");
    std::fs::write(&ca, &certs.ca).expect("write CA");
    let other = DevCerts::generate(&["db.invalid".to_owned()]).expect("certificates");
    let wrong = dir.path().join("wrong.pem");
    std::fs::write(&wrong, &other.ca).expect("write CA");
    let ca = ca.display().to_string();
    let wrong = wrong.display().to_string();

    // verify-ca: the chain is checked, the name (127.0.0.1 here) is not.
    let mut c = pg_tls::connect(&with(
        &admin,
        &format!("sslmode=verify-ca&sslrootcert={ca}"),
    ))
    .expect("verify-ca with the right CA");
    assert!(encrypted(&mut c));

    // verify-full: the name must match too.
    let err = pg_tls::connect(&with(
        &admin,
        &format!("sslmode=verify-full&sslrootcert={ca}"),
    ))
    .err()
    .expect("the certificate is for db.invalid, not 127.0.0.1");
    assert!(err.to_string().contains("not valid for name"), "{err}");

    // A CA that did not sign the server's certificate.
    for mode in ["verify-ca", "verify-full", "require"] {
        let err = pg_tls::connect(&with(
            &admin,
            &format!("sslmode={mode}&sslrootcert={wrong}"),
        ))
        .err()
        .unwrap_or_else(|| panic!("{mode} with a wrong CA is refused"));
        assert!(
            err.to_string().contains("invalid peer certificate"),
            "{mode}: {err}"
        );
    }

    // require without a root: encrypted, not verified (libpq's meaning); disable: plain.
    let mut c = pg_tls::connect(&with(&admin, "sslmode=require")).expect("require");
    assert!(encrypted(&mut c));
    let mut c = pg_tls::connect(&with(&admin, "sslmode=disable")).expect("disable");
    assert!(!encrypted(&mut c));

    // The store itself, end to end (its migrations and a read) over verify-ca.
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let opened = rt
        .block_on(Store::open(StoreOptions {
            location: Location::Postgres(with(
                &admin,
                &format!("sslmode=verify-ca&sslrootcert={ca}"),
            )),
            instance: "tls-test".into(),
            ..StoreOptions::default()
        }))
        .expect("the store opens over TLS");
    assert_eq!(opened.store.kind(), "postgres");
}
