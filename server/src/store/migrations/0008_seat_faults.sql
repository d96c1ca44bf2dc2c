-- On an unfinished table's seat, the fault that stopped its submitted bot (empty: none) and the
-- decision due then, so that a restarted server keeps the seat stopped and its stand-in playing.
ALTER TABLE seats ADD COLUMN fault TEXT NOT NULL DEFAULT '';
ALTER TABLE seats ADD COLUMN fault_decision BIGINT NOT NULL DEFAULT 0;
