-- Accounts (issue 17): provider identities, sign-in flows in progress, and what the
-- account page needs to list sessions. Same shape as SQLite's 0100_accounts.sql.
CREATE TABLE identities (
    provider     INTEGER NOT NULL,
    subject      TEXT    NOT NULL,
    user_id      BIGINT  NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email        TEXT    NOT NULL DEFAULT '',
    name         TEXT    NOT NULL DEFAULT '',
    photo        TEXT    NOT NULL DEFAULT '',
    linked_at    BIGINT  NOT NULL,
    last_used_at BIGINT  NOT NULL,
    PRIMARY KEY (provider, subject)
);
CREATE INDEX identities_user ON identities (user_id);

CREATE TABLE sign_in_flows (
    state_hash    TEXT    PRIMARY KEY,
    provider      INTEGER NOT NULL,
    browser_hash  TEXT    NOT NULL,
    session_id    BIGINT  NOT NULL,
    pkce_verifier TEXT    NOT NULL,
    nonce         TEXT    NOT NULL,
    return_to     TEXT    NOT NULL,
    popup         BOOLEAN NOT NULL,
    link          BOOLEAN NOT NULL,
    created_at    BIGINT  NOT NULL,
    expires_at    BIGINT  NOT NULL
);

ALTER TABLE sessions ADD COLUMN label TEXT NOT NULL DEFAULT '';
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX devices_user ON devices (user_id);
