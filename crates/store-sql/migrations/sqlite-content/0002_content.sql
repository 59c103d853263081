-- Content (issue 3): publishers, feeds, news items, their places, story clusters,
-- operator collections and the full-text index. Times are milliseconds since the epoch.

CREATE TABLE media_sources (
    media_id        INTEGER PRIMARY KEY,
    slug            TEXT    NOT NULL UNIQUE,
    name            TEXT    NOT NULL,
    -- Accent- and case-folded name, for publisher search.
    name_fold       TEXT    NOT NULL,
    icon_url        TEXT    NOT NULL DEFAULT '',
    home_url        TEXT    NOT NULL DEFAULT '',
    about           TEXT    NOT NULL DEFAULT '',
    contact         TEXT    NOT NULL DEFAULT '',
    category_id     TEXT    NOT NULL DEFAULT '',
    category_top_id TEXT    NOT NULL DEFAULT '',
    country         TEXT    NOT NULL DEFAULT '',
    admin_code      TEXT    NOT NULL DEFAULT '',
    city            TEXT    NOT NULL DEFAULT '',
    city_id         INTEGER NOT NULL DEFAULT 0,
    lang            TEXT    NOT NULL DEFAULT 'en',
    created_at      INTEGER NOT NULL
);

CREATE TABLE feeds (
    feed_id            INTEGER PRIMARY KEY,
    media_id           INTEGER NOT NULL REFERENCES media_sources (media_id) ON DELETE CASCADE,
    url                TEXT    NOT NULL UNIQUE,
    lang               TEXT    NOT NULL,
    etag               TEXT,
    last_modified      TEXT,
    next_due           INTEGER NOT NULL,
    interval_secs      INTEGER NOT NULL DEFAULT 1800,
    consecutive_errors INTEGER NOT NULL DEFAULT 0,
    last_fetch         INTEGER,
    last_status        INTEGER,
    last_items         INTEGER NOT NULL DEFAULT 0,
    last_error         TEXT    NOT NULL DEFAULT '',
    lease_until        INTEGER NOT NULL DEFAULT 0,
    created_at         INTEGER NOT NULL
);
CREATE INDEX feeds_due ON feeds (next_due);
CREATE INDEX feeds_media ON feeds (media_id);

CREATE TABLE news_items (
    news_id              INTEGER PRIMARY KEY,
    feed_id              INTEGER NOT NULL REFERENCES feeds (feed_id) ON DELETE CASCADE,
    media_id             INTEGER NOT NULL REFERENCES media_sources (media_id) ON DELETE CASCADE,
    identity             TEXT    NOT NULL,
    canonical_url        TEXT    NOT NULL,
    content_hash         TEXT    NOT NULL,
    title                TEXT    NOT NULL,
    org_img_url          TEXT    NOT NULL DEFAULT '',
    img_url              TEXT    NOT NULL DEFAULT '',
    thumbnail_url        TEXT    NOT NULL DEFAULT '',
    video_url            TEXT    NOT NULL DEFAULT '',
    voice_url            TEXT    NOT NULL DEFAULT '',
    content              TEXT    NOT NULL DEFAULT '',
    content_type         TEXT    NOT NULL DEFAULT 'html',
    content_total_length INTEGER NOT NULL DEFAULT 0,
    description          TEXT    NOT NULL DEFAULT '',
    summary              TEXT    NOT NULL DEFAULT '',
    news_type            INTEGER NOT NULL DEFAULT 1,
    publish_time         INTEGER NOT NULL,
    link_url             TEXT    NOT NULL DEFAULT '',
    author               TEXT    NOT NULL DEFAULT '',
    category_id          TEXT    NOT NULL DEFAULT 'local',
    -- JSON arrays: feed categories, and GeoNames city ids (area_list, main place first).
    tags                 TEXT    NOT NULL DEFAULT '[]',
    city_ids             TEXT    NOT NULL DEFAULT '[]',
    lang                 TEXT    NOT NULL DEFAULT 'en',
    country              TEXT    NOT NULL DEFAULT '',
    cluster_id           INTEGER NOT NULL DEFAULT 0,
    signature            BLOB,
    read_count           INTEGER NOT NULL DEFAULT 0,
    like_count           INTEGER NOT NULL DEFAULT 0,
    share_count          INTEGER NOT NULL DEFAULT 0,
    comment_count        INTEGER NOT NULL DEFAULT 0,
    created_at           INTEGER NOT NULL,
    updated_at           INTEGER NOT NULL,
    UNIQUE (media_id, identity)
);
CREATE INDEX news_latest ON news_items (publish_time DESC, news_id DESC);
CREATE INDEX news_media ON news_items (media_id, publish_time DESC, news_id DESC);
CREATE INDEX news_category ON news_items (category_id, publish_time DESC, news_id DESC);
CREATE INDEX news_cluster ON news_items (cluster_id, publish_time DESC);
CREATE INDEX news_canonical ON news_items (media_id, canonical_url);

-- Where each item is: c:<city id>, s:<ISO>-<admin code>, n:<ISO>. publish_time is copied
-- so a place feed reads one index range.
CREATE TABLE news_places (
    place        TEXT    NOT NULL,
    publish_time INTEGER NOT NULL,
    news_id      INTEGER NOT NULL REFERENCES news_items (news_id) ON DELETE CASCADE,
    PRIMARY KEY (place, publish_time, news_id)
) WITHOUT ROWID;
CREATE INDEX news_places_item ON news_places (news_id);

-- One row per story; cluster_id is the news_id of its first item. lead_id is its newest.
CREATE TABLE story_clusters (
    cluster_id  INTEGER PRIMARY KEY,
    lead_id     INTEGER NOT NULL,
    size        INTEGER NOT NULL,
    media_count INTEGER NOT NULL,
    newest      INTEGER NOT NULL
);
CREATE INDEX story_clusters_newest ON story_clusters (newest);

CREATE TABLE specials (
    slug        TEXT    PRIMARY KEY,
    title       TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    query       TEXT    NOT NULL DEFAULT '',
    news_ids    TEXT    NOT NULL DEFAULT '[]',
    updated_at  INTEGER NOT NULL
);

-- Full text over plain text (not HTML), rowid = news_id. Diacritics removed, so "Montreal"
-- finds "Montréal"; the Porter stemmer helps English and is harmless for the others.
CREATE VIRTUAL TABLE news_fts USING fts5 (
    title, summary, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
