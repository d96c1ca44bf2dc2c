//! Submitted bots: every version with its owner, hash and file, and the logs of their runs.

use super::StoreError;
use super::conn::{Conn, Value};

/// One stored version of a bot (its file apart: [`content`] reads it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotRow {
    /// The bot's name.
    pub name: String,
    /// The version, from 1.
    pub version: u32,
    /// The registered player who owns it.
    pub owner: String,
    /// SHA-256 of the file, hex.
    pub sha256: String,
    /// The file's size in bytes.
    pub size: u64,
    /// The file's name as uploaded.
    pub file_name: String,
    /// What runs: the file, or the entry point within the archive.
    pub entry: String,
    /// `python` or `executable`.
    pub runtime: String,
    /// When it was submitted (Unix ms).
    pub submitted_unix_ms: i64,
}

const COLUMNS: &str =
    "name, version, owner, sha256, size, file_name, entry, runtime, submitted_unix_ms";

fn row(mut r: Vec<Value>) -> BotRow {
    BotRow {
        name: r[0].take_text(),
        version: r[1].int().clamp(0, i64::from(u32::MAX)) as u32,
        owner: r[2].take_text(),
        sha256: r[3].take_text(),
        size: r[4].int().max(0) as u64,
        file_name: r[5].take_text(),
        entry: r[6].take_text(),
        runtime: r[7].take_text(),
        submitted_unix_ms: r[8].int(),
    }
}

/// The owner of the bot `name`, if it exists.
pub fn owner(conn: &mut dyn Conn, name: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query(
            "SELECT owner FROM bot_versions WHERE name = $1 LIMIT 1",
            &[name.into()],
        )?
        .into_iter()
        .next()
        .map(|mut r| r[0].take_text()))
}

/// What `owner` has stored: versions and bytes.
pub fn usage(conn: &mut dyn Conn, owner: &str) -> Result<(u64, u64), StoreError> {
    let rows = conn.query(
        "SELECT COUNT(*), COALESCE(SUM(size), 0) FROM bot_versions WHERE owner = $1",
        &[owner.into()],
    )?;
    Ok(rows
        .first()
        .map(|r| (r[0].int().max(0) as u64, r[1].int().max(0) as u64))
        .unwrap_or_default())
}

/// Stores the next version of `row.name` (its `version` is ignored) with its base64 file;
/// returns the version given. The caller checked the owner.
pub fn add(conn: &mut dyn Conn, row: &BotRow, content: &str) -> Result<u32, StoreError> {
    let next = conn
        .query(
            "SELECT COALESCE(MAX(version), 0) FROM bot_versions WHERE name = $1",
            &[row.name.as_str().into()],
        )?
        .first()
        .map(|r| r[0].int())
        .unwrap_or(0)
        + 1;
    conn.execute(
        "INSERT INTO bot_versions (name, version, owner, sha256, size, file_name, entry, \
         runtime, content, submitted_unix_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        &[
            row.name.as_str().into(),
            next.into(),
            row.owner.as_str().into(),
            row.sha256.as_str().into(),
            (row.size as i64).into(),
            row.file_name.as_str().into(),
            row.entry.as_str().into(),
            row.runtime.as_str().into(),
            content.into(),
            row.submitted_unix_ms.into(),
        ],
    )?;
    Ok(next as u32)
}

/// Version `version` of `name`, or its latest when `None`.
pub fn get(
    conn: &mut dyn Conn,
    name: &str,
    version: Option<u32>,
) -> Result<Option<BotRow>, StoreError> {
    let rows = match version {
        Some(v) => conn.query(
            &format!("SELECT {COLUMNS} FROM bot_versions WHERE name = $1 AND version = $2"),
            &[name.into(), i64::from(v).into()],
        )?,
        None => conn.query(
            &format!(
                "SELECT {COLUMNS} FROM bot_versions WHERE name = $1 ORDER BY version DESC LIMIT 1"
            ),
            &[name.into()],
        )?,
    };
    Ok(rows.into_iter().next().map(row))
}

/// The file of version `version` of `name` (base64).
pub fn content(
    conn: &mut dyn Conn,
    name: &str,
    version: u32,
) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query(
            "SELECT content FROM bot_versions WHERE name = $1 AND version = $2",
            &[name.into(), i64::from(version).into()],
        )?
        .into_iter()
        .next()
        .map(|mut r| r[0].take_text()))
}

/// Every version, by name then version; only `owner`'s when given.
pub fn list(conn: &mut dyn Conn, owner: Option<&str>) -> Result<Vec<BotRow>, StoreError> {
    let rows = match owner {
        Some(o) => conn.query(
            &format!("SELECT {COLUMNS} FROM bot_versions WHERE owner = $1 ORDER BY name, version"),
            &[o.into()],
        )?,
        None => conn.query(
            &format!("SELECT {COLUMNS} FROM bot_versions ORDER BY name, version"),
            &[],
        )?,
    };
    Ok(rows.into_iter().map(row).collect())
}

/// A run's log, as kept for its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BotLog {
    /// The table.
    pub table_id: String,
    /// The seat.
    pub seat: u32,
    /// `submitted:NAME@VERSION`.
    pub bot: String,
    /// Its owner.
    pub owner: String,
    /// The end of what it wrote to standard error.
    pub stderr: String,
    /// Its fault (`TLE`, `MLE`, `RE`, `BAD_OUTPUT`), or empty.
    pub fault: String,
    /// What happened, in words.
    pub detail: String,
    /// When the run ended (Unix ms).
    pub ended_unix_ms: i64,
}

/// Keeps a run's log (a second run at the same seat, after a restart, replaces it).
pub fn save_log(conn: &mut dyn Conn, log: &BotLog) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM bot_logs WHERE table_id = $1 AND seat = $2",
        &[log.table_id.as_str().into(), i64::from(log.seat).into()],
    )?;
    conn.execute(
        "INSERT INTO bot_logs (table_id, seat, bot, owner, stderr, fault, detail, ended_unix_ms) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        &[
            log.table_id.as_str().into(),
            i64::from(log.seat).into(),
            log.bot.as_str().into(),
            log.owner.as_str().into(),
            log.stderr.as_str().into(),
            log.fault.as_str().into(),
            log.detail.as_str().into(),
            log.ended_unix_ms.into(),
        ],
    )?;
    Ok(())
}

/// The log of the bot at `seat` of `table_id`.
pub fn log(conn: &mut dyn Conn, table_id: &str, seat: u32) -> Result<Option<BotLog>, StoreError> {
    Ok(conn
        .query(
            "SELECT table_id, seat, bot, owner, stderr, fault, detail, ended_unix_ms FROM bot_logs \
             WHERE table_id = $1 AND seat = $2",
            &[table_id.into(), i64::from(seat).into()],
        )?
        .into_iter()
        .next()
        .map(|mut r| BotLog {
            table_id: r[0].take_text(),
            seat: r[1].int().clamp(0, i64::from(u32::MAX)) as u32,
            bot: r[2].take_text(),
            owner: r[3].take_text(),
            stderr: r[4].take_text(),
            fault: r[5].take_text(),
            detail: r[6].take_text(),
            ended_unix_ms: r[7].int(),
        }))
}
