-- A round's plan (who sits at which of its tables) is stored with the round, before any
-- table is made: a process killed while the tables open leaves what is still to do, which
-- the next start finishes (or rolls back). ``opened_at``: NULL while the tables are opening.
ALTER TABLE league_rounds ADD COLUMN opened_at TEXT;
UPDATE league_rounds SET opened_at = created_at;
-- The organiser's answer ("thinking…") owed while the round opens: the interaction's token,
-- kept until the answer is given, so a restart that finishes the round gives it.
ALTER TABLE league_rounds ADD COLUMN reply_app TEXT;
ALTER TABLE league_rounds ADD COLUMN reply_token TEXT;
ALTER TABLE league_rounds ADD COLUMN reply_expires BIGINT;

-- One row per table of the plan; slot -1 holds no table (its members sit out). The channel
-- is kept before the table is opened in it, so a table made there but not yet filed under
-- the round is found rather than made again.
CREATE TABLE league_round_slots (
    round_id    BIGINT NOT NULL REFERENCES league_rounds (id),
    slot        INTEGER NOT NULL,
    computers   INTEGER NOT NULL,
    channel_id  BIGINT,
    table_id    BIGINT UNIQUE REFERENCES game_tables (id),
    PRIMARY KEY (round_id, slot)
);

-- The members of each slot, best rating first.
CREATE TABLE league_round_seats (
    round_id   BIGINT NOT NULL REFERENCES league_rounds (id),
    slot       INTEGER NOT NULL,
    place      INTEGER NOT NULL,
    member_id  BIGINT NOT NULL,
    name       TEXT    NOT NULL,
    PRIMARY KEY (round_id, slot, place),
    UNIQUE (round_id, member_id)
);
