-- A table is its spec plus its seats plus its action log: replaying the log through the
-- engine rebuilds it exactly.
CREATE TABLE tables (
    id TEXT PRIMARY KEY,
    -- The server instance that runs the table (see docs/PERSISTENCE.md).
    owner TEXT NOT NULL,
    -- The client address that created it (per-client limits).
    creator TEXT NOT NULL,
    game TEXT NOT NULL,
    -- JSON: name, metadata, options, seat kinds, clock, seed, first dealer, bot delay.
    spec TEXT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    -- 'open' while waiting or playing, 'ended' once its match is stored in `matches`.
    state TEXT NOT NULL
);
CREATE INDEX tables_open ON tables (owner, state);
CREATE INDEX tables_creator ON tables (creator, state);

CREATE TABLE seats (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    player_name TEXT NOT NULL,
    -- SHA-256 of the seat token, hex: the token itself is never stored.
    token_sha256 TEXT NOT NULL,
    joined_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE actions (
    table_id TEXT NOT NULL,
    -- The decision number: 0, 1, 2, ... without gaps.
    idx BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    -- Record notation (RECORDS.md).
    action TEXT NOT NULL,
    -- Thinking time charged to the seat's clock.
    ms BIGINT NOT NULL,
    -- 1 when the clock ran out and the timeout bot chose.
    timeout BIGINT NOT NULL,
    at_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
