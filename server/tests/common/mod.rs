//! Helpers for the service tests: an in-process server on 127.0.0.1:0 and table recipes.
#![allow(dead_code)]

use std::net::SocketAddr;

use calabresella_client::RemoteSeat;
use calabresella_engine::rng::GameRng;
use calabresella_proto::v1::table_service_client::TableServiceClient;
use calabresella_proto::{convert, v1};
use calabresella_server::store::{Location, Store, StoreOptions};
use calabresella_server::{ServeOptions, ServerConfig, serve};
use tokio::sync::oneshot;
use tonic::transport::Channel;

/// A server running in this process; dropping it shuts the server down.
pub struct TestServer {
    pub addr: SocketAddr,
    pub client: TableServiceClient<Channel>,
    stop: Option<oneshot::Sender<()>>,
    pub task: tokio::task::JoinHandle<Result<(), tonic::transport::Error>>,
    /// The server's store (to make it refuse writes, say).
    pub store: Store,
}

impl TestServer {
    pub async fn start(config: ServerConfig) -> TestServer {
        TestServer::start_with(config, ServeOptions::default()).await
    }

    pub async fn start_with(config: ServerConfig, options: ServeOptions) -> TestServer {
        TestServer::start_full(config, options, StoreOptions::default()).await
    }

    /// A server on the store `store` (its unfinished tables are restored).
    pub async fn start_on(store: StoreOptions) -> TestServer {
        TestServer::start_full(ServerConfig::default(), ServeOptions::default(), store).await
    }

    pub async fn start_full(
        config: ServerConfig,
        options: ServeOptions,
        store: StoreOptions,
    ) -> TestServer {
        // A store just let go by a stopped server in this process may take a moment to free.
        let mut tries = 0;
        let opened = loop {
            match Store::open(store.clone()).await {
                Err(calabresella_server::store::StoreError::Locked(_)) if tries < 50 => {
                    tries += 1;
                    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                }
                other => break other.expect("store"),
            }
        };
        let store_handle = opened.store.clone();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(serve(listener, config, options, opened, async {
            let _ = stopped.await;
        }));
        let channel = Channel::from_shared(format!("http://{addr}"))
            .expect("uri")
            .connect()
            .await
            .expect("connect");
        TestServer {
            addr,
            client: TableServiceClient::new(channel),
            stop: Some(stop),
            task,
            store: store_handle,
        }
    }

    /// Stops the server (as on SIGTERM) and waits until it has let go of its store.
    pub async fn shut_down(mut self) {
        self.stop();
        let task = std::mem::replace(&mut self.task, tokio::spawn(async { Ok(()) }));
        let _ = tokio::time::timeout(std::time::Duration::from_secs(10), task).await;
    }

    /// Asks the server to stop (as on SIGTERM).
    pub fn stop(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Game options for `game` with a short match: a low target, or (the calling games, which
/// play a fixed number of hands) two hands.
pub fn options(game: v1::Game, target: u32) -> v1::GameOptions {
    let name = convert::game_name(game as i32).expect("a registered game");
    let target = target.to_string();
    let rules = calabresella_engine::game::Rules::parse(name, [("target", target.as_str())])
        .or_else(|_| calabresella_engine::game::Rules::parse(name, [("hands", "2")]))
        .expect("every game takes a target or a number of hands");
    convert::rules(&rules)
}

/// Creates a table; every seat open unless `seats` says otherwise.
pub async fn create(
    client: &mut TableServiceClient<Channel>,
    options: v1::GameOptions,
    seats: Vec<v1::SeatKind>,
    seed: u64,
    clock: Option<v1::Clock>,
) -> v1::Table {
    client
        .create_table(v1::CreateTableRequest {
            name: "test".into(),
            options: Some(options),
            seats: seats.into_iter().map(|s| s as i32).collect(),
            seed: Some(seed),
            clock,
            ..Default::default()
        })
        .await
        .expect("create table")
        .into_inner()
        .table
        .expect("table")
}

/// A table's public state.
pub async fn table_of(
    client: &mut TableServiceClient<Channel>,
    id: impl Into<String>,
) -> v1::Table {
    client
        .get_table(v1::GetTableRequest {
            table_id: id.into(),
        })
        .await
        .expect("get table")
        .into_inner()
        .table
        .expect("table")
}

/// A table's record as the service gives it.
pub async fn fetch_record(
    client: &TableServiceClient<Channel>,
    id: impl Into<String>,
) -> v1::GetRecordResponse {
    client
        .clone()
        .get_record(v1::GetRecordRequest {
            table_id: id.into(),
        })
        .await
        .expect("record")
        .into_inner()
}

/// Joins every open seat of `table`.
pub async fn join_all(client: &TableServiceClient<Channel>, table: &v1::Table) -> Vec<RemoteSeat> {
    let mut out = Vec::new();
    for s in &table.seats {
        if s.kind == v1::SeatKind::Open as i32 && !s.taken {
            out.push(
                RemoteSeat::join(
                    client.clone(),
                    &table.table_id,
                    Some(s.seat),
                    &format!("p{}", s.seat),
                )
                .await
                .expect("join"),
            );
        }
    }
    out
}

/// A strategy choosing uniformly among the legal actions, alternating the action's form
/// (notation, id, typed) so every form is exercised.
pub fn random_choice(seed: u64) -> impl FnMut(&v1::Turn, Option<&tonic::Status>) -> v1::Action {
    let mut rng = GameRng::from_seed(seed);
    move |t: &v1::Turn, rejected: Option<&tonic::Status>| {
        assert!(
            rejected.is_none(),
            "a legal action was refused: {rejected:?}"
        );
        let a = t.legal_actions[rng.below(t.legal_actions.len() as u32) as usize].clone();
        match rng.below(3) {
            0 => v1::Action {
                notation: a.notation,
                ..Default::default()
            },
            1 if a.id.is_some() => v1::Action {
                id: a.id,
                ..Default::default()
            },
            _ => v1::Action {
                notation: String::new(),
                id: None,
                ..a
            },
        }
    }
}

/// Every card notation a wire update carries.
pub fn cards_in_update(u: &v1::Update) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(t) = &u.next_turn {
        cards_in_actions(&t.legal_actions, &mut out);
    }
    match &u.kind {
        Some(v1::update::Kind::Snapshot(s)) => {
            if let Some(o) = &s.observation {
                cards_in_observation(o, &mut out);
            }
            if let Some(t) = &s.turn {
                cards_in_actions(&t.legal_actions, &mut out);
            }
        }
        Some(v1::update::Kind::Event(e)) => cards_in_event(e, &mut out),
        Some(v1::update::Kind::Turn(t)) => cards_in_actions(&t.legal_actions, &mut out),
        Some(v1::update::Kind::HandRevealed(r)) => {
            for h in &r.hands {
                push(&h.cards, &mut out);
            }
            push(&r.monte, &mut out);
            push(&r.stock, &mut out);
        }
        _ => {}
    }
    out
}

fn push(cards: &[v1::Card], out: &mut Vec<String>) {
    out.extend(cards.iter().map(|c| c.notation.clone()));
}

fn cards_in_actions(actions: &[v1::Action], out: &mut Vec<String>) {
    for a in actions {
        push(a.card.as_slice(), out);
        push(&a.cards, out);
    }
}

fn cards_in_result(r: &v1::HandResult, out: &mut Vec<String>) {
    push(r.called.as_slice(), out);
    push(&r.monte, out);
}

pub fn cards_in_event(e: &v1::Event, out: &mut Vec<String>) {
    push(e.card.as_slice(), out);
    push(&e.cards, out);
    push(&e.other_cards, out);
    if let Some(a) = &e.accuso {
        push(&a.cards, out);
    }
    if let Some(r) = &e.result {
        cards_in_result(r, out);
    }
}

pub fn cards_in_observation(o: &v1::Observation, out: &mut Vec<String>) {
    push(&o.hand, out);
    for h in &o.visible_hands {
        push(&h.cards, out);
    }
    for p in &o.trick {
        push(p.card.as_slice(), out);
    }
    push(o.called.as_slice(), out);
    for e in &o.events {
        cards_in_event(e, out);
    }
    cards_in_actions(&o.legal_actions, out);
    if let Some(r) = &o.outcome {
        cards_in_result(r, out);
    }
    // `previous` holds earlier hands' results, public once scored: not about this hand.
}

/// The status's `ErrorInfo` reason.
pub fn reason(s: &tonic::Status) -> String {
    use tonic_types::StatusExt;
    s.get_details_error_info()
        .map(|i| i.reason)
        .unwrap_or_default()
}

/// Where the durable tests keep their data: a SQLite file in `dir`, and, when
/// `CALABRESELLA_TEST_DATABASE_URL` names a PostgreSQL server, a fresh database on it.
/// With `CALABRESELLA_REQUIRE_POSTGRES=1` (set by `scripts/test.sh`) a missing URL fails.
pub fn backends(dir: &std::path::Path, name: &str) -> Vec<(String, StoreOptions)> {
    let mut out = vec![(
        "sqlite".to_owned(),
        StoreOptions {
            location: Location::Sqlite(dir.join(format!("{name}.db"))),
            ..StoreOptions::default()
        },
    )];
    match std::env::var("CALABRESELLA_TEST_DATABASE_URL") {
        Ok(url) if !url.is_empty() => out.push((
            "postgres".to_owned(),
            StoreOptions {
                location: Location::Postgres(fresh_database(&url, name)),
                ..StoreOptions::default()
            },
        )),
        _ => {
            assert!(
                std::env::var("CALABRESELLA_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "CALABRESELLA_REQUIRE_POSTGRES=1 but CALABRESELLA_TEST_DATABASE_URL is unset"
            );
            eprintln!("(PostgreSQL not configured: {name} runs on SQLite only)");
        }
    }
    out
}

/// Creates an empty database on the server of `admin_url`; returns its URL.
pub fn fresh_database(admin_url: &str, name: &str) -> String {
    let db = format!(
        "t_{}_{}",
        name.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        GameRng::from_seed(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
                ^ u64::from(std::process::id())
        )
        .below(1 << 30)
    );
    let url = admin_url.to_owned();
    let create = db.clone();
    // The synchronous client runs its own runtime: keep it off the test's.
    std::thread::spawn(move || {
        let mut c = postgres::Client::connect(&url, postgres::NoTls).expect("PostgreSQL");
        c.batch_execute(&format!("CREATE DATABASE {create}"))
            .expect("create database");
    })
    .join()
    .expect("thread");
    match admin_url.rfind('/') {
        Some(i) if i > admin_url.find("://").map_or(0, |s| s + 2) => {
            format!("{}/{db}", &admin_url[..i])
        }
        _ => format!("{admin_url}/{db}"),
    }
}

/// Registers `name` in the server's store; returns its API key.
pub async fn register(server: &TestServer, name: &str) -> String {
    let name = name.to_owned();
    server
        .store
        .read(move |c| {
            calabresella_server::store::players::add(c, &name)
                .map_err(|e| calabresella_server::store::StoreError::Other(e.to_string()))
        })
        .await
        .expect("register")
}
