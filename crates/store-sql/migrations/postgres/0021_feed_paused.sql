-- An operator can pause a feed from /admin (D336): kept with its stories, never claimed.
ALTER TABLE feeds ADD COLUMN paused BOOLEAN NOT NULL DEFAULT FALSE;
