//! The store contract on PostgreSQL. Runs when `TEST_DATABASE_URL` is set (CI always
//! sets it); every test gets its own new database.

use store_postgres::{PgStore, testing};

async fn fresh() -> Option<PgStore> {
    let options = testing::fresh_database().await?;
    Some(
        PgStore::connect_with(options)
            .await
            .expect("connect to the test database"),
    )
}

store::store_contract_tests!(fresh());

/// Several `serve` processes claim due feeds at the same moment: row leases with
/// `FOR UPDATE SKIP LOCKED` hand each feed to exactly one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_claims_never_hand_out_a_feed_twice() {
    use store::ContentStore;
    use store::contract_content::publisher;
    let Some(store) = fresh().await else { return };
    let urls: Vec<String> = (0..40).map(|i| format!("https://feeds.example/{i}.xml")).collect();
    let refs: Vec<&str> = urls.iter().map(String::as_str).collect();
    store
        .import_publishers(&[publisher("many", "Many", "US", "ME", "Portland", &refs)], 1_000)
        .await
        .unwrap();
    let store = std::sync::Arc::new(store);
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut mine = Vec::new();
            loop {
                let claimed = store.claim_due_feeds(2_000, 60_000, 3).await.unwrap();
                if claimed.is_empty() {
                    return mine;
                }
                mine.extend(claimed.into_iter().map(|f| f.feed_id));
            }
        }));
    }
    let mut all = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    let total = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!((total, all.len()), (40, 40), "every feed claimed exactly once");
}
