//! The operator's calls (issue 21) through the real router, on SQLite and PostgreSQL:
//! operators only (a guest or another account gets 403), the usage of a range, the NDJSON
//! export, and ranges a person can fix (D335); the feeds: list, add, pause, remove and OPML
//! import (D336), against a loopback feed server.

mod support;

use domain::user::AccountType;
use serde_json::{Value, json};
use store::{ProviderIdentity, SignIn, UserId};
use support::TestApp;

const OPERATOR: &str = "Op@Example.org";

fn today() -> String {
    api::operator::format_day(support::now_ms() / 86_400_000)
}

/// A guest turned into an account with `email`: its token.
async fn account(app: &TestApp, device: &str, email: &str) -> String {
    let (user, token) = app.guest(device).await;
    app.store
        .sign_in(&SignIn {
            from_user: UserId(user["id"].as_i64().unwrap()),
            identity: ProviderIdentity {
                provider: AccountType::Google,
                subject: format!("sub-{device}"),
                email: email.into(),
                name: "Operator".into(),
                photo: String::new(),
            },
            link: false,
            now_ms: support::now_ms(),
        })
        .await
        .unwrap();
    token
}

async fn seed_reports(app: &TestApp) {
    let body = json!({"app_id": 20310, "timestamp": support::now_ms(), "nonce_str": "0123456789abcdef", "source": 4,
        "data": [{"event": "pageView", "page_path": "/article/7", "page_title": "Flood", "news_id": "7"},
                 {"event": "coreBehavior", "behavior_id": "NewsDetail_Show", "is_base": 1},
                 {"event": "search", "keyword": "Flood"}],
        "property": {"os": 5, "device_id": "dev-x", "app_lang": "es", "country": "US", "channel": "tiktok_int"}});
    let res = app
        .http
        .post(app.url("/api/report"))
        .header("user-agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}

async fn d335_only_operators_see_usage(app: &TestApp) {
    let range = json!({"from": today(), "to": today()});
    let (_, guest) = app.guest("dev-guest").await;
    let (status, body) = app.call("dev-guest", "/admin/usage", Some(&guest), range.clone()).await;
    assert_eq!(
        (status, body["code"].as_i64(), body["message"].as_str()),
        (403, Some(403), Some("Forbidden"))
    );
    let reader = account(app, "dev-reader", "reader@example.org").await;
    let (status, _) = app
        .call("dev-reader", "/admin/usage", Some(&reader), range.clone())
        .await;
    assert_eq!(status, 403, "an account not in --admin-emails");
    let (status, _) = app.call("dev-anon", "/admin/usage", None, range).await;
    assert_eq!(status, 401);
}

async fn d337_the_account_page_knows_an_operator(app: &TestApp) {
    let reader = account(app, "dev-reader", "reader@example.org").await;
    let (status, body) = app.call("dev-reader", "/user/account", Some(&reader), json!({})).await;
    assert_eq!(
        (status, body["data"]["operator"].as_bool()),
        (200, Some(false)),
        "{body}"
    );
    // Listed in any case: --admin-emails compares in lower case.
    let op = account(app, "dev-op", OPERATOR).await;
    let (status, body) = app.call("dev-op", "/user/account", Some(&op), json!({})).await;
    assert_eq!(
        (status, body["data"]["operator"].as_bool()),
        (200, Some(true)),
        "{body}"
    );
}

async fn d335_usage_of_a_range_and_its_export(app: &TestApp) {
    seed_reports(app).await;
    let op = account(app, "dev-op", OPERATOR).await;
    let (status, body) = app
        .call(
            "dev-op",
            "/admin/usage",
            Some(&op),
            json!({"from": today(), "to": today()}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(
        data["days"],
        json!([{"date": today(), "readers": 1, "page_views": 1, "events": 3}])
    );
    assert_eq!(
        data["core_functions"][0],
        json!({"key": "NewsDetail_Show", "label": "", "count": 1})
    );
    assert_eq!(
        data["top_stories"][0],
        json!({"key": "7", "label": "Flood", "count": 1})
    );
    assert_eq!(data["search_terms"][0]["key"], "flood");
    assert_eq!(data["channels"][0]["key"], "tiktok_int");
    assert_eq!(data["languages"][0]["key"], "es");

    let (status, body) = app
        .call(
            "dev-op",
            "/admin/usage",
            Some(&op),
            json!({"from": "2026-13-01", "to": today()}),
        )
        .await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("YYYY-MM-DD"));

    let path = "/admin/usage/export";
    let s = support::signing(&support::base_for("dev-op", "en", "US"), path);
    let res = app
        .http
        .post(app.url(&format!("/api{path}")))
        .header("content-type", "application/json")
        .header("base", &s.base)
        .header("timestamp", &s.timestamp)
        .header("nonce", &s.nonce)
        .header("sign", &s.sign)
        .header("token", &op)
        .body(json!({"from": today(), "to": today()}).to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/x-ndjson");
    let text = res.text().await.unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["event"], "pageView");
    assert_eq!(lines[0]["fields"]["page_title"], "Flood");
    assert_eq!(lines[0]["property"]["os"], 5);
}

const RSS: &str = r#"<?xml version="1.0"?><rss version="2.0"><channel><title>The Capital Ledger</title>
<link>https://ledger.example/</link><item><title>Council votes</title><link>https://ledger.example/1</link>
<guid>1</guid><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate></item></channel></rss>"#;

/// A loopback web server with one feed at /feed.xml and nothing else.
async fn feed_server() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = axum::Router::new().route(
        "/feed.xml",
        axum::routing::get(|| async { ([("content-type", "application/rss+xml")], RSS) }),
    );
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

async fn d336_feeds_are_listed_paused_resumed_and_removed_by_operators_only(app: &TestApp) {
    let (_, guest) = app.guest("dev-guest").await;
    for (path, body) in [
        ("/admin/feeds", json!({})),
        ("/admin/feeds/pause", json!({"feed_id": 1, "paused": true})),
        ("/admin/feeds/remove", json!({"feed_id": 1})),
        ("/admin/feeds/add", json!({"url": "https://ledger.example/feed.xml"})),
        ("/admin/feeds/importOpml", json!({"opml": "<opml/>"})),
    ] {
        let (status, _) = app.call("dev-guest", path, Some(&guest), body).await;
        assert_eq!(status, 403, "{path} is for operators");
    }
    let publisher = ingest::publishers::to_store(&ingest::publishers::PublisherInput {
        feed_url: "https://ledger.example/feed.xml".into(),
        name: "The Ledger".into(),
        location: ingest::publishers::Location {
            country: "US".into(),
            state: "DC".into(),
            city: "Washington".into(),
        },
        ..Default::default()
    })
    .unwrap();
    app.store
        .import_publishers(&[publisher], support::now_ms())
        .await
        .unwrap();
    let op = account(app, "dev-op", OPERATOR).await;
    let (status, body) = app.call("dev-op", "/admin/feeds", Some(&op), json!({})).await;
    assert_eq!(status, 200, "{body}");
    let row = &body["data"]["list"][0];
    assert_eq!(
        (
            row["publisher"].as_str(),
            row["url"].as_str(),
            row["lang"].as_str(),
            row["paused"].as_bool()
        ),
        (
            Some("The Ledger"),
            Some("https://ledger.example/feed.xml"),
            Some("en"),
            Some(false)
        )
    );
    assert_eq!(
        (row["last_fetch"].clone(), row["items"].as_i64()),
        (Value::Null, Some(0)),
        "never fetched yet"
    );
    let id = row["feed_id"].as_i64().unwrap();

    let (status, body) = app
        .call(
            "dev-op",
            "/admin/feeds/pause",
            Some(&op),
            json!({"feed_id": id, "paused": true}),
        )
        .await;
    assert_eq!(
        (status, body["data"]["feed"]["paused"].as_bool()),
        (200, Some(true)),
        "{body}"
    );
    let (_, body) = app.call("dev-op", "/admin/feeds", Some(&op), json!({})).await;
    assert_eq!(body["data"]["list"][0]["paused"], true, "kept paused");
    let (status, body) = app
        .call(
            "dev-op",
            "/admin/feeds/pause",
            Some(&op),
            json!({"feed_id": id, "paused": false}),
        )
        .await;
    assert_eq!(body["data"]["feed"]["paused"], false, "{status} {body}");
    assert!(
        body["data"]["feed"]["next_due"].as_i64().unwrap() <= support::now_ms(),
        "a resumed feed is due at once"
    );
    let (status, body) = app
        .call(
            "dev-op",
            "/admin/feeds/pause",
            Some(&op),
            json!({"feed_id": 99_999, "paused": true}),
        )
        .await;
    assert_eq!((status, body["code"].as_i64()), (404, Some(404)));
    let (status, body) = app
        .call("dev-op", "/admin/feeds/pause", Some(&op), json!({"feed_id": "one"}))
        .await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("feed_id"), "{body}");

    let (status, body) = app
        .call("dev-op", "/admin/feeds/remove", Some(&op), json!({"feed_id": id}))
        .await;
    assert_eq!((status, body["data"]["removed"].as_bool()), (200, Some(true)));
    let (status, _) = app
        .call("dev-op", "/admin/feeds/remove", Some(&op), json!({"feed_id": id}))
        .await;
    assert_eq!(status, 404, "removed once");
    let (_, body) = app.call("dev-op", "/admin/feeds", Some(&op), json!({})).await;
    assert_eq!(body["data"]["list"], json!([]));
}

async fn d336_a_feed_is_added_once_it_has_been_read(app: &TestApp) {
    let origin = feed_server().await;
    let op = account(app, "dev-op", OPERATOR).await;
    let add = |body: Value| async { app.call("dev-op", "/admin/feeds/add", Some(&op), body).await };
    let url = format!("{origin}/feed.xml");
    let (status, body) =
        add(json!({"url": url, "country": "US", "state": "DC", "city": "Washington", "lang": "en"})).await;
    assert_eq!(status, 200, "{body}");
    let feed = &body["data"]["feed"];
    assert_eq!(
        (
            feed["publisher"].as_str(),
            feed["url"].as_str(),
            feed["paused"].as_bool()
        ),
        (Some("The Capital Ledger"), Some(url.as_str()), Some(false)),
        "no name given: the feed's own title"
    );
    let (status, body) = add(json!({"url": url})).await;
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().contains("already registered"),
        "{body}"
    );

    let message = |body: &Value| body["message"].as_str().unwrap_or_default().to_string();
    let (status, body) = add(json!({"url": "file:///etc/passwd"})).await;
    assert_eq!(status, 400);
    assert!(
        message(&body).starts_with("Field `url`: the http or https address"),
        "{body}"
    );
    let (status, body) = add(json!({"url": "not a url"})).await;
    assert_eq!((status, message(&body).contains("Field `url`")), (400, true));
    let (status, body) = add(json!({"url": format!("{origin}/missing.xml")})).await;
    assert_eq!(status, 400);
    assert!(message(&body).starts_with("The feed could not be read"), "{body}");
    let (status, body) = add(json!({"url": "http://127.0.0.1:1/feed.xml", "city": "Qqxville"})).await;
    assert_eq!(status, 400);
    assert!(
        message(&body).contains("\"Qqxville\" not found in US"),
        "details are checked before the feed is read (this address answers nothing): {body}"
    );
    let (status, body) = add(json!({"url": format!("{origin}/feed.xml?c"), "name": "Le Devoir", "lang": "de"})).await;
    assert_eq!(status, 400);
    assert!(message(&body).contains("unsupported language"), "{body}");
    let (_, body) = app.call("dev-op", "/admin/feeds", Some(&op), json!({})).await;
    assert_eq!(
        body["data"]["list"].as_array().unwrap().len(),
        1,
        "nothing bad was kept"
    );
}

async fn d336_opml_import_reports_what_it_added_and_skipped(app: &TestApp) {
    let op = account(app, "dev-op", OPERATOR).await;
    let op = op.as_str();
    let import = |opml: String| async move {
        let s = support::signing(&support::base_for("dev-op", "en", "US"), "/admin/feeds/importOpml");
        app.call_with(
            &s,
            "/admin/feeds/importOpml",
            Some(op),
            json!({"opml": opml}).to_string(),
        )
        .await
    };
    let opml = &format!(
        r#"<?xml version="1.0"?><opml version="2.0" xmlns:localwire="{NS}"><head><title>DC</title></head><body>
<outline text="The Ledger" xmlUrl="https://ledger.example/feed.xml" localwire:country="US" localwire:state="DC" localwire:city="Washington"/>
<outline text="Ottawa Star" xmlUrl="https://star.example/rss" localwire:country="CA" localwire:state="ON" localwire:city="Ottawa" localwire:lang="en"/>
<outline text="Local file" xmlUrl="file:///srv/feed.xml"/>
<outline text="No address"/>
</body></opml>"#,
        NS = ingest::opml::NAMESPACE
    );
    let (status, body) = import(opml.clone()).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(
        (data["media_added"].as_i64(), data["feeds_added"].as_i64()),
        (Some(2), Some(2))
    );
    let skipped = data["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2, "{skipped:?}");
    assert!(
        skipped
            .iter()
            .any(|s| s["url"] == "file:///srv/feed.xml" && s["why"].as_str().unwrap().contains("only http and https"))
    );
    assert!(
        skipped
            .iter()
            .any(|s| s["url"].as_str().unwrap().contains("No address"))
    );

    let (_, again) = import(opml.clone()).await;
    assert_eq!(again["data"]["feeds_added"], 0);
    assert!(
        again["data"]["skipped"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["why"] == "the feed is already registered")
    );

    let (status, body) = import("<html>not opml</html>".into()).await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("The file is not an OPML list we can read"),
        "{body}"
    );
    let bad_city = format!(
        r#"<opml version="2.0" xmlns:lw="{}"><body><outline text="Nowhere News" xmlUrl="https://nowhere.example/rss" lw:city="Qqxville"/></body></opml>"#,
        ingest::opml::NAMESPACE
    );
    let (status, body) = import(bad_city).await;
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().starts_with("nothing was imported"),
        "{body}"
    );
    // The server answers 413 as soon as it reads the declared length and closes the
    // connection, so a client still writing a 1 MB body may never read that answer: the
    // request declares its length over a raw socket and sends no body.
    let s = support::signing(&support::base_for("dev-op", "en", "US"), "/admin/feeds/importOpml");
    let head = format!(
        "POST /api/admin/feeds/importOpml HTTP/1.1\r\nhost: localwire\r\ncontent-type: application/json\r\n\
         base: {}\r\ntimestamp: {}\r\nnonce: {}\r\nsign: {}\r\ntoken: {op}\r\ncontent-length: {}\r\n\r\n",
        s.base,
        s.timestamp,
        s.nonce,
        s.sign,
        api::operator::feeds::MAX_OPML_BYTES + 1
    );
    let answer = app.raw(head.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "larger than 1 MB: {answer}");
    let (_, body) = app.call("dev-op", "/admin/feeds", Some(op), json!({})).await;
    assert_eq!(body["data"]["list"].as_array().unwrap().len(), 2);
}

async fn d364_admin_add_and_import_drop_home_and_icon_addresses_that_are_not_http(app: &TestApp) {
    let origin = feed_server().await;
    let op = account(app, "dev-op", OPERATOR).await;
    let (status, body) = app
        .call(
            "dev-op",
            "/admin/feeds/add",
            Some(&op),
            json!({"url": format!("{origin}/feed.xml"), "home_url": "javascript:alert(document.cookie)"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let opml = format!(
        r#"<opml version="2.0" xmlns:localwire="{NS}"><body>
<outline text="Data Icon" xmlUrl="https://data.example/rss" htmlUrl="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;" localwire:icon="javascript:alert(1)"/>
</body></opml>"#,
        NS = ingest::opml::NAMESPACE
    );
    let s = support::signing(&support::base_for("dev-op", "en", "US"), "/admin/feeds/importOpml");
    let (status, body) = app
        .call_with(
            &s,
            "/admin/feeds/importOpml",
            Some(&op),
            json!({"opml": opml}).to_string(),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let kept: Vec<(String, String, String)> = app
        .store
        .export_publishers()
        .await
        .unwrap()
        .into_iter()
        .map(|(m, _)| (m.name, m.home_url, m.icon_url))
        .collect();
    assert_eq!(kept.len(), 2, "{kept:?}");
    for (name, home, icon) in kept {
        assert_eq!((home.as_str(), icon.as_str()), ("", ""), "{name}");
    }
}

mod sqlite {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d364_admin_add_and_import_drop_home_and_icon_addresses_that_are_not_http() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d364_admin_add_and_import_drop_home_and_icon_addresses_that_are_not_http(&app).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d337_the_account_page_knows_an_operator() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d337_the_account_page_knows_an_operator(&app).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d335_only_operators_see_usage() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d335_only_operators_see_usage(&app).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d335_usage_of_a_range_and_its_export() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d335_usage_of_a_range_and_its_export(&app).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d336_feeds_are_listed_paused_resumed_and_removed_by_operators_only() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d336_feeds_are_listed_paused_resumed_and_removed_by_operators_only(&app).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d336_a_feed_is_added_once_it_has_been_read() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d336_a_feed_is_added_once_it_has_been_read(&app).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d336_opml_import_reports_what_it_added_and_skipped() {
        let app = super::start(crate::support::sqlite_store().await.unwrap()).await;
        super::d336_opml_import_reports_what_it_added_and_skipped(&app).await;
    }
}

mod postgres {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d364_admin_add_and_import_drop_home_and_icon_addresses_that_are_not_http() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d364_admin_add_and_import_drop_home_and_icon_addresses_that_are_not_http(&super::start(store).await)
            .await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d337_the_account_page_knows_an_operator() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d337_the_account_page_knows_an_operator(&super::start(store).await).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d335_only_operators_see_usage() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d335_only_operators_see_usage(&super::start(store).await).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d335_usage_of_a_range_and_its_export() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d335_usage_of_a_range_and_its_export(&super::start(store).await).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d336_feeds_are_listed_paused_resumed_and_removed_by_operators_only() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d336_feeds_are_listed_paused_resumed_and_removed_by_operators_only(&super::start(store).await).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d336_a_feed_is_added_once_it_has_been_read() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d336_a_feed_is_added_once_it_has_been_read(&super::start(store).await).await;
    }
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn d336_opml_import_reports_what_it_added_and_skipped() {
        let Some(store) = crate::support::postgres_store().await else {
            return;
        };
        super::d336_opml_import_reports_what_it_added_and_skipped(&super::start(store).await).await;
    }
}

async fn start(store: std::sync::Arc<dyn store::Store>) -> TestApp {
    let mut config = support::config();
    config.admin_emails = vec![OPERATOR.to_ascii_lowercase()];
    config.feed_fetch.allow_private = true; // the loopback feed server
    support::start(store, config).await
}
