-- A turn whose vote offered the seat to a substitute: when its deadline fires again with the
-- seat still untaken, the computer plays it (whoever has come or gone since the vote).
ALTER TABLE turns ADD COLUMN offered BOOLEAN NOT NULL DEFAULT FALSE;
