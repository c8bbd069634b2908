-- The web pages: each table and league gets a random public id on first ask (its page's
-- address, never guessable from the row id), and a server may turn its pages off.
CREATE TABLE web_ids (
    public_id TEXT    PRIMARY KEY,
    kind      TEXT    NOT NULL CHECK (kind IN ('table', 'league')),
    ref_id    BIGINT  NOT NULL,
    UNIQUE (kind, ref_id)
);

CREATE TABLE web_guilds (
    guild_id  BIGINT  PRIMARY KEY,
    pages_off BOOLEAN NOT NULL DEFAULT FALSE
);
