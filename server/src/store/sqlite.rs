//! The SQLite backend: one file, write-ahead logging, `synchronous=FULL` by default so a
//! committed action survives a power cut as well as a `kill -9`. A lock file keeps a second
//! server off the same database.

use std::fs::File;
use std::path::{Path, PathBuf};

use rusqlite::types::ValueRef;
use rusqlite::{Connection, ErrorCode, OpenFlags};

use super::conn::{Conn, Row, Value};
use super::{StoreError, Sync};

/// An open SQLite database.
pub struct Sqlite {
    conn: Connection,
    /// Held for the connection's life: the lock that keeps other servers out.
    _lock: Option<File>,
}

fn error(e: rusqlite::Error) -> StoreError {
    let text = e.to_string();
    match e.sqlite_error_code() {
        Some(ErrorCode::DiskFull) => StoreError::Full(text),
        Some(ErrorCode::ReadOnly) | Some(ErrorCode::PermissionDenied) => StoreError::ReadOnly(text),
        Some(ErrorCode::NotADatabase) | Some(ErrorCode::DatabaseCorrupt) => {
            StoreError::Corrupt(text)
        }
        Some(ErrorCode::DatabaseBusy) | Some(ErrorCode::DatabaseLocked) => StoreError::Locked(text),
        _ => StoreError::Other(text),
    }
}

fn bind(params: &[Value]) -> Vec<rusqlite::types::Value> {
    params
        .iter()
        .map(|v| match v {
            Value::Null => rusqlite::types::Value::Null,
            Value::Int(i) => rusqlite::types::Value::Integer(*i),
            Value::Text(t) => rusqlite::types::Value::Text(t.clone()),
        })
        .collect()
}

impl Sqlite {
    /// Opens (creating when missing) the database at `path`, or a private in-memory one for
    /// `None`. Checks that the file is a sound SQLite database before anything is written.
    pub fn open(path: Option<&Path>, sync: Sync) -> Result<Sqlite, StoreError> {
        Sqlite::open_with(path, sync, true)
    }

    /// Opens (creating when missing) the database at `path` for a few small writes beside a
    /// server that may be running on it (managing players): without the server's lock, which
    /// only keeps two servers apart; write-ahead logging and the busy timeout let the two
    /// writers take turns.
    pub fn open_beside(path: &Path) -> Result<Sqlite, StoreError> {
        Sqlite::open_with(Some(path), Sync::Full, false)
    }

    fn open_with(path: Option<&Path>, sync: Sync, locked: bool) -> Result<Sqlite, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let (conn, lock) = match path {
            None => (Connection::open_in_memory().map_err(error)?, None),
            Some(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        StoreError::ReadOnly(format!("cannot create {}: {e}", dir.display()))
                    })?;
                }
                let lock = if locked { Some(lock_file(path)?) } else { None };
                let conn = Connection::open_with_flags(path, flags).map_err(error)?;
                (conn, lock)
            }
        };
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(error)?;
        conn.set_prepared_statement_cache_capacity(64);
        // Reading the header first turns a file that is not a database into a clear error.
        conn.query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0))
            .map_err(error)?;
        if path.is_some() {
            let mode: String = conn
                .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
                .map_err(error)?;
            if !mode.eq_ignore_ascii_case("wal") {
                return Err(StoreError::Other(format!(
                    "could not switch the database to write-ahead logging (mode {mode})"
                )));
            }
        }
        conn.execute_batch(match sync {
            Sync::Full => "PRAGMA synchronous=FULL",
            Sync::Normal => "PRAGMA synchronous=NORMAL",
        })
        .map_err(error)?;
        let mut db = Sqlite { conn, _lock: lock };
        db.check()?;
        Ok(db)
    }

    /// Opens the database at `path` read-only, without taking the server's lock (a running
    /// server's committed writes are visible: write-ahead logging lets readers in). A missing
    /// file is an error, never created.
    pub fn open_read_only(path: &Path) -> Result<Sqlite, StoreError> {
        if !path.is_file() {
            return Err(StoreError::Other(format!(
                "there is no database at {}",
                path.display()
            )));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(error)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(error)?;
        conn.query_row("PRAGMA schema_version", [], |r| r.get::<_, i64>(0))
            .map_err(error)?;
        Ok(Sqlite { conn, _lock: None })
    }

    /// `PRAGMA quick_check`: every page and index is readable and consistent.
    fn check(&mut self) -> Result<(), StoreError> {
        let mut stmt = self.conn.prepare("PRAGMA quick_check").map_err(error)?;
        let problems: Vec<String> = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(error)?
            .collect::<Result<_, _>>()
            .map_err(error)?;
        if problems.len() == 1 && problems[0] == "ok" {
            return Ok(());
        }
        Err(StoreError::Corrupt(format!(
            "integrity check failed: {}",
            problems.join("; ")
        )))
    }

    /// Caps the database file at about `bytes` (beyond it writes fail as on a full disk).
    pub fn limit_size(&mut self, bytes: u64) -> Result<(), StoreError> {
        let page: i64 = self
            .conn
            .query_row("PRAGMA page_size", [], |r| r.get(0))
            .map_err(error)?;
        let pages = (bytes / page.max(512) as u64).max(1);
        self.conn
            .query_row(&format!("PRAGMA max_page_count={pages}"), [], |r| {
                r.get::<_, i64>(0)
            })
            .map_err(error)?;
        Ok(())
    }
}

/// Takes `PATH.lock`; a second server on the same file is refused at start.
fn lock_file(path: &Path) -> Result<File, StoreError> {
    let mut name = PathBuf::from(path).into_os_string();
    name.push(".lock");
    let file = File::create(&name).map_err(|e| {
        StoreError::ReadOnly(format!("cannot create {}: {e}", Path::new(&name).display()))
    })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(StoreError::Locked(format!(
            "{} is in use by another calabresella server",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(StoreError::Other(format!(
            "cannot lock {}: {e}",
            Path::new(&name).display()
        ))),
    }
}

impl Conn for Sqlite {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(error)?;
        let n = stmt
            .execute(rusqlite::params_from_iter(bind(params)))
            .map_err(error)?;
        Ok(n as u64)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(error)?;
        let columns = stmt.column_count();
        let mut rows = stmt
            .query(rusqlite::params_from_iter(bind(params)))
            .map_err(error)?;
        let mut out = Vec::new();
        while let Some(r) = rows.next().map_err(error)? {
            let mut row = Vec::with_capacity(columns);
            for i in 0..columns {
                row.push(match r.get_ref(i).map_err(error)? {
                    ValueRef::Null => Value::Null,
                    ValueRef::Integer(i) => Value::Int(i),
                    ValueRef::Real(f) => Value::Int(f as i64),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Value::Text(String::from_utf8_lossy(t).into_owned())
                    }
                });
            }
            out.push(row);
        }
        Ok(out)
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.conn.execute_batch(sql).map_err(error)
    }

    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn set_read_only(&mut self, on: bool) -> Result<(), StoreError> {
        self.conn
            .execute_batch(if on {
                "PRAGMA query_only=ON"
            } else {
                "PRAGMA query_only=OFF"
            })
            .map_err(error)
    }
}
