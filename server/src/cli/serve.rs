//! `calabresella serve`: runs the gRPC game service with its embedded defaults.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use calabresella_server::{ServeOptions, ServerConfig, serve};
use tracing_subscriber::EnvFilter;

/// Arguments of `serve`; each flag also reads the environment variable named with it.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the chosen address is printed).
    #[arg(long, env = "CALABRESELLA_LISTEN", default_value = "127.0.0.1:50051")]
    listen: String,
    /// Log filter: error, warn, info, debug, trace, or a tracing filter such as
    /// `calabresella_server=debug`.
    #[arg(long, env = "CALABRESELLA_LOG", default_value = "info")]
    log: String,
    /// Log lines as JSON objects instead of text.
    #[arg(long, env = "CALABRESELLA_LOG_JSON")]
    log_json: bool,
    /// Default time per decision, in milliseconds, for tables that set none.
    #[arg(long, env = "CALABRESELLA_MOVE_MS", default_value_t = 60_000)]
    move_ms: u64,
    /// Longest time per decision a table may ask for, in milliseconds.
    #[arg(long, env = "CALABRESELLA_MAX_MOVE_MS", default_value_t = 3_600_000)]
    max_move_ms: u64,
    /// Largest time bank a table may ask for, in milliseconds.
    #[arg(long, env = "CALABRESELLA_MAX_BANK_MS", default_value_t = 10_800_000)]
    max_bank_ms: u64,
    /// Most tables at once.
    #[arg(long, env = "CALABRESELLA_MAX_TABLES", default_value_t = 10_000)]
    max_tables: usize,
    /// Most streams (seats and spectators) per table.
    #[arg(long, env = "CALABRESELLA_MAX_STREAMS_PER_TABLE", default_value_t = 32)]
    max_streams_per_table: usize,
    /// Updates each seat keeps so a reconnecting stream can resume without a snapshot.
    #[arg(long, env = "CALABRESELLA_SEAT_BUFFER", default_value_t = 16)]
    seat_buffer: usize,
    /// Updates a stream may have unread before it is cut off as a slow consumer.
    #[arg(long, env = "CALABRESELLA_STREAM_BUFFER", default_value_t = 256)]
    stream_buffer: usize,
    /// Seconds a table may wait for players before it is abandoned.
    #[arg(long, env = "CALABRESELLA_WAITING_TIMEOUT_S", default_value_t = 900)]
    waiting_timeout_s: u64,
    /// Seconds a finished table and its record are kept.
    #[arg(long, env = "CALABRESELLA_FINISHED_TTL_S", default_value_t = 3600)]
    finished_ttl_s: u64,
    /// Calls per second per client address (0: unlimited).
    #[arg(long, env = "CALABRESELLA_RATE_LIMIT", default_value_t = 0)]
    rate_limit: u32,
    /// Largest request message, in bytes.
    #[arg(long, env = "CALABRESELLA_MAX_REQUEST_BYTES", default_value_t = 64 * 1024)]
    max_request_bytes: usize,
    /// Time limit of each unary call, in milliseconds.
    #[arg(
        long,
        env = "CALABRESELLA_REQUEST_TIMEOUT_MS",
        default_value_t = 30_000
    )]
    request_timeout_ms: u64,
    /// Requests in flight per connection.
    #[arg(long, env = "CALABRESELLA_CONCURRENCY", default_value_t = 1024)]
    concurrency: usize,
    /// Origins allowed for gRPC-web from browsers, comma-separated (default: any origin).
    #[arg(long, env = "CALABRESELLA_CORS_ORIGINS", value_delimiter = ',')]
    cors_origin: Vec<String>,
    /// HTTP/2 keepalive ping interval in seconds.
    #[arg(long, env = "CALABRESELLA_KEEPALIVE_S", default_value_t = 20)]
    keepalive_s: u64,
}

/// Waits for SIGINT or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// Runs `serve`.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    let filter =
        EnvFilter::try_new(&args.log).with_context(|| format!("bad --log {:?}", args.log))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if args.log_json {
        builder.json().init();
    } else {
        builder.init();
    }
    let config = ServerConfig {
        default_move: Duration::from_millis(args.move_ms),
        max_move: Duration::from_millis(args.max_move_ms),
        max_bank: Duration::from_millis(args.max_bank_ms),
        max_tables: args.max_tables,
        seat_buffer: args.seat_buffer,
        stream_buffer: args.stream_buffer,
        max_streams_per_table: args.max_streams_per_table,
        waiting_timeout: Duration::from_secs(args.waiting_timeout_s),
        finished_ttl: Duration::from_secs(args.finished_ttl_s),
        epoch: String::new(),
    };
    let options = ServeOptions {
        cors_origins: args.cors_origin,
        max_request_bytes: args.max_request_bytes,
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        concurrency_per_connection: args.concurrency,
        rate_limit_per_client: args.rate_limit,
        keepalive_interval: Duration::from_secs(args.keepalive_s),
        ..ServeOptions::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let addr = listener.local_addr()?;
        // The one line scripts wait for; logs go to standard error.
        println!("calabresella: listening on {addr}");
        tracing::info!(%addr, "serving calabresella.v1.TableService, health, reflection, gRPC-web");
        serve(listener, config, options, shutdown_signal())
            .await
            .context("the server failed")?;
        tracing::info!("stopped");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}
