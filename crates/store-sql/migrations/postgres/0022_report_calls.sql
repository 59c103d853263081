-- Report storage (issue 29, D365): what a report call repeats for each event (property record,
-- user agent, address, device, country, language, channel) is kept once, in a call row; an
-- event row holds its own columns and only the fields its columns and its model's defaults do
-- not give back. An event's id is its call's id * 128 + its place in the call, so the primary
-- key alone finds a call's events. Same tables as SQLite's reports file (report_writer.rs).
CREATE TABLE report_calls (
    id           BIGSERIAL PRIMARY KEY,
    received_at  BIGINT NOT NULL,
    -- What the call is counted as storing (store::reports::ReportCall::stored_bytes, D366).
    bytes        BIGINT NOT NULL,
    ip           TEXT   NOT NULL,
    user_agent   TEXT   NOT NULL,
    property     TEXT   NOT NULL,
    device_id    TEXT   NOT NULL,
    country      TEXT   NOT NULL,
    lang         TEXT   NOT NULL,
    channel      TEXT   NOT NULL
);

-- Each event stored before becomes a call of its own (same id), its fields kept whole.
INSERT INTO report_calls (id, received_at, bytes, ip, user_agent, property, device_id, country, lang, channel)
SELECT id, received_at,
       208 + octet_length(ip) + octet_length(user_agent) + octet_length(property) + octet_length(device_id)
           + octet_length(country) + octet_length(lang) + octet_length(channel) + octet_length(event)
           + octet_length(subject) + octet_length(detail) + octet_length(label) + octet_length(fields),
       ip, user_agent, property, device_id, country, lang, channel
FROM report_events;
SELECT setval(pg_get_serial_sequence('report_calls', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM report_calls;

ALTER TABLE report_events RENAME TO report_events_v1;
CREATE TABLE report_events (
    id           BIGINT PRIMARY KEY,
    event_time   BIGINT NOT NULL,
    event        TEXT   NOT NULL,
    subject      TEXT   NOT NULL,
    detail       TEXT   NOT NULL,
    label        TEXT   NOT NULL,
    fields       TEXT   NOT NULL
);
INSERT INTO report_events (id, event_time, event, subject, detail, label, fields)
SELECT id * 128, event_time, event, subject, detail, label, fields FROM report_events_v1;
DROP TABLE report_events_v1;

CREATE INDEX report_calls_received ON report_calls (received_at) INCLUDE (bytes);
