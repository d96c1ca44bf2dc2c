-- Registered players: a unique name and the SHA-256 of its API key (the key itself is never
-- stored). `look` is the name as compared (normal form and confusable skeleton): two names
-- that look alike cannot both be registered.
CREATE TABLE players (
    name TEXT PRIMARY KEY,
    look TEXT NOT NULL UNIQUE,
    key_sha256 TEXT NOT NULL UNIQUE,
    disabled BIGINT NOT NULL,
    created_unix_ms BIGINT NOT NULL,
    key_unix_ms BIGINT NOT NULL
);
