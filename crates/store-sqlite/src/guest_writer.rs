//! Group commit for guest sessions. First visits arrive in bursts and each writes a
//! user, a device and a session. A dedicated thread owns one SQLite connection with
//! prepared statements: it takes every request waiting in its queue, writes them in
//! one transaction, and answers each. One hand-off per batch, no per-statement hops
//! between threads (profiles showed those hops, not SQLite, bounding throughput).

use domain::user::{UserServer, timestamp_millis};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use store::{GuestSession, GuestSessionRequest, Result, StoreError};
use tokio::sync::oneshot;

const MAX_BATCH: usize = 256;

struct Job {
    req: GuestSessionRequest,
    reply: oneshot::Sender<Result<GuestSession>>,
}

pub struct GuestWriter {
    jobs: mpsc::Sender<Job>,
}

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

impl GuestWriter {
    /// Open the (already migrated) database file and start the writer thread.
    pub fn spawn(path: &Path) -> Result<GuestWriter> {
        let conn = Connection::open(path).map_err(db)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(db)?;
        // Checkpoints run elsewhere (see `checkpoint_periodically`): never stall here.
        // Nor does this connection shrink the WAL when it starts it over (a truncate,
        // with the disk's discard, took 160 ms): the checkpointer empties it when idle.
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = -1;")
            .map_err(db)?;
        let (jobs, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("lw-guest-writer".into())
            .spawn(move || run(conn, rx))
            .map_err(|e| StoreError::Database(format!("cannot start the guest writer: {e}")))?;
        Ok(GuestWriter { jobs })
    }

    pub async fn submit(&self, req: GuestSessionRequest) -> Result<GuestSession> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job { req, reply })
            .map_err(|_| StoreError::Database("the guest writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the guest writer dropped a request".into()))?
    }
}

fn run(mut conn: Connection, rx: mpsc::Receiver<Job>) {
    while let Ok(first) = rx.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let reqs: Vec<&GuestSessionRequest> = batch.iter().map(|j| &j.req).collect();
        tracing::trace!(size = reqs.len(), "guest batch");
        match write_batch(&mut conn, &reqs) {
            Ok(sessions) => {
                for (job, session) in batch.into_iter().zip(sessions) {
                    let _ = job.reply.send(Ok(session));
                }
            }
            // A failed batch is retried one by one, so one bad request fails alone.
            Err(e) if batch.len() > 1 => {
                tracing::warn!(error = %e, size = batch.len(), "guest batch failed; retrying one by one");
                for job in batch {
                    let result = write_batch(&mut conn, &[&job.req]).map(|mut s| s.remove(0));
                    let _ = job.reply.send(result);
                }
            }
            Err(e) => {
                for job in batch {
                    let _ = job.reply.send(Err(StoreError::Database(e.to_string())));
                }
            }
        }
    }
}

fn user_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<UserServer> {
    Ok(UserServer {
        id: row.get(0)?,
        name: row.get(1)?,
        photo: row.get(2)?,
        email: row.get(3)?,
        is_new_user: 0,
        account_type: Some(row.get(4)?),
        user_type: row.get(5)?,
        join_time: timestamp_millis(row.get(6)?),
        last_time: timestamp_millis(row.get(7)?),
        app_lang: row.get(8)?,
        country: row.get(9)?,
        postal_code: row.get(10)?,
        admin_code: row.get(11)?,
        city: row.get(12)?,
        city_show: row.get(13)?,
        city_id: row.get(14)?,
        lat: row.get(15)?,
        lon: row.get(16)?,
    })
}

/// The row a new guest gets: the request's fields and the columns' defaults.
fn new_guest_user(id: i64, r: &GuestSessionRequest) -> UserServer {
    let g = &r.guest;
    UserServer {
        id,
        name: String::new(),
        photo: String::new(),
        email: String::new(),
        is_new_user: 0,
        account_type: Some(0),
        user_type: g.user_type,
        join_time: timestamp_millis(r.now_ms),
        last_time: timestamp_millis(r.now_ms),
        app_lang: g.app_lang.clone(),
        country: g.country.clone(),
        postal_code: g.postal_code.clone(),
        admin_code: g.admin_code.clone(),
        city: g.city.clone(),
        city_show: g.city_show.clone(),
        city_id: g.city_id,
        lat: g.lat,
        lon: g.lon,
    }
}

/// All requests in one transaction, in order: a device seen twice in a batch reuses
/// the guest the first request created.
///
/// No RETURNING: SQLite gathers RETURNING rows in a temporary b-tree opened per
/// statement; the rows are known here anyway (new ids from `last_insert_rowid`, a reused
/// guest from the device lookup). About 10% more inits per second (D164).
fn write_batch(conn: &mut Connection, reqs: &[&GuestSessionRequest]) -> Result<Vec<GuestSession>> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(db)?;
    let mut out = Vec::with_capacity(reqs.len());
    {
        let mut find_device = tx
            .prepare_cached(concat!(
                "SELECT ",
                user_columns!(),
                " FROM devices d JOIN users u ON u.id = d.user_id WHERE d.device_id = ?1"
            ))
            .map_err(db)?;
        let mut touch = tx
            .prepare_cached("UPDATE users SET last_time = ?1 WHERE id = ?2")
            .map_err(db)?;
        let mut insert_user = tx
            .prepare_cached(
                "INSERT INTO users (account_type, user_type, join_time, last_time, app_lang, country, postal_code, \
                 admin_code, city, city_show, city_id, lat, lon) VALUES (0, ?1, ?2, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )
            .map_err(db)?;
        let mut upsert_device = tx
            .prepare_cached(
                "INSERT INTO devices (device_id, user_id, channel, created_at, last_seen) VALUES (?1, ?2, ?3, ?4, ?4) \
                 ON CONFLICT (device_id) DO UPDATE SET user_id = excluded.user_id, last_seen = excluded.last_seen",
            )
            .map_err(db)?;
        let mut insert_session = tx
            .prepare_cached(
                "INSERT INTO sessions (verifier_hash, user_id, device_id, created_at, expires_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )
            .map_err(db)?;
        for r in reqs {
            let existing: Option<UserServer> = if r.reuse_device_guest {
                find_device
                    .query_row([&r.device_id], user_from_row)
                    .optional()
                    .map_err(db)?
            } else {
                None
            };
            let (mut user, is_new) = match existing.filter(|u| u.account_type == Some(0)) {
                Some(mut user) => {
                    touch.execute(params![r.now_ms, user.id]).map_err(db)?;
                    user.last_time = timestamp_millis(r.now_ms);
                    (user, false)
                }
                None => {
                    let g = &r.guest;
                    insert_user
                        .execute(params![
                            g.user_type,
                            r.now_ms,
                            g.app_lang,
                            g.country,
                            g.postal_code,
                            g.admin_code,
                            g.city,
                            g.city_show,
                            g.city_id,
                            g.lat,
                            g.lon
                        ])
                        .map_err(db)?;
                    (new_guest_user(tx.last_insert_rowid(), r), true)
                }
            };
            upsert_device
                .execute(params![r.device_id, user.id, r.guest.channel, r.now_ms])
                .map_err(db)?;
            insert_session
                .execute(params![
                    r.verifier_hash,
                    user.id,
                    r.device_id,
                    r.now_ms,
                    r.expires_at_ms
                ])
                .map_err(db)?;
            let session_id = tx.last_insert_rowid();
            user.is_new_user = i32::from(is_new);
            out.push(GuestSession {
                user,
                is_new_user: is_new,
                session_id,
            });
        }
    }
    tx.commit().map_err(db)?;
    Ok(out)
}
