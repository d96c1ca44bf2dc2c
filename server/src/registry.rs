//! [`Registry`]: every table by id. Creating a table spawns its task; the task removes its own
//! entry when it expires.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};
use std::time::{Duration, Instant};

use calabresella_proto::v1;
use tokio::sync::mpsc;

use crate::config::ServerConfig;
use crate::error::{Reason, ServiceError};
use crate::store::Store;
use crate::table::session::os_random;
use crate::table::{Command, Table, TableHandle, TableSpec};

/// Commands a table's task may have queued before callers wait.
const TABLE_QUEUE: usize = 128;

struct Entry {
    order: u64,
    handle: TableHandle,
}

/// All tables of this server.
pub struct Registry {
    tables: RwLock<HashMap<String, Entry>>,
    counter: AtomicU64,
    config: Arc<ServerConfig>,
    store: Store,
    /// What each client has created, and the finished tables in memory.
    load: Arc<Mutex<Load>>,
    /// The submitted bots' runner: it drives every table's submitted seats.
    bots: std::sync::OnceLock<Arc<crate::submitted::BotRunner>>,
}

/// The window of [`ServerConfig::max_creates_per_client_per_minute`].
const CREATION_WINDOW: Duration = Duration::from_secs(60);

/// Tables counted against the server's and each client's limits.
#[derive(Default)]
struct Load {
    /// Unfinished tables in all (a finished table takes no slot).
    open: usize,
    /// Per creating client address.
    clients: HashMap<String, ClientLoad>,
    /// Finished tables still in memory, oldest first. Weak: a table that has left on its
    /// own must not be kept waiting on its queue.
    finished: VecDeque<mpsc::WeakSender<Command>>,
    /// When the idle clients were last swept out.
    swept: Option<Instant>,
}

/// One client address's tables.
#[derive(Default)]
struct ClientLoad {
    /// Unfinished tables.
    open: usize,
    /// Unfinished tables of bots only.
    bots: usize,
    /// When it created tables within the last [`CREATION_WINDOW`], oldest first.
    created: VecDeque<Instant>,
}

impl ClientLoad {
    fn idle(&self) -> bool {
        self.open == 0 && self.bots == 0 && self.created.is_empty()
    }

    /// Forgets the creations that left the window.
    fn trim(&mut self, now: Instant) {
        while self
            .created
            .front()
            .is_some_and(|t| now.duration_since(*t) >= CREATION_WINDOW)
        {
            self.created.pop_front();
        }
    }
}

/// Clients beyond which the idle ones are swept out (at most once per window).
const CLIENTS_BEFORE_SWEEP: usize = 256;

impl Load {
    /// Whether the server may hold one more unfinished table (`max` of them at most).
    fn room(&self, max: usize) -> Result<(), ServiceError> {
        if self.open >= max {
            return Err(ServiceError::Exhausted(
                Reason::TooManyTables,
                format!("the server has {} unfinished tables, its limit", self.open),
            ));
        }
        Ok(())
    }

    /// An unfinished table of `creator` joins the counts.
    fn count(&mut self, creator: &str, bots_only: bool) {
        self.open += 1;
        let client = self.clients.entry(creator.to_owned()).or_default();
        client.open += 1;
        if bots_only {
            client.bots += 1;
        }
    }

    /// An unfinished table of `creator` leaves the counts (it ended, or its creation failed).
    fn release(&mut self, creator: &str, bots_only: bool) {
        self.open = self.open.saturating_sub(1);
        if let Some(c) = self.clients.get_mut(creator) {
            c.open = c.open.saturating_sub(1);
            if bots_only {
                c.bots = c.bots.saturating_sub(1);
            }
            c.trim(Instant::now());
            if c.idle() {
                self.clients.remove(creator);
            }
        }
    }

    /// Sweeps out the clients with nothing open and no creation in the window, when there
    /// are many and the last sweep is a window old: the map stays as small as the clients
    /// that are active.
    fn sweep_idle(&mut self, now: Instant) {
        if self.clients.len() < CLIENTS_BEFORE_SWEEP
            || self
                .swept
                .is_some_and(|t| now.duration_since(t) < CREATION_WINDOW)
        {
            return;
        }
        self.swept = Some(now);
        self.clients.retain(|_, c| {
            c.trim(now);
            !c.idle()
        });
    }

    /// A table ended: it leaves the counts, and joins the finished tables in memory; returns
    /// the oldest finished ones beyond `keep`, to be retired.
    fn ended(
        &mut self,
        creator: &str,
        bots_only: bool,
        handle: mpsc::WeakSender<Command>,
        keep: usize,
    ) -> Vec<mpsc::WeakSender<Command>> {
        self.release(creator, bots_only);
        self.finished.push_back(handle);
        let excess = self.finished.len().saturating_sub(keep);
        self.finished.drain(..excess).collect()
    }
}

impl Registry {
    /// An empty registry whose tables write to `store`.
    pub fn new(config: Arc<ServerConfig>, store: Store) -> Arc<Registry> {
        Arc::new(Registry {
            tables: RwLock::new(HashMap::new()),
            counter: AtomicU64::new(0),
            config,
            store,
            load: Arc::new(Mutex::new(Load::default())),
            bots: std::sync::OnceLock::new(),
        })
    }

    /// Sets the runner that drives submitted bots' seats (once, before any table starts).
    pub fn set_bots(&self, runner: Arc<crate::submitted::BotRunner>) {
        let _ = self.bots.set(runner);
    }

    /// The runner of submitted bots, if set.
    pub fn bots(&self) -> Option<&Arc<crate::submitted::BotRunner>> {
        self.bots.get()
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.config
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Entry>> {
        self.tables.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Entry>> {
        self.tables.write().unwrap_or_else(|e| e.into_inner())
    }

    /// Creates a table for client `creator`, stores it, and starts its task; returns its
    /// handle.
    pub async fn create(
        self: &Arc<Self>,
        spec: TableSpec,
        creator: String,
    ) -> Result<TableHandle, ServiceError> {
        self.create_as(spec, creator, true).await
    }

    /// Creates a table the server itself schedules (matchmaking, tournaments) under the
    /// creator name `creator`: only the server's limit on tables applies (the players' own
    /// budgets bound how many such tables there are).
    pub async fn create_scheduled(
        self: &Arc<Self>,
        spec: TableSpec,
        creator: String,
    ) -> Result<TableHandle, ServiceError> {
        self.create_as(spec, creator, false).await
    }

    async fn create_as(
        self: &Arc<Self>,
        spec: TableSpec,
        creator: String,
        per_client: bool,
    ) -> Result<TableHandle, ServiceError> {
        let id = format!(
            "t-{}",
            os_random::<8>()?
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        let table = Table::new(
            id,
            spec,
            self.config.clone(),
            self.store.clone(),
            creator,
            crate::store::now_ms(),
        )?;
        let (creator, bots_only) = (table.creator().to_owned(), table.bots_only());
        // Counted from here, so simultaneous creations cannot all pass the limits.
        if per_client {
            self.admit(&creator, bots_only)?;
        } else {
            let mut load = self.lock_load();
            load.room(self.config.max_tables)?;
            load.count(&creator, bots_only);
        }
        if let Err(e) = self.store.write(vec![table.creation()]).await {
            self.lock_load().release(&creator, bots_only);
            return Err(e.into());
        }
        self.start(table, true)
    }

    /// Starts the tables found in the store (their states rebuilt by replay); returns how
    /// many were started and the ones that could not be rebuilt, with why.
    pub fn restore(
        self: &Arc<Self>,
        stored: Vec<crate::store::StoredTable>,
    ) -> (usize, Vec<(String, String)>) {
        let mut started = 0;
        let mut failed = Vec::new();
        for s in stored {
            let id = s.id.clone();
            let restored = crate::table::stored::restore(
                s,
                self.config.clone(),
                self.store.clone(),
                self.config.epoch.clone(),
            );
            match restored
                .map_err(|e| e.to_string())
                .and_then(|t| self.start(t, false).map_err(|e| e.to_string()))
            {
                Ok(_) => started += 1,
                Err(e) => failed.push((id, e)),
            }
        }
        (started, failed)
    }

    fn lock_load(&self) -> std::sync::MutexGuard<'_, Load> {
        self.load.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether client `creator` may create a table now (of bots only, or with seats for
    /// people): its unfinished tables, its all-bot tables and its creations in the last
    /// minute are each within their limit. A creation admitted is counted in the window.
    fn admit(&self, creator: &str, bots_only: bool) -> Result<(), ServiceError> {
        let config = &self.config;
        let now = Instant::now();
        let mut guard = self.lock_load();
        let load = &mut *guard;
        load.sweep_idle(now);
        load.room(config.max_tables)?;
        let client = load.clients.entry(creator.to_owned()).or_default();
        client.trim(now);
        let refusal = if config.max_open_tables_per_client > 0
            && client.open >= config.max_open_tables_per_client
        {
            Some(ServiceError::Exhausted(
                Reason::TooManyTablesForClient,
                format!(
                    "this client has {} unfinished tables, the limit per client",
                    client.open
                ),
            ))
        } else if bots_only
            && config.max_bot_tables_per_client > 0
            && client.bots >= config.max_bot_tables_per_client
        {
            Some(ServiceError::Exhausted(
                Reason::TooManyTablesForClient,
                format!(
                    "this client has {} unfinished tables of bots only, the limit per client \
                     (tables with a seat for a person are not counted)",
                    client.bots
                ),
            ))
        } else if config.max_creates_per_client_per_minute > 0
            && client.created.len() >= config.max_creates_per_client_per_minute
        {
            Some(ServiceError::Exhausted(
                Reason::RateLimited,
                format!(
                    "this client created {} tables in the last minute, the limit per client",
                    client.created.len()
                ),
            ))
        } else {
            None
        };
        if let Some(e) = refusal {
            if client.idle() {
                load.clients.remove(creator);
            }
            return Err(e);
        }
        // The table counts from now on (released if its creation fails).
        client.created.push_back(now);
        load.count(creator, bots_only);
        Ok(())
    }

    /// Starts `table`'s task. `counted`: [`Registry::admit`] already counted it (a new
    /// table); a restored one is counted here.
    fn start(
        self: &Arc<Self>,
        mut table: Table,
        counted: bool,
    ) -> Result<TableHandle, ServiceError> {
        let id = table.id().to_owned();
        let (tx, rx) = mpsc::channel(TABLE_QUEUE);
        let handle = TableHandle {
            id: id.clone(),
            tx,
            summary: table.summary(),
        };
        {
            let mut tables = self.write();
            let mut load = self.lock_load();
            if !table.is_over() {
                let creator = table.creator().to_owned();
                let bots_only = table.bots_only();
                if !counted {
                    load.room(self.config.max_tables)?;
                    load.count(&creator, bots_only);
                }
                let counts = self.load.clone();
                let keep = self.config.max_finished_tables;
                // Weak: the table holds this closure, and its task ends only once every
                // sender of its queue is gone (a suspended table at shutdown, for one).
                let me = handle.tx.downgrade();
                table.on_end(move || {
                    let retire = counts
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .ended(&creator, bots_only, me, keep);
                    for old in retire.iter().filter_map(mpsc::WeakSender::upgrade) {
                        // A full queue means a busy table: its time to live retires it.
                        let _ = old.try_send(Command::Retire);
                    }
                });
            }
            let order = self.counter.fetch_add(1, Ordering::Relaxed);
            tables.insert(
                id.clone(),
                Entry {
                    order,
                    handle: handle.clone(),
                },
            );
        }
        let submitted = table.has_submitted_seats();
        let registry: Weak<Registry> = Arc::downgrade(self);
        tokio::spawn(table.run(rx, move |id| {
            if let Some(r) = registry.upgrade() {
                r.write().remove(id);
            }
        }));
        if submitted && let Some(bots) = self.bots.get() {
            bots.drive_table(handle.clone());
        }
        Ok(handle)
    }

    /// The table with `id`.
    pub fn get(&self, id: &str) -> Result<TableHandle, ServiceError> {
        self.read()
            .get(id)
            .map(|e| e.handle.clone())
            .ok_or_else(|| ServiceError::TableNotFound(id.to_owned()))
    }

    /// Registers a handle whose task the caller runs (or never runs): for tests of callers
    /// that must not depend on a table's task answering.
    #[cfg(test)]
    pub(crate) fn insert_handle(&self, handle: TableHandle) {
        let order = self.counter.fetch_add(1, Ordering::Relaxed);
        self.write()
            .insert(handle.id.clone(), Entry { order, handle });
    }

    /// Tables newest first, from position `offset`, at most `limit`.
    pub fn page(&self, offset: usize, limit: usize) -> (Vec<TableHandle>, bool) {
        let tables = self.read();
        let mut all: Vec<&Entry> = tables.values().collect();
        all.sort_by_key(|e| std::cmp::Reverse(e.order));
        let more = all.len() > offset + limit;
        (
            all.into_iter()
                .skip(offset)
                .take(limit)
                .map(|e| e.handle.clone())
                .collect(),
            more,
        )
    }

    /// Server shutdown: with a durable store every table is suspended (its streams end with
    /// `UNAVAILABLE`, and the next start restores it); otherwise every match ends and its
    /// streams end with `MatchEnded`.
    pub async fn shutdown_all(&self) {
        let handles: Vec<TableHandle> = self.read().values().map(|e| e.handle.clone()).collect();
        for h in handles {
            let _ = h.tx.send(Command::Shutdown).await;
        }
    }
}

/// The state filter of `ListTables`.
pub fn state_matches(filter: v1::TableState, table: &v1::Table) -> bool {
    filter == v1::TableState::Unspecified || table.state == filter as i32
}
