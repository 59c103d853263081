//! The read API (docs/api-reading.md) through real HTTP on SQLite and PostgreSQL: every
//! feed channel, paging, local widening, detail, categories, search, validation, caching,
//! and the demo media route.

mod support;

use serde_json::Value;
use std::collections::HashSet;
use store::content::NewsId;
use support::TestApp;
use support::seed::{
    self, ANCHORAGE, BANGOR_ME, CAPITOL_ITEMS, Corpus, LEWISTON_ME, MONTREAL, PORTLAND_ME, WASHINGTON,
};

async fn get(app: &TestApp, path: &str) -> (u16, Value) {
    let res = app.get(path).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

/// The data of a successful call.
async fn data(app: &TestApp, path: &str) -> Value {
    let (status, body) = get(app, path).await;
    assert_eq!((status, &body["code"]), (200, &Value::from(0)), "{path}: {body}");
    body["data"].clone()
}

async fn seeded(app: &TestApp) -> Corpus {
    seed::seed(app.store.as_ref()).await
}

fn ids(page: &Value) -> Vec<NewsId> {
    page["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| NewsId(i["news_id"].as_i64().unwrap()))
        .collect()
}

fn titles(page: &Value) -> Vec<String> {
    page["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["title"].as_str().unwrap().to_string())
        .collect()
}

/// Every page of a list: (all items in order, number of pages).
async fn all_pages(app: &TestApp, path: &str) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut token = String::new();
    let mut pages = 0;
    loop {
        let url = if token.is_empty() {
            path.to_string()
        } else {
            format!("{path}&page_token={token}")
        };
        let page = data(app, &url).await;
        pages += 1;
        assert!(pages < 50, "paging ends");
        items.extend(page["list"].as_array().unwrap().iter().cloned());
        token = page["next_page_token"].as_str().expect("a string token").to_string();
        if token.is_empty() {
            return (items, pages);
        }
    }
}

fn assert_newest_first(items: &[Value]) {
    for w in items.windows(2) {
        let key = |v: &Value| (v["publish_time"].as_i64().unwrap(), v["news_id"].as_i64().unwrap());
        assert!(
            key(&w[0]) > key(&w[1]),
            "newest first: {} then {}",
            w[0]["title"],
            w[1]["title"]
        );
    }
}

/// A 400 envelope whose message names the parameter.
async fn bad(app: &TestApp, path: &str, parameter: &str) {
    let (status, body) = get(app, path).await;
    assert_eq!(status, 400, "{path}: {body}");
    assert_eq!(body["code"], 400, "{path}");
    let message = body["message"].as_str().unwrap();
    assert!(message.contains(&format!("`{parameter}`")), "{path}: {message}");
}

async fn not_found(app: &TestApp, path: &str) {
    let (status, body) = get(app, path).await;
    assert_eq!(
        (status, body["message"].as_str()),
        (404, Some("Not Found")),
        "{path}: {body}"
    );
    assert_eq!(body["code"], 404);
}

async fn latest_pages_newest_first_without_gaps_or_repeats(app: &TestApp) {
    let corpus = seeded(app).await;
    let capitol = corpus.media["capitol"];
    // One publisher: no story repeats, so every item appears exactly once across pages.
    let (items, pages) = all_pages(app, &format!("/api/news/feed?channel=media&media_id={capitol}&size=10")).await;
    assert_eq!(items.len(), CAPITOL_ITEMS + 3, "25 + fire + old + nasty");
    assert_eq!(pages, 3);
    assert_newest_first(&items);
    let unique: HashSet<NewsId> = items.iter().map(|i| NewsId(i["news_id"].as_i64().unwrap())).collect();
    assert_eq!(unique.len(), items.len(), "no repeats");

    let (latest, _) = all_pages(app, "/api/news/feed?channel=latest&size=7").await;
    assert_newest_first(&latest);
    let unique: HashSet<i64> = latest.iter().map(|i| i["news_id"].as_i64().unwrap()).collect();
    assert_eq!(unique.len(), latest.len(), "no repeats");
    // The three fire items are newest: one card for the story on page one.
    let first = data(app, "/api/news/feed?channel=latest&size=7").await;
    let fire: Vec<&Value> = first["list"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["cluster_id"].as_i64() == Some(corpus.id("fire-1").0))
        .collect();
    assert_eq!(fire.len(), 1, "a story once per page");
    assert_eq!(
        fire[0]["news_id"].as_i64(),
        Some(corpus.id("fire-3").0),
        "its newest item"
    );
    assert_eq!(fire[0]["cluster_size"], 3);
    assert_eq!(fire[0]["is_hot"], 1, "three publishers within the hour");
    assert_eq!(first["list"].as_array().unwrap().len(), 7);
    assert_eq!(first["context"], serde_json::json!({}));
    // Every other item of the corpus is seen once; the two other fire items are skipped.
    assert_eq!(latest.len(), (CAPITOL_ITEMS + 3) + 8 + 4 + 2 - 2);
    // D433: a page of 2 reads 3 rows at a time, all of them the fire story's: the page
    // reads on and is still full, and paging by 2 sees the same items.
    let two = data(app, "/api/news/feed?channel=latest&size=2").await;
    assert_eq!(two["list"].as_array().unwrap().len(), 2, "{two}");
    let (by_two, _) = all_pages(app, "/api/news/feed?channel=latest&size=2").await;
    assert_eq!(
        by_two.iter().map(|i| i["news_id"].as_i64()).collect::<Vec<_>>(),
        latest.iter().map(|i| i["news_id"].as_i64()).collect::<Vec<_>>()
    );
}

async fn news_item_has_every_field_and_strings_are_never_null(app: &TestApp) {
    let corpus = seeded(app).await;
    let page = data(app, "/api/news/feed?channel=latest&size=50").await;
    let video = page["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["news_id"].as_i64() == Some(corpus.id("mtl-video").0))
        .unwrap()
        .clone();
    for field in [
        "news_id",
        "title",
        "org_img_url",
        "img_url",
        "thumbnail_url",
        "video_url",
        "voice_url",
        "content",
        "content_type",
        "content_total_length",
        "description",
        "summary",
        "copyrighted",
        "type",
        "publish_time",
        "link_url",
        "author",
        "category_id",
        "is_hot",
        "hot_word_flag",
        "tags",
        "area_list",
        "read_count",
        "like_count",
        "share_count",
        "comment_count",
        "media_id",
        "media_name",
        "media_icon",
        "media_home_url",
        "media_follow",
        "lang",
        "cluster_id",
        "cluster_size",
    ] {
        assert!(video.get(field).is_some(), "{field}");
        assert!(!video[field].is_null(), "{field} is not null");
    }
    assert_eq!(video["type"], 3);
    assert_eq!(video["video_url"], "https://v.example/ligne-bleue.mp4");
    assert_eq!(video["content"], "", "lists leave the content out");
    assert_eq!(video["org_img_url"], "");
    assert_eq!(video["media_name"], "Le Veilleur de Montréal");
    assert_eq!(video["media_follow"], 0);
    assert_eq!(video["is_hot"], 0);
    assert_eq!(video["cluster_size"], 1);
    let area = &video["area_list"][0];
    assert_eq!(area["id"], MONTREAL.0);
    assert_eq!(
        (area["country"].as_str(), area["admin_code"].as_str()),
        (Some("CA"), Some("QC"))
    );
    for lang in ["en", "es", "fr"] {
        assert!(area["name_map"][lang].is_string(), "{lang}");
    }
    assert_eq!(area["name_map"]["fr"], "Montréal");
}

async fn local_feed_widens_from_city_to_nearby_state_and_country(app: &TestApp) {
    seeded(app).await;
    let dc = data(app, &format!("/api/news/feed?channel=local&city_id={WASHINGTON}")).await;
    assert_eq!(dc["context"]["scope"], "city");
    assert_eq!(dc["context"]["city"]["id"], WASHINGTON.0);
    assert_eq!(dc["context"]["area_name"], "Washington, DC");
    assert_eq!(dc["list"].as_array().unwrap().len(), 20);

    // Portland has 2 items; Lewiston (a publisher's city 50 km away) has 7.
    let pwm = data(app, &format!("/api/news/feed?channel=local&city_id={PORTLAND_ME}")).await;
    assert_eq!(pwm["context"]["scope"], "nearby");
    assert_eq!(pwm["context"]["area_name"], "Portland, ME");
    let t = titles(&pwm);
    assert_eq!(t.len(), 9);
    assert!(t.iter().any(|t| t.starts_with("Lewiston mill")) && t.iter().any(|t| t.starts_with("Portland ferry")));

    // Bangor has nothing within 80 km: all of Maine.
    let bgr = data(app, &format!("/api/news/feed?channel=local&city_id={BANGOR_ME}")).await;
    assert_eq!(bgr["context"]["scope"], "state");
    assert_eq!(bgr["context"]["area_name"], "Maine");
    assert_eq!(bgr["list"].as_array().unwrap().len(), 9);

    // Alaska has nothing at all: the whole country, in the reader's language.
    let anc = data(
        app,
        &format!("/api/news/feed?channel=local&city_id={ANCHORAGE}&lang=es"),
    )
    .await;
    assert_eq!(anc["context"]["scope"], "country");
    assert_eq!(anc["context"]["area_name"], "Estados Unidos");
    assert!(
        anc["list"].as_array().unwrap().is_empty(),
        "no Spanish item is placed in the US"
    );
    let anc = data(app, &format!("/api/news/feed?channel=local&city_id={ANCHORAGE}")).await;
    assert_eq!(anc["context"]["scope"], "country");
    assert!(anc["list"].as_array().unwrap().len() >= 8);
    assert!(
        anc["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["area_list"][0]["country"] == "US")
    );

    // No city: the default city of the country (Ottawa for CA), widened to Canada.
    let ca = data(app, "/api/news/feed?channel=local&country=CA").await;
    assert_eq!(ca["context"]["city"]["name"], "Ottawa");
    let us = data(app, "/api/news/feed?channel=local").await;
    assert_eq!(us["context"]["city"]["id"], WASHINGTON.0);
}

async fn local_paging_keeps_the_widened_scope(app: &TestApp) {
    seeded(app).await;
    let path = format!("/api/news/feed?channel=local&city_id={BANGOR_ME}&size=4");
    let first = data(app, &path).await;
    assert_eq!(first["context"]["scope"], "state", "4 < 8: widened to Maine");
    let (items, pages) = all_pages(app, &path).await;
    assert_eq!((items.len(), pages), (9, 3));
    assert_newest_first(&items);
    let token = first["next_page_token"].as_str().unwrap();
    let second = data(app, &format!("{path}&page_token={token}")).await;
    assert_eq!(second["context"]["scope"], "state", "the token keeps the scope");
}

async fn top_ranks_the_widely_covered_story_first_and_pages_by_offset(app: &TestApp) {
    let corpus = seeded(app).await;
    let top = data(app, "/api/news/feed?channel=top&size=5").await;
    let first = &top["list"][0];
    assert_eq!(first["cluster_id"].as_i64(), Some(corpus.id("fire-1").0));
    assert_eq!(
        (first["cluster_size"].as_i64(), first["is_hot"].as_i64()),
        (Some(3), Some(1))
    );
    let (items, _) = all_pages(app, "/api/news/feed?channel=top&size=5").await;
    let unique: HashSet<NewsId> = items.iter().map(|i| NewsId(i["news_id"].as_i64().unwrap())).collect();
    assert_eq!(unique.len(), items.len());
    assert!(
        !unique.contains(&corpus.id("dc-old")) && !unique.contains(&corpus.id("dc-nasty")),
        "older than 72 hours"
    );
    // Every story seen in the window once: 25 + fire + 2 + 7 + 3.
    assert_eq!(items.len(), CAPITOL_ITEMS + 1 + 2 + 7 + 3);
    // A keyset token is not an offset token.
    let latest = data(app, "/api/news/feed?channel=latest&size=2").await;
    let token = latest["next_page_token"].as_str().unwrap();
    bad(
        app,
        &format!("/api/news/feed?channel=top&page_token={token}"),
        "page_token",
    )
    .await;
}

async fn category_language_and_country_filter_the_lists(app: &TestApp) {
    let corpus = seeded(app).await;
    let politics = data(app, "/api/news/feed?channel=category&category=politics&size=50").await;
    let ids = ids(&politics);
    assert_eq!(ids.len(), 6, "5 from Washington, the métro");
    assert!(ids.contains(&corpus.id("mtl-metro")));
    assert!(
        politics["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["category_id"] == "politics")
    );
    let fr = data(app, "/api/news/feed?channel=latest&lang=fr&size=50").await;
    assert_eq!(fr["list"].as_array().unwrap().len(), 3);
    assert!(fr["list"].as_array().unwrap().iter().all(|i| i["lang"] == "fr"));
    let es = data(app, "/api/news/feed?channel=category&category=entertainment&lang=es").await;
    assert_eq!(titles(&es), ["Montreal celebra el festival de jazz"]);
    let ca = data(app, "/api/news/feed?channel=latest&country=CA&size=50").await;
    assert!(
        ca["list"]
            .as_array()
            .unwrap()
            .iter()
            .all(|i| i["media_name"] == "Le Veilleur de Montréal")
    );
    assert_eq!(ca["list"].as_array().unwrap().len(), 4);
}

async fn location_takes_a_city_or_a_state_key(app: &TestApp) {
    seeded(app).await;
    let city = data(app, &format!("/api/news/feed?channel=location&location={LEWISTON_ME}")).await;
    assert_eq!(city["list"].as_array().unwrap().len(), 7);
    assert_eq!(
        city["context"]["area"],
        serde_json::json!({"id": LEWISTON_ME, "name": "Lewiston, ME", "kind": "city"})
    );
    let state = data(app, "/api/news/feed?channel=location&location=US-ME").await;
    assert_eq!(state["list"].as_array().unwrap().len(), 9);
    assert_eq!(
        state["context"]["area"],
        serde_json::json!({"id": "US-ME", "name": "Maine", "kind": "state"})
    );
    let qc = data(app, "/api/news/feed?channel=location&location=ca-qc").await;
    assert_eq!(qc["context"]["area"]["id"], "CA-QC");
    assert_eq!(qc["list"].as_array().unwrap().len(), 3);
    not_found(app, "/api/news/feed?channel=location&location=999999999").await;
    not_found(app, "/api/news/feed?channel=location&location=US-ZZ").await;
    bad(app, "/api/news/feed?channel=location&location=Maine", "location").await;
    bad(app, "/api/news/feed?channel=location", "location").await;
}

async fn media_and_special_channels_carry_their_context(app: &TestApp) {
    let corpus = seeded(app).await;
    let lewiston = corpus.media["lewiston"];
    let page = data(app, &format!("/api/news/feed?channel=media&media_id={lewiston}")).await;
    let media = &page["context"]["media"];
    assert_eq!(media["name"], "Lewiston Lantern");
    assert_eq!(
        (
            media["area1"].as_str(),
            media["area2"].as_str(),
            media["area3"].as_str()
        ),
        (Some("US"), Some("ME"), Some("Lewiston"))
    );
    assert_eq!(media["item_count"], 8);
    assert_eq!(media["follow_status"], 0);
    assert_eq!(page["list"].as_array().unwrap().len(), 8);
    not_found(app, "/api/news/feed?channel=media&media_id=987654").await;

    let picked = data(app, "/api/news/feed?channel=special&special=picked").await;
    assert_eq!(
        picked["context"]["special"],
        serde_json::json!({"slug": "picked", "title": "Editors' picks", "description": "Hand-picked stories"})
    );
    assert_eq!(
        ids(&picked),
        [corpus.id("pwm-0"), corpus.id("dc-3"), corpus.id("mtl-metro")],
        "newest first"
    );
    let metro = data(app, "/api/news/feed?channel=special&special=metro").await;
    assert_eq!(ids(&metro), [corpus.id("mtl-metro")], "a query special searches");
    not_found(app, "/api/news/feed?channel=special&special=nope").await;
}

async fn bad_parameters_are_400_naming_the_parameter(app: &TestApp) {
    seeded(app).await;
    bad(app, "/api/news/feed", "channel").await;
    bad(app, "/api/news/feed?channel=popular", "channel").await;
    bad(
        app,
        "/api/news/feed?channel=latest&page_token=not-a-token",
        "page_token",
    )
    .await;
    bad(app, "/api/news/feed?channel=latest&page_token=bzE", "page_token").await;
    for size in ["0", "51", "ten", "-1"] {
        bad(app, &format!("/api/news/feed?channel=latest&size={size}"), "size").await;
    }
    bad(app, "/api/news/feed?channel=local&city_id=abc", "city_id").await;
    bad(app, "/api/news/feed?channel=latest&lang=de", "lang").await;
    bad(app, "/api/news/feed?channel=latest&country=FR", "country").await;
    bad(app, "/api/news/feed?channel=category&category=gossip", "category").await;
    bad(app, "/api/news/feed?channel=category", "category").await;
    bad(app, "/api/news/feed?channel=media&media_id=x", "media_id").await;
    bad(app, "/api/news/feed?channel=special", "special").await;
    bad(app, "/api/news/detail", "news_id").await;
    bad(app, "/api/news/detail?news_id=12abc", "news_id").await;
    bad(app, "/api/media/detail?media_id=", "media_id").await;
    bad(app, "/api/news/categories?lang=xx", "lang").await;
    bad(app, "/api/search/news", "q").await;
    bad(app, "/api/search/news?q=%20%20", "q").await;
    bad(app, &format!("/api/search/news?q={}", "a".repeat(201)), "q").await;
    bad(app, "/api/search/news?q=vote&since=yesterday", "since").await;
    bad(app, "/api/search/news?q=vote&city_id=DC", "city_id").await;
    bad(app, "/api/search/news?q=vote&near_city_id=DC", "near_city_id").await;
    // The reader's own city filters nothing, so an unknown one is a bad parameter, not a 404.
    bad(app, "/api/search/news?q=vote&near_city_id=999999999", "near_city_id").await;
    bad(app, "/api/search/news?q=vote&category=gossip", "category").await;
    bad(app, "/api/search/news?q=vote&page_token=***", "page_token").await;
    bad(app, "/api/search/media", "q").await;
    let (status, body) = get(app, "/api/news/feed?channel=popular").await;
    assert_eq!(status, 400);
    assert_eq!(
        body["message"],
        "Parameter `channel`: expected one of local, latest, top, category, location, media, special."
    );
}

async fn unknown_ids_are_404_not_found(app: &TestApp) {
    seeded(app).await;
    not_found(app, "/api/news/detail?news_id=987654321").await;
    not_found(app, "/api/media/detail?media_id=987654321").await;
    not_found(app, "/api/news/feed?channel=local&city_id=999999999").await;
    not_found(app, "/api/search/news?q=vote&city_id=999999999").await;
}

async fn public_reads_have_etags_and_answer_304(app: &TestApp) {
    let corpus = seeded(app).await;
    for (path, max_age) in [
        ("/api/news/feed?channel=latest".to_string(), 30),
        (format!("/api/news/detail?news_id={}", corpus.id("dc-1")), 60),
        (format!("/api/media/detail?media_id={}", corpus.media["casco"]), 60),
        ("/api/news/categories?lang=fr".to_string(), 30),
        ("/api/search/news?q=mill".to_string(), 30),
        ("/api/search/media?q=lantern".to_string(), 30),
    ] {
        let res = app.get(&path).await;
        assert_eq!(res.status(), 200, "{path}");
        let cache = res.headers()["cache-control"].to_str().unwrap().to_string();
        assert_eq!(cache, format!("public, max-age={max_age}"), "{path}");
        let etag = res.headers()["etag"].to_str().unwrap().to_string();
        let again = app
            .http
            .get(app.url(&path))
            .header("if-none-match", &etag)
            .send()
            .await
            .unwrap();
        assert_eq!(again.status(), 304, "{path}");
        assert_eq!(again.headers()["etag"].to_str().unwrap(), etag);
        assert!(again.bytes().await.unwrap().is_empty());
        let other = app
            .http
            .get(app.url(&path))
            .header("if-none-match", "W/\"something-else\"")
            .send()
            .await
            .unwrap();
        assert_eq!(other.status(), 200, "{path}");
    }
}

/// D140: answers are kept in memory, but a stored item shows at once.
async fn kept_answers_give_way_to_new_items_at_once(app: &TestApp) {
    let mut corpus = seeded(app).await;
    let path = "/api/news/feed?channel=latest&size=3";
    let before = data(app, path).await;
    assert_eq!(data(app, path).await, before, "the same answer again");
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(
        metrics.contains("localwire_read_cache_total{result=\"hit\"} 1\n"),
        "{metrics}"
    );
    let newest = seed::item(
        "breaking-1",
        "Breaking: bridge reopens",
        corpus.now_ms,
        Some(WASHINGTON),
    );
    seed::put(
        app.store.as_ref(),
        &mut corpus,
        "capitol",
        vec![newest],
        vec![store::content::ClusterChoice::New],
    )
    .await;
    let after = data(app, path).await;
    assert_eq!(titles(&after)[0], "Breaking: bridge reopens");
    assert_eq!(ids(&after)[1..], ids(&before)[..2]);
}

async fn detail_has_content_publisher_cluster_and_related(app: &TestApp) {
    let corpus = seeded(app).await;
    let d = data(app, &format!("/api/news/detail?news_id={}", corpus.id("fire-1"))).await;
    assert_eq!(d["news"]["title"], "Warehouse fire downtown");
    assert_eq!(
        d["news"]["content"], "<p>Warehouse fire downtown</p>",
        "with its content"
    );
    assert_eq!(d["news"]["author"], "Dana Reyes");
    assert_eq!(d["news"]["cluster_size"], 3);
    assert_eq!(d["media"]["name"], "The Capitol Ledger");
    assert_eq!(d["media"]["city_id"], WASHINGTON.0);
    let cluster = ids(&serde_json::json!({"list": d["cluster"]}));
    assert_eq!(
        cluster,
        [corpus.id("fire-3"), corpus.id("fire-2")],
        "the other items, newest first"
    );
    assert!(d["cluster"].as_array().unwrap().iter().all(|i| i["content"] == ""));
    let related = ids(&serde_json::json!({"list": d["related"]}));
    assert_eq!(related.len(), 6);
    assert_eq!(
        related[0],
        corpus.id("dc-0"),
        "newest from Washington outside the story"
    );
    assert!(!related.contains(&corpus.id("fire-1")) && !related.contains(&corpus.id("fire-2")));
    // An item alone: no cluster; related from its city.
    let lone = data(app, &format!("/api/news/detail?news_id={}", corpus.id("pwm-1"))).await;
    assert!(lone["cluster"].as_array().unwrap().is_empty());
    assert_eq!(ids(&serde_json::json!({"list": lone["related"]})), [corpus.id("pwm-0")]);
    let media = data(app, &format!("/api/media/detail?media_id={}", corpus.media["devoir"])).await;
    assert_eq!(media["name"], "Le Veilleur de Montréal");
    assert_eq!(media["lang"], "fr");
    assert_eq!(media["item_count"], 4);
}

async fn categories_are_thirteen_in_display_order_and_translated(app: &TestApp) {
    let en = data(app, "/api/news/categories").await;
    let ids: Vec<&str> = en["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "local",
            "politics",
            "business",
            "sports",
            "entertainment",
            "health",
            "science-tech",
            "weather",
            "crime-safety",
            "education",
            "food",
            "lifestyle",
            "opinion"
        ]
    );
    assert_eq!(en["list"][1]["name"], "Politics");
    let es = data(app, "/api/news/categories?lang=es").await;
    assert_eq!(es["list"][1], serde_json::json!({"id": "politics", "name": "Política"}));
    let fr = data(app, "/api/news/categories?lang=fr").await;
    assert_eq!(fr["list"][7], serde_json::json!({"id": "weather", "name": "Météo"}));
}

/// Issue 16, defect 4 (D190): an elided French word finds what the plain word finds, with
/// straight and curly apostrophes, on both engines.
async fn search_news_reads_french_elision_like_the_plain_words(app: &TestApp) {
    let corpus = seeded(app).await;
    let metro = corpus.id("mtl-metro");
    let plain = data(app, "/api/search/news?q=est").await;
    assert!(ids(&plain).contains(&metro), "the plain word finds the story");
    for q in [
        "l%27est",
        "l%E2%80%99est",
        "vers%20l%27est",
        "m%C3%A9tro%20d%E2%80%99Montr%C3%A9al",
    ] {
        let found = data(app, &format!("/api/search/news?q={q}")).await;
        assert!(ids(&found).contains(&metro), "{q} finds the story");
    }
    let found = data(app, "/api/search/news?q=d%27Montr%C3%A9al").await;
    assert_eq!(found["terms"], serde_json::json!(["montreal"]));
    let english = data(app, "/api/search/news?q=Montreal%27s").await;
    assert_eq!(
        english["terms"],
        serde_json::json!(["montreal"]),
        "an English possessive too"
    );
}

async fn search_news_is_accent_insensitive_filters_and_pages(app: &TestApp) {
    let corpus = seeded(app).await;
    let found = data(app, "/api/search/news?q=montreal").await;
    assert!(ids(&found).contains(&corpus.id("mtl-metro")), "montreal finds Montréal");
    assert_eq!(found["terms"], serde_json::json!(["montreal"]));
    let found = data(app, "/api/search/news?q=M%C3%89TRO%20Montr%C3%A9al").await;
    assert_eq!(ids(&found), [corpus.id("mtl-metro")]);
    assert_eq!(found["terms"], serde_json::json!(["metro", "montreal"]));
    let es = data(app, "/api/search/news?q=montreal&lang=es").await;
    assert_eq!(ids(&es), [corpus.id("mtl-es")]);
    let politics = data(app, "/api/search/news?q=montreal&category=politics").await;
    assert_eq!(ids(&politics), [corpus.id("mtl-metro")]);
    let placed = data(app, &format!("/api/search/news?q=council&city_id={WASHINGTON}&size=50")).await;
    assert_eq!(
        placed["list"].as_array().unwrap().len(),
        CAPITOL_ITEMS + 1,
        "25 notes + the nasty title"
    );
    let none = data(app, &format!("/api/search/news?q=council&city_id={MONTREAL}")).await;
    assert!(none["list"].as_array().unwrap().is_empty());
    // D426: the reader's own city first; it filters nothing. "words" is in every body.
    let everywhere = data(app, "/api/search/news?q=words&size=50").await;
    let near = data(
        app,
        &format!("/api/search/news?q=words&near_city_id={LEWISTON_ME}&size=50"),
    )
    .await;
    // Search's "newest" is the last stored (D141): lew-6 was stored last.
    let lewiston: Vec<NewsId> = (0..7).rev().map(|i| corpus.id(&format!("lew-{i}"))).collect();
    assert_eq!(
        ids(&near)[..7],
        lewiston[..],
        "Lewiston's stories first, last stored first"
    );
    assert_ne!(ids(&everywhere)[..7], lewiston[..]);
    let (mut a, mut b) = (ids(&near), ids(&everywhere));
    a.sort();
    b.sort();
    assert_eq!(a, b, "the same stories");
    let recent = data(
        app,
        &format!("/api/search/news?q=budget&since={}", corpus.now_ms - 24 * seed::HOUR),
    )
    .await;
    assert!(recent["list"].as_array().unwrap().is_empty(), "the budget item is old");
    let us = data(app, "/api/search/news?q=montreal&country=US").await;
    assert!(us["list"].as_array().unwrap().is_empty());
    let (items, pages) = all_pages(app, "/api/search/news?q=mill&size=3").await;
    assert_eq!((items.len(), pages), (7, 3));
    let unique: HashSet<NewsId> = items.iter().map(|i| NewsId(i["news_id"].as_i64().unwrap())).collect();
    assert_eq!(unique.len(), 7);
    let nothing = data(app, "/api/search/news?q=%21%21%21").await;
    assert_eq!(
        (
            nothing["list"].as_array().unwrap().len(),
            nothing["terms"].as_array().unwrap().len()
        ),
        (0, 0)
    );
}

async fn search_media_matches_names_without_accents(app: &TestApp) {
    let corpus = seeded(app).await;
    let found = data(app, "/api/search/media?q=montreal").await;
    assert_eq!(found["list"].as_array().unwrap().len(), 1);
    assert_eq!(found["list"][0]["media_id"].as_i64(), Some(corpus.media["devoir"].0));
    assert_eq!(found["list"][0]["area3"], "Montréal");
    let upper = data(app, "/api/search/media?q=VEILLEUR").await;
    assert_eq!(upper["list"].as_array().unwrap().len(), 1);
    let (all, pages) = all_pages(app, "/api/search/media?q=e&size=3").await;
    assert_eq!((all.len(), pages), (4, 2));
    assert_eq!(
        data(app, "/api/search/media?q=zzz").await["list"],
        serde_json::json!([])
    );
}

async fn read_calls_are_in_the_openapi_document_and_config_has_image_attempts(app: &TestApp) {
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    for path in [
        "/api/news/feed",
        "/api/news/detail",
        "/api/media/detail",
        "/api/news/categories",
        "/api/search/news",
        "/api/search/media",
    ] {
        assert!(doc["paths"][path]["get"].is_object(), "{path} documented");
    }
    let params: Vec<&str> = doc["paths"]["/api/news/feed"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(params.contains(&"channel") && params.contains(&"page_token"));
    let cfg = data(app, "/api/app/config").await;
    assert_eq!(cfg["image_attempts"], 1, "SPEC §9.11 app setting 1");
}

/// Every item of a page has the same reason, and this is it.
fn reasons(list: &Value) -> HashSet<String> {
    list.as_array()
        .unwrap_or_else(|| panic!("a list: {list}"))
        .iter()
        .map(|i| {
            i["reason"]
                .as_str()
                .unwrap_or_else(|| panic!("a reason: {i}"))
                .to_string()
        })
        .collect()
}

fn said(list: &Value, reason: &str) -> bool {
    !list.as_array().unwrap().is_empty() && reasons(list) == HashSet::from([reason.to_string()])
}

/// D385: each item says the rule that listed it, and the rule is the list's: a local page
/// says near you for the city and what is near it, and how far it had to widen.
async fn d385_each_item_says_why_by_the_rule_that_listed_it(app: &TestApp) {
    let corpus = seeded(app).await;
    let feed = |q: String| async move { data(app, &format!("/api/news/feed?{q}")).await["list"].clone() };
    // Local: the city itself, then a quiet city's neighbours, its state and its country.
    assert!(said(
        &feed(format!("channel=local&city_id={WASHINGTON}")).await,
        "near_you"
    ));
    assert!(
        said(&feed(format!("channel=local&city_id={PORTLAND_ME}")).await, "near_you"),
        "nearby"
    );
    let maine = format!("channel=local&city_id={BANGOR_ME}&size=4");
    assert!(said(&feed(maine.clone()).await, "in_your_state"));
    let first = data(app, &format!("/api/news/feed?{maine}")).await;
    let token = first["next_page_token"].as_str().unwrap();
    assert!(
        said(&feed(format!("{maine}&page_token={token}")).await, "in_your_state"),
        "the next page keeps the widened scope's reason"
    );
    assert!(said(
        &feed(format!("channel=local&city_id={ANCHORAGE}")).await,
        "in_your_country"
    ));
    // The other channels: their own rule.
    assert!(said(&feed("channel=latest".into()).await, "latest"));
    assert!(said(&feed("channel=top".into()).await, "top"));
    assert!(said(
        &feed("channel=category&category=politics".into()).await,
        "in_category"
    ));
    assert!(said(
        &feed(format!("channel=location&location={LEWISTON_ME}")).await,
        "about_place"
    ));
    let lewiston = corpus.media["lewiston"];
    assert!(said(
        &feed(format!("channel=media&media_id={lewiston}")).await,
        "from_publisher"
    ));
    assert!(said(
        &feed("channel=special&special=picked".into()).await,
        "in_collection"
    ));
    let metro = feed("channel=special&special=metro".into()).await;
    assert!(said(&metro, "in_collection"), "a query special too: {metro}");
    assert!(said(
        &data(app, "/api/search/news?q=montreal").await["list"],
        "matches_search"
    ));
    // A story's page: the story, its other reports, more from its place.
    let d = data(app, &format!("/api/news/detail?news_id={}", corpus.id("fire-1"))).await;
    assert_eq!(d["news"]["reason"], "opened");
    assert!(said(&d["cluster"], "same_story"));
    assert!(said(&d["related"], "same_place"));
}

engine_tests!(
    d385_each_item_says_why_by_the_rule_that_listed_it,
    latest_pages_newest_first_without_gaps_or_repeats,
    news_item_has_every_field_and_strings_are_never_null,
    local_feed_widens_from_city_to_nearby_state_and_country,
    local_paging_keeps_the_widened_scope,
    top_ranks_the_widely_covered_story_first_and_pages_by_offset,
    category_language_and_country_filter_the_lists,
    location_takes_a_city_or_a_state_key,
    media_and_special_channels_carry_their_context,
    bad_parameters_are_400_naming_the_parameter,
    unknown_ids_are_404_not_found,
    public_reads_have_etags_and_answer_304,
    kept_answers_give_way_to_new_items_at_once,
    detail_has_content_publisher_cluster_and_related,
    categories_are_thirteen_in_display_order_and_translated,
    search_news_is_accent_insensitive_filters_and_pages,
    search_news_reads_french_elision_like_the_plain_words,
    search_media_matches_names_without_accents,
    read_calls_are_in_the_openapi_document_and_config_has_image_attempts,
);

/// The demo's media through `/demo/media/`: types by extension, ranges, 404s.
#[tokio::test]
async fn demo_media_is_served_with_its_type_ranges_and_404s() {
    let app = support::start(support::sqlite_store().await.unwrap(), support::config()).await;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/demo/media");
    let mut seen = HashSet::new();
    for sub in std::fs::read_dir(&dir).unwrap() {
        let sub = sub.unwrap().path();
        if !sub.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&sub).unwrap() {
            let file = file.unwrap().path();
            let ext = file
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or("")
                .to_ascii_lowercase();
            if seen.contains(&ext) {
                continue;
            }
            let want = match ext.as_str() {
                "svg" => "image/svg+xml",
                "jpg" | "jpeg" => "image/jpeg",
                "png" => "image/png",
                "webp" => "image/webp",
                "mp4" => "video/mp4",
                "mp3" => "audio/mpeg",
                "m4a" => "audio/mp4",
                "ogg" => "audio/ogg",
                _ => continue,
            };
            seen.insert(ext.clone());
            let rel = file.strip_prefix(&dir).unwrap().to_str().unwrap().replace('\\', "/");
            let res = app.get(&format!("/demo/media/{rel}")).await;
            assert_eq!(res.status(), 200, "{rel}");
            assert_eq!(res.headers()["content-type"], want, "{rel}");
            assert!(
                res.headers()["cache-control"]
                    .to_str()
                    .unwrap()
                    .contains("max-age=604800"),
                "{rel}"
            );
            let body = res.bytes().await.unwrap();
            assert_eq!(body.as_ref(), std::fs::read(&file).unwrap().as_slice(), "{rel}");
            if body.len() > 10 {
                let part = app
                    .http
                    .get(app.url(&format!("/demo/media/{rel}")))
                    .header("range", "bytes=2-5")
                    .send()
                    .await
                    .unwrap();
                assert_eq!(part.status(), 206, "{rel}");
                assert_eq!(
                    part.headers()["content-range"].to_str().unwrap(),
                    format!("bytes 2-5/{}", body.len())
                );
                assert_eq!(part.bytes().await.unwrap().as_ref(), &body[2..=5]);
            }
        }
    }
    assert!(
        seen.contains("svg") && seen.contains("mp3") && seen.contains("mp4"),
        "{seen:?}"
    );
    let beyond = app
        .http
        .get(app.url("/demo/media/icons/capitol-ledger.svg"))
        .header("range", "bytes=999999999-")
        .send()
        .await
        .unwrap();
    assert_eq!(beyond.status(), 416);
    for path in [
        "/demo/media/images/no-such-file.jpg",
        "/demo/media/icons/capitol-ledger.exe",
        "/demo/media/../publishers.opml",
        "/demo/media/%2e%2e/publishers.json",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
}
