-- Submitted bots (docs/SUBMISSIONS.md): every version of every bot with its owner, the
-- SHA-256 and size of the file submitted, what runs and how, and the file itself (base64:
-- the schema keeps to BIGINT and TEXT); and what each bot wrote to its standard error in a
-- match, with how its run ended, for its owner to read.
CREATE TABLE bot_versions (
    name TEXT NOT NULL,
    version BIGINT NOT NULL,
    owner TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    size BIGINT NOT NULL,
    file_name TEXT NOT NULL,
    entry TEXT NOT NULL,
    runtime TEXT NOT NULL,
    content TEXT NOT NULL,
    submitted_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (name, version)
);
CREATE INDEX bot_versions_owner ON bot_versions (owner);
CREATE TABLE bot_logs (
    table_id TEXT NOT NULL,
    seat BIGINT NOT NULL,
    bot TEXT NOT NULL,
    owner TEXT NOT NULL,
    stderr TEXT NOT NULL,
    fault TEXT NOT NULL,
    detail TEXT NOT NULL,
    ended_unix_ms BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat)
);
