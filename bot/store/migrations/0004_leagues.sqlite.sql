-- Leagues: a server's named series of one game. Ratings are derived from the finished tables
-- of the league each time (never stored), so they can never drift from the games played.
CREATE TABLE leagues (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    game_id     TEXT    NOT NULL,
    created_by  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    closed      INTEGER NOT NULL DEFAULT 0,
    UNIQUE (guild_id, name COLLATE NOCASE)
);

ALTER TABLE game_tables ADD COLUMN league_id INTEGER REFERENCES leagues (id);

CREATE INDEX game_tables_by_league ON game_tables (league_id) WHERE league_id IS NOT NULL;
