//! Feeds out (issue 31, D376): every page with a list as RSS 2.0, Atom 1.0 and JSON Feed
//! 1.1, read back with the feed parser the ingester uses (feed-rs) and checked against
//! each format's required elements, on both engines.

mod support;

use ingest::parse::parse_feed;
use serde_json::{Value, json};
use support::TestApp;
use support::seed::{self, MONTREAL};
use support::xml::{elements, named, texts};

const FORMATS: [(&str, &str); 3] = [
    ("rss", "application/rss+xml; charset=utf-8"),
    ("atom", "application/atom+xml; charset=utf-8"),
    ("json", "application/feed+json; charset=utf-8"),
];

/// A feed's body, checked to be 200 with the format's media type.
async fn feed(app: &TestApp, path: &str, content_type: &str) -> String {
    let res = app.get(path).await;
    assert_eq!(res.status(), 200, "{path}");
    assert_eq!(res.headers()["content-type"], content_type, "{path}");
    res.text().await.unwrap()
}

/// The story ids of an API list call, in order.
async fn api_ids(app: &TestApp, path_and_query: &str) -> Vec<i64> {
    let res = app.get(path_and_query).await;
    assert_eq!(res.status(), 200, "{path_and_query}");
    let body: Value = res.json().await.unwrap();
    body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["news_id"].as_i64().unwrap())
        .collect()
}

fn article_urls(base: &str, prefix: &str, ids: &[i64]) -> Vec<String> {
    ids.iter().map(|id| format!("{base}{prefix}/article/{id}")).collect()
}

async fn d376_every_format_reads_in_a_feed_reader_as_the_page_lists_it(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let base = app.url("");
    let ids = api_ids(
        app,
        "/api/news/feed?channel=category&category=politics&lang=en&country=US",
    )
    .await;
    assert!(ids.len() >= 5, "the seed has politics stories: {ids:?}");
    for (format, content_type) in FORMATS {
        let path = format!("/feeds/{format}/category/politics");
        let body = feed(app, &path, content_type).await;
        let parsed = parse_feed(body.as_bytes(), Some(&app.url(&path))).unwrap_or_else(|e| panic!("{format}: {e}"));
        assert_eq!(parsed.title, "Politics · Localwire", "{format}");
        let links: Vec<String> = parsed
            .items
            .iter()
            .map(|i| i.link.clone().unwrap_or_default())
            .collect();
        assert_eq!(
            links,
            article_urls(&base, "", &ids),
            "{format}: the page's list, in its order"
        );
        for item in &parsed.items {
            assert!(item.title.starts_with("Council notes"), "{format}: {}", item.title);
            assert!(item.published_ms.is_some_and(|t| t > 0), "{format}: a date");
            assert_eq!(item.author.as_deref(), Some("The Capitol Ledger"), "{format}");
        }
    }
}

async fn d376_each_format_has_what_its_specification_requires(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let base = app.url("");

    // RSS 2.0: a channel with title, link and description; items with a permanent guid
    // and an RFC 822 date; Atom's self link naming the feed's own address.
    let rss = elements(&feed(app, "/feeds/rss/latest", FORMATS[0].1).await);
    assert_eq!((rss[0].name.as_str(), rss[0].attr("version")), ("rss", Some("2.0")));
    for required in ["title", "link", "description", "language"] {
        assert!(!texts(&rss, required).is_empty(), "rss {required}");
    }
    let self_link = named(&rss, "atom:link")[0];
    assert_eq!(
        self_link.attr("href"),
        Some(format!("{base}/feeds/rss/latest").as_str())
    );
    assert_eq!(self_link.attr("rel"), Some("self"));
    let guids = named(&rss, "guid");
    assert_eq!(guids.len(), named(&rss, "item").len());
    assert!(
        guids
            .iter()
            .all(|g| g.attr("isPermaLink") == Some("true") && g.text.starts_with(&base))
    );
    for date in texts(&rss, "pubDate") {
        chrono::DateTime::parse_from_rfc2822(&date).unwrap_or_else(|e| panic!("{date}: {e}"));
    }

    // Atom (RFC 4287): the feed's id, title, updated and author; each entry's id, title,
    // updated and alternate link; ids unique.
    let atom = elements(&feed(app, "/feeds/atom/latest", FORMATS[1].1).await);
    assert_eq!(atom[0].attr("xmlns"), Some("http://www.w3.org/2005/Atom"));
    let entries = named(&atom, "entry").len();
    assert!(entries > 0);
    assert_eq!(texts(&atom, "id").len(), entries + 1);
    assert_eq!(texts(&atom, "updated").len(), entries + 1);
    assert_eq!(texts(&atom, "title").len(), entries + 1);
    let mut ids = texts(&atom, "id");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), entries + 1, "ids are unique");
    assert!(!texts(&atom, "name").is_empty(), "an author");
    for date in texts(&atom, "updated") {
        chrono::DateTime::parse_from_rfc3339(&date).unwrap_or_else(|e| panic!("{date}: {e}"));
    }

    // JSON Feed 1.1: version, title and items with unique string ids.
    let json: Value = serde_json::from_str(&feed(app, "/feeds/json/latest", FORMATS[2].1).await).unwrap();
    assert_eq!(json["version"], "https://jsonfeed.org/version/1.1");
    assert_eq!(json["title"], "Latest news · Localwire");
    assert_eq!(json["feed_url"], format!("{base}/feeds/json/latest"));
    assert_eq!(json["home_page_url"], format!("{base}/latest"));
    let items = json["items"].as_array().unwrap();
    assert!(!items.is_empty());
    let mut ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), items.len());
    for item in items {
        assert!(item["content_text"].is_string(), "{item}");
        chrono::DateTime::parse_from_rfc3339(item["date_published"].as_str().unwrap()).unwrap();
    }
}

async fn d376_a_citys_feed_in_french_is_the_french_page_of_that_city(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let base = app.url("");
    let ids = api_ids(
        app,
        &format!("/api/news/feed?channel=local&city_id={MONTREAL}&lang=fr&country=CA"),
    )
    .await;
    assert!(!ids.is_empty());
    let path = format!("/feeds/atom/fr/local/montreal-qc-{MONTREAL}?c=fr_CA");
    let body = feed(app, &path, FORMATS[1].1).await;
    let doc = elements(&body);
    assert_eq!(doc[0].attr("xml:lang"), Some("fr"));
    assert_eq!(texts(&doc, "title")[0], "Nouvelles locales : Montréal, QC · Localwire");
    let parsed = parse_feed(body.as_bytes(), Some(&app.url(&path))).unwrap();
    let links: Vec<String> = parsed
        .items
        .iter()
        .map(|i| i.link.clone().unwrap_or_default())
        .collect();
    assert_eq!(links, article_urls(&base, "/fr", &ids));
}

async fn d376_a_search_and_a_publisher_can_be_followed(app: &TestApp) {
    let corpus = seed::seed(app.store.as_ref()).await;
    let ids = api_ids(app, "/api/search/news?q=council&lang=en&country=US").await;
    assert!(!ids.is_empty());
    let json: Value =
        serde_json::from_str(&feed(app, "/feeds/json/search/news?q=+council+", FORMATS[2].1).await).unwrap();
    assert_eq!(json["title"], "Search: council · Localwire");
    assert_eq!(json["home_page_url"], format!("{}/search/news?q=council", app.url("")));
    let got: Vec<String> = json["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["url"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(got, article_urls(&app.url(""), "", &ids));

    let capitol = corpus.media["capitol"].0;
    let rss = feed(app, &format!("/feeds/rss/media/{capitol}"), FORMATS[0].1).await;
    let parsed = parse_feed(rss.as_bytes(), None).unwrap();
    assert_eq!(parsed.title, "The Capitol Ledger · Localwire");
    assert!(!parsed.items.is_empty());
}

async fn d376_a_page_without_a_list_has_no_feed(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    for path in [
        "/feeds/rss/article/1",
        "/feeds/rss/user/favorites",
        "/feeds/rss/weather",
        "/feeds/rss/local",
        "/feeds/xml/latest",
        "/feeds/rss/media/999999",
        "/feeds/atom/category/not-a-category",
        "/feeds/json/search/news",
        "/feeds/json/search/news?q=%20",
        "/feeds/rss/no/such/page",
    ] {
        let res = app.get(path).await;
        assert_eq!(res.status(), 404, "{path}");
        assert_eq!(res.headers()["cache-control"], "no-store", "{path}");
        let text = res.text().await.unwrap();
        assert!(text.starts_with("No "), "{path}: {text}");
    }
}

async fn d376_feeds_are_kept_and_answer_conditional_requests(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let res = app.get("/feeds/atom/top-news").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["cache-control"], "public, max-age=300");
    let etag = res.headers()["etag"].clone();
    let again = app
        .http
        .get(app.url("/feeds/atom/top-news"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(
        again.status(),
        304,
        "a feed reader polling an unchanged feed gets nothing new"
    );
}

async fn d376_pages_name_their_feeds_for_feed_readers(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let html = app.get("/fr/category/politics?c=fr_CA").await.text().await.unwrap();
    for (format, media_type, label) in [
        ("rss", "application/rss+xml", "RSS"),
        ("atom", "application/atom+xml", "Atom"),
        ("json", "application/feed+json", "JSON Feed"),
    ] {
        let href = format!("/feeds/{format}/fr/category/politics?c=fr_CA");
        let link = format!(
            r#"<link rel="alternate" type="{media_type}" title="Politique · Localwire ({label})" href="{}">"#,
            href.replace('&', "&amp;")
        );
        assert!(html.contains(&link), "{link}");
        assert_eq!(app.get(&href).await.status(), 200, "{href}");
    }
    // Home follows the reader's city, from the app's settings.
    let home = app
        .http
        .get(app.url("/"))
        .header("cookie", format!("cityId={MONTREAL}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(home.contains(&format!(r#"href="/feeds/rss/local/{MONTREAL}""#)));
    let story = app.get("/article/1").await.text().await.unwrap();
    assert!(!story.contains("/feeds/"), "a story is not a list");
}

async fn d377_a_readers_follows_export_as_an_opml_of_this_sites_feeds(app: &TestApp) {
    let corpus = seed::seed(app.store.as_ref()).await;
    let device = "dev-opml";
    let (_, token) = app.guest(device).await;
    for media in ["capitol", "devoir"] {
        let body = json!({ "media_id": corpus.media[media].0 });
        let (status, answer) = app.call(device, "/user/media/follow", Some(&token), body).await;
        assert_eq!(status, 200, "{answer}");
    }
    for (kind, value) in [("category", "politics"), ("tag", "Council notes")] {
        let body = json!({ "kind": kind, "value": value });
        let (status, answer) = app.call(device, "/user/topics/follow", Some(&token), body).await;
        assert_eq!(status, 200, "{answer}");
    }
    let base = support::base_for(device, "es", "US");
    let path = "/user/follows/opml";
    let (status, answer) = app
        .call_with(&support::signing(&base, path), path, Some(&token), "{}".into())
        .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["filename"], "localwire-follows.opml");
    let opml = answer["data"]["opml"].as_str().unwrap();
    let import = ingest::opml::parse_opml(opml.as_bytes()).expect("OPML a feed reader reads");
    assert_eq!(import.title.as_deref(), Some("Localwire: lo que sigues"));
    assert!(import.skipped.is_empty(), "{:?}", import.skipped);
    let site = app.url("");
    let outlines: Vec<(String, String, Vec<String>)> = import
        .publishers
        .iter()
        .map(|p| (p.name.clone(), p.feed_url.replace(&site, ""), p.folders.clone()))
        .collect();
    let mut publishers: Vec<&(String, String, Vec<String>)> =
        outlines.iter().filter(|o| o.2 == ["Medios que sigues"]).collect();
    publishers.sort();
    assert_eq!(
        publishers
            .iter()
            .map(|o| (o.0.as_str(), o.1.as_str()))
            .collect::<Vec<_>>(),
        [
            (
                "Le Veilleur de Montréal",
                format!("/feeds/rss/es/media/{}", corpus.media["devoir"].0).as_str()
            ),
            (
                "The Capitol Ledger",
                format!("/feeds/rss/es/media/{}", corpus.media["capitol"].0).as_str()
            ),
        ]
    );
    let topics: Vec<(&str, &str)> = outlines
        .iter()
        .filter(|o| o.2 == ["Temas que sigues"])
        .map(|o| (o.0.as_str(), o.1.as_str()))
        .collect();
    assert!(
        topics.contains(&("Política", "/feeds/rss/es/category/politics")),
        "{topics:?}"
    );
    assert!(
        topics.contains(&("Council notes", "/feeds/rss/es/search/news?q=Council%20notes")),
        "{topics:?}"
    );
    // Every feed it names is served and reads as a feed.
    for (_, feed_path, _) in &outlines {
        let body = feed(app, feed_path, FORMATS[0].1).await;
        parse_feed(body.as_bytes(), None).unwrap_or_else(|e| panic!("{feed_path}: {e}"));
    }
    // Only the reader's token opens it.
    let (status, _) = app.call(device, path, None, json!({})).await;
    assert_eq!(status, 401);
}

async fn d376_a_forged_host_changes_only_the_forgers_own_feed(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let forged = app
        .raw(b"GET /feeds/rss/latest HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n")
        .await;
    assert!(forged.contains("http://evil.example/feeds/rss/latest"), "{forged}");
    // The next reader's feed is made for their own address, not served from the forger's.
    let body = feed(app, "/feeds/rss/latest", FORMATS[0].1).await;
    assert!(!body.contains("evil.example"));
    assert!(body.contains(&app.url("/feeds/rss/latest")));
}

engine_tests!(
    d376_every_format_reads_in_a_feed_reader_as_the_page_lists_it,
    d376_each_format_has_what_its_specification_requires,
    d376_a_citys_feed_in_french_is_the_french_page_of_that_city,
    d376_a_search_and_a_publisher_can_be_followed,
    d376_a_page_without_a_list_has_no_feed,
    d376_feeds_are_kept_and_answer_conditional_requests,
    d376_pages_name_their_feeds_for_feed_readers,
    d377_a_readers_follows_export_as_an_opml_of_this_sites_feeds,
    d376_a_forged_host_changes_only_the_forgers_own_feed,
);
