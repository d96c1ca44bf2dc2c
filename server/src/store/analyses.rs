//! Analyses of finished matches (docs/ANALYSIS.md), kept by table, budget and seed.

use super::StoreError;
use super::conn::Conn;

/// The kept analysis (JSON) of `table_id` with `budget` and `seed`, if any.
pub fn get(
    conn: &mut dyn Conn,
    table_id: &str,
    budget: &str,
    seed: u64,
) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query(
            "SELECT analysis_json FROM analyses WHERE table_id = $1 AND budget = $2 AND seed = $3",
            // The seed as text: a u64 does not fit BIGINT.
            &[
                table_id.into(),
                budget.into(),
                seed.to_string().as_str().into(),
            ],
        )?
        .into_iter()
        .next()
        .and_then(|mut r| r.first_mut().map(|v| v.take_text())))
}

/// Analyses kept per table: the newest, so that a client asking with ever new seeds cannot
/// fill the store.
pub const PER_TABLE: usize = 8;

/// Keeps an analysis (one already kept for the same table, budget and seed stays: both came
/// from the same record), then lets the oldest of the table's go beyond [`PER_TABLE`].
pub fn put(
    conn: &mut dyn Conn,
    table_id: &str,
    budget: &str,
    seed: u64,
    json: &str,
) -> Result<(), StoreError> {
    let seed = seed.to_string();
    let key = [table_id.into(), budget.into(), seed.as_str().into()];
    if !conn
        .query(
            "SELECT 1 FROM analyses WHERE table_id = $1 AND budget = $2 AND seed = $3",
            &key,
        )?
        .is_empty()
    {
        return Ok(());
    }
    conn.execute(
        "INSERT INTO analyses (table_id, budget, seed, analysis_json, created_unix_ms) \
         VALUES ($1, $2, $3, $4, $5)",
        &[
            key[0].clone(),
            key[1].clone(),
            key[2].clone(),
            json.into(),
            super::now_ms().into(),
        ],
    )?;
    let kept = conn.query(
        "SELECT budget, seed FROM analyses WHERE table_id = $1 \
         ORDER BY created_unix_ms DESC, budget, seed",
        &[table_id.into()],
    )?;
    for mut row in kept.into_iter().skip(PER_TABLE) {
        let (budget, seed) = (row[0].take_text(), row[1].take_text());
        conn.execute(
            "DELETE FROM analyses WHERE table_id = $1 AND budget = $2 AND seed = $3",
            &[
                table_id.into(),
                budget.as_str().into(),
                seed.as_str().into(),
            ],
        )?;
    }
    Ok(())
}
