//! The write-ahead game log: what a table writes ([`Write`]), how a batch of writes becomes
//! SQL, and how an unfinished table is read back ([`StoredTable`]).

use std::collections::HashMap;

use super::StoreError;
use super::conn::{Conn, Value};
use super::records::MatchSummary;

/// Action rows per multi-row `INSERT` (7 parameters each, far below both databases' limits).
const ACTIONS_PER_INSERT: usize = 256;

/// One fact a table stores before it acts on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// A new table.
    Table {
        /// Its id.
        id: String,
        /// The instance that runs it.
        owner: String,
        /// The client address that created it.
        creator: String,
        /// Game name (`calabresella`, `tressette`, ...).
        game: String,
        /// The spec as JSON.
        spec: String,
        /// Creation time.
        created_unix_ms: i64,
    },
    /// A seat was taken.
    Seat {
        /// The table.
        table: String,
        /// The seat.
        seat: u8,
        /// The player's name.
        name: String,
        /// SHA-256 of the token, hex.
        token_sha256: String,
        /// Taken without an API key.
        guest: bool,
        /// The player's contribution to the deals, hex (empty: none).
        entropy: String,
    },
    /// A taken seat's token was replaced (the server handed its player a fresh one).
    Token {
        /// The table.
        table: String,
        /// The seat.
        seat: u8,
        /// SHA-256 of the new token, hex.
        token_sha256: String,
    },
    /// A seat's submitted bot was stopped for a fault.
    Fault {
        /// The table.
        table: String,
        /// The seat.
        seat: u8,
        /// `TLE`, `MLE`, `RE` or `BAD_OUTPUT`.
        reason: String,
        /// The decision due then.
        decision: u64,
    },
    /// A decision was answered.
    Action {
        /// The table.
        table: String,
        /// Decision number.
        index: u64,
        /// The action.
        action: StoredAction,
    },
    /// A match ended: its record and results are kept and its log is dropped.
    Ended(Box<Finished>),
}

/// A seat as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredSeat {
    /// The seat.
    pub seat: u8,
    /// The player's name.
    pub name: String,
    /// SHA-256 of the token, hex.
    pub token_sha256: String,
    /// Taken without an API key.
    pub guest: bool,
    /// The player's contribution to the deals, hex (empty: none).
    pub entropy: String,
    /// The fault that stopped the seat's submitted bot (empty: none).
    pub fault: String,
    /// The decision due when it was stopped.
    pub fault_decision: u64,
}

/// An action as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredAction {
    /// Who answered.
    pub seat: u8,
    /// Record notation.
    pub action: String,
    /// Thinking time charged.
    pub ms: u32,
    /// Whether the clock ran out (the timeout bot chose).
    pub timeout: bool,
}

/// An unfinished table as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTable {
    /// Its id.
    pub id: String,
    /// Who created it.
    pub creator: String,
    /// The spec as JSON.
    pub spec: String,
    /// Creation time.
    pub created_unix_ms: i64,
    /// Taken seats.
    pub seats: Vec<StoredSeat>,
    /// The action log, in decision order.
    pub actions: Vec<StoredAction>,
}

/// A finished match, as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// What the list of records shows.
    pub summary: MatchSummary,
    /// The record, format v1 JSON.
    pub record: String,
    /// One row per player.
    pub results: Vec<ResultRow>,
}

/// A player's part in a finished match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultRow {
    /// The seat.
    pub seat: u8,
    /// The player's name.
    pub player: String,
    /// The side (partners share one).
    pub side: u8,
    /// The seat's (or side's) match total.
    pub points: i32,
    /// Whether the player won.
    pub won: bool,
    /// Whether the match was drawn.
    pub draw: bool,
    /// Whether a built-in bot played the seat.
    pub bot: bool,
    /// Whether a guest (no API key) played the seat.
    pub guest: bool,
}

fn json_list<T: serde::Serialize>(v: &[T]) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "[]".into())
}

/// Writes `writes` in order inside the caller's transaction; consecutive actions go in
/// multi-row inserts.
pub fn apply(conn: &mut dyn Conn, writes: &[&Write]) -> Result<(), StoreError> {
    let now = super::now_ms();
    let mut actions: Vec<Value> = Vec::new();
    for w in writes {
        if let Write::Action {
            table,
            index,
            action,
        } = w
        {
            actions.extend([
                Value::Text(table.clone()),
                Value::Int(*index as i64),
                Value::Int(i64::from(action.seat)),
                Value::Text(action.action.clone()),
                Value::Int(i64::from(action.ms)),
                Value::Int(i64::from(action.timeout)),
                Value::Int(now),
            ]);
            if actions.len() >= 7 * ACTIONS_PER_INSERT {
                insert_actions(conn, &mut actions)?;
            }
            continue;
        }
        insert_actions(conn, &mut actions)?;
        match w {
            Write::Table {
                id,
                owner,
                creator,
                game,
                spec,
                created_unix_ms,
            } => {
                conn.execute(
                    "INSERT INTO tables (id, owner, creator, game, spec, created_unix_ms, state) \
                     VALUES ($1, $2, $3, $4, $5, $6, 'open')",
                    &[
                        id.as_str().into(),
                        owner.as_str().into(),
                        creator.as_str().into(),
                        game.as_str().into(),
                        spec.as_str().into(),
                        (*created_unix_ms).into(),
                    ],
                )?;
            }
            Write::Seat {
                table,
                seat,
                name,
                token_sha256,
                guest,
                entropy,
            } => {
                conn.execute(
                    "INSERT INTO seats (table_id, seat, player_name, token_sha256, joined_unix_ms, \
                     guest, entropy) VALUES ($1, $2, $3, $4, $5, $6, $7)",
                    &[
                        table.as_str().into(),
                        i64::from(*seat).into(),
                        name.as_str().into(),
                        token_sha256.as_str().into(),
                        now.into(),
                        i64::from(*guest).into(),
                        entropy.as_str().into(),
                    ],
                )?;
            }
            Write::Token {
                table,
                seat,
                token_sha256,
            } => {
                conn.execute(
                    "UPDATE seats SET token_sha256 = $1 WHERE table_id = $2 AND seat = $3",
                    &[
                        token_sha256.as_str().into(),
                        table.as_str().into(),
                        i64::from(*seat).into(),
                    ],
                )?;
            }
            Write::Fault {
                table,
                seat,
                reason,
                decision,
            } => {
                conn.execute(
                    "UPDATE seats SET fault = $1, fault_decision = $2 \
                     WHERE table_id = $3 AND seat = $4",
                    &[
                        reason.as_str().into(),
                        i64::try_from(*decision).unwrap_or(i64::MAX).into(),
                        table.as_str().into(),
                        i64::from(*seat).into(),
                    ],
                )?;
            }
            Write::Ended(f) => ended(conn, f)?,
            Write::Action { .. } => {}
        }
    }
    insert_actions(conn, &mut actions)
}

/// Inserts the buffered action rows in chunks of a few fixed sizes, so the database sees a
/// handful of distinct statements and its prepared-statement cache always hits.
fn insert_actions(conn: &mut dyn Conn, values: &mut Vec<Value>) -> Result<(), StoreError> {
    let mut start = 0;
    let total = values.len() / 7;
    while start < total {
        let left = total - start;
        let rows = [ACTIONS_PER_INSERT, 64, 16, 4, 1]
            .into_iter()
            .find(|&n| n <= left)
            .unwrap_or(1);
        conn.execute(&insert_sql(rows), &values[start * 7..(start + rows) * 7])?;
        start += rows;
    }
    values.clear();
    Ok(())
}

/// The multi-row insert of `rows` actions.
fn insert_sql(rows: usize) -> String {
    let mut sql = String::with_capacity(80 + rows * 40);
    sql.push_str(
        "INSERT INTO actions (table_id, idx, seat, action, ms, timeout, at_unix_ms) VALUES ",
    );
    for r in 0..rows {
        if r > 0 {
            sql.push(',');
        }
        sql.push('(');
        for c in 0..7 {
            if c > 0 {
                sql.push(',');
            }
            sql.push('$');
            sql.push_str(&(r * 7 + c + 1).to_string());
        }
        sql.push(')');
    }
    sql
}

fn ended(conn: &mut dyn Conn, f: &Finished) -> Result<(), StoreError> {
    let m = &f.summary;
    conn.execute(
        "INSERT INTO matches (table_id, name, game, players, reason, winners, draw, totals, hands, \
         created_unix_ms, ended_unix_ms, record) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        &[
            m.table_id.as_str().into(),
            m.name.as_str().into(),
            m.game.as_str().into(),
            json_list(&m.players).into(),
            m.reason.as_str().into(),
            json_list(&m.winners).into(),
            i64::from(m.draw).into(),
            json_list(&m.totals).into(),
            i64::from(m.hands).into(),
            m.created_unix_ms.into(),
            m.ended_unix_ms.into(),
            f.record.as_str().into(),
        ],
    )?;
    for r in &f.results {
        conn.execute(
            "INSERT INTO results (table_id, seat, player_name, game, side, points, won, draw, bot, \
             ended_unix_ms, guest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            &[
                m.table_id.as_str().into(),
                i64::from(r.seat).into(),
                r.player.as_str().into(),
                m.game.as_str().into(),
                i64::from(r.side).into(),
                i64::from(r.points).into(),
                i64::from(r.won).into(),
                i64::from(r.draw).into(),
                i64::from(r.bot).into(),
                m.ended_unix_ms.into(),
                i64::from(r.guest).into(),
            ],
        )?;
    }
    let id: Value = m.table_id.as_str().into();
    conn.execute(
        "UPDATE tables SET state = 'ended' WHERE id = $1",
        std::slice::from_ref(&id),
    )?;
    // The record holds every action and name now; tokens are no use once the match is over.
    conn.execute(
        "DELETE FROM actions WHERE table_id = $1",
        std::slice::from_ref(&id),
    )?;
    conn.execute("DELETE FROM seats WHERE table_id = $1", &[id])?;
    Ok(())
}

fn small(v: &Value, what: &str) -> Result<u8, StoreError> {
    u8::try_from(v.int()).map_err(|_| StoreError::Invalid(format!("{what} {}", v.int())))
}

/// The unfinished tables of `owner`, with seats and action logs, from a database at schema
/// `version` (seats have no guest mark before version 5, no contribution before 6, no fault
/// before 7).
pub fn load_open(
    conn: &mut dyn Conn,
    owner: &str,
    version: i64,
) -> Result<Vec<StoredTable>, StoreError> {
    let guest = if version >= 5 { "s.guest" } else { "0" };
    let entropy = if version >= 6 { "s.entropy" } else { "''" };
    let fault = if version >= 8 {
        "s.fault, s.fault_decision"
    } else {
        "'', 0"
    };
    let owner_v: Value = owner.into();
    let mut tables: Vec<StoredTable> = conn
        .query(
            "SELECT id, creator, spec, created_unix_ms FROM tables \
             WHERE owner = $1 AND state = 'open' ORDER BY created_unix_ms, id",
            std::slice::from_ref(&owner_v),
        )?
        .into_iter()
        .map(|mut r| StoredTable {
            id: r[0].take_text(),
            creator: r[1].take_text(),
            spec: r[2].take_text(),
            created_unix_ms: r[3].int(),
            seats: Vec::new(),
            actions: Vec::new(),
        })
        .collect();
    let index: HashMap<String, usize> = tables
        .iter()
        .enumerate()
        .map(|(i, t)| (t.id.clone(), i))
        .collect();
    for mut r in conn.query(
        &format!(
            "SELECT s.table_id, s.seat, s.player_name, s.token_sha256, {guest}, {entropy}, \
             {fault} \
             FROM seats s \
             JOIN tables t ON t.id = s.table_id WHERE t.owner = $1 AND t.state = 'open' \
             ORDER BY s.table_id, s.seat"
        ),
        std::slice::from_ref(&owner_v),
    )? {
        if let Some(&i) = index.get(r[0].text()) {
            tables[i].seats.push(StoredSeat {
                seat: small(&r[1], "seat")?,
                name: r[2].take_text(),
                token_sha256: r[3].take_text(),
                guest: r[4].int() != 0,
                entropy: r[5].take_text(),
                fault: r[6].take_text(),
                fault_decision: u64::try_from(r[7].int()).unwrap_or(0),
            });
        }
    }
    for mut r in conn.query(
        "SELECT a.table_id, a.idx, a.seat, a.action, a.ms, a.timeout FROM actions a \
         JOIN tables t ON t.id = a.table_id WHERE t.owner = $1 AND t.state = 'open' \
         ORDER BY a.table_id, a.idx",
        &[owner_v],
    )? {
        if let Some(&i) = index.get(r[0].text()) {
            let t = &mut tables[i];
            if r[1].int() != t.actions.len() as i64 {
                return Err(StoreError::Invalid(format!(
                    "table {}: action {} follows {} actions",
                    t.id,
                    r[1].int(),
                    t.actions.len()
                )));
            }
            t.actions.push(StoredAction {
                seat: small(&r[2], "seat")?,
                action: r[3].take_text(),
                ms: u32::try_from(r[4].int()).unwrap_or(u32::MAX),
                timeout: r[5].int() != 0,
            });
        }
    }
    Ok(tables)
}

/// The stored spec (JSON) of table `id`, if the store knows the table.
pub fn spec(conn: &mut dyn Conn, id: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query("SELECT spec FROM tables WHERE id = $1", &[id.into()])?
        .into_iter()
        .next()
        .map(|mut r| r[0].take_text()))
}

/// The owner and state of table `id`.
pub fn owner(conn: &mut dyn Conn, id: &str) -> Result<Option<(String, String)>, StoreError> {
    Ok(conn
        .query(
            "SELECT owner, state FROM tables WHERE id = $1",
            &[id.into()],
        )?
        .into_iter()
        .next()
        .map(|mut r| (r[0].take_text(), r[1].take_text())))
}
