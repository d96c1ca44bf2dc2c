//! TLS on the listener, through real connections: a match played over TLS, a wrong CA and a
//! plain-text client refused with a clear reason, client certificates required, and a
//! certificate replaced on disk served from the next connection on.

mod common;

use std::path::Path;
use std::time::Duration;

use calabresella_client::RemoteSeat;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use calabresella_server::store::StoreOptions;
use calabresella_server::tls::dev_certs::DevCerts;
use calabresella_server::tls::{PLAIN_TEXT_REFUSAL, Tls, TlsOptions};
use calabresella_server::{ServeOptions, ServerConfig, serve};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::oneshot;
use tonic::transport::{Certificate, Channel, ClientTlsConfig, Endpoint, Identity};

fn hosts() -> Vec<String> {
    vec!["localhost".into(), "127.0.0.1".into()]
}

/// A TLS server on 127.0.0.1:0 with `certs` written into `dir`; returns its port and the
/// handle that stops it.
async fn start(
    dir: &Path,
    certs: &DevCerts,
    tune: impl FnOnce(&mut TlsOptions),
) -> (u16, oneshot::Sender<()>) {
    certs.write(dir).expect("write certificates");
    let mut options = TlsOptions::new(dir.join("server.pem"), dir.join("server.key"));
    options.poll = Duration::from_millis(100);
    tune(&mut options);
    let tls = Tls::new(options).expect("TLS settings");
    let opened = calabresella_server::store::Store::open(StoreOptions::default())
        .await
        .expect("store");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let (stop, stopped) = oneshot::channel::<()>();
    let options = ServeOptions {
        tls: Some(tls),
        ..ServeOptions::default()
    };
    tokio::spawn(serve(
        listener,
        ServerConfig::default(),
        options,
        opened,
        async {
            let _ = stopped.await;
        },
    ));
    (port, stop)
}

fn endpoint(port: u16, host: &str, ca: &str) -> Endpoint {
    Endpoint::from_shared(format!("https://{host}:{port}"))
        .expect("uri")
        .connect_timeout(Duration::from_secs(5))
        .tls_config(ClientTlsConfig::new().ca_certificate(Certificate::from_pem(ca)))
        .expect("tls config")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_is_played_over_tls_and_the_wrong_ca_or_plain_text_is_refused_clearly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let certs = DevCerts::generate(&hosts()).expect("certificates");
    let (port, _stop) = start(dir.path(), &certs, |_| {}).await;

    // The client helper every Rust program uses, verified against the CA file, by IP and by
    // name.
    for host in ["127.0.0.1", "localhost"] {
        let channel = calabresella_client::endpoint(
            &format!("https://{host}:{port}"),
            &calabresella_client::TlsFiles::ca(Some(&dir.path().join("ca.pem"))),
            Duration::from_secs(5),
        )
        .expect("endpoint")
        .connect()
        .await
        .expect("TLS connection verified against the CA");
        let mut client = TableServiceClient::new(channel);
        let table = common::create(
            &mut client,
            common::options(v1::Game::Calabresella, 11),
            vec![
                v1::SeatKind::Open,
                v1::SeatKind::BotHeuristic,
                v1::SeatKind::BotRandom,
            ],
            7,
            None,
        )
        .await;
        let mut seat = RemoteSeat::join(client.clone(), &table.table_id, Some(0), "tls")
            .await
            .expect("join over TLS");
        let ended = seat
            .play(|t, _| t.legal_actions[0].clone(), |_| {})
            .await
            .expect("the match is played to its end over TLS");
        assert_eq!(ended.reason, v1::EndReason::Completed as i32);
        assert!(ended.result.expect("result").hands > 0);
    }

    // A client that trusts another CA is refused during the handshake.
    let other = DevCerts::generate(&hosts()).expect("certificates");
    let err = endpoint(port, "localhost", &other.ca)
        .connect()
        .await
        .expect_err("a server signed by an unknown CA is refused");
    // (The throwaway CAs share one name, so rustls finds an issuer and its signature fails.)
    assert!(
        calabresella_client::error_chain(&err).contains("invalid peer certificate"),
        "{}",
        calabresella_client::error_chain(&err)
    );

    // A name the certificate does not carry is refused too.
    let err = endpoint(port, "127.0.0.1", &certs.ca)
        .tls_config(
            ClientTlsConfig::new()
                .ca_certificate(Certificate::from_pem(&certs.ca))
                .domain_name("elsewhere.invalid"),
        )
        .expect("tls config")
        .connect()
        .await
        .expect_err("a name not in the certificate is refused");
    assert!(
        calabresella_client::error_chain(&err).contains("not valid for name"),
        "{}",
        calabresella_client::error_chain(&err)
    );

    // A plain-text gRPC client reads why it was refused.
    let plain = Channel::from_shared(format!("http://127.0.0.1:{port}"))
        .expect("uri")
        .connect()
        .await;
    let said = match plain {
        Err(e) => calabresella_client::error_chain(&e),
        Ok(channel) => {
            let status = TableServiceClient::new(channel)
                .list_tables(v1::ListTablesRequest::default())
                .await
                .expect_err("plain text is refused");
            calabresella_client::error_chain(&status)
        }
    };
    assert!(said.contains(PLAIN_TEXT_REFUSAL), "{said}");

    // So does a browser or curl over plain HTTP/1.1.
    let mut tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("connect");
    tcp.write_all(b"GET / HTTP/1.1\r\nhost: localhost\r\n\r\n")
        .await
        .expect("write");
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.expect("read");
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains(PLAIN_TEXT_REFUSAL), "{answer}");
}

/// One HTTP/1.1 exchange over TLS (ALPN `http/1.1`, as a browser without HTTP/2 would):
/// the whole answer, lower-cased.
async fn https1(port: u16, ca: &str, request: &[u8]) -> String {
    use tokio_rustls::rustls;
    use tokio_rustls::rustls::pki_types::pem::PemObject as _;
    let mut roots = rustls::RootCertStore::empty();
    let ca = rustls::pki_types::CertificateDer::pem_slice_iter(ca.as_bytes())
        .next()
        .expect("a certificate")
        .expect("PEM");
    roots.add(ca).expect("root");
    let mut config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .expect("versions")
    .with_root_certificates(roots)
    .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    let tcp = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .expect("tcp");
    let name = rustls::pki_types::ServerName::try_from("localhost").expect("name");
    let mut tls = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config))
        .connect(name, tcp)
        .await
        .expect("handshake");
    tls.write_all(request).await.expect("write");
    let mut answer = Vec::new();
    let _ = tls.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer).to_lowercase()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_web_and_the_web_front_end_are_served_over_tls_too() {
    let dir = tempfile::tempdir().expect("tempdir");
    let certs = DevCerts::generate(&hosts()).expect("certificates");
    let (port, _stop) = start(dir.path(), &certs, |_| {}).await;
    // gRPC-web, as a browser sends it.
    let body = [0u8, 0, 0, 0, 0];
    let mut request = format!(
        "POST /calabresella.v1.TableService/ListTables HTTP/1.1\r\nhost: localhost\r\n\
         content-type: application/grpc-web+proto\r\nx-grpc-web: 1\r\n\
         content-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    request.extend(body);
    let answer = https1(port, &certs.ca, &request).await;
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    assert!(answer.contains("grpc-status:0"), "{answer}");
    // The web front end's page (the app, or the page saying how to build it).
    let answer = https1(
        port,
        &certs.ca,
        b"GET / HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(answer.starts_with("http/1.1 200"), "{answer}");
    assert!(answer.contains("<html"), "{answer}");
    assert!(answer.contains("content-security-policy"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replaced_certificate_is_served_from_the_next_connection_on() {
    let dir = tempfile::tempdir().expect("tempdir");
    let first = DevCerts::generate(&hosts()).expect("certificates");
    let (port, _stop) = start(dir.path(), &first, |_| {}).await;
    let health = |ca: String| async move {
        let channel = endpoint(port, "localhost", &ca).connect().await?;
        let r = tonic_health::pb::health_client::HealthClient::new(channel)
            .check(tonic_health::pb::HealthCheckRequest::default())
            .await;
        Ok::<_, tonic::transport::Error>(r.is_ok())
    };
    assert!(health(first.ca.clone()).await.expect("first CA"));

    // A half-written pair (a key that is not a key) keeps the old one serving.
    std::fs::write(dir.path().join("server.key"), "not a key").expect("write");
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(
        health(first.ca.clone())
            .await
            .expect("still the first certificate")
    );

    // A renewal by another CA: new connections get the new certificate.
    let second = DevCerts::generate(&hosts()).expect("certificates");
    second.write(dir.path()).expect("write");
    let mut served = false;
    for _ in 0..50 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        if let Ok(true) = health(second.ca.clone()).await {
            served = true;
            break;
        }
    }
    assert!(served, "the new certificate was not picked up");
    assert!(
        health(first.ca.clone()).await.is_err(),
        "the old certificate is no longer served"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_requires_client_certificates_refuses_clients_without_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let certs = DevCerts::generate(&hosts()).expect("certificates");
    let client_ca = dir.path().join("ca.pem");
    let (port, _stop) = start(dir.path(), &certs, |o| {
        o.client_ca = Some(client_ca);
        o.require_client_cert = true;
    })
    .await;
    let call = |endpoint: Endpoint| async move {
        let channel = endpoint
            .connect()
            .await
            .map_err(|e| calabresella_client::error_chain(&e))?;
        TableServiceClient::new(channel)
            .list_tables(v1::ListTablesRequest::default())
            .await
            .map(|_| ())
            .map_err(|s| calabresella_client::error_chain(&s))
    };
    let without = call(endpoint(port, "localhost", &certs.ca)).await;
    assert!(
        without.is_err(),
        "a client without a certificate is refused"
    );

    // The client helper every Rust program uses (the CLI's --client-cert, Python's
    // client_cert=).
    let with = calabresella_client::endpoint(
        &format!("https://localhost:{port}"),
        &calabresella_client::TlsFiles {
            ca_cert: Some(dir.path().join("ca.pem")),
            client_cert: Some(dir.path().join("client.pem")),
            client_key: Some(dir.path().join("client.key")),
        },
        Duration::from_secs(5),
    )
    .expect("endpoint");
    call(with)
        .await
        .expect("a client with a certificate of the CA is served");

    // A certificate from another CA is refused.
    let stranger = DevCerts::generate(&hosts()).expect("certificates");
    let forged = endpoint(port, "localhost", &certs.ca)
        .tls_config(
            ClientTlsConfig::new()
                .ca_certificate(Certificate::from_pem(&certs.ca))
                .identity(Identity::from_pem(
                    &stranger.client_cert,
                    &stranger.client_key,
                )),
        )
        .expect("tls config");
    assert!(
        call(forged).await.is_err(),
        "a stranger's certificate is refused"
    );
}

#[test]
fn unusable_files_stop_the_start_with_their_names() {
    let dir = tempfile::tempdir().expect("tempdir");
    let certs = DevCerts::generate(&hosts()).expect("certificates");
    certs.write(dir.path()).expect("write");
    let p = |n: &str| dir.path().join(n);
    let err = Tls::new(TlsOptions::new(p("missing.pem"), p("server.key"))).expect_err("missing");
    assert!(err.to_string().contains("missing.pem"), "{err}");
    let err = Tls::new(TlsOptions::new(p("server.key"), p("server.key"))).expect_err("no cert");
    assert!(err.to_string().contains("no PEM certificate"), "{err}");
    // The client's key with the server's certificate: a pair that does not belong together.
    let err = Tls::new(TlsOptions::new(p("server.pem"), p("client.key"))).expect_err("mismatch");
    assert!(err.to_string().contains("TLS settings"), "{err}");
    let mut o = TlsOptions::new(p("server.pem"), p("server.key"));
    o.require_client_cert = true;
    let err = Tls::new(o).expect_err("required without a CA");
    assert!(err.to_string().contains("no client CA"), "{err}");
}
