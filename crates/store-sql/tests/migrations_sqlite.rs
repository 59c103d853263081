//! Upgrades: a database made by earlier migrations keeps its data through later ones.

use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use store_sql::sqlite::SqliteStore;

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
    sqlx::migrate!("./migrations/sqlite-identity").run(&pool).await.unwrap();
    let mut before = sqlx::migrate!("./migrations/sqlite-content");
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
        !store_sql::sqlite::content_file(&path).exists(),
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

/// D422: the engines number a change alike. A database migrated before that records five
/// migrations under SQLite's old numbers; opening it renames them, runs nothing twice (a
/// second `CREATE TABLE` would fail the open) and keeps its data.
#[tokio::test]
async fn d422_a_database_with_the_old_numbers_opens_with_the_new_ones() {
    let dir = std::env::temp_dir().join(format!("lw-sqlite-renumber-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("localwire.sqlite");
    let content = store_sql::sqlite::content_file(&path);
    let store = SqliteStore::open_file(&path).await.expect("new database");
    let guest = store::Store::start_guest_session(&store, &store::contract_support::request("device-1", "ab", 1_000))
        .await
        .expect("a guest");
    drop(store);

    let versions = |file: std::path::PathBuf| async move {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(SqliteConnectOptions::new().filename(&file))
            .await
            .unwrap();
        let v: Vec<i64> = sqlx::query_scalar("SELECT version FROM _sqlx_migrations ORDER BY version")
            .fetch_all(&pool)
            .await
            .unwrap();
        pool.close().await;
        v
    };
    let set_versions = |file: std::path::PathBuf, pairs: &'static [(i64, i64)]| async move {
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(SqliteConnectOptions::new().filename(&file))
            .await
            .unwrap();
        for (from, to) in pairs {
            sqlx::query("UPDATE _sqlx_migrations SET version = ?1 WHERE version = ?2")
                .bind(to)
                .bind(from)
                .execute(&pool)
                .await
                .unwrap();
        }
        pool.close().await;
    };
    let identity_now = versions(path.clone()).await;
    let content_now = versions(content.clone()).await;
    assert_eq!(identity_now, vec![1, 5, 6, 19]);
    assert_eq!(content_now, vec![2, 3, 4, 8, 9, 21, 23, 25]);

    // What a release before D422 recorded.
    set_versions(path.clone(), &[(19, 119), (6, 101), (5, 100)]).await;
    set_versions(content.clone(), &[(8, 5), (9, 6)]).await;
    assert_eq!(versions(path.clone()).await, vec![1, 100, 101, 119]);

    let store = SqliteStore::open_file(&path).await.expect("an old database opens");
    let kept = store::Store::user(&store, store::UserId(guest.user.id))
        .await
        .expect("read");
    assert!(kept.is_some(), "the data is kept");
    drop(store);
    assert_eq!(versions(path.clone()).await, identity_now);
    assert_eq!(versions(content.clone()).await, content_now);
    // Opening again changes nothing.
    drop(SqliteStore::open_file(&path).await.expect("opens again"));
    assert_eq!(versions(path).await, identity_now);
    let _ = std::fs::remove_dir_all(&dir);
}

/// D430: the search tags' index (migration 0025) is filled from the stories stored before
/// it: their places, language and publisher's country, found by the filtered search.
#[tokio::test]
async fn d430_stories_stored_before_the_search_tags_are_found_by_their_filters() {
    use store::contract_content::{
        store_stories_before_the_filters_upgrade, the_filters_find_the_stories_stored_before_the_upgrade,
    };
    let dir = std::env::temp_dir().join(format!("lw-sqlite-tags-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("localwire.sqlite");
    let content = store_sql::sqlite::content_file(&path);
    let store = SqliteStore::open_file(&path).await.expect("new database");
    store_stories_before_the_filters_upgrade(&store).await;
    drop(store);

    // What a release before 0025 had: no tags' index, the migration not applied.
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(SqliteConnectOptions::new().filename(&content))
        .await
        .unwrap();
    sqlx::query("DROP TABLE news_tags").execute(&pool).await.unwrap();
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = 25")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;

    let store = SqliteStore::open_file(&path).await.expect("upgrade");
    the_filters_find_the_stories_stored_before_the_upgrade(&store).await;
    drop(store);
    let _ = std::fs::remove_dir_all(&dir);
}
