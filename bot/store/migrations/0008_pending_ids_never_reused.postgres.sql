-- Nothing to do: identity columns never hand out an id twice. (SQLite's 0008 makes its
-- pending_moves ids behave the same way; the numbers stay in step.)
SELECT 1;
