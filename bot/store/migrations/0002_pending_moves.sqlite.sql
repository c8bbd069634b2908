-- A move shown to its player as a preview, waiting for Confirm. Kept in the database so a
-- Confirm button still works after a restart; a changed table version makes it stale.
CREATE TABLE pending_moves (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    member_id   INTEGER NOT NULL,
    version     INTEGER NOT NULL,
    action      TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);

CREATE INDEX pending_moves_by_table ON pending_moves (table_id);
