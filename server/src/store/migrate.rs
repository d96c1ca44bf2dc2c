//! Versioned schema migrations, applied in order at start inside one transaction each. The
//! applied versions are listed in `schema_migrations`; a database newer than this server is
//! refused rather than guessed at.

use super::StoreError;
use super::conn::{Conn, Value};

/// One schema step.
pub struct Migration {
    /// Its number: migrations run in increasing order, each once.
    pub version: i64,
    /// What it does.
    pub name: &'static str,
    /// The statements (the same text for SQLite and PostgreSQL).
    pub sql: &'static str,
}

/// Every migration this server knows, oldest first.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "tables, seats and the action log",
        sql: include_str!("migrations/0001_tables.sql"),
    },
    Migration {
        version: 2,
        name: "finished matches and per-player results",
        sql: include_str!("migrations/0002_matches.sql"),
    },
    Migration {
        version: 3,
        name: "retention of tables abandoned before their first hand",
        sql: include_str!("migrations/0003_retention.sql"),
    },
    Migration {
        version: 4,
        name: "registered players and their API keys",
        sql: include_str!("migrations/0004_players.sql"),
    },
    Migration {
        version: 5,
        name: "tournaments, and guests marked in seats and results",
        sql: include_str!("migrations/0005_tournaments.sql"),
    },
    Migration {
        version: 6,
        name: "committed deals: seats' contributions and tournaments' secrets",
        sql: include_str!("migrations/0006_committed_deals.sql"),
    },
    Migration {
        version: 7,
        name: "submitted bots: their versions and their logs",
        sql: include_str!("migrations/0007_submitted_bots.sql"),
    },
    Migration {
        version: 8,
        name: "submitted bots' faults kept on their seats",
        sql: include_str!("migrations/0008_seat_faults.sql"),
    },
    Migration {
        version: 9,
        name: "analyses of finished matches",
        sql: include_str!("migrations/0009_analyses.sql"),
    },
    Migration {
        version: 10,
        name: "results indexed by game",
        sql: include_str!("migrations/0010_results_by_game.sql"),
    },
];

/// The newest schema version this server writes.
pub fn latest() -> i64 {
    MIGRATIONS.last().map_or(0, |m| m.version)
}

/// The schema version of the database (0: empty).
pub fn current(conn: &mut dyn Conn) -> Result<i64, StoreError> {
    conn.batch(
        "CREATE TABLE IF NOT EXISTS schema_migrations (
            version BIGINT PRIMARY KEY,
            name TEXT NOT NULL,
            applied_unix_ms BIGINT NOT NULL
        )",
    )?;
    let rows = conn.query("SELECT MAX(version) FROM schema_migrations", &[])?;
    Ok(rows.first().and_then(|r| r.first()).map_or(0, Value::int))
}

/// Applies every migration newer than the database, up to `target`; returns the versions
/// applied.
pub fn migrate_to(conn: &mut dyn Conn, target: i64) -> Result<Vec<i64>, StoreError> {
    let found = current(conn)?;
    if found > latest() {
        return Err(StoreError::TooNew {
            found,
            known: latest(),
        });
    }
    let mut applied = Vec::new();
    for m in MIGRATIONS
        .iter()
        .filter(|m| m.version > found && m.version <= target)
    {
        conn.batch("BEGIN")?;
        let step = conn.batch(m.sql).and_then(|()| {
            conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_unix_ms) VALUES ($1, $2, $3)",
                &[m.version.into(), m.name.into(), super::now_ms().into()],
            )
        });
        match step {
            Ok(_) => conn.batch("COMMIT")?,
            Err(e) => {
                let _ = conn.batch("ROLLBACK");
                return Err(StoreError::Other(format!(
                    "migration {} ({}) failed: {e}",
                    m.version, m.name
                )));
            }
        }
        applied.push(m.version);
    }
    Ok(applied)
}
