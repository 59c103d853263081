//! Usage reports on SQLite (issue 21, D332): a file of their own beside the identity file
//! (`localwire-reports.sqlite`, so reporting never holds the identity file's write lock),
//! owned by one thread with a plain connection. Appends waiting in its queue are written
//! in one transaction (group commit, as `things_writer`, D275); each caller is answered
//! once its group is committed. The operator's rare reads and the retention delete go
//! through the same thread.
//!
//! A call's shared columns are one `report_calls` row; its events are `report_events` rows
//! whose id is the call's id × 128 plus their place (D365), so a call's events are a
//! rowid range and the events table needs no index of its own.

use rusqlite::{Connection, TransactionBehavior, params};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use store::reports::{Count, DAY_MS, EVENT_IDS_PER_CALL, ReportCall, ReportEvent, TOP, Usage};
use store::{Result, StoreError};
use tokio::sync::oneshot;

use crate::reports;

/// At most this many appends share a commit.
const MAX_BATCH: usize = 512;

/// The calls table and its index, as of version 2 (D365).
const CALLS: &str = "
CREATE TABLE report_calls (
    id             INTEGER PRIMARY KEY,
    received_at    INTEGER NOT NULL,
    bytes          INTEGER NOT NULL,
    ip             TEXT    NOT NULL,
    user_agent     TEXT    NOT NULL,
    property       TEXT    NOT NULL,
    device_id      TEXT    NOT NULL,
    country        TEXT    NOT NULL,
    lang           TEXT    NOT NULL,
    channel        TEXT    NOT NULL
);
CREATE INDEX report_calls_received ON report_calls (received_at, bytes);
";

/// The events table as of version 2: id = call id × 128 + place in the call.
const EVENTS: &str = "
CREATE TABLE report_events (
    id             INTEGER PRIMARY KEY,
    event_time     INTEGER NOT NULL,
    event          TEXT    NOT NULL,
    subject        TEXT    NOT NULL,
    detail         TEXT    NOT NULL,
    label          TEXT    NOT NULL,
    fields         TEXT    NOT NULL
);
";

/// Version 1 (issue 21) kept every column on every event. Each old event becomes a call of
/// its own (same id; its event id × 128), counted as the bytes it holds; its fields stay
/// whole, which `full_fields` reads as they are.
const FROM_V1: &str = "
INSERT INTO report_calls (id, received_at, bytes, ip, user_agent, property, device_id, country, lang, channel)
    SELECT id, received_at,
        208 + length(ip) + length(user_agent) + length(property) + length(device_id) + length(country)
            + length(lang) + length(channel) + length(event) + length(subject) + length(detail) + length(label)
            + length(fields),
        ip, user_agent, property, device_id, country, lang, channel
    FROM report_events;
ALTER TABLE report_events RENAME TO report_events_v1;
";
const FROM_V1_EVENTS: &str = "
INSERT INTO report_events (id, event_time, event, subject, detail, label, fields)
    SELECT id * 128, event_time, event, subject, detail, label, fields FROM report_events_v1;
DROP TABLE report_events_v1;
";

/// Create the schema, or bring a version 1 file to version 2, in one transaction.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    match version {
        0 => tx.execute_batch(&format!("{CALLS}{EVENTS}"))?,
        1 => tx.execute_batch(&format!("{CALLS}{FROM_V1}{EVENTS}{FROM_V1_EVENTS}"))?,
        _ => return Ok(()),
    }
    tx.execute_batch("PRAGMA user_version = 2;")?;
    tx.commit()
}

/// Events joined to their calls; `c.id = e.id / 128` finds the call from an event,
/// the range finds a call's events.
fn db(e: rusqlite::Error) -> StoreError {
    crate::sqlite::rusqlite_db(e)
}

enum Job {
    Append(ReportCall, oneshot::Sender<Result<()>>),
    Delete(i64, oneshot::Sender<Result<u64>>),
    Events {
        from: i64,
        to: i64,
        after: i64,
        limit: i64,
        done: oneshot::Sender<Result<Vec<ReportEvent>>>,
    },
    Usage(i64, i64, oneshot::Sender<Result<Usage>>),
    Bytes(oneshot::Sender<Result<i64>>),
    FileBytes(oneshot::Sender<Result<i64>>),
}

pub struct ReportWriter {
    jobs: mpsc::Sender<Job>,
}

/// The reports file beside the identity file: `localwire.sqlite` → `localwire-reports.sqlite`.
pub fn reports_file(identity: &Path) -> std::path::PathBuf {
    let stem = identity.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
    let name = match identity.extension() {
        Some(ext) => format!("{stem}-reports.{}", ext.to_string_lossy()),
        None => format!("{stem}-reports"),
    };
    identity.with_file_name(name)
}

fn stopped() -> StoreError {
    StoreError::Database("the report writer has stopped".into())
}

impl ReportWriter {
    pub fn spawn(path: &Path) -> Result<ReportWriter> {
        let mut conn = Connection::open(path).map_err(db)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(db)?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA page_size = 4096;")
            .map_err(db)?;
        migrate(&mut conn).map_err(db)?;
        let (jobs, incoming) = mpsc::channel();
        std::thread::Builder::new()
            .name("lw-report-writer".into())
            .spawn(move || run(conn, &incoming))
            .map_err(|e| StoreError::Database(format!("cannot start the report writer thread: {e}")))?;
        Ok(ReportWriter { jobs })
    }

    async fn ask<T>(&self, make: impl FnOnce(oneshot::Sender<Result<T>>) -> Job) -> Result<T> {
        let (done, answer) = oneshot::channel();
        self.jobs.send(make(done)).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    pub async fn append(&self, call: ReportCall) -> Result<()> {
        if call.events.len() as i64 > EVENT_IDS_PER_CALL {
            return Err(StoreError::Database(format!(
                "a report call holds at most {EVENT_IDS_PER_CALL} events"
            )));
        }
        self.ask(|done| Job::Append(call, done)).await
    }

    pub async fn stored_bytes(&self) -> Result<i64> {
        self.ask(Job::Bytes).await
    }

    /// The bytes of the pages in use in the reports file (WAL frames included), as the
    /// storage-amplification tests measure it.
    pub async fn file_bytes(&self) -> Result<i64> {
        self.ask(Job::FileBytes).await
    }

    pub async fn delete_before(&self, before_ms: i64) -> Result<u64> {
        self.ask(|done| Job::Delete(before_ms, done)).await
    }

    pub async fn events(&self, from: i64, to: i64, after: i64, limit: i64) -> Result<Vec<ReportEvent>> {
        self.ask(|done| Job::Events {
            from,
            to,
            after,
            limit,
            done,
        })
        .await
    }

    pub async fn usage(&self, from: i64, to: i64) -> Result<Usage> {
        self.ask(|done| Job::Usage(from, to, done)).await
    }
}

fn run(mut conn: Connection, incoming: &mpsc::Receiver<Job>) {
    while let Ok(first) = incoming.recv() {
        let mut appends = Vec::new();
        let mut others = Vec::new();
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Append(events, done) => appends.push((events, done)),
                other => others.push(other),
            }
            if appends.len() < MAX_BATCH {
                next = incoming.try_recv().ok();
            }
        }
        if !appends.is_empty() {
            let result = append_group(&mut conn, &appends).map_err(|e| e.to_string());
            if let Err(e) = &result {
                tracing::warn!(error = %e, calls = appends.len(), "a group of report events failed");
            }
            for (_, done) in appends {
                let _ = done.send(result.clone().map_err(StoreError::Database));
            }
        }
        for job in others {
            match job {
                Job::Append(..) => {}
                Job::Delete(before, done) => {
                    let _ = done.send(delete_before(&mut conn, before).map_err(db));
                }
                Job::FileBytes(done) => {
                    let r = conn
                        .query_row(
                            "SELECT (page_count - freelist_count) * page_size FROM pragma_page_count(), \
                             pragma_freelist_count(), pragma_page_size()",
                            [],
                            |r| r.get(0),
                        )
                        .map_err(db);
                    let _ = done.send(r);
                }
                Job::Bytes(done) => {
                    let r = conn
                        .query_row("SELECT COALESCE(SUM(bytes), 0) FROM report_calls", [], |r| r.get(0))
                        .map_err(db);
                    let _ = done.send(r);
                }
                Job::Events {
                    from,
                    to,
                    after,
                    limit,
                    done,
                } => {
                    let _ = done.send(events(&conn, from, to, after, limit).map_err(db));
                }
                Job::Usage(from, to, done) => {
                    let _ = done.send(usage(&conn, from, to).map_err(db));
                }
            }
        }
    }
}

fn append_group(conn: &mut Connection, group: &[(ReportCall, oneshot::Sender<Result<()>>)]) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut call_insert = tx.prepare_cached(
            "INSERT INTO report_calls (received_at, bytes, ip, user_agent, property, device_id, country, lang, channel) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?;
        let mut event_insert = tx.prepare_cached(
            "INSERT INTO report_events (id, event_time, event, subject, detail, label, fields) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?;
        for (c, _) in group {
            call_insert.execute(params![
                c.received_at_ms,
                c.stored_bytes(),
                c.ip,
                c.user_agent,
                c.property,
                c.device_id,
                c.country,
                c.lang,
                c.channel
            ])?;
            let first = tx.last_insert_rowid() * EVENT_IDS_PER_CALL;
            for (place, e) in (0_i64..).zip(&c.events) {
                event_insert.execute(params![
                    first + place,
                    e.time_ms,
                    e.event,
                    e.subject,
                    e.detail,
                    e.label,
                    e.fields
                ])?;
            }
        }
    }
    tx.commit()
}

/// Delete the calls received before `before` and their events (each a rowid range); how
/// many events went.
fn delete_before(conn: &mut Connection, before: i64) -> rusqlite::Result<u64> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let mut deleted = 0;
    {
        let mut calls = tx.prepare("SELECT id FROM report_calls WHERE received_at < ?1")?;
        let ids = calls
            .query_map(params![before], |r| r.get::<_, i64>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut events = tx.prepare("DELETE FROM report_events WHERE id >= ?1 AND id < ?2")?;
        for id in ids {
            let first = id * EVENT_IDS_PER_CALL;
            deleted += events.execute(params![first, first + EVENT_IDS_PER_CALL])? as u64;
        }
    }
    tx.execute("DELETE FROM report_calls WHERE received_at < ?1", params![before])?;
    tx.commit()?;
    Ok(deleted)
}

fn events(conn: &Connection, from: i64, to: i64, after: i64, limit: i64) -> rusqlite::Result<Vec<ReportEvent>> {
    let mut q = conn.prepare_cached(reports::EVENTS)?;
    q.query_map(params![from, to, after, limit], |r| reports::event_row(r))?
        .collect()
}

fn counts(conn: &Connection, sql: &str, from: i64, to: i64) -> rusqlite::Result<Vec<Count>> {
    let mut q = conn.prepare_cached(sql)?;
    q.query_map(params![from, to, TOP], |r| reports::count_row(r))?
        .collect()
}

fn usage(conn: &Connection, from: i64, to: i64) -> rusqlite::Result<Usage> {
    let mut q = conn.prepare_cached(reports::DAYS)?;
    let days = q
        .query_map(params![DAY_MS, from, to], |r| reports::day_row(r))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(Usage {
        days,
        core_functions: counts(conn, reports::CORE_FUNCTIONS, from, to)?,
        top_stories: counts(conn, reports::TOP_STORIES, from, to)?,
        search_terms: counts(conn, reports::SEARCH_TERMS, from, to)?,
        channels: counts(conn, reports::CHANNELS, from, to)?,
        countries: counts(conn, reports::COUNTRIES, from, to)?,
        languages: counts(conn, reports::LANGUAGES, from, to)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Version 1 (issue 21): every column on every event.
    const V1: &str = "
    CREATE TABLE report_events (
        id INTEGER PRIMARY KEY, received_at INTEGER NOT NULL, event_time INTEGER NOT NULL, event TEXT NOT NULL,
        device_id TEXT NOT NULL, country TEXT NOT NULL, lang TEXT NOT NULL, channel TEXT NOT NULL,
        subject TEXT NOT NULL, detail TEXT NOT NULL, label TEXT NOT NULL, ip TEXT NOT NULL,
        user_agent TEXT NOT NULL, fields TEXT NOT NULL, property TEXT NOT NULL);
    CREATE INDEX report_events_received ON report_events (received_at);
    INSERT INTO report_events VALUES (7, 1000, 995, 'search', 'dev-1', 'US', 'en', '', 'Flood', '', '',
        '203.0.113.0', 'Mozilla/5.0', '{\"keyword\":\"Flood\"}', '{\"os\":5}');
    PRAGMA user_version = 1;
    ";

    #[tokio::test]
    async fn d365_events_stored_before_calls_are_migrated_and_read_back_the_same() {
        let dir = std::env::temp_dir().join(format!("lw-reports-v1-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.sqlite");
        let _ = std::fs::remove_file(&path);
        Connection::open(&path).unwrap().execute_batch(V1).unwrap();
        let writer = ReportWriter::spawn(&path).unwrap();
        let events = writer.events(0, i64::MAX, 0, 10).await.unwrap();
        assert_eq!(events.len(), 1);
        let e = &events[0];
        assert_eq!((e.id, e.received_at_ms, e.time_ms), (7 * EVENT_IDS_PER_CALL, 1000, 995));
        assert_eq!(
            (e.event.as_str(), e.subject.as_str(), e.device_id.as_str()),
            ("search", "Flood", "dev-1")
        );
        assert_eq!(
            (e.user_agent.as_str(), e.property.as_str()),
            ("Mozilla/5.0", r#"{"os":5}"#)
        );
        assert_eq!(e.fields, r#"{"keyword":"Flood"}"#);
        assert!(writer.stored_bytes().await.unwrap() > 0, "the migrated call is counted");
        assert_eq!(writer.usage(0, 86_400_000).await.unwrap().search_terms[0].count, 1);
        assert_eq!(writer.delete_before(2000).await.unwrap(), 1, "retention deletes both");
        assert_eq!(writer.stored_bytes().await.unwrap(), 0);
        drop(writer);
        let _ = std::fs::remove_dir_all(dir);
    }
}
