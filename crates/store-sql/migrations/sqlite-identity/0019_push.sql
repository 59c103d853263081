-- Notifications by Web Push (issue 19). Same shape as PostgreSQL's 0019_push.sql. Every
-- table belongs to a user (store::user_data::USER_TABLES). Times are UTC ms; times of day
-- are minutes after local midnight in the reader's city's time zone.

-- One row per browser: the endpoint is unique, whoever has it.
CREATE TABLE push_subscriptions (
    id         INTEGER PRIMARY KEY,
    endpoint   TEXT    NOT NULL UNIQUE,
    p256dh     TEXT    NOT NULL,
    auth       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    city_id    INTEGER NOT NULL,
    lang       TEXT    NOT NULL,
    created_at INTEGER NOT NULL,
    failures   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX push_subscriptions_user ON push_subscriptions (user_id);
-- The notifier reads a city's subscriptions in id order.
CREATE INDEX push_subscriptions_city ON push_subscriptions (city_id, id);

-- media_off: publisher ids joined by commas; topics_off: one topic a line.
CREATE TABLE notification_settings (
    user_id      INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    enabled      INTEGER NOT NULL,
    daily_budget INTEGER NOT NULL,
    quiet_start  INTEGER NOT NULL,
    quiet_end    INTEGER NOT NULL,
    digest_hour  INTEGER,
    media_off    TEXT    NOT NULL DEFAULT '',
    topics_off   TEXT    NOT NULL DEFAULT '',
    updated_at   INTEGER NOT NULL
);

-- What was sent: once per reader per story (the notifier claims a row before it sends).
-- story_id is the story's first stored item (the same however its cluster grows);
-- news_id the item that was pushed (in the reader's language, from a publisher they see).
CREATE TABLE push_sent (
    user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    story_id INTEGER NOT NULL,
    news_id  INTEGER NOT NULL,
    sent_at INTEGER NOT NULL,
    digest  INTEGER NOT NULL,
    PRIMARY KEY (user_id, story_id)
) WITHOUT ROWID;
CREATE INDEX push_sent_recent ON push_sent (user_id, sent_at, story_id);
