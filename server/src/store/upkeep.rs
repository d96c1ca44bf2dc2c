//! Keeping the database small: retention of tables abandoned before their first hand, the
//! database's figures (`calabresella db stats`) and compaction (`calabresella db vacuum`).
//! Written once for SQLite and PostgreSQL over [`Conn`].

use std::collections::BTreeMap;

use serde::Serialize;

use super::StoreError;
use super::conn::{Conn, Value};

/// Tables one pruning transaction deletes at most, so a sweep never holds the store long.
pub(super) const PRUNE_BATCH: i64 = 500;

/// Deletes at most [`PRUNE_BATCH`] of the tables that ended `ABANDONED` with no hand played
/// (nobody came) before `before_unix_ms`: their match row, results, and table row, in one
/// transaction. Completed and forfeited matches, and abandoned ones with hands played, are
/// records and stay. Returns how many tables were deleted: fewer than the batch means none
/// is left.
pub(super) fn prune_abandoned_batch(
    conn: &mut dyn Conn,
    before_unix_ms: i64,
) -> Result<u64, StoreError> {
    let ids: Vec<String> = conn
        .query(
            "SELECT table_id FROM matches WHERE reason = 'ABANDONED' AND hands = 0 \
             AND ended_unix_ms < $1 ORDER BY ended_unix_ms LIMIT $2",
            &[before_unix_ms.into(), PRUNE_BATCH.into()],
        )?
        .into_iter()
        .filter_map(|mut r| r.first_mut().map(Value::take_text))
        .collect();
    if ids.is_empty() {
        return Ok(0);
    }
    conn.batch("BEGIN")?;
    let deleted = delete_tables(conn, &ids).and_then(|()| conn.batch("COMMIT"));
    if let Err(e) = deleted {
        let _ = conn.batch("ROLLBACK");
        return Err(e);
    }
    Ok(ids.len() as u64)
}

fn delete_tables(conn: &mut dyn Conn, ids: &[String]) -> Result<(), StoreError> {
    for id in ids {
        let id = Value::from(id.as_str());
        for sql in [
            "DELETE FROM results WHERE table_id = $1",
            "DELETE FROM actions WHERE table_id = $1",
            "DELETE FROM seats WHERE table_id = $1",
            "DELETE FROM matches WHERE table_id = $1",
            "DELETE FROM analyses WHERE table_id = $1",
            "DELETE FROM tables WHERE id = $1 AND state = 'ended'",
        ] {
            conn.execute(sql, std::slice::from_ref(&id))?;
        }
    }
    Ok(())
}

/// What the database holds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct DbStats {
    /// `sqlite` or `postgres`.
    pub kind: String,
    /// The database's size on disk (SQLite: the main file's pages; PostgreSQL: the whole
    /// database).
    pub bytes: u64,
    /// SQLite: bytes in free pages, which `db vacuum` gives back to the file system.
    pub free_bytes: u64,
    /// Tables waiting or playing.
    pub open_tables: u64,
    /// Tables whose match is over and stored.
    pub ended_tables: u64,
    /// Finished matches by how they ended (`COMPLETED`, `FORFEIT`, `ABANDONED`).
    pub matches: BTreeMap<String, u64>,
    /// Of those, abandoned before a hand was played (what retention removes).
    pub abandoned_unplayed: u64,
    /// Actions in the logs of unfinished tables.
    pub logged_actions: u64,
    /// Rows of the results table (one per player and finished match).
    pub result_rows: u64,
    /// Characters of every stored record together.
    pub record_chars: u64,
    /// Characters of the longest stored record.
    pub longest_record_chars: u64,
}

fn count(conn: &mut dyn Conn, sql: &str) -> Result<u64, StoreError> {
    let rows = conn.query(sql, &[])?;
    Ok(rows
        .first()
        .and_then(|r| r.first())
        .map_or(0, |v| v.int().max(0) as u64))
}

/// The database's figures.
pub fn stats(conn: &mut dyn Conn) -> Result<DbStats, StoreError> {
    let mut s = DbStats {
        kind: conn.kind().to_owned(),
        ..DbStats::default()
    };
    if conn.kind() == "sqlite" {
        let page = count(conn, "PRAGMA page_size")?;
        s.bytes = count(conn, "PRAGMA page_count")? * page;
        s.free_bytes = count(conn, "PRAGMA freelist_count")? * page;
    } else {
        s.bytes = count(
            conn,
            "SELECT CAST(pg_database_size(current_database()) AS BIGINT)",
        )?;
    }
    s.open_tables = count(conn, "SELECT COUNT(*) FROM tables WHERE state = 'open'")?;
    s.ended_tables = count(conn, "SELECT COUNT(*) FROM tables WHERE state = 'ended'")?;
    s.matches = conn
        .query(
            "SELECT reason, COUNT(*) FROM matches GROUP BY reason ORDER BY reason",
            &[],
        )?
        .into_iter()
        .map(|r| (r[0].text().to_owned(), r[1].int().max(0) as u64))
        .collect();
    s.abandoned_unplayed = count(
        conn,
        "SELECT COUNT(*) FROM matches WHERE reason = 'ABANDONED' AND hands = 0",
    )?;
    s.logged_actions = count(conn, "SELECT COUNT(*) FROM actions")?;
    s.result_rows = count(conn, "SELECT COUNT(*) FROM results")?;
    s.record_chars = count(
        conn,
        "SELECT CAST(COALESCE(SUM(LENGTH(record)), 0) AS BIGINT) FROM matches",
    )?;
    s.longest_record_chars = count(
        conn,
        "SELECT CAST(COALESCE(MAX(LENGTH(record)), 0) AS BIGINT) FROM matches",
    )?;
    Ok(s)
}

/// Gives free space back to the file system (SQLite: `VACUUM`, then the write-ahead log
/// truncated) or to the database (PostgreSQL: `VACUUM`).
pub fn vacuum(conn: &mut dyn Conn) -> Result<(), StoreError> {
    conn.batch("VACUUM")?;
    if conn.kind() == "sqlite" {
        conn.query("PRAGMA wal_checkpoint(TRUNCATE)", &[])?;
    }
    Ok(())
}
