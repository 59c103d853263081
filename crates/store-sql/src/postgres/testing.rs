//! Throwaway databases for tests, on the server named by `TEST_DATABASE_URL`.
//! Used by this crate's contract tests and by the HTTP tests of other crates.

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Executor};
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

const PREFIX: &str = "lw_test_";
/// Databases left behind by killed test runs are dropped once they are this old.
const STALE_AFTER_SECS: u64 = 2 * 3600;

/// `None` when `TEST_DATABASE_URL` is unset (the test is then skipped; the test
/// command says so). Otherwise a new, empty database on that server.
pub async fn fresh_database() -> Option<PgConnectOptions> {
    let base = std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|s| !s.trim().is_empty())?;
    let admin_options = PgConnectOptions::from_str(&base).expect("TEST_DATABASE_URL is a postgres:// URL");
    let mut admin = PgConnection::connect_with(&admin_options)
        .await
        .expect("connect to TEST_DATABASE_URL");
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    drop_stale(&mut admin, now).await;
    let name = format!("{PREFIX}{now}_{}_{:08x}", std::process::id(), rand::random::<u32>());
    admin
        .execute(sqlx::AssertSqlSafe(format!("CREATE DATABASE \"{name}\"")))
        .await
        .expect("create test database");
    Some(admin_options.database(&name))
}

async fn drop_stale(admin: &mut PgConnection, now: u64) {
    let names: Vec<String> = sqlx::query_scalar("SELECT datname FROM pg_database WHERE datname LIKE 'lw\\_test\\_%'")
        .fetch_all(&mut *admin)
        .await
        .unwrap_or_default();
    for name in names {
        let created = name
            .trim_start_matches(PREFIX)
            .split('_')
            .next()
            .and_then(|t| t.parse::<u64>().ok());
        if created.is_some_and(|t| now.saturating_sub(t) > STALE_AFTER_SECS) {
            let sql = format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)");
            let _ = admin.execute(sqlx::AssertSqlSafe(sql)).await;
        }
    }
}
