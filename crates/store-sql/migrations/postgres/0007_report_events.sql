-- Usage reports (issue 21, D332). Append-only; deleted past the retention by received_at.
-- Same columns as SQLite's reports file (store-sqlite/src/report_writer.rs). No user id:
-- readers are counted by device.
CREATE TABLE report_events (
    id           BIGSERIAL PRIMARY KEY,
    received_at  BIGINT NOT NULL,
    event_time   BIGINT NOT NULL,
    event        TEXT   NOT NULL,
    device_id    TEXT   NOT NULL,
    country      TEXT   NOT NULL,
    lang         TEXT   NOT NULL,
    channel      TEXT   NOT NULL,
    subject      TEXT   NOT NULL,
    detail       TEXT   NOT NULL,
    label        TEXT   NOT NULL,
    ip           TEXT   NOT NULL,
    user_agent   TEXT   NOT NULL,
    fields       TEXT   NOT NULL,
    property     TEXT   NOT NULL
);
CREATE INDEX report_events_received ON report_events (received_at);
