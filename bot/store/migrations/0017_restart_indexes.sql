-- A restart finishes what a crash cut short after a deadline fired: found by this index of
-- the few open turns that fired, never a walk over every turn ever played.
CREATE INDEX turns_fired_open ON turns (due_at) WHERE fired_at IS NOT NULL AND ended_at IS NULL;
