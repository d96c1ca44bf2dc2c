//! [`Store`]: where tables, their action logs, finished matches and results are kept, in
//! SQLite (the embedded default) or PostgreSQL, behind one [`Conn`] trait.
//!
//! One thread owns the connection. Tables send it [`Write`]s and wait for the commit before
//! they apply an action or answer a call (write-ahead; a store that is not
//! [durable](Store::durable) is sent no actions, since nothing could resume from them); the
//! thread gathers whatever writes are queued from every table into one transaction (group
//! commit), so the cost of a commit is shared by all the tables that wrote meanwhile. Reads
//! run on the same thread between commits.

pub mod analyses;
mod batch;
pub mod bots;
mod conn;
mod log;
pub mod migrate;
pub mod pg_tls;
pub mod player_page;
pub mod players;
mod postgres;
mod ratings;
mod records;
mod sqlite;
pub mod tournaments;
mod upkeep;

use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::{mpsc, oneshot};

pub use self::conn::{Conn, Row, Value};
pub use self::log::{Finished, ResultRow, StoredAction, StoredSeat, StoredTable, Write};
pub use self::ratings::{PlayerResult, Seat as RatedSeat, rank_of_side, rate};
pub use self::records::{MatchSummary, RecordFilter};
pub use self::upkeep::DbStats;

/// Writes one commit may carry at most.
const MAX_BATCH: usize = 4096;
/// Jobs queued before writers wait.
const QUEUE: usize = 65_536;

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Why the store failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The disk (or the configured size limit) is full.
    #[error("the store is full: {0}")]
    Full(String),
    /// The database refuses writes.
    #[error("the store is read-only: {0}")]
    ReadOnly(String),
    /// The database file is damaged or is not a database.
    #[error("the database is corrupt or not a calabresella database: {0}")]
    Corrupt(String),
    /// Another server uses the database.
    #[error("the database is locked: {0}")]
    Locked(String),
    /// The database was written by a newer server.
    #[error(
        "the database has schema version {found}, newer than this server's {known}: upgrade calabresella"
    )]
    TooNew {
        /// Its version.
        found: i64,
        /// The newest this server knows.
        known: i64,
    },
    /// Data that does not read back as written.
    #[error("stored data is invalid: {0}")]
    Invalid(String),
    /// Anything else the database said.
    #[error("store error: {0}")]
    Other(String),
    /// The store's thread has stopped.
    #[error("the store has stopped")]
    Closed,
}

/// How hard SQLite pushes each commit to the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Sync {
    /// Every commit is on the disk before it is acknowledged: survives power loss.
    #[default]
    Full,
    /// Commits survive a crash of the server process, not of the machine; faster.
    Normal,
}

/// Where the data lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite file.
    Sqlite(PathBuf),
    /// A SQLite database in memory: nothing survives the process (tests, demos).
    Memory,
    /// A PostgreSQL server (`postgres://...`).
    Postgres(String),
}

impl Location {
    /// `:memory:`, a `postgres://` (or `postgresql://`) URL, or a file path.
    pub fn parse(s: &str) -> Location {
        if s == ":memory:" {
            Location::Memory
        } else if s.starts_with("postgres://") || s.starts_with("postgresql://") {
            Location::Postgres(s.to_owned())
        } else {
            Location::Sqlite(PathBuf::from(s))
        }
    }

    /// Whether data outlives the process.
    pub fn durable(&self) -> bool {
        !matches!(self, Location::Memory)
    }

    /// For messages: the path or the URL without its password (the user information of a
    /// URL, and any `password=` parameter of its query or of a `key=value` string).
    pub fn describe(&self) -> String {
        match self {
            Location::Sqlite(p) => p.display().to_string(),
            Location::Memory => ":memory:".into(),
            Location::Postgres(url) => {
                let url = match (url.find("://"), url.rfind('@')) {
                    (Some(s), Some(at)) if at > s => {
                        format!("{}***{}", &url[..s + 3], &url[at..])
                    }
                    _ => url.clone(),
                };
                hide_password_parameter(&url)
            }
        }
    }
}

/// `password=SECRET` (in a URL's query or a `key=value` string) as `password=***`.
fn hide_password_parameter(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("password=") {
        let starts_key = i == 0 || matches!(rest.as_bytes()[i - 1], b'?' | b'&' | b' ' | b'\t');
        out.push_str(&rest[..i + "password=".len()]);
        rest = &rest[i + "password=".len()..];
        if starts_key {
            out.push_str("***");
            let end = rest.find(['&', ' ', '\t']).unwrap_or(rest.len());
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

/// How to open the store.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// Where.
    pub location: Location,
    /// SQLite commit strength.
    pub sync: Sync,
    /// This server's name among several sharing one database: it runs (and recovers) only
    /// the tables it created.
    pub instance: String,
    /// SQLite: cap on the file size in bytes (0: none); writes beyond it fail as `STORE_FULL`.
    pub max_bytes: u64,
}

impl Default for StoreOptions {
    fn default() -> Self {
        StoreOptions {
            location: Location::Memory,
            sync: Sync::Full,
            instance: "main".into(),
            max_bytes: 0,
        }
    }
}

type ReadJob = Box<dyn FnOnce(&mut dyn Conn) + Send>;

enum Job {
    Write(Vec<Write>, oneshot::Sender<Result<(), StoreError>>),
    Read(ReadJob),
}

/// A handle to the store's thread; cheap to clone.
#[derive(Clone)]
pub struct Store {
    tx: mpsc::Sender<Job>,
    kind: &'static str,
    durable: bool,
    instance: String,
}

/// What opening found.
#[derive(Debug)]
pub struct Opened {
    /// The store.
    pub store: Store,
    /// This instance's tables that were not over, to be rebuilt.
    pub tables: Vec<StoredTable>,
    /// Migrations applied now.
    pub migrated: Vec<i64>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("kind", &self.kind)
            .field("instance", &self.instance)
            .finish()
    }
}

fn connect(options: &StoreOptions) -> Result<Box<dyn Conn>, StoreError> {
    Ok(match &options.location {
        Location::Memory => Box::new(sqlite::Sqlite::open(None, options.sync)?),
        Location::Sqlite(path) => {
            let mut db = sqlite::Sqlite::open(Some(path), options.sync)?;
            if options.max_bytes > 0 {
                db.limit_size(options.max_bytes)?;
            }
            Box::new(db)
        }
        Location::Postgres(url) => Box::new(postgres::Postgres::connect(url, &options.instance)?),
    })
}

/// A connection to the database at `location` for managing players beside a server that may
/// be running on it (SQLite without the server's lock, PostgreSQL without an instance lock),
/// migrated to this server's schema (created when missing).
pub fn open_beside(location: &Location) -> Result<Box<dyn Conn>, StoreError> {
    let mut conn: Box<dyn Conn> = match location {
        Location::Memory => {
            return Err(StoreError::Other(
                "players are kept in a database: give --db FILE or --database-url URL".into(),
            ));
        }
        Location::Sqlite(path) => Box::new(sqlite::Sqlite::open_beside(path)?),
        Location::Postgres(url) => Box::new(postgres::Postgres::connect_unlocked(url)?),
    };
    migrate::migrate_to(conn.as_mut(), migrate::latest())?;
    Ok(conn)
}

/// The figures of the database at `location` read beside a server that may be running on it:
/// SQLite is opened read-only and without the server's lock, PostgreSQL without an instance
/// lock. Nothing is created or migrated.
pub fn read_stats(location: &Location) -> Result<DbStats, StoreError> {
    let mut conn: Box<dyn Conn> = match location {
        Location::Memory => {
            return Err(StoreError::Other(
                "an in-memory database has nothing to inspect".into(),
            ));
        }
        Location::Sqlite(path) => Box::new(sqlite::Sqlite::open_read_only(path)?),
        Location::Postgres(url) => Box::new(postgres::Postgres::connect_unlocked(url)?),
    };
    // Read, not `migrate::current`, which creates the version table when it is missing.
    let version = match conn.query("SELECT MAX(version) FROM schema_migrations", &[]) {
        Ok(rows) => rows.first().and_then(|r| r.first()).map_or(0, Value::int),
        // SQLite's "no such table", PostgreSQL's 42P01 "relation ... does not exist": an
        // empty or foreign database. Anything else (busy, no permission) is said as it is.
        Err(StoreError::Other(m)) if m.contains("no such table") || m.contains("42P01") => 0,
        Err(e) => return Err(e),
    };
    if version == 0 {
        return Err(StoreError::Corrupt(format!(
            "{} holds no calabresella tables (a server creates them when it starts)",
            location.describe()
        )));
    }
    if version > migrate::latest() {
        return Err(StoreError::TooNew {
            found: version,
            known: migrate::latest(),
        });
    }
    upkeep::stats(conn.as_mut())
}

impl Store {
    /// Opens the store on its own thread: connects, checks the database, applies pending
    /// migrations, and loads this instance's unfinished tables.
    pub async fn open(options: StoreOptions) -> Result<Opened, StoreError> {
        Store::open_at(options, migrate::latest()).await
    }

    /// [`Store::open`], migrating only up to schema `version` (for migration tests).
    pub async fn open_at(options: StoreOptions, version: i64) -> Result<Opened, StoreError> {
        let (tx, rx) = mpsc::channel(QUEUE);
        let (ready_tx, ready_rx) = oneshot::channel();
        let instance = options.instance.clone();
        let durable = options.location.durable();
        std::thread::Builder::new()
            .name("calabresella-store".into())
            .spawn(move || {
                batch::schedule_as_batch();
                let opened = connect(&options).and_then(|mut conn| {
                    let migrated = migrate::migrate_to(conn.as_mut(), version)?;
                    let tables = if version >= 1 {
                        log::load_open(conn.as_mut(), &options.instance, version)?
                    } else {
                        Vec::new()
                    };
                    Ok((conn, migrated, tables))
                });
                match opened {
                    Ok((conn, migrated, tables)) => {
                        let kind = conn.kind();
                        if ready_tx.send(Ok((kind, migrated, tables))).is_ok() {
                            run(conn, rx);
                        }
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            })
            .map_err(|e| StoreError::Other(format!("cannot start the store thread: {e}")))?;
        let (kind, migrated, tables) = ready_rx.await.map_err(|_| StoreError::Closed)??;
        Ok(Opened {
            store: Store {
                tx,
                kind,
                durable,
                instance,
            },
            tables,
            migrated,
        })
    }

    /// An in-memory store (nothing survives the process).
    pub async fn memory() -> Result<Store, StoreError> {
        Ok(Store::open(StoreOptions::default()).await?.store)
    }

    /// `sqlite` or `postgres`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }

    /// Whether data outlives the process.
    pub fn durable(&self) -> bool {
        self.durable
    }

    /// This server's instance name.
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Stores `writes` in one transaction (possibly shared with other callers' writes);
    /// returns once they are committed.
    pub async fn write(&self, writes: Vec<Write>) -> Result<(), StoreError> {
        let (tx, rx) = oneshot::channel();
        self.tx
            .send(Job::Write(writes, tx))
            .await
            .map_err(|_| StoreError::Closed)?;
        self.queued();
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Runs `f` on the store's connection, between commits.
    pub async fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut dyn Conn) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = oneshot::channel();
        let job: ReadJob = Box::new(move |conn| {
            let _ = tx.send(f(conn));
        });
        self.tx
            .send(Job::Read(job))
            .await
            .map_err(|_| StoreError::Closed)?;
        self.queued();
        rx.await.map_err(|_| StoreError::Closed)?
    }

    /// Updates the queue-depth metric as a job is queued: while a commit hangs (a stalled
    /// disk, a database gone) the depth grows, which is what an operator's alert watches.
    fn queued(&self) {
        crate::metrics::store_queue_depth(self.tx.max_capacity() - self.tx.capacity());
    }

    /// Makes the store refuse (or accept again) every write, as a read-only disk would.
    pub async fn set_read_only(&self, on: bool) -> Result<(), StoreError> {
        self.read(move |c| c.set_read_only(on)).await
    }

    /// Finished matches matching `filter`, newest first, and whether more follow.
    pub async fn matches(
        &self,
        filter: RecordFilter,
    ) -> Result<(Vec<MatchSummary>, bool), StoreError> {
        self.read(move |c| records::list(c, &filter)).await
    }

    /// The record (format v1, JSON) of a finished match.
    pub async fn record(&self, table_id: String) -> Result<Option<String>, StoreError> {
        self.read(move |c| records::record(c, &table_id)).await
    }

    /// A finished match kept in the store, with the spec (JSON) of its table if that is kept
    /// too.
    pub async fn finished(
        &self,
        table_id: String,
    ) -> Result<Option<(MatchSummary, Option<String>)>, StoreError> {
        self.read(move |c| {
            let Some(m) = records::finished(c, &table_id)? else {
                return Ok(None);
            };
            Ok(Some((m, log::spec(c, &table_id)?)))
        })
        .await
    }

    /// The owner and state of a stored table, if any.
    pub async fn owner(&self, table_id: String) -> Result<Option<(String, String)>, StoreError> {
        self.read(move |c| log::owner(c, &table_id)).await
    }

    /// Deletes the tables that ended abandoned with no hand played before `before_unix_ms`
    /// (their records are empty); returns how many.
    pub async fn prune_abandoned(&self, before_unix_ms: i64) -> Result<u64, StoreError> {
        let mut total = 0;
        // One store job per batch: the tables' writes go in between.
        loop {
            let n = self
                .read(move |c| upkeep::prune_abandoned_batch(c, before_unix_ms))
                .await?;
            total += n;
            if n < upkeep::PRUNE_BATCH as u64 {
                return Ok(total);
            }
        }
    }

    /// What the database holds, and its size.
    pub async fn stats(&self) -> Result<DbStats, StoreError> {
        self.read(upkeep::stats).await
    }

    /// Gives the database's free space back (`VACUUM`).
    pub async fn vacuum(&self) -> Result<(), StoreError> {
        self.read(upkeep::vacuum).await
    }

    /// The registered player a key belongs to, and whether it is disabled.
    pub async fn player_by_key(&self, key: String) -> Result<Option<(String, bool)>, StoreError> {
        self.read(move |c| players::by_key(c, &key)).await
    }

    /// The registered player whose name looks like `name`, if any.
    pub async fn registered_like(&self, name: String) -> Result<Option<String>, StoreError> {
        self.read(move |c| players::registered_like(c, &name)).await
    }

    /// Per-player results (optionally of one game), best rating first.
    pub async fn results(&self, game: String) -> Result<Vec<PlayerResult>, StoreError> {
        self.read(move |c| ratings::results(c, &game)).await
    }

    /// What the page of player `name` is computed from (see [`player_page::rows`]).
    pub async fn player(
        &self,
        name: String,
    ) -> Result<Option<player_page::PlayerRows>, StoreError> {
        self.read(move |c| player_page::rows(c, &name)).await
    }
}

/// The store thread: commits queued writes in batches, runs reads between them.
fn run(mut conn: Box<dyn Conn>, mut rx: mpsc::Receiver<Job>) {
    while let Some(job) = rx.blocking_recv() {
        let (writes, ack) = match job {
            Job::Read(f) => {
                f(conn.as_mut());
                continue;
            }
            Job::Write(w, ack) => (w, ack),
        };
        let mut batch = vec![(writes, ack)];
        let mut count = batch[0].0.len();
        let mut after = None;
        while count < MAX_BATCH {
            match rx.try_recv() {
                Ok(Job::Write(w, ack)) => {
                    count += w.len();
                    batch.push((w, ack));
                }
                Ok(Job::Read(f)) => {
                    after = Some(f);
                    break;
                }
                Err(_) => break,
            }
        }
        let started = std::time::Instant::now();
        commit(conn.as_mut(), batch);
        crate::metrics::store_commit(started.elapsed());
        crate::metrics::store_queue_depth(rx.len());
        if let Some(f) = after {
            f(conn.as_mut());
        }
    }
}

type Pending = (Vec<Write>, oneshot::Sender<Result<(), StoreError>>);

/// Commits a batch in one transaction; when that fails, each caller's writes are tried alone
/// so one bad write does not fail the others.
fn commit(conn: &mut dyn Conn, batch: Vec<Pending>) {
    let all: Vec<&Write> = batch.iter().flat_map(|(w, _)| w.iter()).collect();
    match transaction(conn, &all) {
        Ok(()) => {
            for (_, ack) in batch {
                let _ = ack.send(Ok(()));
            }
        }
        Err(e) if batch.len() == 1 => {
            for (_, ack) in batch {
                let _ = ack.send(Err(e.clone()));
            }
        }
        Err(_) => {
            for (writes, ack) in batch {
                let one: Vec<&Write> = writes.iter().collect();
                let _ = ack.send(transaction(conn, &one));
            }
        }
    }
}

fn transaction(conn: &mut dyn Conn, writes: &[&Write]) -> Result<(), StoreError> {
    conn.batch("BEGIN")?;
    match log::apply(conn, writes).and_then(|()| conn.batch("COMMIT")) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = conn.batch("ROLLBACK");
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_location_is_described_without_its_passwords() {
        let d = |s: &str| Location::Postgres(s.into()).describe();
        assert_eq!(d("postgres://u:pw@h/db"), "postgres://***@h/db");
        assert_eq!(
            d("postgres://h/db?password=hunter2&sslmode=verify-full"),
            "postgres://h/db?password=***&sslmode=verify-full"
        );
        assert_eq!(
            d("host=h password=hunter2 dbname=d"),
            "host=h password=*** dbname=d"
        );
        assert_eq!(
            d("postgres://h/db?mypassword=x"),
            "postgres://h/db?mypassword=x"
        );
    }
}
