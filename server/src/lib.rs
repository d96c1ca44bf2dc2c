//! The Calabresella game service: tables with seats, per-seat observation streams, unary
//! actions, built-in bots, clocks, spectators and records, over gRPC (and gRPC-web).
//!
//! [`serve`] runs the whole service on a listener; the `calabresella serve` command and the
//! tests use it the same way:
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use calabresella_server::store::{Location, Store, StoreOptions};
//! use calabresella_server::{ServeOptions, ServerConfig, serve};
//! let store = Store::open(StoreOptions {
//!     location: Location::parse("calabresella.db"),
//!     ..StoreOptions::default()
//! })
//! .await?;
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let shutdown = async { let _ = tokio::signal::ctrl_c().await; };
//! serve(listener, ServerConfig::default(), ServeOptions::default(), store, shutdown).await?;
//! # Ok(()) }
//! ```

pub mod bot_spec;
pub mod call_budget;
pub mod competition;
pub mod config;
pub mod connections;
pub mod error;
pub mod limit;
pub mod log_limit;
pub mod malformed;
pub mod metrics;
pub mod names;
pub mod registry;
pub mod retention;
pub mod service;
pub mod store;
pub mod submitted;
pub mod table;
pub mod tls;
pub mod transport;
pub mod web;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use calabresella_proto::v1;
use calabresella_proto::v1::table_service_server::TableServiceServer;
use tokio::net::TcpListener;
use tonic::transport::Server;
use tonic::transport::server::TcpIncoming;
use tower_http::cors::{AllowOrigin, CorsLayer};

pub use config::ServerConfig;

use crate::limit::RateLimiter;
use crate::registry::Registry;
use crate::service::GameService;

/// Bot calls (a submission holds up to 5 MiB while it is read) one client may have in flight.
const BOT_CALLS_PER_CLIENT: usize = 2;

/// Transport settings of [`serve`].
#[derive(Debug, Clone)]
pub struct ServeOptions {
    /// Origins allowed to call from browsers (gRPC-web); empty allows any origin.
    pub cors_origins: Vec<String>,
    /// Largest request message accepted, in bytes.
    pub max_request_bytes: usize,
    /// Largest response message sent, in bytes.
    pub max_response_bytes: usize,
    /// Time limit of each unary call (streams are not cut by it).
    pub request_timeout: Duration,
    /// Requests in flight per connection.
    pub concurrency_per_connection: usize,
    /// Calls per second allowed to one client address (0: no limit), with a burst of as many.
    pub rate_limit_per_client: u32,
    /// Calls in flight at once for one client address, over all its connections (0: no
    /// limit): unary calls until answered, streams until they end.
    pub max_calls_per_client: usize,
    /// HTTP/2 keepalive ping interval: a dead stream is noticed within interval + timeout.
    pub keepalive_interval: Duration,
    /// How long a keepalive ping may go unanswered.
    pub keepalive_timeout: Duration,
    /// Where the browser front end's files come from (answered at `GET /`).
    pub web_root: web::WebRoot,
    /// TLS for every connection (gRPC, gRPC-web and the web front end); `None`: plain text.
    pub tls: Option<tls::Tls>,
    /// Connections open at once, per client and in all.
    pub connections: connections::ConnectionLimits,
    /// What each connection may do before and between calls (handshake and idle time,
    /// stalled frames, control-frame floods).
    pub guard: transport::GuardLimits,
    /// The HTTP/2 library's limits: streams, header lists, resets.
    pub http2: transport::Http2Limits,
    /// How submitted bots run (docs/SUBMISSIONS.md).
    pub bots: submitted::BotOptions,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            cors_origins: Vec::new(),
            max_request_bytes: 64 * 1024,
            max_response_bytes: 4 * 1024 * 1024,
            request_timeout: Duration::from_secs(30),
            concurrency_per_connection: 1024,
            rate_limit_per_client: 0,
            max_calls_per_client: 1024,
            keepalive_interval: Duration::from_secs(20),
            keepalive_timeout: Duration::from_secs(10),
            web_root: web::WebRoot::Embedded,
            tls: None,
            connections: connections::ConnectionLimits::default(),
            guard: transport::GuardLimits::default(),
            http2: transport::Http2Limits::default(),
            bots: submitted::BotOptions::default(),
        }
    }
}

fn cors(origins: &[String]) -> CorsLayer {
    use tower_http::cors::{AllowHeaders, ExposeHeaders};
    let allow = if origins.is_empty() {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| o.parse().ok()))
    };
    CorsLayer::new()
        .allow_origin(allow)
        .allow_methods([http::Method::POST, http::Method::OPTIONS])
        .allow_headers(AllowHeaders::list(
            [
                "content-type",
                "x-grpc-web",
                "x-user-agent",
                "grpc-timeout",
                "authorization",
            ]
            .map(http::HeaderName::from_static),
        ))
        .expose_headers(ExposeHeaders::list(
            ["grpc-status", "grpc-message", "grpc-status-details-bin"]
                .map(http::HeaderName::from_static),
        ))
        .max_age(Duration::from_secs(24 * 3600))
}

/// Runs the service on `listener` until `shutdown` completes, then stops. The unfinished
/// tables `store` found are restored first. On shutdown, with a durable store every table is
/// suspended for the next start (streams end with `UNAVAILABLE`); with an in-memory store
/// every match ends (streams close with `MatchEnded`). Serves `calabresella.v1.TableService`,
/// gRPC health and reflection, over HTTP/2 and gRPC-web (HTTP/1.1), and the browser front end
/// at `GET /` ([`web`]).
pub async fn serve(
    listener: TcpListener,
    mut config: ServerConfig,
    options: ServeOptions,
    store: store::Opened,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), tonic::transport::Error> {
    if config.epoch.is_empty() {
        config.epoch = table::epoch::new_epoch();
    }
    let sweeps = retention::sweeps(store.store.clone(), config.abandoned_retention);
    let registry = Registry::new(Arc::new(config), store.store.clone());
    // Before the restore: restored tables' submitted bots start again.
    let bots = submitted::BotRunner::new(options.bots.clone(), store.store.clone());
    registry.set_bots(bots.clone());
    let found = store.tables.len();
    let started = std::time::Instant::now();
    let (restored, failed) = registry.restore(store.tables);
    for (id, why) in &failed {
        // The log stays in the store untouched; a fixed server can restore it later.
        tracing::error!(table = %id, error = %why, "table not restored");
    }
    if found > 0 {
        tracing::info!(
            restored,
            failed = failed.len(),
            ms = started.elapsed().as_millis() as u64,
            "tables restored from the store"
        );
    }
    let (health_reporter, health) = tonic_health::server::health_reporter();
    health_reporter
        .set_serving::<TableServiceServer<GameService>>()
        .await;
    let reflection = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(v1::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        // google.rpc.ErrorInfo, so generic tools can decode the error details.
        .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
        .build_v1()
        .ok();
    // The same, for tools that speak only the older v1alpha protocol (grpcurl before 1.8.8,
    // the Python grpcio-reflection client).
    let reflection_v1alpha = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(v1::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_types::pb::FILE_DESCRIPTOR_SET)
        .build_v1alpha()
        .ok();
    let limiter = RateLimiter::new(options.rate_limit_per_client);
    let limiter_for_bots = limiter.clone();
    let service = GameService::new(registry.clone());
    let hub = service.hub();
    // Bot submissions take files of up to 5 MiB, and only a couple at once per client.
    let bot_service = v1::bot_service_server::BotServiceServer::new(service.clone())
        .max_decoding_message_size(submitted::files::MAX_FILE_BYTES + 64 * 1024)
        .max_encoding_message_size(options.max_response_bytes);
    let game = TableServiceServer::new(service)
        .max_decoding_message_size(options.max_request_bytes)
        .max_encoding_message_size(options.max_response_bytes);
    // One budget of calls in flight per client, whichever service they call.
    let calls = limit::StreamBudget::default();
    let max_calls = options.max_calls_per_client;
    let game = call_budget::CallBudget::new(
        tonic::service::interceptor::InterceptedService::new(
            malformed::MalformedRequests(game),
            limiter,
        ),
        calls.clone(),
        max_calls,
    );
    let bot_service = call_budget::CallBudget::new(
        call_budget::CallBudget::new(
            tonic::service::interceptor::InterceptedService::new(
                malformed::MalformedRequests(bot_service),
                limiter_for_bots,
            ),
            limit::StreamBudget::default(),
            BOT_CALLS_PER_CLIENT,
        ),
        calls.clone(),
        max_calls,
    );
    let on_shutdown = {
        let registry = registry.clone();
        async move {
            shutdown.await;
            tracing::info!("shutting down: ending every table");
            health_reporter
                .set_not_serving::<TableServiceServer<GameService>>()
                .await;
            hub.shut_down();
            registry.shutdown_all().await;
        }
    };
    let conns = transport::Conns::default();
    let router = options
        .http2
        .apply(Server::builder())
        .accept_http1(true)
        .timeout(options.request_timeout)
        .concurrency_limit_per_connection(options.concurrency_per_connection)
        .http2_keepalive_interval(Some(options.keepalive_interval))
        .http2_keepalive_timeout(Some(options.keepalive_timeout))
        .tcp_nodelay(true)
        // Outermost: a call counts for its connection's idleness from its first byte of
        // response to its last, whatever the layers inside do.
        .layer(transport::ActivityLayer::new(conns.clone()))
        .layer(cors(&options.cors_origins))
        // Before gRPC-web, which refuses every HTTP/1.1 request that is not a gRPC-web call.
        .layer(web::WebAppLayer::new(options.web_root.clone()))
        .layer(tonic_web::GrpcWebLayer::new())
        .add_service(call_budget::CallBudget::new(
            health,
            calls.clone(),
            max_calls,
        ))
        .add_service(game)
        .add_service(bot_service);
    let router = match reflection {
        Some(r) => router.add_service(call_budget::CallBudget::new(r, calls.clone(), max_calls)),
        None => router,
    };
    let router = match reflection_v1alpha {
        Some(r) => router.add_service(call_budget::CallBudget::new(r, calls.clone(), max_calls)),
        None => router,
    };
    let tcp = connections::limit(
        TcpIncoming::from(listener)
            .with_nodelay(Some(true))
            .with_keepalive(Some(options.keepalive_interval)),
        options.connections,
    );
    let guard = options.guard;
    let serving: std::pin::Pin<Box<dyn Future<Output = _> + Send>> = match options.tls {
        Some(tls) => {
            let incoming = tokio_stream::StreamExt::map(tls.incoming(tcp), move |tls| {
                tls.map(|t| {
                    let peer = t.get_ref().0.peer_addr().ok();
                    transport::guard(t, peer, guard, &conns)
                })
            });
            // The certificate reloads as long as the server runs.
            let watch = tokio::spawn(tls.watch());
            Box::pin(async move {
                let served = router
                    .serve_with_incoming_shutdown(incoming, on_shutdown)
                    .await;
                watch.abort();
                served
            })
        }
        None => Box::pin(router.serve_with_incoming_shutdown(
            tokio_stream::StreamExt::map(tcp, move |c| {
                let peer = c.peer_addr().ok();
                Ok::<_, std::io::Error>(transport::guard(c, peer, guard, &conns))
            }),
            on_shutdown,
        )),
    };
    // The sweeps run as long as the server, and stop with it (they hold the store open).
    tokio::select! {
        served = serving => served,
        never = sweeps => match never {},
    }
}
