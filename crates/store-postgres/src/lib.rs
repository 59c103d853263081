//! PostgreSQL implementation of [`Store`], for running several app servers on one
//! database. Same contract as the SQLite engine; plain SQL with `$n` placeholders.

use async_trait::async_trait;
use domain::user::{UserServer, timestamp_millis};
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions, PgRow};
use sqlx::{Postgres, Row, Transaction};
use std::str::FromStr;

mod content;
mod reports;
pub mod testing;
use std::time::Duration;
use store::{AccountSessionRequest, IdentityInfo, SessionInfo, SignIn, SignInFlow, SignInOutcome, UserExport};
use store::{
    CityId, Engine, GuestSession, GuestSessionRequest, HeldLock, LocationUpdate, Result, SessionKey, SessionUser,
    StartupLock, Store, StoreError, UserId,
};

/// The key of the session advisory lock behind [`Store::startup_lock`] (D210): "LWSTART"
/// in ASCII. Advisory locks are per database, so servers on other databases never wait.
/// (Migrations run under sqlx's own advisory lock, another key.)
pub const STARTUP_LOCK_KEY: i64 = 0x004c_5753_5441_5254;

/// How often a process waiting for the start-up lock tries again.
const STARTUP_LOCK_POLL: Duration = Duration::from_millis(200);

/// The connection whose session holds the start-up lock.
struct PgStartupLock {
    conn: Option<PoolConnection<Postgres>>,
}

#[async_trait]
impl HeldLock for PgStartupLock {
    async fn release(mut self: Box<Self>) {
        if let Some(mut conn) = self.conn.take() {
            let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
                .bind(STARTUP_LOCK_KEY)
                .execute(&mut *conn)
                .await;
            if let Err(e) = unlocked {
                // Closing the session gives its locks back too.
                tracing::warn!(error = %e, "could not give back the start-up lock; closing its connection");
                conn.close_on_drop();
            }
        }
    }
}

impl Drop for PgStartupLock {
    fn drop(&mut self) {
        // Not released: the connection must not go back to the pool still holding the
        // lock, so its session ends (and the lock with it).
        if let Some(mut conn) = self.conn.take() {
            conn.close_on_drop();
        }
    }
}

/// The user columns, as a macro so every query stays a static string (sqlx 0.9 refuses
/// dynamic SQL).
macro_rules! user_columns {
    () => {
        "u.id, u.name, u.photo, u.email, u.account_type, u.user_type, u.join_time, u.last_time, \
         u.app_lang, u.country, u.postal_code, u.admin_code, u.city, u.city_show, u.city_id, u.lat, u.lon"
    };
}

mod accounts;
mod purge;
mod push;
mod things;

pub struct PgStore {
    pool: PgPool,
    generation: store::content::Generation,
}

pub(crate) fn db(e: sqlx::Error) -> StoreError {
    if unreachable(&e) {
        StoreError::Unavailable(e.to_string())
    } else {
        StoreError::Database(e.to_string())
    }
}

/// Errors that say the server is not there (or not taking work) rather than that the
/// query was wrong: connection failures, the pool giving up, and the SQLSTATE classes
/// for connection exceptions (08), operator intervention such as a shutdown (57P),
/// and insufficient resources (53: disk full, out of memory, too many connections).
fn unreachable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P") || c.starts_with("53")),
        _ => false,
    }
}

impl PgStore {
    /// Connect to a `postgres://` URL and run the migrations (safe to run from several
    /// processes at once: sqlx takes an advisory lock).
    pub async fn connect(url: &str) -> Result<PgStore> {
        Self::connect_with(PgConnectOptions::from_str(url).map_err(db)?).await
    }

    pub async fn connect_with(options: PgConnectOptions) -> Result<PgStore> {
        // Every statement is planned with its values (D404). sqlx prepares each query once per
        // connection, and after five runs PostgreSQL may keep a generic plan; for the lists'
        // optional filters (`$1 IS NULL OR lang = $1`) and keyset bounds that plan scanned every
        // story and joined it to every publisher: 0.3 ms became seconds in the soak (issue 30).
        let options = options.options([("plan_cache_mode", "force_custom_plan")]);
        let pool = PgPoolOptions::new()
            .max_connections(16)
            // While the database is down, a call waits this long for a connection before it
            // answers 503 (issue 30); a healthy pool hands one out in microseconds.
            .acquire_timeout(Duration::from_secs(3))
            .connect_with(options)
            .await
            .map_err(db)?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Migration(e.to_string()))?;
        Ok(PgStore {
            pool,
            generation: Default::default(),
        })
    }
}

fn user_from_row(row: &PgRow) -> std::result::Result<UserServer, sqlx::Error> {
    Ok(UserServer {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        photo: row.try_get("photo")?,
        email: row.try_get("email")?,
        is_new_user: 0,
        account_type: Some(row.try_get("account_type")?),
        join_time: timestamp_millis(row.try_get("join_time")?),
        last_time: timestamp_millis(row.try_get("last_time")?),
        app_lang: row.try_get("app_lang")?,
        postal_code: row.try_get("postal_code")?,
        country: row.try_get("country")?,
        admin_code: row.try_get("admin_code")?,
        city: row.try_get("city")?,
        city_show: row.try_get("city_show")?,
        city_id: CityId(row.try_get("city_id")?),
        lat: row.try_get("lat")?,
        lon: row.try_get("lon")?,
        user_type: row.try_get("user_type")?,
    })
}

async fn user_in_tx(
    tx: &mut Transaction<'_, Postgres>,
    id: i64,
) -> std::result::Result<Option<UserServer>, sqlx::Error> {
    let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = $1"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    row.as_ref().map(user_from_row).transpose()
}

#[async_trait]
impl Store for PgStore {
    fn engine(&self) -> Engine {
        Engine::Postgres
    }

    async fn health(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await.map_err(db)?;
        Ok(())
    }

    async fn start_guest_session(&self, req: &GuestSessionRequest) -> Result<GuestSession> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        // Always a new guest: a device id is a label anyone may copy, never a way back to
        // the guest it named (D350). The device points at its newest guest.
        let g = &req.guest;
        let user_id: i64 = sqlx::query_scalar(
            "INSERT INTO users (account_type, user_type, join_time, last_time, app_lang, country, postal_code, \
             admin_code, city, city_show, city_id, lat, lon) VALUES (0, $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
        )
        .bind(g.user_type)
        .bind(req.now_ms)
        .bind(req.now_ms)
        .bind(&g.app_lang)
        .bind(&g.country)
        .bind(&g.postal_code)
        .bind(&g.admin_code)
        .bind(&g.city)
        .bind(&g.city_show)
        .bind(g.city_id.0)
        .bind(g.lat)
        .bind(g.lon)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        sqlx::query(
            "INSERT INTO devices (device_id, user_id, channel, created_at, last_seen) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (device_id) DO UPDATE SET user_id = excluded.user_id, last_seen = excluded.last_seen",
        )
        .bind(&req.device_id)
        .bind(user_id)
        .bind(&g.channel)
        .bind(req.now_ms)
        .bind(req.now_ms)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        let session_id: i64 = sqlx::query_scalar(
            "INSERT INTO sessions (verifier_hash, user_id, device_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5) \
             RETURNING id",
        )
        .bind(&req.verifier_hash)
        .bind(user_id)
        .bind(&req.device_id)
        .bind(req.now_ms)
        .bind(req.expires_at_ms)
        .fetch_one(&mut *tx)
        .await
        .map_err(db)?;
        let user = user_in_tx(&mut tx, user_id).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        let mut user = user.ok_or_else(|| StoreError::Database("user vanished inside its own transaction".into()))?;
        user.is_new_user = 1;
        Ok(GuestSession {
            user,
            is_new_user: true,
            session_id,
        })
    }

    async fn session_user(&self, key: &SessionKey) -> Result<Option<SessionUser>> {
        let sql = concat!(
            "SELECT ",
            user_columns!(),
            ", s.device_id, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.verifier_hash = $2"
        );
        let row = sqlx::query(sql)
            .bind(key.id)
            .bind(&key.verifier_hash)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.map(|row| {
            Ok(SessionUser {
                user: user_from_row(&row)?,
                device_id: row.try_get("device_id")?,
                expires_at_ms: row.try_get("expires_at")?,
            })
        })
        .transpose()
        .map_err(db)
    }

    async fn touch_user(&self, id: UserId, now_ms: i64) -> Result<()> {
        sqlx::query("UPDATE users SET last_time = $1 WHERE id = $2")
            .bind(now_ms)
            .bind(id.0)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(())
    }

    async fn end_session(&self, key: &SessionKey) -> Result<bool> {
        let done = sqlx::query("DELETE FROM sessions WHERE id = $1 AND verifier_hash = $2")
            .bind(key.id)
            .bind(&key.verifier_hash)
            .execute(&self.pool)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn user(&self, id: UserId) -> Result<Option<UserServer>> {
        let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = $1"))
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.as_ref().map(user_from_row).transpose().map_err(db)
    }

    async fn update_location(&self, id: UserId, u: &LocationUpdate, now_ms: i64) -> Result<Option<UserServer>> {
        let mut tx = self.pool.begin().await.map_err(db)?;
        let done = sqlx::query(
            "UPDATE users SET lat = $1, lon = $2, country = $3, city = $4, city_show = $5, city_id = $6, app_lang = $7, \
             admin_code = $8, postal_code = $9, last_time = $10 WHERE id = $11",
        )
        .bind(u.lat)
        .bind(u.lon)
        .bind(&u.country)
        .bind(&u.city)
        .bind(&u.city_show)
        .bind(u.city_id.0)
        .bind(&u.app_lang)
        .bind(&u.admin_code)
        .bind(&u.postal_code)
        .bind(now_ms)
        .bind(id.0)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        if done.rows_affected() == 0 {
            return Ok(None);
        }
        let user = user_in_tx(&mut tx, id.0).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(user)
    }

    async fn setting(&self, key: &str) -> Result<Option<String>> {
        sqlx::query_scalar("SELECT value FROM app_settings WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)
    }

    async fn startup_lock(&self) -> Result<StartupLock> {
        let mut conn = self.pool.acquire().await.map_err(db)?;
        let mut told = false;
        // Polled rather than waited for in one statement, which sqlx would log as slow.
        loop {
            let free: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
                .bind(STARTUP_LOCK_KEY)
                .fetch_one(&mut *conn)
                .await
                .map_err(db)?;
            if free {
                return Ok(StartupLock::held(Box::new(PgStartupLock { conn: Some(conn) })));
            }
            if !told {
                tracing::info!("another process on this database is starting up (loading the demo); waiting for it");
                told = true;
            }
            tokio::time::sleep(STARTUP_LOCK_POLL).await;
        }
    }

    async fn put_setting(&self, key: &str, value: &str, now_ms: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO app_settings (key, value, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(key)
        .bind(value)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn sign_in(&self, req: &SignIn) -> Result<SignInOutcome> {
        accounts::sign_in(&self.pool, req).await
    }

    async fn start_account_session(&self, req: &AccountSessionRequest) -> Result<i64> {
        accounts::start_account_session(&self.pool, req).await
    }

    async fn sessions_of(&self, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
        accounts::sessions_of(&self.pool, user, now_ms).await
    }

    async fn end_session_of(&self, user: UserId, session_id: i64) -> Result<bool> {
        accounts::end_session_of(&self.pool, user, session_id).await
    }

    async fn end_other_sessions(&self, user: UserId, keep: i64) -> Result<u64> {
        accounts::end_other_sessions(&self.pool, user, keep).await
    }

    async fn identities_of(&self, user: UserId) -> Result<Vec<IdentityInfo>> {
        accounts::identities_of(&self.pool, user).await
    }

    async fn export_user(&self, user: UserId) -> Result<Option<UserExport>> {
        accounts::export_user(&self.pool, user).await
    }

    async fn delete_user(&self, user: UserId) -> Result<bool> {
        accounts::delete_user(&self.pool, user).await
    }

    async fn purge_idle(&self, guests_idle_before_ms: Option<i64>, now_ms: i64) -> Result<store::Purged> {
        purge::purge_idle(&self.pool, guests_idle_before_ms, now_ms).await
    }

    async fn user_id_tables(&self) -> Result<Vec<String>> {
        accounts::user_id_tables(&self.pool).await
    }

    async fn put_sign_in_flow(&self, flow: &SignInFlow) -> Result<()> {
        accounts::put_sign_in_flow(&self.pool, flow).await
    }

    async fn take_sign_in_flow(&self, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>> {
        accounts::take_sign_in_flow(&self.pool, state_hash, now_ms).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn d404_every_statement_is_planned_with_its_values() {
        let Some(options) = testing::fresh_database().await else {
            return;
        };
        let store = PgStore::connect_with(options).await.unwrap();
        let mode: String = sqlx::query_scalar("SHOW plan_cache_mode")
            .fetch_one(&store.pool)
            .await
            .unwrap();
        assert_eq!(mode, "force_custom_plan");
    }
}
