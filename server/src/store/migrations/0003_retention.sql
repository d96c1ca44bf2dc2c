-- Retention deletes tables abandoned before their first hand: find them without a scan.
CREATE INDEX matches_unplayed ON matches (ended_unix_ms) WHERE reason = 'ABANDONED' AND hands = 0;
-- Before this version an unplayed table recorded the hand dealt at its creation (hands = 1);
-- its record holds no hand.
UPDATE matches SET hands = 0 WHERE reason = 'ABANDONED' AND record LIKE '%"hands": []%';
