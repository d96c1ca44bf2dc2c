//! `calabresella serve`: runs the gRPC game service with its embedded defaults.

use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use calabresella_server::store::{self, Location, Opened, Store, StoreError, StoreOptions, Sync};
use calabresella_server::tls::{Tls, TlsOptions};
use calabresella_server::web::WebRoot;
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
    /// Longest time a built-in search bot (`pimc`, `ismcts`, `best`) may think per decision, in
    /// milliseconds:
    /// bots without a time budget get it, larger budgets are refused.
    #[arg(long, env = "CALABRESELLA_MAX_BOT_MS", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=60_000))]
    max_bot_ms: u32,
    /// Analyses (`AnalyseRecord`) run at once; more wait. Each takes a core while it runs.
    #[arg(long, env = "CALABRESELLA_ANALYSIS_WORKERS", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    analysis_workers: u64,
    /// Longest search per decision an analysis may ask for, in milliseconds.
    #[arg(long, env = "CALABRESELLA_ANALYSIS_MAX_MS", default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    analysis_max_ms: u32,
    /// Analyses one client address may have running or waiting (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_ANALYSES_PER_CLIENT",
        default_value_t = 1
    )]
    max_analyses_per_client: usize,
    /// Longest time one analysis may take, in seconds: a longer one is given up
    /// (`ANALYSIS_TOO_LONG`).
    #[arg(long, env = "CALABRESELLA_ANALYSIS_MAX_S", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    analysis_max_s: u64,
    /// Seat registered players only (`calabresella players add`): a seat needs an API key.
    /// By default people without a key may play too, as guests.
    #[arg(long, env = "CALABRESELLA_NO_GUESTS")]
    no_guests: bool,
    /// The server sits behind a reverse proxy, so every call comes from the proxy's address
    /// and an address tells no client apart: a seeded table's seats then go only to the
    /// holder of its creator key (docs/DEPLOY.md). Turn the per-client limits off or raise
    /// them too, and enforce them in the proxy.
    #[arg(long, env = "CALABRESELLA_BEHIND_PROXY")]
    behind_proxy: bool,
    /// A file holding the admin key that organiser calls (creating tournaments) present as
    /// `authorization: Bearer <key>`: at least 16 characters, surrounding white space ignored.
    /// It wins over `CALABRESELLA_ADMIN_KEY`. Without an admin key organiser calls are
    /// refused.
    #[arg(long, env = "CALABRESELLA_ADMIN_KEY_FILE")]
    admin_key_file: Option<std::path::PathBuf>,
    /// The admin key itself, from the environment `CALABRESELLA_ADMIN_KEY` (the variable the
    /// `tournament` commands send it from; prefer `--admin-key-file` for the server).
    #[arg(
        long,
        env = "CALABRESELLA_ADMIN_KEY",
        hide_env_values = true,
        hide = true
    )]
    admin_key: Option<String>,
    /// Calls with a bad API key one address may make per minute before it is refused for
    /// the rest of that minute (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_BAD_KEYS_PER_MINUTE",
        default_value_t = 10
    )]
    max_bad_keys_per_minute: u32,
    /// Largest time bank a table may ask for, in milliseconds.
    #[arg(long, env = "CALABRESELLA_MAX_BANK_MS", default_value_t = 10_800_000)]
    max_bank_ms: u64,
    /// Most unfinished tables at once (a finished table takes no slot: its record is in the
    /// store).
    #[arg(long, env = "CALABRESELLA_MAX_TABLES", default_value_t = 10_000)]
    max_tables: usize,
    /// Most finished tables kept in memory for `--finished-ttl-s`; beyond it the oldest leave
    /// early (GetTable and GetRecord still find them in the store).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_FINISHED_TABLES",
        default_value_t = 2_000
    )]
    max_finished_tables: usize,
    /// Most tables one client address may create in a minute (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_CREATES_PER_CLIENT_PER_MINUTE",
        default_value_t = 120
    )]
    max_creates_per_client_per_minute: usize,
    /// Most unfinished tables of bots only one client address may have (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_BOT_TABLES_PER_CLIENT",
        default_value_t = 16
    )]
    max_bot_tables_per_client: usize,
    /// Most spectator streams per table (each seat has its own budget, so spectators never
    /// lock a player out).
    #[arg(long, env = "CALABRESELLA_MAX_STREAMS_PER_TABLE", default_value_t = 32)]
    max_streams_per_table: usize,
    /// Most streams open on one seat.
    #[arg(long, env = "CALABRESELLA_MAX_STREAMS_PER_SEAT", default_value_t = 8)]
    max_streams_per_seat: usize,
    /// Most spectator streams one client address may have open on the server (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_SPECTATORS_PER_CLIENT",
        default_value_t = 64
    )]
    max_spectators_per_client: usize,
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
    /// Calls in flight at once per client address over all its connections, streams
    /// included (0: unlimited); beyond it RESOURCE_EXHAUSTED (TOO_MANY_CALLS).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_CALLS_PER_CLIENT",
        default_value_t = 1024
    )]
    max_calls_per_client: usize,
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
    /// The SQLite database file (created on first start); `:memory:` keeps nothing.
    /// Default: `$XDG_DATA_HOME/calabresella/calabresella.db` (or `~/.local/share/...`).
    #[arg(long, env = "CALABRESELLA_DB", conflicts_with = "database_url")]
    db: Option<String>,
    /// A PostgreSQL database instead of SQLite: `postgres://user:password@host:port/name`
    /// (or libpq's `key=value` form); `?sslmode=verify-full&sslrootcert=ca.pem` for TLS.
    #[arg(long, env = "CALABRESELLA_DATABASE_URL", hide_env_values = true, value_parser = postgres_url)]
    database_url: Option<String>,
    /// SQLite commits: `full` survives power loss, `normal` only a crash of the server.
    #[arg(long, env = "CALABRESELLA_DB_SYNC", default_value = "full", value_parser = ["full", "normal"])]
    db_sync: String,
    /// SQLite: largest database size in MiB (0: no limit); beyond it actions fail with
    /// STORE_FULL. `calabresella db stats` shows the size, `db vacuum` compacts.
    #[arg(long, env = "CALABRESELLA_DB_MAX_MB", default_value_t = 4096)]
    db_max_mb: u64,
    /// Hours the store keeps a table abandoned before its first hand (nobody came; its
    /// record is empty) before deleting it (0: kept for ever).
    #[arg(long, env = "CALABRESELLA_ABANDONED_RETENTION_H", default_value_t = 24)]
    abandoned_retention_h: u64,
    /// This server's name when several share one database: it runs and restores only the
    /// tables it created.
    #[arg(long, env = "CALABRESELLA_INSTANCE", default_value = "main")]
    instance: String,
    /// Most unfinished tables one client address may create (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_OPEN_TABLES_PER_CLIENT",
        default_value_t = 5_000
    )]
    max_open_tables_per_client: usize,
    /// Most actions one table stores (0: no limit): it bounds a record's size. A match whose
    /// deal cap could outgrow it has max_deals lowered at creation, or is refused.
    #[arg(
        long,
        env = "CALABRESELLA_MAX_ACTIONS_PER_TABLE",
        default_value_t = 20_000
    )]
    max_actions_per_table: usize,
    /// Serve the web front end from this directory (e.g. `clients/web/dist`) instead of the
    /// copy built into the binary; read on every request, so a rebuilt app shows on reload.
    #[arg(long, env = "CALABRESELLA_WEB_DIR", conflicts_with = "no_web")]
    web_dir: Option<std::path::PathBuf>,
    /// Do not serve the web front end (gRPC and gRPC-web only).
    #[arg(long, env = "CALABRESELLA_NO_WEB")]
    no_web: bool,
    /// Serve TLS with this certificate chain (PEM, the server's certificate first); reloaded
    /// on SIGHUP and when the file changes. Needs --tls-key.
    #[arg(long, env = "CALABRESELLA_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<std::path::PathBuf>,
    /// The private key of --tls-cert (PEM).
    #[arg(long, env = "CALABRESELLA_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<std::path::PathBuf>,
    /// Verify client certificates against these CA certificates (PEM) when a client offers
    /// one (a certificate that does not verify is refused).
    #[arg(long, env = "CALABRESELLA_TLS_CLIENT_CA", requires = "tls_cert")]
    tls_client_ca: Option<std::path::PathBuf>,
    /// Refuse clients without a certificate signed by --tls-client-ca (a private server).
    #[arg(
        long,
        env = "CALABRESELLA_TLS_REQUIRE_CLIENT_CERT",
        requires = "tls_client_ca"
    )]
    tls_require_client_cert: bool,
    /// Most connections one client (address, or IPv6 /64) may have open (0: no limit).
    #[arg(
        long,
        env = "CALABRESELLA_MAX_CONNECTIONS_PER_CLIENT",
        default_value_t = 256
    )]
    max_connections_per_client: usize,
    /// Most connections open on the server (0: no limit); keep it under the process's file
    /// limit (`ulimit -n`, `LimitNOFILE=`).
    #[arg(long, env = "CALABRESELLA_MAX_CONNECTIONS", default_value_t = 8192)]
    max_connections: usize,
    /// Milliseconds a new connection has (after TLS) to send the HTTP/2 preface and first
    /// frame, or a whole first HTTP/1.1 request head, before it is closed.
    #[arg(long, env = "CALABRESELLA_HANDSHAKE_TIMEOUT_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    handshake_timeout_ms: u64,
    /// Milliseconds an HTTP/2 frame may stay half received before its connection is closed.
    #[arg(long, env = "CALABRESELLA_FRAME_STALL_MS", default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    frame_stall_ms: u64,
    /// Seconds a connection may go without a call in flight before it is closed (GOAWAY
    /// NO_ERROR; 0: never). Open streams count as calls in flight.
    #[arg(long, env = "CALABRESELLA_IDLE_TIMEOUT_S", default_value_t = 300)]
    idle_timeout_s: u64,
    /// Control frames (PING, SETTINGS, RST_STREAM, PRIORITY, empty DATA) one connection may
    /// send at once; beyond it and the refill, GOAWAY ENHANCE_YOUR_CALM ends it.
    #[arg(long, env = "CALABRESELLA_CONTROL_FRAMES_BURST", default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    control_frames_burst: u32,
    /// Control frames per second a connection's allowance refills by (each response frame
    /// the server sends adds one more).
    #[arg(long, env = "CALABRESELLA_CONTROL_FRAMES_PER_S", default_value_t = 10)]
    control_frames_per_s: u32,
    /// HTTP/2 streams one connection may have open at once.
    #[arg(long, env = "CALABRESELLA_MAX_CONCURRENT_STREAMS", default_value_t = 512, value_parser = clap::value_parser!(u32).range(1..))]
    max_concurrent_streams: u32,
    /// Largest request header list (HTTP/2) and first HTTP/1.1 request head, in bytes.
    #[arg(long, env = "CALABRESELLA_MAX_HEADER_BYTES", default_value_t = 16 * 1024, value_parser = clap::value_parser!(u32).range(1024..))]
    max_header_bytes: u32,
    /// Serve Prometheus metrics at http://ADDRESS/metrics (off by default; port 0 picks a free
    /// port, printed). Keep it on a private address: it is plain HTTP without authentication.
    #[arg(long, env = "CALABRESELLA_METRICS_LISTEN")]
    metrics_listen: Option<String>,
    /// Run submitted bots without the sandbox, as plain processes with the server's network
    /// and files (their limits still apply): only for bots you trust, where bubblewrap cannot
    /// run. Logs a warning.
    #[arg(long, env = "CALABRESELLA_UNSAFE_TRUSTED_BOTS")]
    unsafe_trusted_bots: bool,
    /// The bubblewrap program for the bots' sandbox (default: `bwrap` on PATH).
    #[arg(long, env = "CALABRESELLA_BWRAP")]
    bwrap: Option<std::path::PathBuf>,
    /// The Python that runs submitted `.py` bots, with the `calabresella` package and numpy
    /// installed (mounted read-only in the sandbox).
    #[arg(long, env = "CALABRESELLA_BOT_PYTHON", default_value = "python3")]
    bot_python: String,
    /// Where submitted bots' versions are unpacked for the sandbox (default: beside the
    /// SQLite database, else the temporary directory).
    #[arg(long, env = "CALABRESELLA_BOT_CACHE")]
    bot_cache: Option<std::path::PathBuf>,
    /// Each bot's address space, in MiB.
    #[arg(long, env = "CALABRESELLA_BOT_MEMORY_MB", default_value_t = 1024, value_parser = clap::value_parser!(u64).range(16..))]
    bot_memory_mb: u64,
    /// Each bot's CPU seconds over a whole match.
    #[arg(long, env = "CALABRESELLA_BOT_CPU_S", default_value_t = 600, value_parser = clap::value_parser!(u64).range(1..))]
    bot_cpu_s: u64,
    /// Processes and threads each bot may have.
    #[arg(long, env = "CALABRESELLA_BOT_PROCESSES", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    bot_processes: u32,
    /// Each bot's largest file and scratch space (`/tmp`), in MiB.
    #[arg(long, env = "CALABRESELLA_BOT_FILE_MB", default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..))]
    bot_file_mb: u64,
    /// Files each bot may have open.
    #[arg(long, env = "CALABRESELLA_BOT_OPEN_FILES", default_value_t = 64, value_parser = clap::value_parser!(u32).range(8..))]
    bot_open_files: u32,
    /// Wall-clock seconds a bot may take over a whole match (each decision has the table's
    /// clock).
    #[arg(long, env = "CALABRESELLA_BOT_MATCH_S", default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..))]
    bot_match_s: u64,
}

/// Where the database goes when neither `--db` nor `--database-url` is given.
pub fn default_db_path() -> std::path::PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| std::path::PathBuf::from(h).join(".local/share"))
        });
    match base {
        Some(b) => b.join("calabresella").join("calabresella.db"),
        None => std::path::PathBuf::from("calabresella.db"),
    }
}

/// Checks a `--database-url`: a `postgres://` or `postgresql://` URL, or libpq's `key=value`
/// connection string. (Anything else would have been taken for a SQLite file name.)
pub fn postgres_url(s: &str) -> Result<String, String> {
    let url = s.starts_with("postgres://") || s.starts_with("postgresql://");
    let pairs = !s.contains("://") && s.split_whitespace().all(|p| p.contains('='));
    if (url || pairs) && !s.trim().is_empty() {
        Ok(s.to_owned())
    } else {
        Err(
            "not a PostgreSQL URL: postgres://user@host:port/name, or host=... dbname=... \
             (a SQLite file goes to --db)"
                .into(),
        )
    }
}

/// The database `--database-url` or `--db` names, else the default SQLite file.
pub fn location(database_url: Option<&str>, db: Option<&str>) -> Location {
    match (database_url, db) {
        (Some(url), _) => Location::Postgres(url.to_owned()),
        (None, Some(db)) => Location::parse(db),
        (None, None) => Location::Sqlite(default_db_path()),
    }
}

impl ServeArgs {
    /// The store these flags ask for.
    pub fn store_options(&self) -> StoreOptions {
        let location = location(self.database_url.as_deref(), self.db.as_deref());
        StoreOptions {
            location,
            sync: if self.db_sync == "normal" {
                Sync::Normal
            } else {
                Sync::Full
            },
            instance: self.instance.clone(),
            max_bytes: self.db_max_mb.saturating_mul(1024 * 1024),
        }
    }
}

/// How long a server waits for a PostgreSQL instance lock still held by the session of a server
/// that has just stopped.
const LOCK_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Opens the store, or explains why it cannot be used.
pub async fn open_store(options: StoreOptions) -> Result<Opened> {
    let place = options.location.describe();
    if let Location::Sqlite(path) = &options.location
        && options.max_bytes > 0
        && let Ok(meta) = std::fs::metadata(path)
        && meta.len() >= options.max_bytes / 10 * 9
    {
        // SQLite cannot cap a file below its size: it opens, and its next new page fails.
        tracing::warn!(
            at = %place,
            mib = meta.len() / (1024 * 1024),
            limit_mib = options.max_bytes / (1024 * 1024),
            "the database is at or near --db-max-mb: writes will fail with STORE_FULL once it \
             is full; raise --db-max-mb, or run `calabresella db vacuum` with the server stopped"
        );
    }
    let mut opened = Store::open(options.clone()).await;
    // A PostgreSQL instance lock lives in the database session of the server that took it: after
    // that server is killed, the database lets it go only once it notices the dropped connection,
    // which can be after a supervisor has already started the replacement. Wait that out; a
    // server that really runs keeps the lock, and this one then stops as before.
    if matches!(options.location, Location::Postgres(_))
        && matches!(opened, Err(StoreError::Locked(_)))
    {
        tracing::info!(
            at = %place,
            grace_s = LOCK_GRACE.as_secs(),
            "the instance lock is held; waiting in case its server has just stopped"
        );
        let deadline = std::time::Instant::now() + LOCK_GRACE;
        while matches!(opened, Err(StoreError::Locked(_))) && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            opened = Store::open(options.clone()).await;
        }
    }
    match opened {
        Ok(opened) => {
            tracing::info!(
                store = opened.store.kind(),
                at = %place,
                schema = store::migrate::latest(),
                migrated = ?opened.migrated,
                unfinished = opened.tables.len(),
                "store open"
            );
            Ok(opened)
        }
        Err(e @ (StoreError::Corrupt(_) | StoreError::Invalid(_))) => Err(anyhow::anyhow!(
            "cannot use the database {place}: {e}\nNothing was changed. Restore it from a backup, \
             or move it away to start with an empty database."
        )),
        Err(e) => Err(anyhow::anyhow!("cannot open the database {place}: {e}")),
    }
}

/// Prints a line for the caller on standard output. A caller that stopped reading (a script
/// that closed the pipe once it had the address) must not stop the server: `println!` would
/// panic on the broken pipe.
fn say(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// Whether `ip` is this machine only (an IPv4-mapped loopback address included).
fn loopback(ip: std::net::IpAddr) -> bool {
    ip.to_canonical().is_loopback()
}

/// Catches SIGHUP from now on: with TLS the certificate watcher reloads on it (this only keeps
/// a signal that arrives before the watcher starts from stopping the server); without TLS it
/// is logged as having nothing to reload.
fn hangup_is_harmless(tls: bool) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let Ok(mut hangup) = signal(SignalKind::hangup()) else {
            return;
        };
        tokio::spawn(async move {
            while hangup.recv().await.is_some() {
                if !tls {
                    tracing::info!("SIGHUP: nothing to reload (no TLS certificate is served)");
                }
            }
        });
    }
    #[cfg(not(unix))]
    let _ = tls;
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

/// The libraries that speak the protocols warn about what clients send (rustls of a
/// malformed server name, h2 of a client that resets streams too fast, hyper of a broken
/// request): at the default level any client could write log lines at will. They log errors
/// only, unless `--log` names them (`--log info,h2=warn` brings h2's warnings back).
fn quiet_protocol_libraries(log: &str) -> String {
    let mut directives = log.to_owned();
    for library in ["rustls", "h2", "hyper", "hyper_util", "tonic", "tonic_web"] {
        let named = log
            .split(',')
            .any(|d| d.trim().split(['=', '[', ':']).next() == Some(library));
        if !named {
            directives.push_str(&format!(",{library}=error"));
        }
    }
    directives
}

/// Runs `serve`.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    let directives = quiet_protocol_libraries(&args.log);
    let filter =
        EnvFilter::try_new(&directives).with_context(|| format!("bad --log {:?}", args.log))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if args.log_json {
        builder.json().init();
    } else {
        builder.init();
    }
    let admin_key = match (&args.admin_key_file, &args.admin_key) {
        (Some(path), _) => Some(
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read the admin key file {}", path.display()))?,
        ),
        (None, key) => key.clone(),
    };
    let admin_key_sha256 = match admin_key.as_deref().map(str::trim) {
        Some(k)
            if k.chars().count() < 16 || k.chars().any(|c| c.is_whitespace() || c.is_control()) =>
        {
            anyhow::bail!("the admin key must be at least 16 characters, without spaces");
        }
        Some(k) => Some(calabresella_server::store::players::key_hash(k)),
        None => None,
    };
    let config = ServerConfig {
        admin_key_sha256,
        default_move: Duration::from_millis(args.move_ms),
        max_move: Duration::from_millis(args.max_move_ms),
        max_bank: Duration::from_millis(args.max_bank_ms),
        max_bot_ms: args.max_bot_ms,
        analysis_workers: args.analysis_workers as usize,
        analysis_max_ms: args.analysis_max_ms,
        max_analyses_per_client: args.max_analyses_per_client,
        analysis_max_s: args.analysis_max_s,
        guests: !args.no_guests,
        trust_client_addresses: !args.behind_proxy,
        max_bad_keys_per_client_per_minute: args.max_bad_keys_per_minute,
        max_tables: args.max_tables,
        max_finished_tables: args.max_finished_tables,
        max_creates_per_client_per_minute: args.max_creates_per_client_per_minute,
        max_bot_tables_per_client: args.max_bot_tables_per_client,
        seat_buffer: args.seat_buffer,
        stream_buffer: args.stream_buffer,
        max_streams_per_table: args.max_streams_per_table,
        max_streams_per_seat: args.max_streams_per_seat,
        max_spectators_per_client: args.max_spectators_per_client,
        waiting_timeout: Duration::from_secs(args.waiting_timeout_s),
        finished_ttl: Duration::from_secs(args.finished_ttl_s),
        max_actions_per_table: args.max_actions_per_table,
        abandoned_retention: Duration::from_secs(args.abandoned_retention_h.saturating_mul(3600)),
        max_open_tables_per_client: args.max_open_tables_per_client,
        epoch: String::new(),
    };
    let store_options = args.store_options();
    let tls = match (&args.tls_cert, &args.tls_key) {
        (Some(cert), Some(key)) => Some(
            Tls::new(TlsOptions {
                client_ca: args.tls_client_ca.clone(),
                require_client_cert: args.tls_require_client_cert,
                ..TlsOptions::new(cert, key)
            })
            .context("cannot start TLS")?,
        ),
        _ => None,
    };
    let scheme = if tls.is_some() { "https" } else { "http" };
    let options = ServeOptions {
        tls,
        connections: calabresella_server::connections::ConnectionLimits {
            per_client: args.max_connections_per_client,
            total: args.max_connections,
        },
        cors_origins: args.cors_origin,
        max_request_bytes: args.max_request_bytes,
        request_timeout: Duration::from_millis(args.request_timeout_ms),
        concurrency_per_connection: args.concurrency,
        rate_limit_per_client: args.rate_limit,
        max_calls_per_client: args.max_calls_per_client,
        keepalive_interval: Duration::from_secs(args.keepalive_s),
        guard: calabresella_server::transport::GuardLimits {
            handshake: Duration::from_millis(args.handshake_timeout_ms),
            frame_stall: Duration::from_millis(args.frame_stall_ms),
            idle: Duration::from_secs(args.idle_timeout_s),
            control_burst: args.control_frames_burst,
            control_per_second: args.control_frames_per_s,
            max_http1_head: args.max_header_bytes as usize,
        },
        http2: calabresella_server::transport::Http2Limits {
            max_concurrent_streams: args.max_concurrent_streams,
            max_header_list_bytes: args.max_header_bytes,
            ..calabresella_server::transport::Http2Limits::default()
        },
        web_root: match (&args.web_dir, args.no_web) {
            (_, true) => WebRoot::Disabled,
            (Some(dir), false) => WebRoot::Dir(dir.clone()),
            (None, false) => WebRoot::Embedded,
        },
        bots: calabresella_server::submitted::BotOptions {
            bwrap: args.bwrap.clone(),
            unsafe_trusted: args.unsafe_trusted_bots,
            python: args.bot_python.clone(),
            cache_dir: args
                .bot_cache
                .clone()
                .unwrap_or_else(|| match &store_options.location {
                    Location::Sqlite(db) => db.with_extension("bots"),
                    // Beside where the SQLite database would be: the user's data, not /tmp.
                    _ => default_db_path().with_file_name(format!("bots-{}", args.instance)),
                }),
            limits: calabresella_server::submitted::sandbox::BotLimits {
                memory_mb: args.bot_memory_mb,
                cpu_s: args.bot_cpu_s,
                processes: args.bot_processes,
                file_mb: args.bot_file_mb,
                open_files: args.bot_open_files,
                match_s: args.bot_match_s,
            },
            probe_at_start: true,
        },
        ..ServeOptions::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let tls_on = options.tls.is_some();
    runtime.block_on(async {
        // SIGHUP reloads the certificate; until TLS watches for it, and without TLS, it must
        // not stop the server (its default action), which `systemctl reload` would.
        hangup_is_harmless(tls_on);
        if let Some(listen) = &args.metrics_listen {
            let exporter = calabresella_server::metrics::Exporter::bind(listen).await?;
            let at = exporter.local_addr()?;
            say(&format!("calabresella: metrics at http://{at}/metrics"));
            if !loopback(at.ip()) {
                tracing::warn!(
                    %at,
                    "the metrics endpoint has no authentication and no TLS: keep it on a \
                     private address or behind a firewall"
                );
            }
            tokio::spawn(exporter.run());
        }
        let opened = open_store(store_options).await?;
        let listener = tokio::net::TcpListener::bind(&args.listen)
            .await
            .with_context(|| format!("cannot listen on {}", args.listen))?;
        let addr = listener.local_addr()?;
        // The one line scripts wait for; logs go to standard error.
        if options.tls.is_some() {
            say(&format!("calabresella: listening on {addr} (TLS)"));
        } else {
            say(&format!("calabresella: listening on {addr}"));
            if !loopback(addr.ip()) {
                tracing::warn!(
                    %addr,
                    "listening beyond this machine without TLS: seat tokens and every card \
                     cross the network in clear text, readable and changeable on the way; pass \
                     --tls-cert and --tls-key, or listen on 127.0.0.1 behind a TLS proxy \
                     (docs/DEPLOY.md)"
                );
            }
        }
        match &options.web_root {
            WebRoot::Disabled => {}
            WebRoot::Embedded if !WebRoot::embedded_app() => tracing::warn!(
                "this binary carries no web front end: build it with `bash clients/web/check.sh` \
                 and rebuild, or pass --web-dir"
            ),
            WebRoot::Dir(dir) if !dir.join("index.html").is_file() => tracing::warn!(
                dir = %dir.display(),
                "--web-dir has no index.html: build the app with `bash clients/web/check.sh`"
            ),
            _ => say(&format!(
                "calabresella: web front end at {scheme}://{addr}/"
            )),
        }
        tracing::info!(%addr, "serving calabresella.v1.TableService, health, reflection, gRPC-web");
        serve(listener, config, options, opened, shutdown_signal())
            .await
            .context("the server failed")?;
        tracing::info!("stopped");
        anyhow::Ok(())
    })?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::quiet_protocol_libraries;

    #[test]
    fn protocol_libraries_log_errors_only_unless_named() {
        let d = quiet_protocol_libraries("info");
        for l in ["rustls", "h2", "hyper", "hyper_util", "tonic", "tonic_web"] {
            assert!(d.contains(&format!(",{l}=error")), "{d}");
        }
        let d = quiet_protocol_libraries("info,h2=debug");
        assert!(!d.contains("h2=error") && d.contains("hyper=error"), "{d}");
        // A library whose name another's begins with is not taken for it.
        let d = quiet_protocol_libraries("hyper=debug");
        assert!(
            d.contains("hyper_util=error") && !d.contains(",hyper=error"),
            "{d}"
        );
    }
}
