-- Leagues a season can be run on: rounds have a state (open until closed) and may have a
-- deadline; tables opened for a league outside rounds are sanctioned by an organiser; results
-- can be voided or corrected (logged, with a reason); each seat's in-game score is kept;
-- sign-ups open and close, may have a cap, and a round may pair only members who checked in.

ALTER TABLE league_rounds ADD COLUMN closed_at TEXT;   -- NULL while the round is open
ALTER TABLE league_rounds ADD COLUMN deadline TEXT;    -- ISO time; NULL: no deadline
-- Seconds the next round gets when it opens by itself at this one's deadline; NULL: the
-- organisers open it.
ALTER TABLE league_rounds ADD COLUMN auto_next INTEGER;

-- Rounds made before rounds had a state are closed once none of their tables is live.
UPDATE league_rounds SET closed_at = created_at WHERE NOT EXISTS (
    SELECT 1 FROM league_round_tables rt JOIN game_tables t ON t.id = rt.table_id
    WHERE rt.round_id = league_rounds.id AND t.status IN ('lobby', 'playing'));
UPDATE league_rounds SET closed_at = created_at WHERE closed_at IS NULL AND id NOT IN (
    SELECT MAX(id) FROM league_rounds WHERE closed_at IS NULL GROUP BY league_id);

-- At most one open round per league: two requests at once cannot both open one.
CREATE UNIQUE INDEX league_rounds_one_open ON league_rounds (league_id) WHERE closed_at IS NULL;

ALTER TABLE leagues ADD COLUMN points TEXT;            -- points per place, e.g. '3,1,0'
ALTER TABLE leagues ADD COLUMN signups_open INTEGER NOT NULL DEFAULT 1;
ALTER TABLE leagues ADD COLUMN cap INTEGER;            -- most members signed up; NULL: any
ALTER TABLE leagues ADD COLUMN checkin INTEGER NOT NULL DEFAULT 0;  -- rounds pair checked-in members

-- Members present for the league's next round (cleared when a round forms).
CREATE TABLE league_checkins (
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    member_id  INTEGER NOT NULL,
    at         TEXT    NOT NULL,
    PRIMARY KEY (league_id, member_id)
);

-- League tables an organiser opened outside rounds: their results count.
CREATE TABLE league_sanctions (
    table_id   INTEGER NOT NULL PRIMARY KEY REFERENCES game_tables (id),
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    opened_by  INTEGER NOT NULL,
    at         TEXT    NOT NULL
);

ALTER TABLE league_results ADD COLUMN voided TEXT;     -- the reason; NULL: the result counts
ALTER TABLE league_places ADD COLUMN score REAL;       -- the seat's in-game score, if known

-- Every correction of a result, by whom and why.
CREATE TABLE league_corrections (
    id         INTEGER PRIMARY KEY,
    result_id  INTEGER NOT NULL REFERENCES league_results (id),
    member_id  INTEGER NOT NULL,
    what       TEXT    NOT NULL,
    reason     TEXT    NOT NULL,
    at         TEXT    NOT NULL
);
