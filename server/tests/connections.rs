//! Connections per client: a client that opens connections and leaves them idle fills its own
//! budget, and nobody else's.

mod common;

use std::time::Duration;

use calabresella_proto::v1;
use calabresella_server::connections::ConnectionLimits;
use calabresella_server::{ServeOptions, ServerConfig};
use common::TestServer;
use tokio::io::AsyncReadExt;

/// A TCP connection to `server` from the loopback address `from` (127.0.0.0/8 all reach it).
async fn connect_from(from: &str, server: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(format!("{from}:0").parse().expect("address"))
        .expect("bind");
    socket.connect(server).await.expect("connect")
}

/// Whether the server closed `tcp` at once (it sent nothing and ended the connection).
async fn closed_at_once(tcp: &mut tokio::net::TcpStream) -> bool {
    let mut buf = [0u8; 64];
    matches!(
        tokio::time::timeout(Duration::from_secs(2), tcp.read(&mut buf)).await,
        Ok(Ok(0) | Err(_))
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_fill_their_clients_budget_and_nobody_elses() {
    let options = ServeOptions {
        connections: ConnectionLimits {
            per_client: 4,
            total: 16,
        },
        ..ServeOptions::default()
    };
    let server = TestServer::start_with(ServerConfig::default(), options).await;
    // A hostile client: four idle connections, its whole budget.
    let mut idle = Vec::new();
    for _ in 0..4 {
        idle.push(connect_from("127.0.0.3", server.addr).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut fifth = connect_from("127.0.0.3", server.addr).await;
    assert!(
        closed_at_once(&mut fifth).await,
        "over its budget, a connection is closed at once"
    );
    // Everybody else is served (the test server's own client connected from 127.0.0.1).
    let mut client = server.client.clone();
    client
        .list_tables(v1::ListTablesRequest::default())
        .await
        .expect("another client is served");
    // Once the hostile client lets go, it may connect again.
    drop(idle);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut again = connect_from("127.0.0.3", server.addr).await;
    assert!(
        !closed_at_once(&mut again).await,
        "a freed slot is taken again"
    );

    // The server-wide budget: 16 in all.
    let mut many = Vec::new();
    for i in 0..16 {
        many.push(connect_from(&format!("127.0.1.{}", i + 1), server.addr).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut beyond = connect_from("127.0.2.1", server.addr).await;
    assert!(
        closed_at_once(&mut beyond).await,
        "beyond the server's budget"
    );
}
