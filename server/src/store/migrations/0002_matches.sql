-- Finished matches: the record (format v1) and a summary to filter on.
CREATE TABLE matches (
    table_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    -- JSON list of player names by seat.
    players TEXT NOT NULL,
    -- COMPLETED, FORFEIT or ABANDONED.
    reason TEXT NOT NULL,
    -- JSON list of winning seats; draw 1 when drawn.
    winners TEXT NOT NULL,
    draw BIGINT NOT NULL,
    -- JSON list of match totals (per seat, or per side in Tressette).
    totals TEXT NOT NULL,
    hands BIGINT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    ended_unix_ms BIGINT NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX matches_ended ON matches (ended_unix_ms);
CREATE INDEX matches_game ON matches (game, ended_unix_ms);

-- One row per player and finished match, for the results table and ratings.
CREATE TABLE results (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    player_name TEXT NOT NULL,
    game TEXT NOT NULL,
    -- The seat's side (Tressette partners share one), for team ratings.
    side BIGINT NOT NULL,
    points BIGINT NOT NULL,
    won BIGINT NOT NULL,
    draw BIGINT NOT NULL,
    -- 1 for built-in bots.
    bot BIGINT NOT NULL,
    ended_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_player ON results (player_name, ended_unix_ms);
CREATE INDEX results_order ON results (ended_unix_ms, table_id);
