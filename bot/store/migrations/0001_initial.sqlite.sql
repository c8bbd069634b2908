-- Tables (one game each), their seats, and the append-only action log.
CREATE TABLE game_tables (
    id            INTEGER PRIMARY KEY,
    guild_id      INTEGER,
    channel_id    INTEGER NOT NULL,
    game_id       TEXT    NOT NULL,
    status        TEXT    NOT NULL CHECK (status IN ('lobby', 'playing', 'over', 'abandoned')),
    creator_id    INTEGER NOT NULL,
    options       TEXT    NOT NULL DEFAULT '{}',
    max_players   INTEGER,
    seat_order    TEXT    NOT NULL DEFAULT 'shuffled' CHECK (seat_order IN ('shuffled', 'join')),
    seed          TEXT    NOT NULL,
    seed_hash     TEXT    NOT NULL,
    snapshot      TEXT,
    version       INTEGER NOT NULL DEFAULT 0,
    message_id    INTEGER,
    created_at    TEXT    NOT NULL,
    updated_at    TEXT    NOT NULL
);

-- One live game per channel: a channel's finished games stay for history.
CREATE UNIQUE INDEX one_live_table_per_channel
    ON game_tables (channel_id) WHERE status IN ('lobby', 'playing');

CREATE TABLE seats (
    table_id     INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    position     INTEGER NOT NULL,          -- join order in the lobby, the seat once started
    member_id    INTEGER,                   -- NULL for a computer seat
    name         TEXT    NOT NULL,
    is_computer  INTEGER NOT NULL DEFAULT 0,
    dm_closed    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, position)
);

CREATE UNIQUE INDEX one_seat_per_member
    ON seats (table_id, member_id) WHERE member_id IS NOT NULL;

CREATE TABLE actions (
    id            INTEGER PRIMARY KEY,
    table_id      INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    version       INTEGER NOT NULL,         -- the table version this entry produced
    kind          TEXT    NOT NULL CHECK (kind IN ('act', 'undo')),
    seat          INTEGER,
    member_id     INTEGER,
    action        TEXT,                     -- the action's JSON (kind 'act')
    text          TEXT,                     -- the action in the game's notation
    irreversible  INTEGER NOT NULL DEFAULT 0,
    undoes        INTEGER REFERENCES actions (id),
    idem_key      TEXT,
    created_at    TEXT    NOT NULL,
    UNIQUE (table_id, version)
);

CREATE UNIQUE INDEX one_action_per_key
    ON actions (table_id, idem_key) WHERE idem_key IS NOT NULL;
