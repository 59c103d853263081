//! Group commit for guest sessions. First visits arrive in bursts and each one writes
//! a user, a device and a session. One at a time, every statement is a round trip to
//! SQLite's single writer; here one task drains the queue and writes a whole batch
//! with a handful of multi-row statements in one transaction.

use sqlx::sqlite::SqlitePool;
use sqlx::{AssertSqlSafe, Row};
use std::collections::{HashMap, HashSet, VecDeque};
use store::{GuestSession, GuestSessionRequest, Result, StoreError};
use tokio::sync::{mpsc, oneshot};

use crate::{db, user_from_row};

/// Largest batch: 13 bound values per user row stays far below SQLite's limit.
const MAX_BATCH: usize = 128;

struct Job {
    req: GuestSessionRequest,
    reply: oneshot::Sender<Result<GuestSession>>,
}

pub struct GuestWriter {
    jobs: mpsc::Sender<Job>,
}

impl GuestWriter {
    pub fn spawn(pool: SqlitePool) -> GuestWriter {
        let (jobs, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(pool, rx));
        GuestWriter { jobs }
    }

    pub async fn submit(&self, req: GuestSessionRequest) -> Result<GuestSession> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job { req, reply })
            .await
            .map_err(|_| StoreError::Database("the guest writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the guest writer dropped a request".into()))?
    }
}

async fn run(pool: SqlitePool, mut rx: mpsc::Receiver<Job>) {
    let mut pending: VecDeque<Job> = VecDeque::new();
    loop {
        if pending.is_empty() {
            match rx.recv().await {
                Some(job) => pending.push_back(job),
                None => return,
            }
            // Let requests that are already being handled join this batch.
            tokio::task::yield_now().await;
        }
        while pending.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => pending.push_back(job),
                Err(_) => break,
            }
        }
        // One batch never holds the same device twice, so "reuse the device's guest"
        // sees the effect of the earlier request.
        let mut batch = Vec::new();
        let mut devices = HashSet::new();
        while let Some(job) = pending.front() {
            if batch.len() == MAX_BATCH || !devices.insert(job.req.device_id.clone()) {
                break;
            }
            batch.extend(pending.pop_front());
        }
        let reqs: Vec<&GuestSessionRequest> = batch.iter().map(|j| &j.req).collect();
        tracing::trace!(size = reqs.len(), "guest batch");
        match write_batch(&pool, &reqs).await {
            Ok(sessions) => {
                for (job, session) in batch.into_iter().zip(sessions) {
                    let _ = job.reply.send(Ok(session));
                }
            }
            // A failed batch is retried one by one, so one bad request fails alone.
            Err(e) if batch.len() > 1 => {
                tracing::warn!(error = %e, size = batch.len(), "guest batch failed; retrying one by one");
                for job in batch {
                    let result = write_batch(&pool, &[&job.req]).await.map(|mut s| s.remove(0));
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

fn placeholders(rows: usize, per_row: usize) -> String {
    let row = format!("({})", vec!["?"; per_row].join(", "));
    vec![row; rows].join(", ")
}

const USER_COLUMNS: &str = "id, name, photo, email, account_type, user_type, join_time, last_time, app_lang, country, \
     postal_code, admin_code, city, city_show, city_id, lat, lon";

async fn write_batch(pool: &SqlitePool, reqs: &[&GuestSessionRequest]) -> Result<Vec<GuestSession>> {
    let mut tx = pool.begin().await.map_err(db)?;

    // 1. Which devices already have a guest user to reuse.
    let sql = format!(
        "SELECT d.device_id, u.id, u.account_type FROM devices d JOIN users u ON u.id = d.user_id WHERE d.device_id IN ({})",
        vec!["?"; reqs.len()].join(", ")
    );
    let mut q = sqlx::query(AssertSqlSafe(sql));
    for r in reqs {
        q = q.bind(&r.device_id);
    }
    let mut existing: HashMap<String, i64> = HashMap::new();
    for row in q.fetch_all(&mut *tx).await.map_err(db)? {
        let (device, id, account_type): (String, i64, i32) = (
            row.try_get(0).map_err(db)?,
            row.try_get(1).map_err(db)?,
            row.try_get(2).map_err(db)?,
        );
        if account_type == 0 {
            existing.insert(device, id);
        }
    }
    let reused: Vec<Option<i64>> = reqs
        .iter()
        .map(|r| {
            if r.reuse_device_guest {
                existing.get(&r.device_id).copied()
            } else {
                None
            }
        })
        .collect();

    let mut users: Vec<Option<domain::user::UserServer>> = vec![None; reqs.len()];

    // 2. New guests, in one insert; ids are assigned in row order (one writer).
    let new_rows: Vec<usize> = (0..reqs.len()).filter(|&i| reused[i].is_none()).collect();
    if !new_rows.is_empty() {
        let sql = format!(
            "INSERT INTO users (account_type, user_type, join_time, last_time, app_lang, country, postal_code, admin_code, \
             city, city_show, city_id, lat, lon) VALUES {} RETURNING {USER_COLUMNS}",
            placeholders(new_rows.len(), 13)
        );
        let mut q = sqlx::query(AssertSqlSafe(sql));
        for &i in &new_rows {
            let (r, g) = (reqs[i], &reqs[i].guest);
            q = q
                .bind(0)
                .bind(g.user_type)
                .bind(r.now_ms)
                .bind(r.now_ms)
                .bind(&g.app_lang)
                .bind(&g.country)
                .bind(&g.postal_code)
                .bind(&g.admin_code)
                .bind(&g.city)
                .bind(&g.city_show)
                .bind(g.city_id)
                .bind(g.lat)
                .bind(g.lon);
        }
        let mut created = Vec::with_capacity(new_rows.len());
        for row in q.fetch_all(&mut *tx).await.map_err(db)? {
            created.push(user_from_row(&row).map_err(db)?);
        }
        created.sort_by_key(|u| u.id);
        if created.len() != new_rows.len() {
            return Err(StoreError::Database(
                "guest insert returned a different number of rows".into(),
            ));
        }
        for (&i, mut user) in new_rows.iter().zip(created) {
            user.is_new_user = 1;
            users[i] = Some(user);
        }
    }

    // 3. Reused guests: mark them seen.
    let reuse_rows: Vec<usize> = (0..reqs.len()).filter(|&i| reused[i].is_some()).collect();
    if !reuse_rows.is_empty() {
        let now = reuse_rows.iter().map(|&i| reqs[i].now_ms).max().unwrap_or(0);
        let sql = format!(
            "UPDATE users SET last_time = ? WHERE id IN ({}) RETURNING {USER_COLUMNS}",
            vec!["?"; reuse_rows.len()].join(", ")
        );
        let mut q = sqlx::query(AssertSqlSafe(sql)).bind(now);
        for &i in &reuse_rows {
            q = q.bind(reused[i]);
        }
        let mut by_id = HashMap::new();
        for row in q.fetch_all(&mut *tx).await.map_err(db)? {
            let user = user_from_row(&row).map_err(db)?;
            by_id.insert(user.id, user);
        }
        for &i in &reuse_rows {
            let id = reused[i].unwrap_or_default();
            users[i] = Some(
                by_id
                    .get(&id)
                    .cloned()
                    .ok_or_else(|| StoreError::Database(format!("user {id} vanished")))?,
            );
        }
    }
    let users: Vec<domain::user::UserServer> = users.into_iter().flatten().collect();
    if users.len() != reqs.len() {
        return Err(StoreError::Database("a guest request got no user".into()));
    }

    // 4. Devices point at their guest; 5. one session each.
    let sql = format!(
        "INSERT INTO devices (device_id, user_id, channel, created_at, last_seen) VALUES {} \
         ON CONFLICT (device_id) DO UPDATE SET user_id = excluded.user_id, last_seen = excluded.last_seen",
        placeholders(reqs.len(), 5)
    );
    let mut q = sqlx::query(AssertSqlSafe(sql));
    for (r, u) in reqs.iter().zip(&users) {
        q = q
            .bind(&r.device_id)
            .bind(u.id)
            .bind(&r.guest.channel)
            .bind(r.now_ms)
            .bind(r.now_ms);
    }
    q.execute(&mut *tx).await.map_err(db)?;

    // Session ids are assigned in row order (one writer), like user ids above.
    let sql = format!(
        "INSERT INTO sessions (verifier_hash, user_id, device_id, created_at, expires_at) VALUES {} RETURNING id",
        placeholders(reqs.len(), 5)
    );
    let mut q = sqlx::query_scalar::<_, i64>(AssertSqlSafe(sql));
    for (r, u) in reqs.iter().zip(&users) {
        q = q
            .bind(&r.verifier_hash)
            .bind(u.id)
            .bind(&r.device_id)
            .bind(r.now_ms)
            .bind(r.expires_at_ms);
    }
    let mut session_ids = q.fetch_all(&mut *tx).await.map_err(db)?;
    session_ids.sort_unstable();
    if session_ids.len() != reqs.len() {
        return Err(StoreError::Database(
            "session insert returned a different number of rows".into(),
        ));
    }
    tx.commit().await.map_err(db)?;

    Ok(users
        .into_iter()
        .zip(session_ids)
        .map(|(user, session_id)| GuestSession {
            is_new_user: user.is_new_user == 1,
            user,
            session_id,
        })
        .collect())
}
