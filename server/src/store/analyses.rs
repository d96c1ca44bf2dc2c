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

/// Keeps an analysis (one already kept for the same table, budget and seed stays: both came
/// from the same record).
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
    Ok(())
}
