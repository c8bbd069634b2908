-- A member's standing answer for their seat: a move in the game's notation played for them
-- whenever it is among their legal moves (Palermo's "keep my stone from now on").
ALTER TABLE seats ADD COLUMN standing TEXT;
