//! [`Registry`]: every table by id. Creating a table spawns its task; the task removes its own
//! entry when it expires.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock, Weak};

use calabresella_proto::v1;
use tokio::sync::{mpsc, oneshot};

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
    /// Unfinished tables per creating client address.
    open_by_client: Arc<Mutex<HashMap<String, usize>>>,
}

impl Registry {
    /// An empty registry whose tables write to `store`.
    pub fn new(config: Arc<ServerConfig>, store: Store) -> Arc<Registry> {
        Arc::new(Registry {
            tables: RwLock::new(HashMap::new()),
            counter: AtomicU64::new(0),
            config,
            store,
            open_by_client: Arc::new(Mutex::new(HashMap::new())),
        })
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
        self.check_room(table.creator())?;
        self.store.write(vec![table.creation()]).await?;
        self.start(table)
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
                .and_then(|t| self.start(t).map_err(|e| e.to_string()))
            {
                Ok(_) => started += 1,
                Err(e) => failed.push((id, e)),
            }
        }
        (started, failed)
    }

    fn check_room(&self, creator: &str) -> Result<(), ServiceError> {
        let limit = self.config.max_open_tables_per_client;
        let open = self
            .open_by_client
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(creator)
            .copied()
            .unwrap_or(0);
        if limit > 0 && open >= limit {
            return Err(ServiceError::Exhausted(
                Reason::TooManyTablesForClient,
                format!("this client has {open} unfinished tables, the limit per client"),
            ));
        }
        Ok(())
    }

    fn start(self: &Arc<Self>, mut table: Table) -> Result<TableHandle, ServiceError> {
        let id = table.id().to_owned();
        let (tx, rx) = mpsc::channel(TABLE_QUEUE);
        let handle = TableHandle {
            id: id.clone(),
            tx,
            summary: table.summary(),
        };
        {
            let mut tables = self.write();
            if tables.len() >= self.config.max_tables {
                return Err(ServiceError::Exhausted(
                    Reason::TooManyTables,
                    format!("the server holds {} tables, its limit", tables.len()),
                ));
            }
            if !table.is_over() {
                let creator = table.creator().to_owned();
                *self
                    .open_by_client
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(creator.clone())
                    .or_default() += 1;
                let counts = self.open_by_client.clone();
                table.on_end(move || {
                    let mut counts = counts.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(n) = counts.get_mut(&creator) {
                        *n = n.saturating_sub(1);
                        if *n == 0 {
                            counts.remove(&creator);
                        }
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
        let registry: Weak<Registry> = Arc::downgrade(self);
        tokio::spawn(table.run(rx, move |id| {
            if let Some(r) = registry.upgrade() {
                r.write().remove(id);
            }
        }));
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

/// Sends a command built around a reply channel and waits for the answer.
pub async fn ask<T>(
    handle: &TableHandle,
    make: impl FnOnce(oneshot::Sender<T>) -> Command,
) -> Result<T, ServiceError> {
    let (tx, rx) = oneshot::channel();
    handle
        .tx
        .send(make(tx))
        .await
        .map_err(|_| ServiceError::TableNotFound(handle.id.clone()))?;
    rx.await
        .map_err(|_| ServiceError::Unavailable(format!("table {} closed", handle.id)))
}

/// The state filter of `ListTables`.
pub fn state_matches(filter: v1::TableState, table: &v1::Table) -> bool {
    filter == v1::TableState::Unspecified || table.state == filter as i32
}
