-- The action in the game's notation, shown only to the player who made it (it can name a
-- hidden piece); `text` stays the public narration.
ALTER TABLE actions ADD COLUMN notation TEXT;
