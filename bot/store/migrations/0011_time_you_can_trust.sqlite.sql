-- Time and seats you can trust. A turn's ``extra``: seconds the table added to its deadline
-- (a vote to wait, an extension, a return from absence), kept so a deadline planned again
-- (a member's new holiday or quiet hours, a resume) keeps them. ``round``: how many times its
-- deadline fired (votes count per round). ``vote_due``: when the open vote on it ends.
ALTER TABLE turns ADD COLUMN extra INTEGER NOT NULL DEFAULT 0;
ALTER TABLE turns ADD COLUMN round INTEGER NOT NULL DEFAULT 0;
ALTER TABLE turns ADD COLUMN vote_due INTEGER;

CREATE INDEX turns_vote_due ON turns (vote_due) WHERE vote_due IS NOT NULL;

-- The deadline a reminder is for: a deadline moved away and back is not reminded of twice.
ALTER TABLE reminders ADD COLUMN deadline INTEGER;

-- A vote belongs to one round of a turn; a member's vote of an earlier round is replaced.
ALTER TABLE out_of_time_votes ADD COLUMN round INTEGER NOT NULL DEFAULT 0;

-- Discord refused a DM to the member (50007): reminders by channel mention until one works.
ALTER TABLE member_settings ADD COLUMN dms_refused INTEGER NOT NULL DEFAULT 0;

-- A server's defaults for asynchronous play (JSON, see bot.pace.server.ServerSettings): the
-- pace and out-of-time rule of new tables, whether quiet hours move deadlines, and the role
-- /game seek mentions.
CREATE TABLE server_settings (
    guild_id    INTEGER PRIMARY KEY,
    settings    TEXT    NOT NULL,
    updated_at  INTEGER NOT NULL
);

-- A member's reliability record outside leagues: games finished, games abandoned (seat gone
-- absent, voted out, or left by /game abandon) and deadlines missed, each once (a missed
-- deadline once per turn).
CREATE TABLE member_events (
    id         INTEGER PRIMARY KEY,
    member_id  INTEGER NOT NULL,
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL CHECK (kind IN ('finished', 'abandoned', 'missed')),
    turn_id    INTEGER NOT NULL DEFAULT 0,
    at         INTEGER NOT NULL,
    UNIQUE (member_id, table_id, kind, turn_id)
);

CREATE INDEX member_events_by_member ON member_events (member_id);
