-- A league's check-in window: when it closes, the next round opens by itself with the members
-- who checked in (NULL: no window). The round's length in seconds (NULL: no deadline), and
-- whether each later round then opens the next at its deadline (0 or 1).
ALTER TABLE leagues ADD COLUMN checkin_closes TEXT;
ALTER TABLE leagues ADD COLUMN checkin_round INTEGER;
ALTER TABLE leagues ADD COLUMN checkin_auto INTEGER NOT NULL DEFAULT 0;
