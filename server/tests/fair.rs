//! Committed deals over real gRPC: the commitment is published at creation and shown
//! everywhere a table is, contributions are taken and shown once the match starts, and the
//! finished record reveals a secret from which `fair::verify` re-derives every hand. Seeded
//! tables are marked and keep strangers out.

mod common;

use std::time::Duration;

use calabresella_client::RemoteSeat;
use calabresella_engine::fair;
use calabresella_engine::record::Record;
use calabresella_proto::v1;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use calabresella_server::ServerConfig;
use common::*;
use sha2::{Digest, Sha256};
use tonic::Code;
use tonic::transport::{Channel, Endpoint};

/// A client whose connections come from `local` (another loopback address than 127.0.0.1).
async fn client_from(
    local: &'static str,
    server: std::net::SocketAddr,
) -> TableServiceClient<Channel> {
    let channel = Endpoint::from_shared(format!("http://{server}"))
        .expect("uri")
        .connect_with_connector(tower::service_fn(move |_| async move {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(format!("{local}:0").parse().expect("address"))?;
            let stream = socket.connect(server).await?;
            Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
        }))
        .await
        .expect("connect");
    TableServiceClient::new(channel)
}

async fn committed_table(
    c: &mut TableServiceClient<Channel>,
    seats: Vec<v1::SeatKind>,
) -> v1::Table {
    c.create_table(v1::CreateTableRequest {
        name: "fair".into(),
        options: Some(options(v1::Game::Calabresella, 5)),
        seats: seats.into_iter().map(|s| s as i32).collect(),
        ..Default::default()
    })
    .await
    .expect("create")
    .into_inner()
    .table
    .expect("table")
}

fn is_hex64(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[tokio::test]
async fn a_committed_table_publishes_its_commitment_and_its_record_verifies() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let t = committed_table(
        &mut c,
        vec![
            v1::SeatKind::Open,
            v1::SeatKind::Open,
            v1::SeatKind::BotHeuristic,
        ],
    )
    .await;
    assert_eq!(t.deal_scheme, fair::SCHEME);
    assert!(!t.seeded);
    assert!(is_hex64(&t.commitment), "{:?}", t.commitment);
    // Every view of the table shows the same commitment.
    assert_eq!(table_of(&mut c, &t.table_id).await.commitment, t.commitment);
    let listed = c
        .list_tables(v1::ListTablesRequest::default())
        .await
        .expect("list")
        .into_inner();
    let mine = listed
        .tables
        .iter()
        .find(|x| x.table_id == t.table_id)
        .expect("listed");
    assert_eq!(mine.commitment, t.commitment);
    // Two tables never share a commitment.
    let other = committed_table(&mut c, vec![]).await;
    assert_ne!(other.commitment, t.commitment);

    // A contribution over 64 bytes is refused and takes no seat.
    let long = c
        .join_table(v1::JoinTableRequest {
            table_id: t.table_id.clone(),
            seat: Some(0),
            player_name: "ann".into(),
            entropy: vec![1; 65],
            ..Default::default()
        })
        .await
        .expect_err("too long");
    assert_eq!(long.code(), Code::InvalidArgument);
    assert_eq!(reason(&long), "BAD_ENTROPY");
    assert!(!table_of(&mut c, &t.table_id).await.seats[0].taken);

    // Ann gives hers; it is not shown while the table waits (only that she gave one).
    let ann_entropy = b"ann's own bytes".to_vec();
    let joined = c
        .join_table(v1::JoinTableRequest {
            table_id: t.table_id.clone(),
            seat: Some(0),
            player_name: "ann".into(),
            entropy: ann_entropy.clone(),
            ..Default::default()
        })
        .await
        .expect("join")
        .into_inner();
    let waiting = joined.table.expect("table");
    assert_eq!(waiting.commitment, t.commitment);
    assert!(waiting.seats[0].contributed && waiting.seats[0].entropy.is_empty());
    let record: serde_json::Value =
        serde_json::from_str(&fetch_record(&c, t.table_id.clone()).await.record_json)
            .expect("json");
    assert_eq!(record["meta"]["deals"]["commitment"], t.commitment.as_str());
    assert!(record["meta"]["deals"]["secret"].is_null());
    assert!(record["meta"]["deals"]["contributions"].is_null());

    // Bob joins through the client library, which contributes 32 random bytes.
    let mut bob = RemoteSeat::join(c.clone(), &t.table_id, Some(1), "bob")
        .await
        .expect("join");
    let started = table_of(&mut c, &t.table_id).await;
    assert_eq!(started.state, v1::TableState::Playing as i32);
    assert_eq!(started.seats[0].entropy, ann_entropy);
    assert_eq!(started.seats[1].entropy.len(), 32);
    assert!(started.seats[2].entropy.is_empty() && !started.seats[2].contributed);

    // A seat's stream opens with a snapshot of the table: the commitment is there too.
    let mut stream = c
        .observe(v1::ObserveRequest {
            table_id: t.table_id.clone(),
            seat_token: joined.seat_token.clone(),
            ..Default::default()
        })
        .await
        .expect("observe")
        .into_inner();
    let first = stream.message().await.expect("update").expect("one");
    let Some(v1::update::Kind::Snapshot(snap)) = first.update.and_then(|u| u.kind) else {
        panic!("the stream opens with a snapshot");
    };
    assert_eq!(snap.table.expect("table").commitment, t.commitment);
    drop(stream);

    // Play both seats to the end.
    let mut ann = RemoteSeat {
        client: c.clone(),
        table_id: t.table_id.clone(),
        seat: joined.seat,
        token: joined.seat_token.clone(),
        last_seq: 0,
        epoch: String::new(),
        act_times: None,
        reconnect_for: Duration::from_secs(5),
    };
    let (a, b) = tokio::join!(
        ann.play(random_choice(1), |_| {}),
        bob.play(random_choice(2), |_| {})
    );
    a.expect("ann plays");
    b.expect("bob plays");

    let got = fetch_record(&c, t.table_id.clone()).await;
    assert!(got.match_over);
    let json: serde_json::Value = serde_json::from_str(&got.record_json).expect("json");
    let deals = &json["meta"]["deals"];
    assert_eq!(deals["scheme"], fair::SCHEME);
    assert_eq!(deals["context"], t.table_id.as_str());
    assert_eq!(deals["contributions"][0], fair::hex(&ann_entropy).as_str());
    let secret = fair::unhex(deals["secret"].as_str().expect("revealed")).expect("hex");
    // The commitment published at creation is SHA-256(tag || secret).
    let mut h = Sha256::new();
    h.update(fair::SCHEME.as_bytes());
    h.update(&secret);
    assert_eq!(fair::hex(&h.finalize()), t.commitment);
    let record = Record::parse(&got.record_json).expect("parses");
    let v = fair::verify(&record).expect("verifies");
    assert_eq!(v.hands, record.hands.len());
    assert!(v.hands >= 1);
    // The deals depend on each joiner's bytes: with another contribution in ann's place or
    // bob's, the same secret derives other deals and the record no longer verifies.
    for seat in [0, 1] {
        let mut other = json.clone();
        other["meta"]["deals"]["contributions"][seat] = serde_json::json!("00");
        other["meta"]["deals"]["first_dealer"] = serde_json::json!("given");
        let other = Record::parse(&other.to_string()).expect("parses");
        assert!(
            matches!(
                fair::verify(&other),
                Err(fair::VerifyError::Deal { hand: 0, .. })
            ),
            "seat {seat}'s contribution counts"
        );
    }
    server.shut_down().await;
}

#[tokio::test]
async fn two_tables_of_the_same_settings_deal_differently() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let mut first_deals = Vec::new();
    for _ in 0..2 {
        // The same game, options, bots and first dealer; no seed: committed deals.
        let t = c
            .create_table(v1::CreateTableRequest {
                options: Some(options(v1::Game::Calabresella, 1)),
                seats: vec![v1::SeatKind::BotRandom as i32; 3],
                first_dealer: Some(0),
                ..Default::default()
            })
            .await
            .expect("create")
            .into_inner()
            .table
            .expect("table");
        let record = loop {
            let r = fetch_record(&c, t.table_id.clone()).await;
            if r.hands > 0 {
                break Record::parse(&r.record_json).expect("parses");
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        first_deals.push(record.hands[0].deal.clone());
    }
    assert_ne!(first_deals[0], first_deals[1]);
    server.shut_down().await;
}

#[tokio::test]
async fn a_seeded_table_is_marked_and_seats_only_its_creator() {
    let server = TestServer::start(ServerConfig::default()).await;
    let mut c = server.client.clone();
    let t = create(
        &mut c,
        options(v1::Game::Calabresella, 5),
        vec![
            v1::SeatKind::Open,
            v1::SeatKind::BotRandom,
            v1::SeatKind::BotRandom,
        ],
        42,
        None,
    )
    .await;
    assert!(t.seeded);
    assert_eq!(t.deal_scheme, fair::SEEDED);
    assert!(t.commitment.is_empty());
    // A stranger, from another address, may not sit at deals the creator chose.
    let mut stranger = client_from("127.0.0.2", server.addr).await;
    let refused = stranger
        .join_table(v1::JoinTableRequest {
            table_id: t.table_id.clone(),
            seat: Some(0),
            player_name: "stranger".into(),
            entropy: vec![9; 32],
            ..Default::default()
        })
        .await
        .expect_err("refused");
    assert_eq!(refused.code(), Code::FailedPrecondition);
    assert_eq!(reason(&refused), "SEEDED_TABLE");
    assert!(!table_of(&mut c, &t.table_id).await.seats[0].taken);
    // ... but he may sit at a committed table, and the creator at his own.
    let fair_table = committed_table(&mut c, vec![]).await;
    assert!(
        RemoteSeat::join(stranger.clone(), &fair_table.table_id, None, "stranger")
            .await
            .is_ok()
    );
    let mut me = RemoteSeat::join(c.clone(), &t.table_id, Some(0), "creator")
        .await
        .expect("the creator sits");
    me.play(random_choice(3), |_| {}).await.expect("plays");
    let got = fetch_record(&c, t.table_id.clone()).await;
    let record = Record::parse(&got.record_json).expect("parses");
    let v = fair::verify(&record).expect("verifies");
    assert_eq!(v.dealing, fair::Dealing::Seed(42));
    server.shut_down().await;
}

#[tokio::test]
async fn behind_a_proxy_a_seeded_table_seats_only_the_holder_of_its_creator_key() {
    // Behind a proxy every call comes from one address: only the key tells the creator.
    let server = TestServer::start(ServerConfig {
        trust_client_addresses: false,
        ..ServerConfig::default()
    })
    .await;
    let mut c = server.client.clone();
    let seeded = |seats: Vec<v1::SeatKind>| v1::CreateTableRequest {
        options: Some(options(v1::Game::Calabresella, 5)),
        seats: seats.into_iter().map(|s| s as i32).collect(),
        seed: Some(9),
        ..Default::default()
    };
    let created = c
        .create_table(seeded(vec![
            v1::SeatKind::Open,
            v1::SeatKind::Open,
            v1::SeatKind::BotRandom,
        ]))
        .await
        .expect("create")
        .into_inner();
    let t = created.table.expect("table");
    let key = created.creator_key;
    assert_eq!(key.len(), 32, "128 bits in hex: {key:?}");
    let join = |seat: u32, creator_key: &str| v1::JoinTableRequest {
        table_id: t.table_id.clone(),
        seat: Some(seat),
        player_name: format!("p{seat}"),
        creator_key: creator_key.to_owned(),
        ..Default::default()
    };
    // From the creator's own address but without the key, or with another table's key: no.
    for bad in [
        "",
        "00000000000000000000000000000000",
        "not hex",
        &key[..31],
    ] {
        let refused = c.join_table(join(0, bad)).await.expect_err("refused");
        assert_eq!(refused.code(), Code::FailedPrecondition, "{bad:?}");
        assert_eq!(reason(&refused), "SEEDED_TABLE", "{bad:?}");
        assert!(
            refused.message().contains("creator key"),
            "{}",
            refused.message()
        );
        assert!(!table_of(&mut c, &t.table_id).await.seats[0].taken);
    }
    // The key takes the seats, from any address.
    let mut elsewhere = client_from("127.0.0.3", server.addr).await;
    elsewhere
        .join_table(join(0, &key))
        .await
        .expect("the key's holder sits");
    c.join_table(join(1, &key)).await.expect("and again");
    // No key where none is needed: committed tables, and seeded tables of bots only.
    let fair_table = c
        .create_table(v1::CreateTableRequest {
            seed: None,
            ..seeded(vec![v1::SeatKind::Open; 3])
        })
        .await
        .expect("create")
        .into_inner();
    assert!(fair_table.creator_key.is_empty());
    let bots = c
        .create_table(seeded(vec![v1::SeatKind::BotRandom; 3]))
        .await
        .expect("create")
        .into_inner();
    assert!(bots.creator_key.is_empty());
    server.shut_down().await;
}

#[tokio::test]
async fn a_committed_table_restored_after_a_restart_deals_the_same_cards() {
    let dir = tempfile::tempdir().expect("dir");
    let store = calabresella_server::store::StoreOptions {
        location: calabresella_server::store::Location::Sqlite(dir.path().join("t.db")),
        ..Default::default()
    };
    let server = TestServer::start_on(store.clone()).await;
    let mut c = server.client.clone();
    let t = committed_table(
        &mut c,
        vec![
            v1::SeatKind::Open,
            v1::SeatKind::BotRandom,
            v1::SeatKind::BotRandom,
        ],
    )
    .await;
    let seat = RemoteSeat::join(c.clone(), &t.table_id, Some(0), "ann")
        .await
        .expect("join");
    let token = seat.token.clone();
    let before = c
        .get_observation(v1::GetObservationRequest {
            table_id: t.table_id.clone(),
            seat_token: token.clone(),
        })
        .await
        .expect("observation")
        .into_inner();
    server.shut_down().await;
    let server = TestServer::start_on(store).await;
    let mut c = server.client.clone();
    let after = c
        .get_observation(v1::GetObservationRequest {
            table_id: t.table_id.clone(),
            seat_token: token.clone(),
        })
        .await
        .expect("observation")
        .into_inner();
    // Bots may have moved on after the restart; the deal itself must be the same.
    let dealt = |o: &v1::GetObservationResponse| {
        o.observation.as_ref().expect("observation").events[0]
            .cards
            .clone()
    };
    assert_eq!(
        dealt(&before),
        dealt(&after),
        "the same hand after the restart"
    );
    let restored = table_of(&mut c, &t.table_id).await;
    assert_eq!(restored.commitment, t.commitment);
    assert_eq!(restored.seats[0].entropy.len(), 32);
    server.shut_down().await;
}
