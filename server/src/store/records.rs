//! Finished matches: listing them with filters, and fetching a record.

use super::StoreError;
use super::conn::{Conn, Value};

/// Most summaries one page holds.
pub const MAX_PAGE: usize = 500;

/// Which finished matches to list. Empty fields do not filter.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordFilter {
    /// Matches this player (exact name) sat in.
    pub player: String,
    /// Matches this player won.
    pub winner: String,
    /// Game name (`calabresella`, `tressette`, `tressette-in-due`).
    pub game: String,
    /// `COMPLETED`, `FORFEIT` or `ABANDONED`.
    pub reason: String,
    /// Ended at or after (ms since the epoch; 0: no bound).
    pub since_unix_ms: i64,
    /// Ended before (0: no bound).
    pub until_unix_ms: i64,
    /// Only drawn matches.
    pub draws_only: bool,
    /// Skip this many.
    pub offset: usize,
    /// At most this many (capped at 500).
    pub limit: usize,
}

/// A finished match, without its record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSummary {
    /// The table.
    pub table_id: String,
    /// Its name.
    pub name: String,
    /// Game name.
    pub game: String,
    /// Player names by seat.
    pub players: Vec<String>,
    /// How it ended.
    pub reason: String,
    /// Winning seats.
    pub winners: Vec<u32>,
    /// Drawn.
    pub draw: bool,
    /// Match totals.
    pub totals: Vec<i32>,
    /// Hands played.
    pub hands: u32,
    /// Creation time.
    pub created_unix_ms: i64,
    /// End time.
    pub ended_unix_ms: i64,
}

fn list_of<T: serde::de::DeserializeOwned>(v: &Value) -> Result<Vec<T>, StoreError> {
    serde_json::from_str(v.text()).map_err(|e| StoreError::Invalid(format!("list {e}")))
}

/// The matches `filter` selects, newest first, and whether more follow.
pub fn list(
    conn: &mut dyn Conn,
    filter: &RecordFilter,
) -> Result<(Vec<MatchSummary>, bool), StoreError> {
    let mut sql = format!("SELECT {SUMMARY_COLUMNS} FROM matches m WHERE 1 = 1");
    let mut params: Vec<Value> = Vec::new();
    let mut cond = |sql: &mut String, text: &str, v: Value| {
        params.push(v);
        sql.push_str(&text.replace('?', &format!("${}", params.len())));
    };
    if !filter.game.is_empty() {
        cond(&mut sql, " AND m.game = ?", filter.game.as_str().into());
    }
    if !filter.reason.is_empty() {
        cond(&mut sql, " AND m.reason = ?", filter.reason.as_str().into());
    }
    if filter.since_unix_ms > 0 {
        cond(
            &mut sql,
            " AND m.ended_unix_ms >= ?",
            filter.since_unix_ms.into(),
        );
    }
    if filter.until_unix_ms > 0 {
        cond(
            &mut sql,
            " AND m.ended_unix_ms < ?",
            filter.until_unix_ms.into(),
        );
    }
    if filter.draws_only {
        sql.push_str(" AND m.draw = 1");
    }
    if !filter.player.is_empty() {
        cond(
            &mut sql,
            " AND EXISTS (SELECT 1 FROM results r WHERE r.table_id = m.table_id AND r.player_name = ?)",
            filter.player.as_str().into(),
        );
    }
    if !filter.winner.is_empty() {
        cond(
            &mut sql,
            " AND EXISTS (SELECT 1 FROM results r WHERE r.table_id = m.table_id \
             AND r.player_name = ? AND r.won = 1)",
            filter.winner.as_str().into(),
        );
    }
    let limit = filter.limit.clamp(1, MAX_PAGE);
    sql.push_str(" ORDER BY m.ended_unix_ms DESC, m.table_id DESC");
    cond(&mut sql, " LIMIT ?", ((limit + 1) as i64).into());
    cond(&mut sql, " OFFSET ?", (filter.offset as i64).into());
    let rows = conn.query(&sql, &params)?;
    let more = rows.len() > limit;
    let out = rows
        .into_iter()
        .take(limit)
        .map(summary_of_row)
        .collect::<Result<Vec<_>, _>>()?;
    Ok((out, more))
}

/// The columns a [`MatchSummary`] is read from, in the order [`summary_of_row`] takes them.
const SUMMARY_COLUMNS: &str = "m.table_id, m.name, m.game, m.players, m.reason, m.winners, \
     m.draw, m.totals, m.hands, m.created_unix_ms, m.ended_unix_ms";

fn summary_of_row(mut r: Vec<Value>) -> Result<MatchSummary, StoreError> {
    Ok(MatchSummary {
        players: list_of(&r[3])?,
        winners: list_of(&r[5])?,
        totals: list_of(&r[7])?,
        table_id: r[0].take_text(),
        name: r[1].take_text(),
        game: r[2].take_text(),
        reason: r[4].take_text(),
        draw: r[6].int() != 0,
        hands: u32::try_from(r[8].int()).unwrap_or(0),
        created_unix_ms: r[9].int(),
        ended_unix_ms: r[10].int(),
    })
}

/// The finished match of table `table_id`, if the store keeps one.
pub fn finished(conn: &mut dyn Conn, table_id: &str) -> Result<Option<MatchSummary>, StoreError> {
    let sql = format!("SELECT {SUMMARY_COLUMNS} FROM matches m WHERE m.table_id = $1");
    conn.query(&sql, &[table_id.into()])?
        .into_iter()
        .next()
        .map(summary_of_row)
        .transpose()
}

/// The record of finished match `table_id`.
pub fn record(conn: &mut dyn Conn, table_id: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query(
            "SELECT record FROM matches WHERE table_id = $1",
            &[table_id.into()],
        )?
        .into_iter()
        .next()
        .map(|mut r| r[0].take_text()))
}
