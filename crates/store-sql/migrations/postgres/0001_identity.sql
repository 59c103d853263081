-- Users in the spec's server form (SPEC §3.1), the devices that own guest users,
-- sessions (only the SHA-256 of each token is stored) and app settings.
-- A session token is "<id>.<secret>": sessions are found by id (sequential, so inserts
-- append) and checked against the SHA-256 of the secret. Clean-up indexes come with clean-up.
CREATE TABLE users (
    id           BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name         TEXT    NOT NULL DEFAULT '',
    photo        TEXT    NOT NULL DEFAULT '',
    email        TEXT    NOT NULL DEFAULT '',
    account_type INTEGER NOT NULL DEFAULT 0,
    user_type    INTEGER NOT NULL DEFAULT 0,
    join_time    BIGINT  NOT NULL,
    last_time    BIGINT  NOT NULL,
    app_lang     TEXT    NOT NULL DEFAULT 'en',
    country      TEXT    NOT NULL DEFAULT 'US',
    postal_code  TEXT    NOT NULL DEFAULT '',
    admin_code   TEXT    NOT NULL DEFAULT '',
    city         TEXT    NOT NULL DEFAULT '',
    city_show    TEXT    NOT NULL DEFAULT '',
    city_id      BIGINT  NOT NULL DEFAULT 0,
    lat          DOUBLE PRECISION NOT NULL DEFAULT 0,
    lon          DOUBLE PRECISION NOT NULL DEFAULT 0
);

CREATE TABLE devices (
    device_id  TEXT    PRIMARY KEY,
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    channel    TEXT    NOT NULL DEFAULT '',
    created_at BIGINT  NOT NULL,
    last_seen  BIGINT  NOT NULL
);

CREATE TABLE sessions (
    id            BIGINT  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    verifier_hash TEXT    NOT NULL,
    user_id    BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    device_id  TEXT    NOT NULL,
    created_at BIGINT  NOT NULL,
    expires_at BIGINT  NOT NULL
);

CREATE TABLE app_settings (
    key        TEXT    PRIMARY KEY,
    value      TEXT    NOT NULL,
    updated_at BIGINT  NOT NULL
);
