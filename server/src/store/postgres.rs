//! The PostgreSQL backend, for deployments that run several server instances on one
//! database. An advisory lock per instance id keeps two processes from claiming the same
//! tables.

use postgres::error::SqlState;
use postgres::types::{ToSql, Type};
use postgres::{Client, Statement};
use std::collections::HashMap;

use super::StoreError;
use super::conn::{Conn, Row, Value};

/// A PostgreSQL connection.
pub struct Postgres {
    client: Client,
    /// Prepared statements by text: a statement is parsed and planned once per connection.
    prepared: HashMap<String, Statement>,
}

fn error(e: postgres::Error) -> StoreError {
    let text = match e.as_db_error() {
        Some(db) => format!("{}: {}", db.code().code(), db.message()),
        None => e.to_string(),
    };
    match e.code() {
        Some(c) if *c == SqlState::DISK_FULL || *c == SqlState::PROGRAM_LIMIT_EXCEEDED => {
            StoreError::Full(text)
        }
        Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => StoreError::ReadOnly(text),
        Some(c) if *c == SqlState::DATA_CORRUPTED || *c == SqlState::INDEX_CORRUPTED => {
            StoreError::Corrupt(text)
        }
        _ => StoreError::Other(text),
    }
}

impl Postgres {
    /// Connects to `url` (`postgres://user:pass@host:port/db`) and takes the advisory lock
    /// of `instance`.
    pub fn connect(url: &str, instance: &str) -> Result<Postgres, StoreError> {
        let mut db = Postgres::connect_unlocked(url)?;
        let locked: bool = db
            .client
            .query_one(
                "SELECT pg_try_advisory_lock(7163, hashtext($1))",
                &[&instance],
            )
            .map_err(error)?
            .get(0);
        if !locked {
            return Err(StoreError::Locked(format!(
                "another calabresella server runs as instance {instance:?} on this database"
            )));
        }
        Ok(db)
    }

    /// Connects to `url` without an instance lock: for reading figures beside running
    /// servers.
    pub fn connect_unlocked(url: &str) -> Result<Postgres, StoreError> {
        let client = super::pg_tls::connect(url)?;
        Ok(Postgres {
            client,
            prepared: HashMap::new(),
        })
    }
}

impl Postgres {
    fn statement(&mut self, sql: &str) -> Result<Statement, StoreError> {
        if let Some(s) = self.prepared.get(sql) {
            return Ok(s.clone());
        }
        let s = self.client.prepare(sql).map_err(error)?;
        if self.prepared.len() >= 256 {
            self.prepared.clear();
        }
        self.prepared.insert(sql.to_owned(), s.clone());
        Ok(s)
    }
}

fn bind(params: &[Value]) -> Vec<Box<dyn ToSql + Sync>> {
    params
        .iter()
        .map(|v| -> Box<dyn ToSql + Sync> {
            match v {
                Value::Null => Box::new(Option::<String>::None),
                Value::Int(i) => Box::new(*i),
                Value::Text(t) => Box::new(t.clone()),
            }
        })
        .collect()
}

impl Conn for Postgres {
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError> {
        let owned = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = owned.iter().map(|b| b.as_ref()).collect();
        let statement = self.statement(sql)?;
        self.client.execute(&statement, &refs).map_err(error)
    }

    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError> {
        let owned = bind(params);
        let refs: Vec<&(dyn ToSql + Sync)> = owned.iter().map(|b| b.as_ref()).collect();
        let statement = self.statement(sql)?;
        let rows = self.client.query(&statement, &refs).map_err(error)?;
        Ok(rows
            .iter()
            .map(|r| {
                (0..r.len())
                    .map(|i| match *r.columns()[i].type_() {
                        Type::INT8 => r.get::<_, Option<i64>>(i).map_or(Value::Null, Value::Int),
                        Type::INT4 => r
                            .get::<_, Option<i32>>(i)
                            .map_or(Value::Null, |v| Value::Int(i64::from(v))),
                        Type::NUMERIC => Value::Null,
                        _ => r
                            .try_get::<_, Option<String>>(i)
                            .ok()
                            .flatten()
                            .map_or(Value::Null, Value::Text),
                    })
                    .collect()
            })
            .collect())
    }

    fn batch(&mut self, sql: &str) -> Result<(), StoreError> {
        self.client.batch_execute(sql).map_err(error)
    }

    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn set_read_only(&mut self, on: bool) -> Result<(), StoreError> {
        self.client
            .batch_execute(if on {
                "SET default_transaction_read_only = on"
            } else {
                "SET default_transaction_read_only = off"
            })
            .map_err(error)
    }
}
