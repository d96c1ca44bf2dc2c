-- A game's finished matches in the order they ended: the results table of one game and the
-- players' pages (GetPlayer) read them without scanning every game's rows.
CREATE INDEX results_game ON results (game, ended_unix_ms, table_id, seat);
