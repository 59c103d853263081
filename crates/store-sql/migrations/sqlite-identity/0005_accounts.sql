-- Accounts (issue 17): provider identities, sign-in flows in progress, and what the
-- account page needs to list sessions.
--
-- A user may have several identities (Google and Facebook); an identity belongs to one
-- user. `provider` is the SPEC §3.2 account type (facebook 2, google 3); `subject` is the
-- provider's stable id for the person (OpenID `sub`, Facebook's app-scoped id).
CREATE TABLE identities (
    provider     INTEGER NOT NULL,
    subject      TEXT    NOT NULL,
    user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    email        TEXT    NOT NULL DEFAULT '',
    name         TEXT    NOT NULL DEFAULT '',
    photo        TEXT    NOT NULL DEFAULT '',
    linked_at    INTEGER NOT NULL,
    last_used_at INTEGER NOT NULL,
    PRIMARY KEY (provider, subject)
) WITHOUT ROWID;
CREATE INDEX identities_user ON identities (user_id);

-- One row per sign-in started in a browser, taken (deleted) by its callback: a state is
-- used once. Only the state's SHA-256 is the key, and the browser holds a second secret
-- (its cookie) whose SHA-256 must match, so a state alone, leaked in a URL, is useless.
CREATE TABLE sign_in_flows (
    state_hash    TEXT    PRIMARY KEY,
    provider      INTEGER NOT NULL,
    browser_hash  TEXT    NOT NULL,
    session_id    INTEGER NOT NULL,
    pkce_verifier TEXT    NOT NULL,
    nonce         TEXT    NOT NULL,
    return_to     TEXT    NOT NULL,
    popup         INTEGER NOT NULL,
    link          INTEGER NOT NULL,
    created_at    INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL
) WITHOUT ROWID;

-- A session says where it was opened ("Chrome on Linux"), for the account page.
ALTER TABLE sessions ADD COLUMN label TEXT NOT NULL DEFAULT '';
-- Listing, revoking and deleting by user (and ON DELETE CASCADE) without a full scan.
-- New ids grow, so both indexes are appended to by first visits.
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX devices_user ON devices (user_id);
