-- What a process asks at start and per member, answered by an index rather than a scan of
-- every table ever played (finished tables only grow): the tables with a move committed but
-- not yet announced, the tables by status (the live ones), and a member's seats.
CREATE INDEX game_tables_unannounced ON game_tables (id) WHERE announced < version;
CREATE INDEX game_tables_by_status ON game_tables (status, id);
CREATE INDEX seats_by_member ON seats (member_id) WHERE member_id IS NOT NULL;
