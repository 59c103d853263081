//! Upgrades on PostgreSQL: a database made by earlier migrations keeps its data through
//! later ones. Skipped without `TEST_DATABASE_URL` (the test command says so).

use sqlx::postgres::PgPoolOptions;
use store::contract_content::{
    store_stories_before_the_filters_upgrade, the_filters_find_the_stories_stored_before_the_upgrade,
};
use store_sql::postgres::PgStore;

/// D431: migration 0026 writes the filter lexemes into the full-text vectors of the
/// stories stored before it: their places, language and publisher's country, found by
/// the filtered search.
#[tokio::test]
async fn d431_stories_stored_before_the_filter_lexemes_are_found_by_their_filters() {
    let Some(options) = store_sql::postgres::testing::fresh_database().await else {
        return;
    };
    let store = PgStore::connect_with(options.clone()).await.expect("new database");
    store_stories_before_the_filters_upgrade(&store).await;
    drop(store);

    // What a release before 0026 had: vectors without the filter lexemes, no
    // `search_matches`, the migration not applied.
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options.clone())
        .await
        .unwrap();
    let stripped = sqlx::query(
        "UPDATE news_items SET search = ts_delete(search, ARRAY(SELECT lexeme FROM unnest(search) WHERE lexeme LIKE '=%'))",
    )
    .execute(&pool)
    .await
    .unwrap();
    assert_eq!(stripped.rows_affected(), 3);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM news_items, unnest(search) u WHERE u.lexeme LIKE '=%'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(left, 0, "no story holds a filter lexeme before the upgrade");
    for sql in [
        "DROP FUNCTION search_matches",
        "DELETE FROM _sqlx_migrations WHERE version = 26",
    ] {
        sqlx::query(sql).execute(&pool).await.unwrap();
    }
    pool.close().await;

    let store = PgStore::connect_with(options).await.expect("upgrade");
    the_filters_find_the_stories_stored_before_the_upgrade(&store).await;
}
