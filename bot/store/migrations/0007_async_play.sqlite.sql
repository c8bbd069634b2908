-- Asynchronous play. Times are whole seconds since 1970 (UTC), so every backend compares and
-- shifts them the same way.

-- A table's pace and out-of-time policy (JSON, see bot.pace.model.Timing) and its pause.
CREATE TABLE table_timing (
    table_id      INTEGER PRIMARY KEY REFERENCES game_tables (id) ON DELETE CASCADE,
    timing        TEXT    NOT NULL,
    paused_at     INTEGER,
    paused_by     INTEGER,
    pause_reason  TEXT
);

-- A league's pace, imposed on every table that counts for it (JSON, as table_timing).
CREATE TABLE league_timing (
    league_id  INTEGER PRIMARY KEY REFERENCES leagues (id) ON DELETE CASCADE,
    timing     TEXT    NOT NULL
);

-- Per seat: its time bank, consecutive moves the computer played for it, absence, holiday used.
CREATE TABLE seat_clocks (
    table_id      INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    bank          INTEGER NOT NULL DEFAULT 0,
    streak        INTEGER NOT NULL DEFAULT 0,
    absent        INTEGER NOT NULL DEFAULT 0,
    holiday_used  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);

-- A seat's wait for one move. Its deadline (due_at) fires at most once: firing is the claim
-- UPDATE ... SET fired_at = ? WHERE id = ? AND fired_at IS NULL.
CREATE TABLE turns (
    id             INTEGER PRIMARY KEY,
    table_id       INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL,
    member_id      INTEGER,
    since_version  INTEGER NOT NULL,
    started_at     INTEGER NOT NULL,
    due_at         INTEGER,
    fired_at       INTEGER,
    ended_at       INTEGER,
    created_at     INTEGER NOT NULL,
    UNIQUE (table_id, seat, since_version)
);

CREATE INDEX turns_due ON turns (due_at) WHERE fired_at IS NULL AND ended_at IS NULL;
CREATE INDEX turns_open_by_table ON turns (table_id) WHERE ended_at IS NULL;
CREATE INDEX turns_open_by_member ON turns (member_id) WHERE ended_at IS NULL;

-- Reminders of open turns, each sent at most once (the same claim as deadlines).
CREATE TABLE reminders (
    id         INTEGER PRIMARY KEY,
    turn_id    INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    member_id  INTEGER NOT NULL,
    due_at     INTEGER NOT NULL,
    fired_at   INTEGER,
    UNIQUE (turn_id, due_at)
);

CREATE INDEX reminders_due ON reminders (due_at) WHERE fired_at IS NULL;

-- A member's settings, the same on every server.
CREATE TABLE member_settings (
    member_id       INTEGER PRIMARY KEY,
    tz              TEXT    NOT NULL DEFAULT 'UTC',
    quiet_start     TEXT,
    quiet_end       TEXT,
    interval_hours  INTEGER NOT NULL DEFAULT 0,
    dm_notices      INTEGER NOT NULL DEFAULT 1,
    preview         INTEGER NOT NULL DEFAULT 1,
    away_from       INTEGER,
    away_until      INTEGER,
    dashboard       INTEGER NOT NULL DEFAULT 0,
    updated_at      INTEGER NOT NULL
);

-- A member's DM dashboard: one message, edited in place, listing the tables waiting on them.
-- ``dirty`` marks that the list changed since the message was last edited.
CREATE TABLE dashboards (
    member_id   INTEGER PRIMARY KEY,
    channel_id  INTEGER,
    message_id  INTEGER,
    dirty       INTEGER NOT NULL DEFAULT 1
);

CREATE INDEX dashboards_dirty ON dashboards (member_id) WHERE dirty = 1;

-- Who took over a seat, from whom, and who decided it (part of the table's history).
CREATE TABLE seat_changes (
    id             INTEGER PRIMARY KEY,
    table_id       INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL,
    old_member_id  INTEGER,
    new_member_id  INTEGER NOT NULL,
    old_name       TEXT    NOT NULL,
    new_name       TEXT    NOT NULL,
    by_member_id   INTEGER NOT NULL,
    at             INTEGER NOT NULL,
    version        INTEGER NOT NULL  -- the table version the change made (orders /history)
);

CREATE INDEX seat_changes_by_table ON seat_changes (table_id);

-- Votes of the other members on a seat that ran out of time (policy "vote").
CREATE TABLE out_of_time_votes (
    turn_id    INTEGER NOT NULL REFERENCES turns (id) ON DELETE CASCADE,
    member_id  INTEGER NOT NULL,
    choice     TEXT    NOT NULL CHECK (choice IN ('remove', 'wait', 'substitute')),
    at         INTEGER NOT NULL,
    PRIMARY KEY (turn_id, member_id)
);
