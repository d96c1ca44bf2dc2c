-- Committed deals (docs/RECORDS.md): each seat's contribution to its table's deals (hex, empty
-- for none), and a tournament's secret (hex, empty for a seeded tournament). A table's own
-- secret lives in its spec.
ALTER TABLE seats ADD COLUMN entropy TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN secret TEXT NOT NULL DEFAULT '';
