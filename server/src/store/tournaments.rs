//! Tournaments run by the server: their settings, entrants and matches. The scheduler keeps
//! nothing in memory that it cannot rebuild from these rows, so a tournament survives a
//! restart.

use super::StoreError;
use super::conn::{Conn, Value};

/// A tournament as stored. Its `Debug` never shows the secret.
#[derive(Clone, PartialEq, Eq)]
pub struct TournamentRow {
    /// Its id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The creating request (protobuf, hex) with its seed filled in.
    pub request: String,
    /// `REGISTERING`, `RUNNING` or `FINISHED`.
    pub state: String,
    /// When scheduling starts (Unix ms).
    pub start_unix_ms: i64,
    /// When it was created (Unix ms).
    pub created_unix_ms: i64,
    /// The entrants in order of entry, and whether each is a built-in bot.
    pub entrants: Vec<(String, bool)>,
    /// The secret its deals and draw come from, hex (empty: seeded by its creator).
    pub secret: String,
}

impl std::fmt::Debug for TournamentRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TournamentRow")
            .field("id", &self.id)
            .field("name", &self.name)
            .field("state", &self.state)
            .field("start_unix_ms", &self.start_unix_ms)
            .field("created_unix_ms", &self.created_unix_ms)
            .field("entrants", &self.entrants)
            .field(
                "secret",
                &if self.secret.is_empty() {
                    "none (seeded)"
                } else {
                    "withheld"
                },
            )
            .finish_non_exhaustive()
    }
}

/// One match of a tournament as stored, with where its table is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchRow {
    /// Its number in schedule order.
    pub number: u32,
    /// The Swiss round (0 otherwise).
    pub round: u32,
    /// The entrant in each seat ("" for a seat nobody takes, the a due dummy).
    pub seats: Vec<String>,
    /// The deal seed.
    pub seed: u64,
    /// The table, once made ("" before).
    pub table_id: String,
    /// Whether the table's match is stored as finished (or abandoned).
    pub over: bool,
}

/// A finished match of a tournament, with what the standings are computed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FinishedMatch {
    /// The match's number in the schedule.
    pub number: u32,
    /// The entrant in each seat.
    pub seats: Vec<String>,
    /// The end reason (`COMPLETED`, `FORFEIT`, `ABANDONED`).
    pub reason: String,
    /// Winning seats, JSON.
    pub winners: String,
    /// Whether drawn.
    pub draw: bool,
    /// The record (format v1).
    pub record: String,
}

/// Stores a new tournament with its entrants.
pub fn create(conn: &mut dyn Conn, t: &TournamentRow, owner: &str) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO tournaments (id, name, request, state, start_unix_ms, created_unix_ms, owner, \
         secret) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        &[
            t.id.as_str().into(),
            t.name.as_str().into(),
            t.request.as_str().into(),
            t.state.as_str().into(),
            t.start_unix_ms.into(),
            t.created_unix_ms.into(),
            owner.into(),
            t.secret.as_str().into(),
        ],
    )?;
    for (i, (name, bot)) in t.entrants.iter().enumerate() {
        add_entrant(conn, &t.id, i as i64, name, *bot)?;
    }
    Ok(())
}

fn add_entrant(
    conn: &mut dyn Conn,
    id: &str,
    position: i64,
    name: &str,
    bot: bool,
) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO tournament_entrants (tournament_id, position, entrant, bot, disconnects) \
         VALUES ($1, $2, $3, $4, 0)",
        &[
            id.into(),
            position.into(),
            name.into(),
            i64::from(bot).into(),
        ],
    )?;
    Ok(())
}

/// Enters registered player `name` (no-op when already in); false when the tournament is
/// not registering.
pub fn enter(conn: &mut dyn Conn, id: &str, name: &str) -> Result<bool, StoreError> {
    let Some(t) = get(conn, id)? else {
        return Ok(false);
    };
    if t.state != "REGISTERING" {
        return Ok(false);
    }
    if t.entrants.iter().any(|(e, _)| e == name) {
        return Ok(true);
    }
    add_entrant(conn, id, t.entrants.len() as i64, name, false)?;
    Ok(true)
}

fn row(conn: &mut dyn Conn, mut r: Vec<Value>) -> Result<TournamentRow, StoreError> {
    let id = r[0].take_text();
    let entrants = conn
        .query(
            "SELECT entrant, bot FROM tournament_entrants WHERE tournament_id = $1 \
             ORDER BY position",
            &[id.as_str().into()],
        )?
        .into_iter()
        .map(|mut e| (e[0].take_text(), e[1].int() != 0))
        .collect();
    Ok(TournamentRow {
        id,
        name: r[1].take_text(),
        request: r[2].take_text(),
        state: r[3].take_text(),
        start_unix_ms: r[4].int(),
        created_unix_ms: r[5].int(),
        secret: r[6].take_text(),
        entrants,
    })
}

const COLUMNS: &str = "id, name, request, state, start_unix_ms, created_unix_ms, secret";

/// Tournament `id`.
pub fn get(conn: &mut dyn Conn, id: &str) -> Result<Option<TournamentRow>, StoreError> {
    let rows = conn.query(
        &format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"),
        &[id.into()],
    )?;
    match rows.into_iter().next() {
        Some(r) => Ok(Some(row(conn, r)?)),
        None => Ok(None),
    }
}

/// Every tournament, newest first; only `owner`'s unfinished ones when `owner` is given.
pub fn list(conn: &mut dyn Conn, owner: Option<&str>) -> Result<Vec<TournamentRow>, StoreError> {
    let rows = match owner {
        Some(o) => conn.query(
            &format!(
                "SELECT {COLUMNS} FROM tournaments WHERE owner = $1 AND state <> 'FINISHED' \
                 ORDER BY created_unix_ms DESC, id"
            ),
            &[o.into()],
        )?,
        None => conn.query(
            &format!("SELECT {COLUMNS} FROM tournaments ORDER BY created_unix_ms DESC, id"),
            &[],
        )?,
    };
    rows.into_iter().map(|r| row(conn, r)).collect()
}

/// Sets a tournament's state.
pub fn set_state(conn: &mut dyn Conn, id: &str, state: &str) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE tournaments SET state = $1 WHERE id = $2",
        &[state.into(), id.into()],
    )?;
    Ok(())
}

/// Adds drawn-up matches.
pub fn add_matches(conn: &mut dyn Conn, id: &str, matches: &[MatchRow]) -> Result<(), StoreError> {
    for m in matches {
        conn.execute(
            "INSERT INTO tournament_matches (tournament_id, number, round, seats, seed, table_id) \
             VALUES ($1, $2, $3, $4, $5, '')",
            &[
                id.into(),
                i64::from(m.number).into(),
                i64::from(m.round).into(),
                serde_json::to_string(&m.seats)
                    .unwrap_or_else(|_| "[]".into())
                    .into(),
                m.seed.to_string().into(),
            ],
        )?;
    }
    Ok(())
}

/// Records the table made for match `number`.
pub fn set_table(
    conn: &mut dyn Conn,
    id: &str,
    number: u32,
    table_id: &str,
) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE tournament_matches SET table_id = $1 WHERE tournament_id = $2 AND number = $3",
        &[table_id.into(), id.into(), i64::from(number).into()],
    )?;
    Ok(())
}

fn seats_of(text: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(text).map_err(|e| StoreError::Invalid(format!("match seats: {e}")))
}

/// The matches of tournament `id`, in schedule order.
pub fn matches(conn: &mut dyn Conn, id: &str) -> Result<Vec<MatchRow>, StoreError> {
    let rows = conn.query(
        "SELECT m.number, m.round, m.seats, m.seed, m.table_id, \
         CASE WHEN f.table_id IS NULL THEN 0 ELSE 1 END \
         FROM tournament_matches m LEFT JOIN matches f ON f.table_id = m.table_id \
         WHERE m.tournament_id = $1 ORDER BY m.number",
        &[id.into()],
    )?;
    rows.into_iter()
        .map(|mut r| {
            Ok(MatchRow {
                number: r[0].int() as u32,
                round: r[1].int() as u32,
                seats: seats_of(r[2].text())?,
                seed: r[3]
                    .text()
                    .parse()
                    .map_err(|_| StoreError::Invalid("match seed".into()))?,
                table_id: r[4].take_text(),
                over: r[5].int() != 0,
            })
        })
        .collect()
}

/// The finished matches of tournament `id` with their records, in schedule order.
pub fn finished(conn: &mut dyn Conn, id: &str) -> Result<Vec<FinishedMatch>, StoreError> {
    let rows = conn.query(
        "SELECT m.seats, f.reason, f.winners, f.draw, f.record, m.number \
         FROM tournament_matches m JOIN matches f ON f.table_id = m.table_id \
         WHERE m.tournament_id = $1 ORDER BY m.number",
        &[id.into()],
    )?;
    rows.into_iter()
        .map(|mut r| {
            Ok(FinishedMatch {
                number: r[5].int() as u32,
                seats: seats_of(r[0].text())?,
                reason: r[1].take_text(),
                winners: r[2].take_text(),
                draw: r[3].int() != 0,
                record: r[4].take_text(),
            })
        })
        .collect()
}

/// Each entrant's disconnects in tournament `id`.
pub fn disconnects(conn: &mut dyn Conn, id: &str) -> Result<Vec<(String, u32)>, StoreError> {
    Ok(conn
        .query(
            "SELECT entrant, disconnects FROM tournament_entrants WHERE tournament_id = $1",
            &[id.into()],
        )?
        .into_iter()
        .map(|mut r| (r[0].take_text(), r[1].int() as u32))
        .collect())
}

/// The unfinished tournament tables where player `name` sits: tournament, table, seat.
pub fn tables_of(conn: &mut dyn Conn, name: &str) -> Result<Vec<(String, String, u8)>, StoreError> {
    let rows = conn.query(
        "SELECT m.tournament_id, m.table_id, m.seats FROM tournament_matches m \
         JOIN tournament_entrants e ON e.tournament_id = m.tournament_id AND e.entrant = $1 \
         LEFT JOIN matches f ON f.table_id = m.table_id \
         WHERE m.table_id <> '' AND f.table_id IS NULL ORDER BY m.tournament_id, m.number",
        &[name.into()],
    )?;
    let mut out = Vec::new();
    for mut r in rows {
        let seats = seats_of(r[2].text())?;
        for (i, s) in seats.iter().enumerate() {
            if s == name {
                out.push((r[0].take_text(), r[1].text().to_owned(), i as u8));
            }
        }
    }
    Ok(out)
}

/// Counts a dropped `Compete` call of `name` in every tournament where it has a table in
/// play.
pub fn disconnected(conn: &mut dyn Conn, name: &str) -> Result<u64, StoreError> {
    let mut ids: Vec<String> = tables_of(conn, name)?.into_iter().map(|t| t.0).collect();
    ids.dedup();
    for id in &ids {
        conn.execute(
            "UPDATE tournament_entrants SET disconnects = disconnects + 1 \
             WHERE tournament_id = $1 AND entrant = $2",
            &[id.as_str().into(), name.into()],
        )?;
    }
    Ok(ids.len() as u64)
}
