//! Registered players over real gRPC: a seat taken with an API key carries the registered
//! name; guests cannot take a registered name or a look-alike; bad keys are refused, counted
//! per address and then blocked for a while; a server without guests needs a key.

mod common;

use calabresella_proto::v1;
use calabresella_server::ServerConfig;
use calabresella_server::store::StoreError;
use calabresella_server::store::players;
use common::{TestServer, create, options, reason, register, table_of};
use tonic::Code;

/// A join of `table` (seat 0) as `name`, with `authorization` when given.
fn join(
    table: &str,
    name: &str,
    authorization: Option<&str>,
) -> tonic::Request<v1::JoinTableRequest> {
    let mut r = tonic::Request::new(v1::JoinTableRequest {
        table_id: table.to_owned(),
        seat: Some(0),
        player_name: name.to_owned(),
        ..Default::default()
    });
    if let Some(a) = authorization {
        r.metadata_mut()
            .insert("authorization", a.parse().expect("ascii"));
    }
    r
}

fn refused(
    r: Result<tonic::Response<v1::JoinTableResponse>, tonic::Status>,
    code: Code,
    why: &str,
) {
    let e = r.expect_err(why);
    assert_eq!((e.code(), reason(&e).as_str()), (code, why), "{e:?}");
}

async fn open_table(server: &TestServer) -> String {
    let mut c = server.client.clone();
    create(
        &mut c,
        options(v1::Game::TressetteInDue, 1),
        vec![v1::SeatKind::Open, v1::SeatKind::BotHeuristic],
        1,
        None,
    )
    .await
    .table_id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_seats_its_player_and_guests_cannot_take_the_name() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let key = register(&server, "Ann Bot-Maker").await;
    let id = open_table(&server).await;
    // Guests: the name and its look-alikes are the registered player's.
    for name in ["Ann Bot-Maker", "ann  bot-maker", "\u{0410}nn Bot-Maker"] {
        refused(
            c.join_table(join(&id, name, None)).await,
            Code::InvalidArgument,
            "BAD_NAME",
        );
    }
    // Bad keys: unknown, malformed, another scheme; nothing changes.
    let unknown = format!("cbk_{}", "0".repeat(64));
    for auth in [
        format!("Bearer {unknown}"),
        "Bearer nonsense".into(),
        format!("Basic {key}"),
    ] {
        refused(
            c.join_table(join(&id, "", Some(&auth))).await,
            Code::Unauthenticated,
            "BAD_KEY",
        );
    }
    // The right key with someone else's name.
    refused(
        c.join_table(join(&id, "Bob", Some(&format!("Bearer {key}"))))
            .await,
        Code::InvalidArgument,
        "BAD_NAME",
    );
    assert!(
        !table_of(&mut c, &id).await.seats[0].taken,
        "nothing changed"
    );
    // The key alone: the seat carries the registered name.
    let joined = c
        .join_table(join(&id, "", Some(&format!("bearer {key}"))))
        .await
        .expect("join with the key")
        .into_inner();
    assert_eq!(
        joined.table.expect("table").seats[0].player_name,
        "Ann Bot-Maker"
    );
    // A disabled key is refused.
    server
        .store
        .read(|c| {
            players::set_disabled(c, "Ann Bot-Maker", true)
                .map_err(|e| StoreError::Other(e.to_string()))
        })
        .await
        .expect("disable");
    let id = open_table(&server).await;
    refused(
        c.join_table(join(&id, "", Some(&format!("Bearer {key}"))))
            .await,
        Code::Unauthenticated,
        "BAD_KEY",
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_keys_are_limited_per_address_and_guests_can_be_turned_away() {
    let config = ServerConfig {
        guests: false,
        max_bad_keys_per_client_per_minute: 3,
        ..ServerConfig::default()
    };
    let server = TestServer::start(config).await;
    let mut c = server.client.clone();
    let key = register(&server, "Bea").await;
    let id = open_table(&server).await;
    refused(
        c.join_table(join(&id, "guest-ish", None)).await,
        Code::Unauthenticated,
        "KEY_REQUIRED",
    );
    let wrong = format!("Bearer cbk_{}", "a".repeat(64));
    for _ in 0..3 {
        refused(
            c.join_table(join(&id, "", Some(&wrong))).await,
            Code::Unauthenticated,
            "BAD_KEY",
        );
    }
    // Further bad keys from the address are refused as blocked; a malformed header is not
    // counted, and a valid key still sits (many clients may share one address).
    refused(
        c.join_table(join(&id, "", Some(&wrong))).await,
        Code::ResourceExhausted,
        "TOO_MANY_BAD_KEYS",
    );
    refused(
        c.join_table(join(&id, "", Some("Bearer"))).await,
        Code::Unauthenticated,
        "BAD_KEY",
    );
    let joined = c
        .join_table(join(&id, "Bea", Some(&format!("Bearer {key}"))))
        .await
        .expect("a valid key from a blocked address")
        .into_inner();
    assert_eq!(joined.table.expect("table").seats[0].player_name, "Bea");
    // A disabled player's name (disabled by any spelling) stays protected from guests.
    let open = TestServer::start(ServerConfig::default()).await;
    let key = register(&open, "Cy").await;
    open.store
        .read(|c| {
            players::set_disabled(c, "CY", true).map_err(|e| StoreError::Other(e.to_string()))
        })
        .await
        .expect("disable");
    let id = open_table(&open).await;
    let mut c = open.client.clone();
    refused(
        c.join_table(join(&id, "cy", None)).await,
        Code::InvalidArgument,
        "BAD_NAME",
    );
    refused(
        c.join_table(join(&id, "", Some(&format!("Bearer {key}"))))
            .await,
        Code::Unauthenticated,
        "BAD_KEY",
    );
}
