-- How far a round's deadline reminders went (0: never looked at, 1: looked at, 2 and 3: told a
-- day and an hour before): each is told once, whichever process gets there.
ALTER TABLE league_rounds ADD COLUMN reminded INTEGER NOT NULL DEFAULT 0;
