-- The reader's own things (issue 18). Same shape as PostgreSQL's 0006_reader_things.sql.
-- Every table belongs to a user (store::user_data::USER_TABLES: merged on sign-in, in the
-- download, deleted with the account). News items and publishers live in the content
-- file, so their ids are plain numbers without a foreign key.
--
-- Each primary key is the user and the thing, so a repeated write is one row; tables are
-- WITHOUT ROWID so the key is the row. Listings read newest first through the
-- (user_id, <time>, <id>) indexes, which give keyset paging its order. Times are UTC ms.
CREATE TABLE saved_news (
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    news_id  INTEGER NOT NULL,
    saved_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, news_id)
) WITHOUT ROWID;
CREATE INDEX saved_news_recent ON saved_news (user_id, saved_at, news_id);

-- One reaction per reader per story; `reaction` is a domain::reactions::Reaction name.
CREATE TABLE reactions (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    news_id    INTEGER NOT NULL,
    reaction   TEXT    NOT NULL,
    reacted_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, news_id)
) WITHOUT ROWID;
CREATE INDEX reactions_recent ON reactions (user_id, reacted_at, news_id);
-- Counts per story and reaction, read from the index alone.
CREATE INDEX reactions_news ON reactions (news_id, reaction);

-- A story once per UTC day (`day` = days since 1970), at the first time it was opened.
CREATE TABLE read_history (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    news_id INTEGER NOT NULL,
    day     INTEGER NOT NULL,
    read_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, news_id, day)
) WITHOUT ROWID;
CREATE INDEX read_history_recent ON read_history (user_id, read_at, news_id);

CREATE TABLE followed_media (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    media_id    INTEGER NOT NULL,
    followed_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, media_id)
) WITHOUT ROWID;

-- Read on every feed request (blocked_media_ids): the primary key alone answers it.
CREATE TABLE blocked_media (
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    media_id   INTEGER NOT NULL,
    blocked_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, media_id)
) WITHOUT ROWID;
CREATE INDEX blocked_media_recent ON blocked_media (user_id, blocked_at, media_id);

-- `kind` is 'tag' or 'category' (store::things::TopicKind).
CREATE TABLE followed_topics (
    user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind        TEXT    NOT NULL,
    value       TEXT    NOT NULL,
    followed_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind, value)
) WITHOUT ROWID;

-- Which channel tabs home shows, in `position` order (replaced as a whole).
CREATE TABLE home_channels (
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channel  TEXT    NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (user_id, channel)
) WITHOUT ROWID;

-- `kind` is 'keyword', 'tag' or 'author' (store::things::MuteKind).
CREATE TABLE mutes (
    user_id  INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind     TEXT    NOT NULL,
    value    TEXT    NOT NULL,
    muted_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind, value)
) WITHOUT ROWID;
