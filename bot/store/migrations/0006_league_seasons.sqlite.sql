-- Leagues with seasons, sign-ups, rounds, forfeits, stored results and stored ratings.
-- A finished game's ranking is written once when it ends (league_results, league_places); the
-- ratings (league_ratings) are derived from those results and can be rebuilt from them.

ALTER TABLE leagues ADD COLUMN channel_id INTEGER;             -- where round threads open
ALTER TABLE leagues ADD COLUMN min_seats INTEGER;              -- NULL: the game's minimum
ALTER TABLE leagues ADD COLUMN max_seats INTEGER;              -- NULL: the game's maximum
ALTER TABLE leagues ADD COLUMN computers INTEGER NOT NULL DEFAULT 0;   -- fill short tables
ALTER TABLE leagues ADD COLUMN min_reliability REAL NOT NULL DEFAULT 0; -- 0..1 to join
ALTER TABLE leagues ADD COLUMN carry REAL NOT NULL DEFAULT 0;   -- share carried into a season

-- A server's league-admin role (besides server managers).
CREATE TABLE league_guilds (
    guild_id       INTEGER PRIMARY KEY,
    admin_role_id  INTEGER
);

CREATE TABLE league_seasons (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    number      INTEGER NOT NULL,
    started_at  TEXT    NOT NULL,
    ends_on     TEXT,               -- the planned last day (ISO date), shown to members
    ended_at    TEXT,               -- NULL while the season runs
    carry       REAL    NOT NULL DEFAULT 0,
    UNIQUE (league_id, number)
);

CREATE TABLE league_members (
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    member_id  INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    joined_at  TEXT    NOT NULL,
    left_at    TEXT,                -- NULL while signed up
    PRIMARY KEY (league_id, member_id)
);

CREATE TABLE league_rounds (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    season_id   INTEGER REFERENCES league_seasons (id),
    number      INTEGER NOT NULL,
    created_at  TEXT    NOT NULL,
    UNIQUE (league_id, number)
);

CREATE TABLE league_round_tables (
    round_id  INTEGER NOT NULL REFERENCES league_rounds (id),
    table_id  INTEGER NOT NULL PRIMARY KEY REFERENCES game_tables (id)
);

-- Each member's shown rating when a round was formed: "change since last round".
CREATE TABLE league_round_marks (
    round_id   INTEGER NOT NULL REFERENCES league_rounds (id),
    member_id  INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    PRIMARY KEY (round_id, member_id)
);

CREATE TABLE league_forfeits (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id),
    seat       INTEGER NOT NULL,
    member_id  INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    reason     TEXT    NOT NULL,    -- 'time' or 'abandoned'
    at         TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);

CREATE TABLE league_results (
    id           INTEGER PRIMARY KEY,
    league_id    INTEGER NOT NULL REFERENCES leagues (id),
    guild_id     INTEGER NOT NULL,
    game_id      TEXT    NOT NULL,
    season_id    INTEGER REFERENCES league_seasons (id),
    round_id     INTEGER REFERENCES league_rounds (id),
    table_id     INTEGER NOT NULL UNIQUE REFERENCES game_tables (id),
    finished_at  TEXT    NOT NULL,
    abandoned    INTEGER NOT NULL DEFAULT 0
);

CREATE INDEX league_results_by_league ON league_results (league_id, id);

CREATE TABLE league_places (
    result_id  INTEGER NOT NULL REFERENCES league_results (id),
    seat       INTEGER NOT NULL,
    member_id  INTEGER,             -- NULL for a computer seat
    name       TEXT    NOT NULL,
    place      INTEGER NOT NULL,    -- 1 is best; ties share a place
    forfeited  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (result_id, seat)
);

CREATE INDEX league_places_by_member ON league_places (member_id);

-- Scope: 'game:<guild>:<game>' (all-time) or 'season:<id>'.
CREATE TABLE league_ratings (
    scope      TEXT    NOT NULL,
    member_id  INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    forfeits   INTEGER NOT NULL,
    PRIMARY KEY (scope, member_id)
);
