//! The store contract on PostgreSQL. Runs when `TEST_DATABASE_URL` is set (CI always
//! sets it); every test gets its own new database.

use store_sql::postgres::{PgStore, testing};

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

/// Two servers on one database (two pools here) start at the same moment and write the
/// same rows (D210): the same publishers and feeds, the same stories, and new stories
/// joining one story. Every write succeeds, each row exists once and the story's stats
/// count both sides' items. Before D210 one side failed on `media_sources_slug_key`,
/// `news_items_media_id_identity_key` or `story_clusters_pkey`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_servers_writing_the_same_rows_at_once_both_succeed() {
    use std::sync::Arc;
    use store::ContentStore;
    use store::content::{ClusterChoice, ClusterId, Upserted};
    use store::contract_content::{publisher, record};
    use tokio::sync::Barrier;

    const ROUNDS: usize = 8;
    const PUBLISHERS: usize = 4;
    const STORIES: usize = 5;
    let Some(options) = testing::fresh_database().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    let servers = [
        Arc::new(PgStore::connect_with(options.clone()).await.unwrap()),
        Arc::new(PgStore::connect_with(options.clone()).await.unwrap()),
    ];
    let now = 1_763_640_000_000;
    for round in 0..ROUNDS {
        let slugs: Vec<String> = (0..PUBLISHERS).map(|p| format!("race-{round}-{p}")).collect();
        let urls: Vec<String> = slugs.iter().map(|s| format!("https://{s}.example/feed.xml")).collect();
        let list: Arc<Vec<_>> = Arc::new(
            slugs
                .iter()
                .zip(&urls)
                .map(|(s, u)| publisher(s, s, "US", "ME", "Portland", &[u.as_str()]))
                .collect(),
        );

        // The same publishers and feeds.
        let start = Arc::new(Barrier::new(2));
        let imports = servers.clone().map(|store| {
            let (list, start) = (list.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                store.import_publishers(&list, now).await
            })
        });
        let (mut media_added, mut feeds_added) = (0, 0);
        for import in imports {
            let report = import.await.unwrap().expect("importing the same publishers at once");
            media_added += report.media_added;
            feeds_added += report.feeds_added;
        }
        assert_eq!((media_added, feeds_added), (PUBLISHERS, PUBLISHERS), "round {round}");
        let feeds = servers[0].feeds().await.unwrap();
        let feed_of = |url: &str| {
            let f = feeds.iter().find(|f| f.url == url).unwrap();
            (f.feed_id, f.media_id)
        };

        // The same stories of one feed.
        let (feed, media) = feed_of(&urls[0]);
        let items: Arc<Vec<_>> = Arc::new(
            (0..STORIES)
                .map(|i| {
                    record(
                        &format!("r{round}-s{i}"),
                        &format!("Story {i} of round {round}"),
                        i as i64,
                        &[],
                    )
                })
                .collect(),
        );
        let start = Arc::new(Barrier::new(2));
        let writes = servers.clone().map(|store| {
            let (items, start) = (items.clone(), start.clone());
            tokio::spawn(async move {
                start.wait().await;
                store
                    .upsert_items(feed, media, &items, &[ClusterChoice::New; STORIES], now)
                    .await
            })
        });
        let mut outcomes = Vec::new();
        for write in writes {
            outcomes.push(write.await.unwrap().expect("storing the same stories at once"));
        }
        for i in 0..STORIES {
            assert_eq!(
                outcomes[0][i].news_id(),
                outcomes[1][i].news_id(),
                "round {round}: one row"
            );
            let inserted = outcomes
                .iter()
                .filter(|o| matches!(o[i], Upserted::Inserted(_)))
                .count();
            assert_eq!(inserted, 1, "round {round}: story {i} inserted once");
        }

        // New stories of two other publishers joining the first story at once.
        // A new story's cluster takes its first item's id.
        let story = ClusterId(outcomes[0][0].news_id().0);
        let start = Arc::new(Barrier::new(2));
        let joins = servers.clone().into_iter().enumerate().map(|(side, store)| {
            let (feed, media) = feed_of(&urls[1 + side]);
            let item = record(&format!("r{round}-join-{side}"), "The same story, told again", 1, &[]);
            let start = start.clone();
            tokio::spawn(async move {
                start.wait().await;
                store
                    .upsert_items(feed, media, &[item], &[ClusterChoice::Join(story)], now)
                    .await
            })
        });
        for join in joins.collect::<Vec<_>>() {
            join.await.unwrap().expect("joining one story at once");
        }
        let told = servers[0].cluster_items(story, 10).await.unwrap();
        assert_eq!(told.len(), 3, "round {round}");
        assert!(
            told.iter().all(|n| (n.cluster.size, n.cluster.media_count) == (3, 3)),
            "round {round}: the story's stats count both sides' items: {:?}",
            told.iter().map(|n| n.cluster).collect::<Vec<_>>()
        );
    }

    let pool = sqlx::PgPool::connect_with(options).await.unwrap();
    let count = |sql: &'static str| {
        let pool = pool.clone();
        async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.unwrap() }
    };
    let rounds = ROUNDS as i64;
    assert_eq!(
        count("SELECT count(*) FROM media_sources").await,
        rounds * PUBLISHERS as i64
    );
    assert_eq!(count("SELECT count(*) FROM feeds").await, rounds * PUBLISHERS as i64);
    assert_eq!(
        count("SELECT count(*) FROM news_items").await,
        rounds * (STORIES as i64 + 2)
    );
    assert_eq!(
        count(
            "SELECT count(*) FROM (SELECT cluster_id, count(*) AS size, count(DISTINCT media_id) AS media_count \
             FROM news_items GROUP BY cluster_id) n FULL JOIN story_clusters c USING (cluster_id) \
             WHERE c.size IS DISTINCT FROM n.size OR c.media_count IS DISTINCT FROM n.media_count"
        )
        .await,
        0,
        "every story's stats match its items"
    );
}

/// Servers started together load the demo one after the other (D210): the start-up lock
/// is held by one at a time, and given back by `release` or by dropping it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_startup_lock_is_held_by_one_server_at_a_time() {
    use std::time::Duration;
    use store::Store;
    let Some(options) = testing::fresh_database().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    let first = PgStore::connect_with(options.clone()).await.unwrap();
    let second = PgStore::connect_with(options).await.unwrap();
    let held = first.startup_lock().await.unwrap();
    let waiting = tokio::spawn(async move { second.startup_lock().await.unwrap() });
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(
        !waiting.is_finished(),
        "the second server waits while the first holds the lock"
    );
    held.release().await;
    let taken = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("the second server takes the lock once it is given back")
        .unwrap();
    drop(taken);
    let again = tokio::time::timeout(Duration::from_secs(10), first.startup_lock())
        .await
        .expect("a dropped lock is given back too")
        .unwrap();
    again.release().await;
}

/// Migrations run under sqlx's advisory lock (D210): servers connecting to an empty
/// database at the same moment both find it migrated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_migrating_an_empty_database_at_once_both_succeed() {
    for _ in 0..3 {
        let Some(options) = testing::fresh_database().await else {
            eprintln!("skipped: TEST_DATABASE_URL is not set");
            return;
        };
        let (a, b) = tokio::join!(
            PgStore::connect_with(options.clone()),
            PgStore::connect_with(options.clone())
        );
        a.expect("the first server migrates");
        b.expect("the second server migrates");
    }
}
