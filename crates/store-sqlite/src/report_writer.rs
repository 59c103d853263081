//! Usage reports on SQLite (issue 21, D332): a file of their own beside the identity file
//! (`localwire-reports.sqlite`, so reporting never holds the identity file's write lock),
//! owned by one thread with a plain connection. Appends waiting in its queue are written
//! in one transaction (group commit, as `things_writer`, D275); each caller is answered
//! once its group is committed. The operator's rare reads and the retention delete go
//! through the same thread.

use rusqlite::{Connection, TransactionBehavior, params};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use store::reports::{Count, DAY_MS, DayUsage, ReportEvent, TOP, Usage};
use store::{Result, StoreError};
use tokio::sync::oneshot;

/// At most this many appends share a commit.
const MAX_BATCH: usize = 512;

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS report_events (
    id             INTEGER PRIMARY KEY,
    received_at    INTEGER NOT NULL,
    event_time     INTEGER NOT NULL,
    event          TEXT    NOT NULL,
    device_id      TEXT    NOT NULL,
    country        TEXT    NOT NULL,
    lang           TEXT    NOT NULL,
    channel        TEXT    NOT NULL,
    subject        TEXT    NOT NULL,
    detail         TEXT    NOT NULL,
    label          TEXT    NOT NULL,
    ip             TEXT    NOT NULL,
    user_agent     TEXT    NOT NULL,
    fields         TEXT    NOT NULL,
    property       TEXT    NOT NULL
);
CREATE INDEX IF NOT EXISTS report_events_received ON report_events (received_at);
PRAGMA user_version = 1;
";

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

enum Job {
    Append(Vec<ReportEvent>, oneshot::Sender<Result<()>>),
    Delete(i64, oneshot::Sender<Result<u64>>),
    Events {
        from: i64,
        to: i64,
        after: i64,
        limit: i64,
        done: oneshot::Sender<Result<Vec<ReportEvent>>>,
    },
    Usage(i64, i64, oneshot::Sender<Result<Usage>>),
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
        let conn = Connection::open(path).map_err(db)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(db)?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA page_size = 4096;")
            .map_err(db)?;
        conn.execute_batch(SCHEMA).map_err(db)?;
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

    pub async fn append(&self, events: Vec<ReportEvent>) -> Result<()> {
        self.ask(|done| Job::Append(events, done)).await
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
                    let r = conn
                        .execute("DELETE FROM report_events WHERE received_at < ?1", params![before])
                        .map(|n| n as u64)
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

fn append_group(
    conn: &mut Connection,
    group: &[(Vec<ReportEvent>, oneshot::Sender<Result<()>>)],
) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO report_events (received_at, event_time, event, device_id, country, lang, channel, \
             subject, detail, label, ip, user_agent, fields, property) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        )?;
        for (events, _) in group {
            for e in events {
                insert.execute(params![
                    e.received_at_ms,
                    e.time_ms,
                    e.event,
                    e.device_id,
                    e.country,
                    e.lang,
                    e.channel,
                    e.subject,
                    e.detail,
                    e.label,
                    e.ip,
                    e.user_agent,
                    e.fields,
                    e.property
                ])?;
            }
        }
    }
    tx.commit()
}

fn events(conn: &Connection, from: i64, to: i64, after: i64, limit: i64) -> rusqlite::Result<Vec<ReportEvent>> {
    let mut q = conn.prepare_cached(
        "SELECT id, received_at, event_time, event, device_id, country, lang, channel, subject, detail, label, \
         ip, user_agent, fields, property FROM report_events \
         WHERE received_at >= ?1 AND received_at < ?2 AND id > ?3 ORDER BY id LIMIT ?4",
    )?;
    q.query_map(params![from, to, after, limit], |r| {
        Ok(ReportEvent {
            id: r.get(0)?,
            received_at_ms: r.get(1)?,
            time_ms: r.get(2)?,
            event: r.get(3)?,
            device_id: r.get(4)?,
            country: r.get(5)?,
            lang: r.get(6)?,
            channel: r.get(7)?,
            subject: r.get(8)?,
            detail: r.get(9)?,
            label: r.get(10)?,
            ip: r.get(11)?,
            user_agent: r.get(12)?,
            fields: r.get(13)?,
            property: r.get(14)?,
        })
    })?
    .collect()
}

fn counts(conn: &Connection, sql: &str, from: i64, to: i64) -> rusqlite::Result<Vec<Count>> {
    let mut q = conn.prepare_cached(sql)?;
    q.query_map(params![from, to, TOP], |r| {
        Ok(Count {
            key: r.get(0)?,
            label: r.get(1)?,
            count: r.get(2)?,
        })
    })?
    .collect()
}

fn usage(conn: &Connection, from: i64, to: i64) -> rusqlite::Result<Usage> {
    let mut q = conn.prepare_cached(
        "SELECT received_at / ?3, COUNT(DISTINCT CASE WHEN device_id <> '' THEN device_id END), \
         SUM(CASE WHEN event = 'pageView' THEN 1 ELSE 0 END), COUNT(*) \
         FROM report_events WHERE received_at >= ?1 AND received_at < ?2 GROUP BY 1 ORDER BY 1",
    )?;
    let days = q
        .query_map(params![from, to, DAY_MS], |r| {
            Ok(DayUsage {
                day: r.get(0)?,
                readers: r.get(1)?,
                page_views: r.get(2)?,
                events: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let by_devices = |column: &str| {
        format!(
            "SELECT {column}, '', COUNT(DISTINCT device_id) FROM report_events \
             WHERE received_at >= ?1 AND received_at < ?2 GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ?3"
        )
    };
    Ok(Usage {
        days,
        core_functions: counts(
            conn,
            "SELECT subject, '', COUNT(*) FROM report_events WHERE received_at >= ?1 AND received_at < ?2 \
             AND event = 'coreBehavior' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ?3",
            from,
            to,
        )?,
        top_stories: counts(
            conn,
            "SELECT detail, MAX(label), COUNT(*) FROM report_events WHERE received_at >= ?1 AND received_at < ?2 \
             AND event = 'pageView' AND detail <> '' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ?3",
            from,
            to,
        )?,
        search_terms: counts(
            conn,
            "SELECT lower(subject), '', COUNT(*) FROM report_events WHERE received_at >= ?1 AND received_at < ?2 \
             AND event = 'search' AND subject <> '' GROUP BY 1 ORDER BY 3 DESC, 1 LIMIT ?3",
            from,
            to,
        )?,
        channels: counts(conn, &by_devices("channel"), from, to)?,
        countries: counts(conn, &by_devices("country"), from, to)?,
        languages: counts(conn, &by_devices("lang"), from, to)?,
    })
}
