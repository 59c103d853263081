//! The store contract on SQLite: every test gets a fresh database file.

use store_sql::sqlite::SqliteStore;

async fn fresh() -> Option<SqliteStore> {
    let dir = std::env::temp_dir().join(format!("lw-sqlite-contract-{}-{}", std::process::id(), rand_suffix()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    Some(
        SqliteStore::open_file(&dir.join("localwire.sqlite"))
            .await
            .expect("open sqlite"),
    )
}

fn rand_suffix() -> u128 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    nanos ^ u128::from(N.fetch_add(1, Ordering::Relaxed))
}

store::store_contract_tests!(fresh());
