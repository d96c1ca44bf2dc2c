//! [`Registry`]: every table by id. Creating a table spawns its task; the task removes its own
//! entry when it expires.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock, Weak};

use calabresella_proto::v1;
use tokio::sync::{mpsc, oneshot};

use crate::config::ServerConfig;
use crate::error::ServiceError;
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
}

impl Registry {
    /// An empty registry.
    pub fn new(config: Arc<ServerConfig>) -> Arc<Registry> {
        Arc::new(Registry {
            tables: RwLock::new(HashMap::new()),
            counter: AtomicU64::new(0),
            config,
        })
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

    /// Creates a table and starts its task; returns its handle.
    pub fn create(self: &Arc<Self>, spec: TableSpec) -> Result<TableHandle, ServiceError> {
        let id = format!(
            "t-{}",
            os_random::<8>()?
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        );
        let table = Table::new(id.clone(), spec, self.config.clone())?;
        let (tx, rx) = mpsc::channel(TABLE_QUEUE);
        let handle = TableHandle { id: id.clone(), tx };
        {
            let mut tables = self.write();
            if tables.len() >= self.config.max_tables {
                return Err(ServiceError::Exhausted(
                    "TOO_MANY_TABLES",
                    format!("the server holds {} tables, its limit", tables.len()),
                ));
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

    /// Ends every table's match (server shutdown): their streams end with `MatchEnded`.
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
