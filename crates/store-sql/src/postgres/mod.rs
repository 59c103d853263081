//! PostgreSQL implementation of [`Store`], for running several app servers on one
//! database. Same contract as the SQLite engine; plain SQL with `$n` placeholders.

use async_trait::async_trait;
use sqlx::Postgres;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use std::str::FromStr;

pub(crate) mod content;
mod reports;
pub mod testing;
use std::time::Duration;
use store::{HeldLock, Result, StartupLock, StoreError};

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

pub struct PgStore {
    pub(crate) pool: PgPool,
    generation: store::content::Generation,
    /// Searches' whole words counted common lately (D435).
    common_words: crate::common_words::CommonWords,
}

/// The rows the areas' shared bodies read ([`crate::engine`]).
pub(crate) type DbRow = sqlx::postgres::PgRow;

/// Ids as an array, for `among!` (`= ANY`).
pub(crate) fn id_list(ids: impl Iterator<Item = i64>) -> Vec<i64> {
    ids.collect()
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
    /// Held while this process loads the demo, so two servers starting on one empty
    /// database do not load it twice (D210).
    pub(crate) async fn take_startup_lock(&self) -> Result<StartupLock> {
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
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Migration(e.to_string()))?;
        Ok(PgStore {
            pool,
            generation: Default::default(),
            common_words: Default::default(),
        })
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
