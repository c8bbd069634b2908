-- A restart reads only the tables it must, each by a small index, never a walk over every
-- turn or seat ever played: open turns whose deadline fired (what a crash cut short after
-- it), and the seats a computer or a standing answer plays (their moves may be due).
CREATE INDEX turns_fired_open ON turns (due_at) WHERE fired_at IS NOT NULL AND ended_at IS NULL;
CREATE INDEX seats_played_for ON seats (table_id) WHERE is_computer OR standing IS NOT NULL;
