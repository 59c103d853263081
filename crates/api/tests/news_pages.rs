//! Reading pages through the real router: the first data inlined as API calls (docs/
//! api-reading.md "Inline payload"), article and share meta (Open Graph, Twitter card,
//! schema.org NewsArticle), and real 404s for missing stories.

mod support;

use api::ApiConfig;
use percent_encoding::{NON_ALPHANUMERIC, utf8_percent_encode};
use serde_json::Value;
use support::TestApp;
use support::seed::{self, Corpus, LEWISTON_ME, PORTLAND_ME, WASHINGTON};

fn payload(html: &str) -> Value {
    let start = html.find(r#"id="lw-payload">"#).expect("payload") + r#"id="lw-payload">"#.len();
    let end = start + html[start..].find("</script>").expect("end of payload");
    serde_json::from_str(&html[start..end]).expect("payload JSON")
}

fn json_ld(html: &str) -> Value {
    let open = r#"<script type="application/ld+json">"#;
    let start = html.find(open).expect("JSON-LD") + open.len();
    let end = start + html[start..].find("</script>").expect("end of JSON-LD");
    serde_json::from_str(&html[start..end]).expect("JSON-LD is JSON")
}

fn meta(html: &str, attr: &str, name: &str) -> Option<String> {
    let needle = format!(r#"<meta {attr}="{name}" content=""#);
    let start = html.find(&needle)? + needle.len();
    let end = start + html[start..].find('"')?;
    Some(html[start..end].to_string())
}

fn title(html: &str) -> String {
    let start = html.find("<title>").expect("title") + "<title>".len();
    let end = start + html[start..].find("</title>").expect("end of title");
    html[start..end].to_string()
}

async fn page(app: &TestApp, path: &str) -> (u16, String) {
    let res = app.get(path).await;
    (res.status().as_u16(), res.text().await.unwrap())
}

/// The `data` the API answers for a payload call.
async fn api_data(app: &TestApp, call: &Value) -> Value {
    let path = call["query"]["path"].as_str().unwrap();
    let params: Vec<(String, String)> = call["query"]["params"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().map_or_else(|| v.to_string(), str::to_string)))
        .collect();
    let query: Vec<String> = params
        .iter()
        .map(|(k, v)| format!("{k}={}", utf8_percent_encode(v, NON_ALPHANUMERIC)))
        .collect();
    let res = app.get(&format!("{path}?{}", query.join("&"))).await;
    assert_eq!(res.status(), 200, "{path} {params:?}");
    res.json::<Value>().await.unwrap()["data"].clone()
}

/// Every call of the payload answers exactly what the API answers for it.
async fn assert_calls_match_the_api(app: &TestApp, p: &Value) {
    let mut calls = vec![p.clone()];
    calls.extend(p["extra"].as_array().cloned().unwrap_or_default());
    for call in calls {
        assert_eq!(call["data"], api_data(app, &call).await, "{}", call["query"]);
    }
}

async fn seeded(app: &TestApp) -> Corpus {
    seed::seed(app.store.as_ref()).await
}

async fn article_page_has_story_meta_open_graph_json_ld_and_payload(app: &TestApp) {
    let corpus = seeded(app).await;
    let id = corpus.id("fire-1");
    let (status, html) = page(app, &format!("/article/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(title(&html), "Warehouse fire downtown · Localwire");
    assert_eq!(
        meta(&html, "name", "description").as_deref(),
        Some("Warehouse fire downtown. More words about it.")
    );
    assert_eq!(meta(&html, "property", "og:type").as_deref(), Some("article"));
    assert_eq!(
        meta(&html, "property", "og:title").as_deref(),
        Some("Warehouse fire downtown")
    );
    // D382: the image through this server's proxy, made absolute; it stands for the original.
    let og_image = meta(&html, "property", "og:image").unwrap();
    assert_eq!(
        proxied_original(&og_image),
        "https://img.example/fire-original.jpg",
        "the main image: the original first"
    );
    assert_eq!(
        meta(&html, "name", "twitter:card").as_deref(),
        Some("summary_large_image")
    );
    let ld = json_ld(&html);
    assert_eq!(ld["@context"], "https://schema.org");
    assert_eq!(ld["@type"], "NewsArticle");
    assert_eq!(ld["headline"], "Warehouse fire downtown");
    assert_eq!(ld["image"][0], og_image.as_str());
    assert_eq!(ld["author"][0]["name"], "Dana Reyes");
    assert_eq!(ld["publisher"]["name"], "The Capitol Ledger");
    let published = ld["datePublished"].as_str().unwrap();
    assert!(
        published.len() == 20 && published.ends_with('Z') && published.as_bytes()[10] == b'T',
        "{published}"
    );
    assert_eq!(
        meta(&html, "property", "article:published_time").as_deref(),
        Some(published)
    );
    let p = payload(&html);
    assert_eq!(p["route"], "article");
    assert_eq!(p["query"]["path"], "/api/news/detail");
    assert_eq!(p["query"]["params"]["news_id"], id.to_string());
    assert_eq!(p["data"]["news"]["news_id"], id.0);
    assert_eq!(p["data"]["cluster"].as_array().unwrap().len(), 2);
    assert_calls_match_the_api(app, &p).await;
}

async fn share_page_previews_the_story_and_points_at_the_article(app: &TestApp) {
    let corpus = seeded(app).await;
    let id = corpus.id("fire-1");
    for path in [
        format!("/share/{id}"),
        format!("/share/article/{id}"),
        format!("/share/{id}-warehouse-fire"),
    ] {
        let (status, html) = page(app, &path).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(
            meta(&html, "property", "og:title").as_deref(),
            Some("Warehouse fire downtown")
        );
        assert_eq!(meta(&html, "property", "og:type").as_deref(), Some("article"));
        assert!(meta(&html, "property", "og:image").is_some());
        assert_eq!(
            meta(&html, "name", "twitter:card").as_deref(),
            Some("summary_large_image")
        );
        let og_url = meta(&html, "property", "og:url").unwrap();
        assert!(og_url.ends_with(&format!("/article/{id}")), "{og_url}");
        assert!(html.contains(&format!(r#"<link rel="canonical" href="{og_url}">"#)));
        let p = payload(&html);
        assert_eq!(p["route"], "share");
        assert_eq!(p["data"]["news"]["title"], "Warehouse fire downtown");
        assert_eq!(json_ld(&html)["headline"], "Warehouse fire downtown");
    }
}

async fn missing_article_is_a_real_404(app: &TestApp) {
    seeded(app).await;
    for path in [
        "/article/987654321",
        "/article/abc",
        "/share/news/987654321",
        "/share/nothing",
        "/fr/article/0",
    ] {
        let (status, html) = page(app, path).await;
        assert_eq!(status, 404, "{path}");
        let p = payload(&html);
        assert_eq!(p["status"], 404, "{path}");
        assert!(p["route"] == "article" || p["route"] == "share", "{path}");
        assert!(p["error"]["message"].is_string(), "{path}");
        assert!(p.get("query").is_none(), "{path}: no data with an error");
        assert!(html.contains(r#"<meta name="robots" content="noindex">"#), "{path}");
        assert!(!html.contains("application/ld+json"), "{path}");
    }
    let (_, html) = page(app, "/article/987654321").await;
    assert_eq!(title(&html), "Story not found · Localwire");
}

async fn json_ld_cannot_be_closed_by_a_title(app: &TestApp) {
    let corpus = seeded(app).await;
    let res = app.get(&format!("/article/{}", corpus.id("dc-nasty"))).await;
    let csp = res.headers()["content-security-policy"].to_str().unwrap().to_string();
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    let html = res.text().await.unwrap();
    assert!(!html.contains("<script>alert(1)"), "the title never becomes markup");
    let nasty = "Council </script><script>alert(1)</script> vote & \"quotes\"";
    assert_eq!(json_ld(&html)["headline"], nasty, "the same text, escaped");
    assert_eq!(payload(&html)["data"]["news"]["title"], nasty);
    assert_eq!(
        meta(&html, "property", "og:title").as_deref(),
        Some("Council &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; vote &amp; &quot;quotes&quot;")
    );
    // The image is a path on this server: made absolute for previews.
    let image = meta(&html, "property", "og:image").unwrap();
    assert!(
        image.starts_with("http://") && image.ends_with("/demo/media/images/nasty.jpg"),
        "{image}"
    );
}

async fn feed_pages_inline_the_same_data_as_the_api(app: &TestApp) {
    seeded(app).await;
    let (_, html) = page(app, "/latest").await;
    let p = payload(&html);
    assert_eq!(p["query"]["path"], "/api/news/feed");
    assert_eq!(
        p["query"]["params"],
        serde_json::json!({"channel": "latest", "lang": "en", "country": "US"})
    );
    assert_eq!(p["data"]["list"].as_array().unwrap().len(), 20);
    assert_eq!(p["extra"][0]["query"]["path"], "/api/news/categories");
    assert_calls_match_the_api(app, &p).await;

    let (_, html) = page(app, "/es/top-news").await;
    let p = payload(&html);
    assert_eq!(p["query"]["params"]["channel"], "top");
    assert_eq!(p["query"]["params"]["lang"], "es");
    assert_eq!(p["extra"][0]["data"]["list"][1]["name"], "Política");
    assert_calls_match_the_api(app, &p).await;

    // Home: local (the reader's city from the app settings), top, categories.
    let (html, _) = home_with_cookie(app, &format!("cityId={PORTLAND_ME}; iso=US")).await;
    let p = payload(&html);
    assert_eq!(p["query"]["params"]["channel"], "local");
    assert_eq!(p["query"]["params"]["city_id"], PORTLAND_ME.to_string());
    assert_eq!(p["data"]["context"]["scope"], "nearby");
    let extra: Vec<&str> = p["extra"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["query"]["params"]["channel"].as_str().unwrap_or("categories"))
        .collect();
    // The latest list is not inlined: the app asks for it near it (D425).
    assert_eq!(extra, ["top", "categories"]);
    assert_calls_match_the_api(app, &p).await;

    let (_, html) = page(app, &format!("/local/washington-dc-{WASHINGTON}")).await;
    let p = payload(&html);
    assert_eq!(p["query"]["params"]["city_id"], WASHINGTON.to_string());
    assert_eq!(p["data"]["context"]["scope"], "city");
    assert_eq!(title(&html), "Local news: Washington, DC · Localwire");
    assert_calls_match_the_api(app, &p).await;

    let (_, html) = page(app, "/local").await;
    let p = payload(&html);
    assert_eq!(p["data"]["context"]["city"]["id"], WASHINGTON.0, "the default city");
}

async fn named_pages_carry_their_names_in_the_title(app: &TestApp) {
    let corpus = seeded(app).await;
    let (_, html) = page(app, &format!("/media/{}", corpus.media["lewiston"])).await;
    assert_eq!(title(&html), "Lewiston Lantern · Localwire");
    assert_eq!(
        meta(&html, "name", "description").as_deref(),
        Some("About Lewiston Lantern")
    );
    let p = payload(&html);
    assert_eq!(
        p["query"]["params"],
        serde_json::json!({"channel": "media", "media_id": corpus.media["lewiston"].to_string()})
    );
    assert_calls_match_the_api(app, &p).await;

    let (_, html) = page(app, "/es/category/politics").await;
    assert_eq!(title(&html), "Política · Localwire");
    assert_calls_match_the_api(app, &payload(&html)).await;

    let (_, html) = page(app, &format!("/location/{LEWISTON_ME}")).await;
    assert_eq!(title(&html), "Lewiston, ME · Localwire");
    let (_, html) = page(app, "/location/US-ME").await;
    assert_eq!(title(&html), "Maine · Localwire");
    let p = payload(&html);
    assert_eq!(
        p["query"]["params"],
        serde_json::json!({"channel": "location", "location": "US-ME"})
    );
    assert_calls_match_the_api(app, &p).await;

    let (_, html) = page(app, "/special/picked").await;
    assert_eq!(title(&html), "Editors&#39; picks · Localwire");
    assert_eq!(payload(&html)["data"]["context"]["special"]["slug"], "picked");

    // Unknown things keep the generic page (the screen shows its own missing state).
    for path in ["/media/abc", "/category/gossip", "/location/nowhere", "/special/none"] {
        let (status, html) = page(app, path).await;
        assert_eq!(status, 200, "{path}");
        assert!(payload(&html).get("query").is_none(), "{path}");
    }
}

async fn search_pages_inline_results_for_a_query(app: &TestApp) {
    let corpus = seeded(app).await;
    let (_, html) = page(app, "/search/news?q=montr%C3%A9al+metro").await;
    let p = payload(&html);
    assert_eq!(p["query"]["path"], "/api/search/news");
    // D426: a guest with no city yet is asked for as start-up will place them: in the
    // country's default city.
    assert_eq!(
        p["query"]["params"],
        serde_json::json!({"q": "montréal metro", "country": "US", "near_city_id": WASHINGTON.to_string()})
    );
    assert_eq!(p["data"]["terms"], serde_json::json!(["montreal", "metro"]));
    assert_calls_match_the_api(app, &p).await;
    let (_, html) = page(app, "/search/news?q=montreal&category=politics").await;
    let p = payload(&html);
    assert_eq!(p["query"]["params"]["category"], "politics");
    assert_calls_match_the_api(app, &p).await;
    // D426: a reader with a city asks for its stories first, as the app does
    // (features/news/hooks.ts useSearchNews).
    let (html, _) = page_with_cookie(app, "/search/news?q=words", &format!("cityId={LEWISTON_ME}; iso=US")).await;
    let p = payload(&html);
    assert_eq!(
        p["query"]["params"],
        serde_json::json!({"q": "words", "country": "US", "near_city_id": LEWISTON_ME.to_string()})
    );
    assert_eq!(p["data"]["list"][0]["news_id"], corpus.id("lew-6").0);
    assert_calls_match_the_api(app, &p).await;
    let (_, html) = page(app, "/search/news?q=montreal&time=day").await;
    assert!(payload(&html).get("query").is_none(), "the SPA's `since` is its own");
    let (_, html) = page(app, "/search/media?q=lantern").await;
    let p = payload(&html);
    assert_eq!(
        p["data"]["list"][0]["media_id"].as_i64(),
        Some(corpus.media["lewiston"].0)
    );
    assert_calls_match_the_api(app, &p).await;
    let (_, html) = page(app, "/search/news").await;
    assert!(payload(&html).get("query").is_none());
}

/// D143: a page's inline data is kept, but a stored item shows in the next page at once.
async fn kept_inline_data_gives_way_to_new_items_at_once(app: &TestApp) {
    let mut corpus = seeded(app).await;
    let first = payload(&page(app, "/latest").await.1);
    assert_eq!(payload(&page(app, "/latest").await.1), first, "the same data again");
    let newest = seed::item("breaking-1", "Breaking: bridge reopens", corpus.now_ms, None);
    seed::put(
        app.store.as_ref(),
        &mut corpus,
        "capitol",
        vec![newest],
        vec![store::content::ClusterChoice::New],
    )
    .await;
    let after = payload(&page(app, "/latest").await.1);
    assert_eq!(after["data"]["list"][0]["title"], "Breaking: bridge reopens");
}

async fn home_with_cookie(app: &TestApp, cookie: &str) -> (String, reqwest::header::HeaderMap) {
    page_with_cookie(app, "/", cookie).await
}

async fn page_with_cookie(app: &TestApp, path: &str, cookie: &str) -> (String, reqwest::header::HeaderMap) {
    // Redirects are not followed (support::start).
    let res = app
        .http
        .get(app.url(path))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    let headers = res.headers().clone();
    (res.text().await.unwrap(), headers)
}

/// D145: kept pages are shared only by readers the server would write the same page
/// for: the city and country settings and the locale cookie each give their own page.
async fn kept_pages_follow_each_readers_settings(app: &TestApp) {
    seeded(app).await;
    let city = |html: &str| payload(html)["data"]["context"]["city"]["id"].clone();
    let (washington, _) = home_with_cookie(app, &format!("cityId={WASHINGTON}")).await;
    let (portland, _) = home_with_cookie(app, &format!("cityId={PORTLAND_ME}")).await;
    assert_eq!(city(&washington), WASHINGTON.0);
    assert_eq!(city(&portland), PORTLAND_ME.0);
    let (again, _) = home_with_cookie(app, &format!("cityId={WASHINGTON}")).await;
    assert_eq!(payload(&again), payload(&washington), "the kept page, same reader");

    // A stored locale still sends the reader to its own locale's page (§2.21).
    let (_, french) = home_with_cookie(app, "lw_locale=fr_CA").await;
    assert_eq!(french["location"], "/fr/?c=fr_CA");
    let (canada, _) = home_with_cookie(app, "iso=CA").await;
    assert_eq!(payload(&canada)["extra"][0]["query"]["params"]["country"], "CA");

    // A c code sets the locale cookie on the kept page too.
    for _ in 0..2 {
        let res = app.get("/es/?c=es_US").await;
        assert_eq!(res.status(), 200);
        let cookie = res.headers().get("set-cookie").expect("the locale cookie");
        assert!(cookie.to_str().unwrap().starts_with("lw_locale=es_US;"));
    }
}

/// D145: a kept page is sent compressed, and decodes to the page itself.
async fn kept_pages_are_sent_compressed(app: &TestApp) {
    seeded(app).await;
    let plain = app.get("/latest").await.text().await.unwrap();
    // The test client would otherwise undo the encoding itself.
    let http = reqwest::Client::builder().no_gzip().no_brotli().build().unwrap();
    for _ in 0..2 {
        let res = http
            .get(app.url("/latest"))
            .header("accept-encoding", "gzip")
            .send()
            .await
            .unwrap();
        assert_eq!(res.headers()["content-encoding"], "gzip");
        assert!(
            res.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .contains("script-src")
        );
        let bytes = res.bytes().await.unwrap();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).unwrap();
        assert_eq!(text, plain);
    }
}

fn preloaded_image(html: &str) -> Option<String> {
    let tag = r#"<link rel="preload" as="image" fetchpriority="high" href=""#;
    let start = html.find(tag)? + tag.len();
    Some(html[start..start + html[start..].find('"')?].to_string())
}

/// D147: the largest image of the first screen is preloaded from the head, and a first
/// visit's home names the city the guest will be given in its inlined call (so the SPA's
/// query once it knows the guest is the inlined one).
async fn pages_preload_their_lead_image_and_name_the_readers_city(app: &TestApp) {
    let corpus = seeded(app).await;
    let (_, html) = page(app, &format!("/article/{}", corpus.id("dc-nasty"))).await;
    assert_eq!(preloaded_image(&html).as_deref(), Some("/demo/media/images/nasty.jpg"));

    let (_, html) = page(app, "/").await;
    let p = payload(&html);
    assert_eq!(
        p["query"]["params"]["city_id"],
        WASHINGTON.to_string(),
        "the default city of the US, where init places the guest"
    );
    let first = &p["data"]["list"][0];
    let thumbnail = ["thumbnail_url", "org_img_url", "img_url"]
        .iter()
        .filter_map(|k| first[*k].as_str())
        .find(|u| !u.is_empty());
    assert_eq!(
        preloaded_image(&html).as_deref(),
        thumbnail,
        "the lead card's thumbnail (§3)"
    );

    // A page without a lead image preloads none; a 404 neither.
    assert_eq!(preloaded_image(&page(app, "/search").await.1), None);
    assert_eq!(preloaded_image(&page(app, "/no-such-page").await.1), None);
}

/// What the page holds in `#root`: the server's first screen (D156), or nothing.
fn root(html: &str) -> Option<&str> {
    let open = r#"<div id="root">"#;
    let start = html.find(open)? + open.len();
    let end = start + html[start..].find(r#"<script type="application/json" id="lw-payload">"#)?;
    let inside = html[start..end].trim_end();
    Some(inside.strip_suffix("</div>").unwrap_or(inside))
}

/// D156: the reading screens arrive written, inside the layout, from the same data the
/// payload carries; the app's scripts are named for the boot script, not preloaded.
async fn reading_pages_arrive_with_their_first_screen_written(app: &TestApp) {
    let corpus = seeded(app).await;
    let (_, html) = page(app, "/").await;
    let Some(home) = root(&html) else {
        // `cargo test` without `npm run build`: the fallback shell has no app to start.
        assert!(html.contains("The web app is not built into this binary"));
        return;
    };
    assert!(!html.contains("modulepreload"), "scripts load after the first paint");
    assert!(html.contains(r#"<meta name="lw-load" content="/assets/index-"#));
    assert!(
        home.starts_with(r#"<div class="layout"><a class="skip-link""#),
        "{home:.300}"
    );
    let lead = &payload(&html)["data"]["list"][0];
    let lead_title = lead["title"].as_str().unwrap();
    let lead_href = format!(r#"href="/article/{}""#, lead["news_id"]);
    assert!(home.contains(r#"<article class="news-card news-card--lead"#));
    assert!(home.contains(&lead_href), "the lead card links to its story");
    assert!(home.contains(&lead_title.replace('&', "&amp;").replace('"', "&quot;")));
    assert!(
        home.contains("<span>Washington, DC</span>"),
        "the guest's city in the header"
    );

    // A reader's city setting names the header's city.
    let cookie = format!("city=Portland; adminCode=ME; cityId={PORTLAND_ME}");
    let res = app
        .http
        .get(app.url("/latest"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    let latest = res.text().await.unwrap();
    assert!(root(&latest).unwrap().contains("<span>Portland, ME</span>"));

    // The article's content is in the page, cleaned again: nothing stored runs.
    let (_, html) = page(app, &format!("/article/{}", corpus.id("dc-nasty"))).await;
    let article = root(&html).unwrap();
    assert!(article.contains(r#"<h1 id="article-title" class="article__title">Council &lt;/script&gt;"#));
    assert!(article.contains(r#"<div class="article__body"><p>Council "#));
    assert!(!article.contains("<script"), "{article}");

    // Search results with the terms marked.
    let (_, html) = page(app, "/search/news?q=fire").await;
    let results = root(&html).unwrap();
    assert!(results.contains(r#"<form role="search" class="search-form">"#));
    assert!(results.contains("<mark>"), "{results:.2000}");

    // A category under its name; the reader's local news with its lead card.
    let (_, html) = page(app, "/category/politics").await;
    assert!(
        root(&html)
            .unwrap()
            .contains(r#"<h1 class="screen__title">Politics</h1>"#)
    );
    let (_, html) = page(app, "/local").await;
    assert!(
        root(&html)
            .unwrap()
            .contains(r#"<article class="news-card news-card--lead"#)
    );

    // Screens the server does not write start empty, and the app renders them at once.
    for path in ["/weather", "/no-such-page", "/search"] {
        let (_, html) = page(app, path).await;
        assert_eq!(root(&html), Some(""), "{path}");
    }
}

engine_tests!(
    reading_pages_arrive_with_their_first_screen_written,
    pages_preload_their_lead_image_and_name_the_readers_city,
    kept_pages_follow_each_readers_settings,
    kept_pages_are_sent_compressed,
    kept_inline_data_gives_way_to_new_items_at_once,
    article_page_has_story_meta_open_graph_json_ld_and_payload,
    share_page_previews_the_story_and_points_at_the_article,
    missing_article_is_a_real_404,
    json_ld_cannot_be_closed_by_a_title,
    feed_pages_inline_the_same_data_as_the_api,
    named_pages_carry_their_names_in_the_title,
    search_pages_inline_results_for_a_query,
);

/// With a public URL configured, preview images on this server use it.
#[tokio::test]
async fn open_graph_images_use_the_public_url() {
    let config = ApiConfig {
        public_url: Some("https://news.example/".into()),
        ..support::config()
    };
    let app = support::start(support::sqlite_store().await.unwrap(), config).await;
    let corpus = seeded(&app).await;
    let (_, html) = page(&app, &format!("/article/{}", corpus.id("dc-nasty"))).await;
    assert_eq!(
        meta(&html, "property", "og:image").as_deref(),
        Some("https://news.example/demo/media/images/nasty.jpg")
    );
    assert_eq!(
        json_ld(&html)["image"][0],
        "https://news.example/demo/media/images/nasty.jpg"
    );
    assert_eq!(
        json_ld(&html)["mainEntityOfPage"],
        format!("https://news.example/article/{}", corpus.id("dc-nasty"))
    );
}

/// The address an absolute `…/proxy/{mac}/{address}` stands for (D380).
fn proxied_original(url: &str) -> String {
    use base64::Engine;
    let (_, rest) = url
        .split_once("/proxy/")
        .unwrap_or_else(|| panic!("not proxied: {url}"));
    let encoded = rest.rsplit('/').next().unwrap();
    String::from_utf8(
        base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(encoded)
            .unwrap(),
    )
    .unwrap()
}
