-- Tournaments run by the server: their settings, entrants and matches. A match's table, once
-- made, is an ordinary table (its actions, its finished match and record live in the tables
-- above); the scheduler finds where a tournament is from these rows after a restart.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    -- The creating request (protobuf, hex) with its seed filled in.
    request TEXT NOT NULL,
    -- REGISTERING, RUNNING or FINISHED.
    state TEXT NOT NULL,
    start_unix_ms BIGINT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    -- The server instance that schedules it.
    owner TEXT NOT NULL
);
CREATE INDEX tournaments_state ON tournaments (owner, state);

CREATE TABLE tournament_entrants (
    tournament_id TEXT NOT NULL,
    -- Order of entry.
    position BIGINT NOT NULL,
    entrant TEXT NOT NULL,
    -- 1 for a built-in bot.
    bot BIGINT NOT NULL,
    -- Times its Compete call dropped while it had tables in play.
    disconnects BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, entrant)
);

CREATE TABLE tournament_matches (
    tournament_id TEXT NOT NULL,
    number BIGINT NOT NULL,
    round BIGINT NOT NULL,
    -- JSON list of entrants by seat.
    seats TEXT NOT NULL,
    -- The deal seed (u64, decimal).
    seed TEXT NOT NULL,
    -- The table, once made ('' before).
    table_id TEXT NOT NULL,
    PRIMARY KEY (tournament_id, number)
);
CREATE INDEX tournament_matches_table ON tournament_matches (table_id);

-- Guests (players without an API key) are marked: they never enter ratings.
ALTER TABLE seats ADD COLUMN guest BIGINT NOT NULL DEFAULT 0;
ALTER TABLE results ADD COLUMN guest BIGINT NOT NULL DEFAULT 0;
