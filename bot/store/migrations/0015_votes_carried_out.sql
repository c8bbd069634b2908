-- A vote that ended is carried out in steps (the computer's move, a new deadline, the
-- seat set absent) that a crash may cut short. ``vote_state``: 'closing' from the moment the
-- vote is ended until what it decided is done, then 'done'; NULL again when the deadline
-- fires anew. A process that starts finds what was left half done and finishes it.
ALTER TABLE turns ADD COLUMN vote_state TEXT CHECK (vote_state IN ('closing', 'done'));
