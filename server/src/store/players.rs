//! Registered players and their API keys. A key is `cbk_` and 64 hex digits (256 random bits),
//! shown once when made; the store keeps only its SHA-256, so a copy of the database lets no
//! one play as anyone.

use super::StoreError;
use super::conn::Conn;
use crate::names;

/// One registered player, as listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    /// The name, as registered.
    pub name: String,
    /// Whether its key is refused.
    pub disabled: bool,
    /// When it was registered (Unix ms).
    pub created_unix_ms: i64,
    /// When its current key was made (Unix ms).
    pub key_unix_ms: i64,
}

/// What can go wrong managing players, beyond the store itself.
#[derive(Debug, thiserror::Error)]
pub enum PlayerError {
    /// The name cannot be registered.
    #[error("{0}")]
    BadName(String),
    /// No player has that name.
    #[error("no registered player is named {0:?}")]
    Unknown(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// The SHA-256 (hex) of a key as presented.
pub fn key_hash(key: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Whether `key` has the shape of an API key (`cbk_` and 64 lower-case hex digits).
pub fn well_formed(key: &str) -> bool {
    key.strip_prefix("cbk_").is_some_and(|h| {
        h.len() == 64
            && h.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

fn new_key() -> Result<String, StoreError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b)
        .map_err(|e| StoreError::Other(format!("no operating-system randomness: {e}")))?;
    Ok(format!(
        "cbk_{}",
        b.iter().map(|x| format!("{x:02x}")).collect::<String>()
    ))
}

/// The name as it is registered: trimmed; 1 to 64 characters, none of them hidden; not a
/// built-in bot's or the server's; not ending in "(guest)".
pub fn check_name(name: &str) -> Result<String, PlayerError> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > 64 || !names::printable(n) {
        return Err(PlayerError::BadName(
            "a name is 1 to 64 characters, with no control or invisible characters".into(),
        ));
    }
    // A name the tournament scheduler would read as a built-in bot (`pimc :`, `random`) or
    // as its filler (`~...`) is no player's.
    if names::reserved(n)
        || names::normal(n).ends_with("(guest)")
        || n.starts_with('~')
        || calabresella_engine::bots::bot_from_spec(n, 0).is_ok()
    {
        return Err(PlayerError::BadName(format!(
            "{n:?} is kept for a built-in bot or the server"
        )));
    }
    Ok(n.to_owned())
}

/// The registered player whose name looks like `name`, if any.
pub fn registered_like(conn: &mut dyn Conn, name: &str) -> Result<Option<String>, StoreError> {
    let rows = conn.query(
        "SELECT name FROM players WHERE look = $1",
        &[names::looks(name).into()],
    )?;
    Ok(rows.into_iter().next().map(|mut r| r[0].take_text()))
}

/// Registers `name`; returns its key (the only time it is shown).
pub fn add(conn: &mut dyn Conn, name: &str) -> Result<String, PlayerError> {
    let name = check_name(name)?;
    if let Some(other) = registered_like(conn, &name)? {
        return Err(PlayerError::BadName(format!(
            "{name:?} looks like the registered player {other:?}"
        )));
    }
    let key = new_key()?;
    let now = super::now_ms();
    conn.execute(
        "INSERT INTO players (name, look, key_sha256, disabled, created_unix_ms, key_unix_ms) \
         VALUES ($1, $2, $3, 0, $4, $4)",
        &[
            name.as_str().into(),
            names::looks(&name).into(),
            key_hash(&key).into(),
            now.into(),
        ],
    )?;
    Ok(key)
}

/// Every registered player, by name.
pub fn list(conn: &mut dyn Conn) -> Result<Vec<Player>, StoreError> {
    let rows = conn.query(
        "SELECT name, disabled, created_unix_ms, key_unix_ms FROM players ORDER BY name",
        &[],
    )?;
    Ok(rows
        .into_iter()
        .map(|mut r| Player {
            name: r[0].take_text(),
            disabled: r[1].int() != 0,
            created_unix_ms: r[2].int(),
            key_unix_ms: r[3].int(),
        })
        .collect())
}

/// Refuses (or accepts again) the key of the player whose name looks like `name`.
pub fn set_disabled(conn: &mut dyn Conn, name: &str, disabled: bool) -> Result<(), PlayerError> {
    let n = conn.execute(
        "UPDATE players SET disabled = $1 WHERE look = $2",
        &[i64::from(disabled).into(), names::looks(name).into()],
    )?;
    if n == 0 {
        return Err(PlayerError::Unknown(name.trim().to_owned()));
    }
    Ok(())
}

/// Gives the player whose name looks like `name` a new key (the old one stops working);
/// returns it.
pub fn rotate(conn: &mut dyn Conn, name: &str) -> Result<String, PlayerError> {
    let key = new_key()?;
    let n = conn.execute(
        "UPDATE players SET key_sha256 = $1, key_unix_ms = $2 WHERE look = $3",
        &[
            key_hash(&key).into(),
            super::now_ms().into(),
            names::looks(name).into(),
        ],
    )?;
    if n == 0 {
        return Err(PlayerError::Unknown(name.trim().to_owned()));
    }
    Ok(key)
}

/// The player a key belongs to, and whether it is disabled.
pub fn by_key(conn: &mut dyn Conn, key: &str) -> Result<Option<(String, bool)>, StoreError> {
    let rows = conn.query(
        "SELECT name, disabled FROM players WHERE key_sha256 = $1",
        &[key_hash(key).into()],
    )?;
    Ok(rows
        .into_iter()
        .next()
        .map(|mut r| (r[0].take_text(), r[1].int() != 0)))
}

/// Whether registered player `name` (exactly) has its key disabled; false for a name that is
/// not registered.
pub fn is_disabled(conn: &mut dyn Conn, name: &str) -> Result<bool, StoreError> {
    Ok(conn
        .query(
            "SELECT disabled FROM players WHERE name = $1",
            &[name.into()],
        )?
        .first()
        .is_some_and(|r| r[0].int() != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_scheduler_would_read_as_bots_are_refused() {
        for name in [
            "~mallory",
            "pimc :",
            "Random",
            "heuristic",
            "pimc:ms=5",
            "dummy",
        ] {
            assert!(check_name(name).is_err(), "{name:?} was accepted");
        }
        for name in ["mallory", "Team Rossi", "pimcbot fan"] {
            assert_eq!(check_name(name).expect(name), name);
        }
    }
}
