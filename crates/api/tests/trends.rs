//! Realtime trends (issue 20; D300–D302) through the real router, on SQLite and
//! PostgreSQL: a phrase three publishers carry trends with its sparkline and stories, a
//! reader's blocks and mutes never feed their trends, and the kept trends are brought up
//! to date by reading only what is new.

mod support;

use serde_json::{Value, json};
use store::content::{ClusterChoice, NewsId};
use support::TestApp;
use support::seed::{Corpus, LEWISTON_ME, PORTLAND_ME, WASHINGTON, item, put};

const MINUTE: i64 = 60_000;

/// The seed, and one story of a storm from each of three publishers (four stories).
async fn seed_storm(app: &TestApp) -> Corpus {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let now = corpus.now_ms;
    let stories = [
        ("capitol", "zelda-1", "Blizzard Zelda closes schools", 40, WASHINGTON),
        (
            "lewiston",
            "zelda-2",
            "Blizzard Zelda strands drivers on I-95",
            50,
            LEWISTON_ME,
        ),
        (
            "casco",
            "zelda-3",
            "Plows ready as Blizzard Zelda nears",
            70,
            PORTLAND_ME,
        ),
        ("casco", "zelda-4", "Blizzard Zelda: what to know", 200, PORTLAND_ME),
    ];
    for (slug, identity, title, minutes_ago, city) in stories {
        let record = item(identity, title, now - minutes_ago * MINUTE, Some(city));
        put(
            app.store.as_ref(),
            &mut corpus,
            slug,
            vec![record],
            vec![ClusterChoice::New],
        )
        .await;
    }
    corpus
}

async fn trends_as(app: &TestApp, query: &str, token: Option<&str>) -> Value {
    let mut req = app.http.get(app.url(&format!("/api/trends{query}")));
    if let Some(t) = token {
        req = req.header("token", t);
    }
    let res = req.send().await.expect("GET");
    assert_eq!(res.status().as_u16(), 200, "GET /api/trends{query}");
    let body: Value = res.json().await.expect("json");
    body["data"].clone()
}

fn phrases(data: &Value) -> Vec<String> {
    data["trends"]
        .as_array()
        .unwrap_or_else(|| panic!("trends: {data}"))
        .iter()
        .map(|t| t["phrase"].as_str().unwrap().to_string())
        .collect()
}

async fn trends_list_a_phrase_three_publishers_carry_with_its_sparkline_and_stories(app: &TestApp) {
    let corpus = seed_storm(app).await;
    let data = trends_as(app, "?country=US&lang=en", None).await;
    assert_eq!(data["scope"], "country");
    // The council notes are one publisher's; the warehouse fire is one story.
    assert_eq!(phrases(&data), ["Blizzard Zelda"], "{data}");
    let t = &data["trends"][0];
    assert_eq!(t["key"], "blizzard zelda");
    assert_eq!((t["recent"].as_i64(), t["publishers"].as_i64()), (Some(4), Some(3)));
    let spark: Vec<i64> = t["sparkline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .collect();
    assert_eq!(spark.len(), 24);
    assert_eq!(spark.iter().sum::<i64>(), 4);
    assert_eq!(spark[23], 2, "two began in the last hour: {spark:?}");
    let ids: Vec<i64> = t["news_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .collect();
    assert_eq!(ids[0], corpus.id("zelda-1").0, "newest first");
    assert_eq!(ids.len(), 4);
    assert_eq!(t["list"].as_array().unwrap().len(), 3, "three cards by default");
    assert_eq!(t["list"][0]["title"], "Blizzard Zelda closes schools");
    // D385: a trend's cards say trending; a state without enough news of its own is
    // answered the country's trends, and its cards do not claim to trend in the state.
    assert!(
        t["list"].as_array().unwrap().iter().all(|n| n["reason"] == "trending"),
        "{t}"
    );

    // One trend by its key, with all its stories.
    let one = trends_as(app, "?country=US&lang=en&key=blizzard%20zelda&stories=30", None).await;
    assert_eq!(one["trends"][0]["list"].as_array().unwrap().len(), 4);
    let none = trends_as(app, "?country=US&lang=en&key=nothing", None).await;
    assert_eq!(phrases(&none), Vec::<String>::new());
    // Other countries and languages have their own (none here).
    assert_eq!(
        phrases(&trends_as(app, "?country=CA&lang=fr", None).await),
        Vec::<String>::new()
    );
    // Maine has too little news of its own: the country's trends, said so.
    let maine = trends_as(app, "?country=US&lang=en&state=ME", None).await;
    assert_eq!((maine["scope"].as_str(), phrases(&maine).len()), (Some("country"), 1));
    assert!(
        maine["trends"][0]["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|n| n["reason"] == "trending")
    );
    for bad in [
        "?size=0",
        "?size=21",
        "?stories=31",
        "?lang=de",
        "?country=FR",
        "?state=M-E",
    ] {
        let res = app.get(&format!("/api/trends{bad}")).await;
        assert_eq!(res.status().as_u16(), 400, "{bad}");
    }
}

async fn d302_a_readers_blocks_and_mutes_never_feed_their_trends(app: &TestApp) {
    let corpus = seed_storm(app).await;
    let (_, blocker) = app.guest("dev-trends-block").await;
    assert_eq!(phrases(&trends_as(app, "", Some(&blocker)).await), ["Blizzard Zelda"]);
    let (status, body) = app
        .call(
            "dev-trends-block",
            "/user/media/block",
            Some(&blocker),
            json!({"media_id": corpus.media["lewiston"].0}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Two publishers are left: no trend for this reader.
    assert_eq!(phrases(&trends_as(app, "", Some(&blocker)).await), Vec::<String>::new());

    // A mute of one story's word hides that story the same way.
    let (_, muter) = app.guest("dev-trends-mute").await;
    let (status, body) = app
        .call(
            "dev-trends-mute",
            "/user/mutes/add",
            Some(&muter),
            json!({"kind": "keyword", "value": "strands"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(phrases(&trends_as(app, "", Some(&muter)).await), Vec::<String>::new());

    // A mute of a story the trend can spare leaves it, without that story.
    let (_, spare) = app.guest("dev-trends-spare").await;
    let (status, body) = app
        .call(
            "dev-trends-spare",
            "/user/mutes/add",
            Some(&spare),
            json!({"kind": "keyword", "value": "plows"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = trends_as(app, "?stories=30", Some(&spare)).await;
    assert_eq!(phrases(&data), ["Blizzard Zelda"]);
    let ids: Vec<i64> = data["trends"][0]["news_ids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_i64().unwrap())
        .collect();
    assert!(!ids.contains(&corpus.id("zelda-3").0), "{ids:?}");
    assert_eq!(ids.len(), 3);

    // Everyone else's trends are unchanged.
    assert_eq!(phrases(&trends_as(app, "", None).await), ["Blizzard Zelda"]);
}

async fn d301_kept_trends_are_brought_up_to_date_with_what_is_new(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let now = corpus.now_ms;
    let state = api::AppState::new(app.store.clone(), support::config());
    let key = trends::kept::ScopeKey {
        filter_lang: "en".into(),
        country: "US".into(),
        state: String::new(),
    };
    let two = [
        ("capitol", "z-1", "Blizzard Zelda closes schools"),
        ("lewiston", "z-2", "Blizzard Zelda strands drivers"),
    ];
    for (slug, identity, title) in two {
        let record = item(identity, title, now - 30 * MINUTE, Some(WASHINGTON));
        put(
            app.store.as_ref(),
            &mut corpus,
            slug,
            vec![record],
            vec![ClusterChoice::New],
        )
        .await;
    }
    let first = state.trends.get(&app.store, &key, now).await.unwrap();
    assert!(first.trends.is_empty(), "two publishers");
    let record = item(
        "z-3",
        "Plows ready as Blizzard Zelda nears",
        now - 5 * MINUTE,
        Some(PORTLAND_ME),
    );
    let third = put(
        app.store.as_ref(),
        &mut corpus,
        "casco",
        vec![record],
        vec![ClusterChoice::New],
    )
    .await[0];
    // Within a minute the kept trends are answered as they are.
    let soon = state.trends.get(&app.store, &key, now + 1_000).await.unwrap();
    assert!(soon.trends.is_empty());
    // A minute on, the trends made are answered while the update runs in the background.
    let stale = state.trends.get(&app.store, &key, now + 61_000).await.unwrap();
    assert!(stale.trends.is_empty());
    let mut later = stale;
    for _ in 0..100 {
        later = state.trends.get(&app.store, &key, now + 61_500).await.unwrap();
        if !later.trends.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(later.trends.len(), 1, "brought up to date");
    assert_eq!(later.trends[0].phrase, "Blizzard Zelda");
    assert_eq!(later.trends[0].stories[0], NewsId(third.0));
    assert!(later.rows.contains_key(&third), "the new story's card is kept");
}

engine_tests!(
    trends_list_a_phrase_three_publishers_carry_with_its_sparkline_and_stories,
    d302_a_readers_blocks_and_mutes_never_feed_their_trends,
    d301_kept_trends_are_brought_up_to_date_with_what_is_new,
);
