//! Upgrades: a database made by earlier migrations keeps its data through later ones.

use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use store_sqlite::SqliteStore;

/// D153: the full-text index drops its copy of the text. What a database indexed before
/// is still found after the upgrade, and deleting by rowid still works.
#[tokio::test]
async fn d153_text_indexed_before_the_contentless_index_is_still_found() {
    let dir = std::env::temp_dir().join(format!("lw-sqlite-migrations-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("localwire.sqlite");
    let options = SqliteConnectOptions::new().filename(&path).create_if_missing(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options.clone())
        .await
        .unwrap();
    // A data directory from before D157: every migration in the one file.
    sqlx::migrate!("./migrations").run(&pool).await.unwrap();
    let mut before = sqlx::migrate!("./migrations-content");
    before.migrations = before
        .migrations
        .iter()
        .filter(|m| m.version < 5)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    before.set_ignore_missing(true);
    before.run(&pool).await.unwrap();
    for (id, title) in [(42, "Ferry returns to the island"), (43, "Harbour fees rise")] {
        sqlx::query("INSERT INTO news_fts (rowid, title, summary, body) VALUES (?, ?, '', 'Crossings resume at dawn')")
            .bind(id)
            .bind(title)
            .execute(&pool)
            .await
            .unwrap();
    }
    pool.close().await;

    drop(SqliteStore::open_file(&path).await.expect("upgrade"));
    assert!(
        !store_sqlite::content_file(&path).exists(),
        "D157: a data directory from before the split keeps its content in its one file"
    );
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .unwrap();
    let found = |q: &'static str| {
        let pool = pool.clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT rowid FROM news_fts WHERE news_fts MATCH ? ORDER BY rowid")
                .bind(q)
                .fetch_all(&pool)
                .await
                .unwrap()
        }
    };
    assert_eq!(found("ferry").await, vec![42]);
    assert_eq!(found("crossings").await, vec![42, 43], "body text is indexed");
    // No copy of the text is kept.
    let body: Option<String> = sqlx::query_scalar("SELECT body FROM news_fts WHERE rowid = 42")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(body, None);
    sqlx::query("DELETE FROM news_fts WHERE rowid = 42")
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(found("crossings").await, vec![43]);
    pool.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}
