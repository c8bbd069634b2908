-- The right to announce a table's versions is claimed in the database: a process posts
-- versions announced+1..announcing while its claim holds (until announce_until, epoch
-- seconds). A claim left by a crash is taken over, and its range posted again as one
-- message under the same nonce, so Discord keeps the one that may have gone out.
ALTER TABLE game_tables ADD COLUMN announcing INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN announce_until INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_tables ADD COLUMN announce_by TEXT;
UPDATE game_tables SET announcing = announced;

-- A member's move waits for its answer ("thinking..." until then): the interaction's token
-- (valid 15 minutes) is kept until the answer went out, so the process that took it can
-- still give it after a restart.
CREATE TABLE pending_replies (
    interaction_id TEXT PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    application_id TEXT NOT NULL,
    token TEXT NOT NULL,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL
);
