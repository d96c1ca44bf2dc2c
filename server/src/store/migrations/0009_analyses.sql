-- Analyses of finished matches (docs/ANALYSIS.md), one per table, budget and seed, kept as the
-- analysis JSON (calabresella-analysis/1) so that asking again costs nothing; at most 8 per
-- table (the oldest go), deleted with their table.
CREATE TABLE analyses (
    table_id TEXT NOT NULL,
    budget TEXT NOT NULL,
    seed TEXT NOT NULL,
    analysis_json TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, budget, seed)
);
