//! Prometheus metrics: every name the server exports, in one place, and the `/metrics`
//! endpoint (`serve --metrics-listen`).
//!
//! The counters go through the `metrics` facade; until [`Exporter::bind`] installs the
//! Prometheus recorder, each call is one atomic load and nothing is kept. Names follow the
//! Prometheus conventions: a `calabresella_` prefix, `_total` on counters, base units
//! (`_seconds`). docs/DEPLOY.md lists them with what to watch.
//!
//! No label carries a table id, a player's name, a token or a card: only a game, a state, a
//! reason or a kind of stream, so the number of series stays small and nothing secret leaves.

use std::net::SocketAddr;
use std::time::Duration;

use metrics::{
    Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram,
};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

/// Tables in memory, by state (`waiting`, `playing`, `finished`, `abandoned`).
pub const TABLES: &str = "calabresella_tables";
/// Matches ended, by game and end reason.
pub const MATCHES_ENDED: &str = "calabresella_matches_ended_total";
/// Actions applied (players', bots' and the clock's), by game.
pub const ACTIONS: &str = "calabresella_actions_total";
/// `Act` calls, from request to answer, by outcome (`ok`, `error`).
pub const ACT_SECONDS: &str = "calabresella_act_duration_seconds";
/// Update streams open, by kind (`seat`, `spectator`).
pub const OPEN_STREAMS: &str = "calabresella_open_streams";
/// Streams cut off because their reader fell behind.
pub const SLOW_CONSUMERS: &str = "calabresella_slow_consumers_total";
/// Store transactions (one group commit each), from BEGIN to COMMIT.
pub const STORE_COMMIT_SECONDS: &str = "calabresella_store_commit_duration_seconds";
/// Jobs waiting for the store's thread (set as jobs are queued and as batches are taken).
pub const STORE_QUEUE: &str = "calabresella_store_queue_depth";
/// Calls refused, by `ErrorInfo` reason.
pub const ERRORS: &str = "calabresella_errors_total";
/// Calls refused by a per-client or server-wide limit, by reason.
pub const LIMIT_HITS: &str = "calabresella_limit_hits_total";
/// Connections closed at once because their client (or the server) was at its budget of
/// open connections.
pub const CONNECTIONS_REFUSED: &str = "calabresella_connections_refused_total";
/// Connections the connection guard ended, by why (`handshake_timeout`, `frame_stall`,
/// `idle`, `flood`, `head_too_large`).
pub const CONNECTIONS_EVICTED: &str = "calabresella_connections_evicted_total";
/// TLS connections that did not complete, by why (`handshake`, `plain_text`, `timeout`,
/// `budget`).
pub const TLS_REFUSED: &str = "calabresella_tls_connections_refused_total";

fn describe() {
    describe_gauge!(TABLES, "Tables in memory, by state.");
    describe_counter!(MATCHES_ENDED, "Matches ended, by game and end reason.");
    describe_counter!(ACTIONS, "Actions applied, by game.");
    describe_histogram!(
        ACT_SECONDS,
        Unit::Seconds,
        "Act calls from request to answer."
    );
    describe_gauge!(OPEN_STREAMS, "Update streams open, by kind.");
    describe_counter!(SLOW_CONSUMERS, "Streams cut off for falling behind.");
    describe_histogram!(
        STORE_COMMIT_SECONDS,
        Unit::Seconds,
        "Store group commits, BEGIN to COMMIT."
    );
    describe_gauge!(
        STORE_QUEUE,
        "Jobs queued for the store when a batch is taken."
    );
    describe_counter!(ERRORS, "Calls refused, by ErrorInfo reason.");
    describe_counter!(LIMIT_HITS, "Calls refused by a limit, by reason.");
    describe_counter!(
        TLS_REFUSED,
        "TLS connections that did not complete, by why."
    );
    describe_counter!(
        CONNECTIONS_EVICTED,
        "Connections the connection guard ended, by why."
    );
}

/// An action was applied at a table of `game`.
pub fn action(game: &'static str) {
    counter!(ACTIONS, "game" => game).increment(1);
}

/// An `Act` call took `elapsed`.
pub fn act(elapsed: Duration, ok: bool) {
    histogram!(ACT_SECONDS, "outcome" => if ok { "ok" } else { "error" })
        .record(elapsed.as_secs_f64());
}

/// A match of `game` ended for `reason` (the end reason's wire name).
pub fn match_ended(game: &'static str, reason: &'static str) {
    counter!(MATCHES_ENDED, "game" => game, "reason" => reason).increment(1);
}

/// A stream was cut off for falling behind.
pub fn slow_consumer() {
    counter!(SLOW_CONSUMERS).increment(1);
}

/// A call was refused with `reason`; `limit` when a limit refused it.
pub fn refused(reason: &'static str, limit: bool) {
    counter!(ERRORS, "reason" => reason).increment(1);
    if limit {
        counter!(LIMIT_HITS, "reason" => reason).increment(1);
    }
}

/// A store transaction took `elapsed`.
pub fn store_commit(elapsed: Duration) {
    histogram!(STORE_COMMIT_SECONDS).record(elapsed.as_secs_f64());
}

/// `queued` jobs wait for the store's thread.
pub fn store_queue_depth(queued: usize) {
    gauge!(STORE_QUEUE).set(queued as f64);
}

/// A connection was closed at once: over its client's (or the server's) budget.
pub fn refused_connection() {
    counter!(CONNECTIONS_REFUSED).increment(1);
}

/// The connection guard ended a connection for `why`.
pub fn evicted(why: &'static str) {
    counter!(CONNECTIONS_EVICTED, "reason" => why).increment(1);
}

/// A TLS connection did not complete.
pub fn tls_refused(why: &'static str) {
    counter!(TLS_REFUSED, "why" => why).increment(1);
}

/// One table's place in [`TABLES`]: counted under its state, moved when the state changes,
/// gone when the table leaves memory.
#[derive(Debug)]
pub struct TableGauge(&'static str);

impl TableGauge {
    /// A table in `state` (its wire name in lower case).
    pub fn new(state: &'static str) -> Self {
        gauge!(TABLES, "state" => state).increment(1.0);
        TableGauge(state)
    }

    /// The table moved to `state`.
    pub fn set(&mut self, state: &'static str) {
        if state != self.0 {
            gauge!(TABLES, "state" => self.0).decrement(1.0);
            gauge!(TABLES, "state" => state).increment(1.0);
            self.0 = state;
        }
    }
}

impl Drop for TableGauge {
    fn drop(&mut self) {
        gauge!(TABLES, "state" => self.0).decrement(1.0);
    }
}

/// One open stream in [`OPEN_STREAMS`], counted while it lives.
#[derive(Debug)]
pub struct StreamGauge(&'static str);

impl StreamGauge {
    /// A stream of `kind` (`seat` or `spectator`) opened.
    pub fn new(kind: &'static str) -> Self {
        gauge!(OPEN_STREAMS, "kind" => kind).increment(1.0);
        StreamGauge(kind)
    }
}

impl Drop for StreamGauge {
    fn drop(&mut self) {
        gauge!(OPEN_STREAMS, "kind" => self.0).decrement(1.0);
    }
}

/// The Prometheus recorder and its `/metrics` endpoint.
#[derive(Debug)]
pub struct Exporter {
    handle: PrometheusHandle,
    listener: tokio::net::TcpListener,
}

impl Exporter {
    /// Installs the recorder process-wide and binds `listen` (port 0: a free port). Fails if
    /// a recorder is installed already or the address cannot be bound.
    pub async fn bind(listen: &str) -> anyhow::Result<Exporter> {
        use anyhow::Context as _;
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("cannot listen on {listen} for metrics"))?;
        let latency = [
            0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1,
            0.25, 0.5, 1.0, 2.5, 5.0,
        ];
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &latency)?
            .install_recorder()
            .context("cannot install the metrics recorder")?;
        describe();
        Ok(Exporter { handle, listener })
    }

    /// The address the endpoint listens on.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Answers `GET /metrics` (any other path: 404) until dropped: at most 64 connections at
    /// once, each given 10 s to send a request's headers (a scraper's keep-alive connection
    /// stays open between scrapes); keeps the recorder's histograms trimmed.
    pub async fn run(self) {
        let upkeep = self.handle.clone();
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(Duration::from_secs(5)).await;
                upkeep.run_upkeep();
            }
        });
        let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(64));
        loop {
            let stream = match self.listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "metrics: accepting failed; pausing 100 ms");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let Ok(slot) = slots.clone().try_acquire_owned() else {
                continue; // 64 connections already: this one is closed at once.
            };
            let handle = self.handle.clone();
            tokio::spawn(async move {
                let _slot = slot;
                let service = hyper::service::service_fn(move |req| {
                    let handle = handle.clone();
                    async move { Ok::<_, std::convert::Infallible>(answer(&handle, &req)) }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(Duration::from_secs(10))
                    .serve_connection(io, service)
                    .await;
            });
        }
    }
}

fn answer<B>(
    handle: &PrometheusHandle,
    req: &http::Request<B>,
) -> http::Response<http_body_util::Full<bytes::Bytes>> {
    let (status, kind, body) = if req.uri().path() == "/metrics" {
        (
            http::StatusCode::OK,
            "text/plain; version=0.0.4; charset=utf-8",
            handle.render(),
        )
    } else {
        (
            http::StatusCode::NOT_FOUND,
            "text/plain; charset=utf-8",
            "metrics are at /metrics\n".to_owned(),
        )
    };
    let mut response = http::Response::new(http_body_util::Full::new(bytes::Bytes::from(body)));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static(kind),
    );
    response
}
