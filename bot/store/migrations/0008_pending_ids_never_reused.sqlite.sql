-- A preview's id is its Confirm button's: without AUTOINCREMENT SQLite hands a deleted
-- (superseded) preview's id to the next one, so an old button could confirm a newer move.
CREATE TABLE pending_moves_new (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id     INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    member_id    INTEGER NOT NULL,
    version      INTEGER NOT NULL,
    action       TEXT    NOT NULL,
    text         TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    fingerprint  TEXT
);
INSERT INTO pending_moves_new (id, table_id, member_id, version, action, text, created_at,
                               fingerprint)
    SELECT id, table_id, member_id, version, action, text, created_at, fingerprint
    FROM pending_moves;
DROP TABLE pending_moves;
ALTER TABLE pending_moves_new RENAME TO pending_moves;
CREATE INDEX pending_moves_by_table ON pending_moves (table_id);
