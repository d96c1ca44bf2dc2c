//! [`Conn`]: the little a store needs of a SQL connection, so every query and migration is
//! written once for SQLite and PostgreSQL. Values are only integers, text and NULL: the schema
//! uses `BIGINT` and `TEXT` alone, which both databases read the same way.

use super::StoreError;

/// A SQL value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// NULL.
    Null,
    /// A `BIGINT`.
    Int(i64),
    /// A `TEXT`.
    Text(String),
}

impl Value {
    /// The integer, or 0 for anything else.
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(i) => *i,
            _ => 0,
        }
    }

    /// The text, or "" for anything else.
    pub fn text(&self) -> &str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }

    /// Takes the text out, leaving NULL.
    pub fn take_text(&mut self) -> String {
        match std::mem::replace(self, Value::Null) {
            Value::Text(t) => t,
            _ => String::new(),
        }
    }
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}

/// One row of a result.
pub type Row = Vec<Value>;

/// A connection. Statements use `$1`, `$2`, ... placeholders, numbered in order of first use
/// (SQLite binds them by position, PostgreSQL by number).
pub trait Conn: Send {
    /// Runs one statement; returns the rows it changed.
    fn execute(&mut self, sql: &str, params: &[Value]) -> Result<u64, StoreError>;
    /// Runs a query; returns its rows.
    fn query(&mut self, sql: &str, params: &[Value]) -> Result<Vec<Row>, StoreError>;
    /// Runs several statements without parameters (migrations, `BEGIN`, `COMMIT`).
    fn batch(&mut self, sql: &str) -> Result<(), StoreError>;
    /// Which database: `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// Refuses (or allows again) every write, as a read-only disk would.
    fn set_read_only(&mut self, on: bool) -> Result<(), StoreError>;
}
