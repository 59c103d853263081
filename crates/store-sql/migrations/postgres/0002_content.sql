-- Content (issue 3): publishers, feeds, news items, their places, story clusters,
-- operator collections and full text. Times are milliseconds since the epoch.
-- Full text: a tsvector per item in its language's configuration plus 'simple' (so a
-- query in any language matches), over unaccented text, so "Montreal" finds "Montréal".
CREATE EXTENSION IF NOT EXISTS unaccent;

CREATE TABLE media_sources (
    media_id        BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    slug            TEXT    NOT NULL UNIQUE,
    name            TEXT    NOT NULL,
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
    city_id         BIGINT  NOT NULL DEFAULT 0,
    lang            TEXT    NOT NULL DEFAULT 'en',
    created_at      BIGINT  NOT NULL
);

CREATE TABLE feeds (
    feed_id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    media_id           BIGINT  NOT NULL REFERENCES media_sources (media_id) ON DELETE CASCADE,
    url                TEXT    NOT NULL UNIQUE,
    lang               TEXT    NOT NULL,
    etag               TEXT,
    last_modified      TEXT,
    next_due           BIGINT  NOT NULL,
    interval_secs      BIGINT  NOT NULL DEFAULT 1800,
    consecutive_errors INTEGER NOT NULL DEFAULT 0,
    last_fetch         BIGINT,
    last_status        INTEGER,
    last_items         BIGINT  NOT NULL DEFAULT 0,
    last_error         TEXT    NOT NULL DEFAULT '',
    lease_until        BIGINT  NOT NULL DEFAULT 0,
    created_at         BIGINT  NOT NULL
);
CREATE INDEX feeds_due ON feeds (next_due);
CREATE INDEX feeds_media ON feeds (media_id);

CREATE TABLE news_items (
    news_id              BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    feed_id              BIGINT  NOT NULL REFERENCES feeds (feed_id) ON DELETE CASCADE,
    media_id             BIGINT  NOT NULL REFERENCES media_sources (media_id) ON DELETE CASCADE,
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
    content_total_length BIGINT  NOT NULL DEFAULT 0,
    description          TEXT    NOT NULL DEFAULT '',
    summary              TEXT    NOT NULL DEFAULT '',
    news_type            INTEGER NOT NULL DEFAULT 1,
    publish_time         BIGINT  NOT NULL,
    link_url             TEXT    NOT NULL DEFAULT '',
    author               TEXT    NOT NULL DEFAULT '',
    category_id          TEXT    NOT NULL DEFAULT 'local',
    tags                 TEXT    NOT NULL DEFAULT '[]',
    city_ids             TEXT    NOT NULL DEFAULT '[]',
    lang                 TEXT    NOT NULL DEFAULT 'en',
    country              TEXT    NOT NULL DEFAULT '',
    cluster_id           BIGINT  NOT NULL DEFAULT 0,
    signature            BYTEA,
    search               TSVECTOR,
    read_count           BIGINT  NOT NULL DEFAULT 0,
    like_count           BIGINT  NOT NULL DEFAULT 0,
    share_count          BIGINT  NOT NULL DEFAULT 0,
    comment_count        BIGINT  NOT NULL DEFAULT 0,
    created_at           BIGINT  NOT NULL,
    updated_at           BIGINT  NOT NULL,
    UNIQUE (media_id, identity)
);
CREATE INDEX news_latest ON news_items (publish_time DESC, news_id DESC);
CREATE INDEX news_media ON news_items (media_id, publish_time DESC, news_id DESC);
CREATE INDEX news_category ON news_items (category_id, publish_time DESC, news_id DESC);
CREATE INDEX news_cluster ON news_items (cluster_id, publish_time DESC);
CREATE INDEX news_canonical ON news_items (media_id, canonical_url);
CREATE INDEX news_search ON news_items USING GIN (search);

CREATE TABLE news_places (
    place        TEXT    NOT NULL,
    publish_time BIGINT  NOT NULL,
    news_id      BIGINT  NOT NULL REFERENCES news_items (news_id) ON DELETE CASCADE,
    PRIMARY KEY (place, publish_time, news_id)
);
CREATE INDEX news_places_item ON news_places (news_id);

CREATE TABLE story_clusters (
    cluster_id  BIGINT  PRIMARY KEY,
    lead_id     BIGINT  NOT NULL,
    size        BIGINT  NOT NULL,
    media_count BIGINT  NOT NULL,
    newest      BIGINT  NOT NULL
);
CREATE INDEX story_clusters_newest ON story_clusters (newest);

CREATE TABLE specials (
    slug        TEXT    PRIMARY KEY,
    title       TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    query       TEXT    NOT NULL DEFAULT '',
    news_ids    TEXT    NOT NULL DEFAULT '[]',
    updated_at  BIGINT  NOT NULL
);
