-- The last table version whose announcement reached the channel: what was committed but not
-- announced (a crash between the commit and the post) is announced on start, once.
ALTER TABLE game_tables ADD COLUMN announced INTEGER NOT NULL DEFAULT 0;

-- A preview is valid while its seat's own position (view and legal moves) is unchanged, so
-- another player's move in a simultaneous phase does not spoil it.
ALTER TABLE pending_moves ADD COLUMN fingerprint TEXT;

-- A computer seat's level (random, easy, normal, hard); NULL for a member's seat.
ALTER TABLE seats ADD COLUMN level TEXT;
