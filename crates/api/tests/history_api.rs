//! `GET /api/history` through the real router against a loopback server answering in
//! Wikipedia's on-this-day format (fixtures: data/demo/onthisday/, origin in its README).

mod support;

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use providers::history::source::HistoryConfig;
use serde_json::Value;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::TestApp;

const OK: u8 = 0;
const HANG: u8 = 1;
const BROKEN: u8 = 2;

#[derive(Default)]
struct Upstream {
    mode: AtomicU8,
    calls: AtomicUsize,
    /// (path, User-Agent) of every call.
    seen: Mutex<Vec<(String, String)>>,
}

async fn feed(
    State(up): State<Arc<Upstream>>,
    Path((lang, mm, dd)): Path<(String, String, String)>,
    headers: HeaderMap,
) -> axum::response::Response {
    up.calls.fetch_add(1, Ordering::SeqCst);
    let ua = headers
        .get("user-agent")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    up.seen
        .lock()
        .unwrap()
        .push((format!("/{lang}/feed/onthisday/all/{mm}/{dd}"), ua));
    match up.mode.load(Ordering::SeqCst) {
        HANG => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            StatusCode::GATEWAY_TIMEOUT.into_response()
        }
        BROKEN => (StatusCode::INTERNAL_SERVER_ERROR, "upstream broke").into_response(),
        _ => {
            let body: &'static str = match lang.as_str() {
                "es" => include_str!("../../../data/demo/onthisday/onthisday-es-07-01.json"),
                "fr" => include_str!("../../../data/demo/onthisday/onthisday-fr-07-01.json"),
                _ => include_str!("../../../data/demo/onthisday/onthisday-en-07-01.json"),
            };
            ([("content-type", "application/json; charset=utf-8")], body).into_response()
        }
    }
}

async fn upstream(mode: u8) -> (Arc<Upstream>, String) {
    let up = Arc::new(Upstream::default());
    up.mode.store(mode, Ordering::SeqCst);
    let app = axum::Router::new()
        .route("/{lang}/feed/onthisday/all/{mm}/{dd}", axum::routing::get(feed))
        .with_state(up.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (up, format!("http://{addr}/{{lang}}/feed/onthisday"))
}

async fn app_with(history: HistoryConfig) -> TestApp {
    let mut config = support::config();
    config.history = history;
    support::start(support::sqlite_store().await.unwrap(), config).await
}

async fn app_for(base_url: String) -> TestApp {
    app_with(HistoryConfig {
        base_url,
        ..HistoryConfig::default()
    })
    .await
}

async fn get(app: &TestApp, path: &str) -> (u16, Value) {
    let res = app.get(path).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

const TORONTO: i64 = 6167865;

fn section<'a>(body: &'a Value, kind: &str) -> &'a Value {
    body["data"]["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == kind)
        .unwrap()
}

#[tokio::test]
async fn the_day_comes_from_the_feed_with_links_images_and_attribution() {
    let (_up, url) = upstream(OK).await;
    let app = app_for(url).await;
    let (status, body) = get(&app, &format!("/api/history?lang=en&city_id={TORONTO}")).await;
    assert_eq!(status, 200, "{body}");
    let d = &body["data"];
    assert_eq!(d["lang"], "en");
    assert_eq!(d["demo"], false);
    assert_eq!(d["place"]["city"], "Toronto");
    let kinds: Vec<&str> = d["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["selected", "events", "births", "deaths", "holidays"]);
    let first = &section(&body, "selected")["entries"][0];
    assert_eq!(first["year"], 1867);
    assert_eq!(
        first["pages"][0]["url"],
        "https://en.wikipedia.org/wiki/Canadian_Confederation"
    );
    assert!(
        first["pages"][0]["image"]["src"]
            .as_str()
            .unwrap()
            .starts_with("/proxy/"),
        "D382: Wikimedia's pictures through this server's image proxy"
    );
    assert_eq!(d["attribution"]["license"], "CC BY-SA 4.0");
    assert!(
        d["attribution"]["source_url"]
            .as_str()
            .unwrap()
            .starts_with("https://en.wikipedia.org/wiki/")
    );
    // The date is the reader's, in Toronto's time zone.
    let date = geo::zone::local_date(support::now_ms(), "America/Toronto");
    assert_eq!(d["date"], date.to_string());
}

#[tokio::test]
async fn entries_about_the_readers_city_come_first_and_are_marked_local() {
    let (_up, url) = upstream(OK).await;
    let app = app_for(url).await;
    let (_, body) = get(&app, &format!("/api/history?lang=en&city_id={TORONTO}")).await;
    let events = section(&body, "events");
    assert_eq!(events["local_count"], 1);
    assert_eq!(events["entries"][0]["local"], true);
    assert!(events["entries"][0]["text"].as_str().unwrap().contains("Toronto"));
    assert_eq!(events["entries"][1]["local"], false);
    // Same feed, a reader in Los Angeles: Brando's death (in Los Angeles) leads the deaths,
    // and nothing in events is theirs.
    let la = geo::all().iter().find(|c| c.name == "Los Angeles").unwrap().id.0;
    let (_, body) = get(&app, &format!("/api/history?lang=en&city_id={la}")).await;
    assert_eq!(section(&body, "events")["local_count"], 0);
    assert_eq!(section(&body, "deaths")["entries"][0]["local"], true);
}

#[tokio::test]
async fn one_upstream_call_per_language_and_day_however_many_readers_ask() {
    let (up, url) = upstream(OK).await;
    let app = Arc::new(app_for(url).await);
    let mut readers = Vec::new();
    for i in 0..60 {
        let app = app.clone();
        let lang = ["en", "es", "fr"][i % 3];
        readers.push(tokio::spawn(async move {
            get(&app, &format!("/api/history?lang={lang}&city_id={TORONTO}"))
                .await
                .0
        }));
    }
    for r in readers {
        assert_eq!(r.await.unwrap(), 200);
    }
    assert_eq!(up.calls.load(Ordering::SeqCst), 3);
    let seen = up.seen.lock().unwrap().clone();
    let mut langs: Vec<&str> = seen.iter().map(|(p, _)| &p[1..3]).collect();
    langs.sort();
    assert_eq!(langs, ["en", "es", "fr"]);
    // Wikimedia's policy: a descriptive User-Agent with a name, version and contact.
    for (_, ua) in &seen {
        assert!(
            ua.starts_with(&format!("Localwire/{} (+", env!("CARGO_PKG_VERSION"))),
            "{ua}"
        );
        assert!(ua.contains("http"), "{ua}");
    }
}

#[tokio::test]
async fn a_hanging_upstream_is_unavailable_within_a_second_and_asked_only_once() {
    let (up, url) = upstream(HANG).await;
    let app = app_for(url).await;
    for _ in 0..3 {
        let started = Instant::now();
        let (status, body) = get(&app, "/api/history?lang=en").await;
        assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
        assert_eq!(status, 503, "{body}");
        assert_eq!(body["code"], 503);
        assert!(body["message"].as_str().unwrap().contains("unavailable"), "{body}");
    }
    assert_eq!(up.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_broken_upstream_is_unavailable_at_once_and_not_hammered() {
    let (up, url) = upstream(BROKEN).await;
    let app = app_for(url).await;
    for _ in 0..3 {
        let started = Instant::now();
        let (status, _) = get(&app, "/api/history?lang=fr").await;
        assert!(started.elapsed() < Duration::from_secs(1));
        assert_eq!(status, 503);
    }
    assert_eq!(up.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_kept_day_is_still_served_when_the_upstream_then_hangs() {
    let (up, url) = upstream(OK).await;
    let app = app_for(url).await;
    assert_eq!(get(&app, "/api/history?lang=es").await.0, 200);
    up.mode.store(HANG, Ordering::SeqCst);
    let started = Instant::now();
    let (status, body) = get(&app, &format!("/api/history?lang=es&city_id={TORONTO}")).await;
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(status, 200);
    assert_eq!(body["data"]["lang"], "es");
    assert_eq!(up.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn nothing_listening_is_unavailable_within_a_second() {
    // A port that was just free: the connection is refused.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let app = app_for(format!("http://{addr}/{{lang}}")).await;
    let started = Instant::now();
    assert_eq!(get(&app, "/api/history").await.0, 503);
    assert!(started.elapsed() < Duration::from_secs(1));
}

#[tokio::test]
async fn demo_days_are_labelled_and_need_no_network() {
    let app = app_with(HistoryConfig {
        base_url: "http://127.0.0.1:9/{lang}".into(),
        demo: true,
        ..HistoryConfig::default()
    })
    .await;
    for lang in ["en", "es", "fr"] {
        let (status, body) = get(&app, &format!("/api/history?lang={lang}")).await;
        assert_eq!(status, 200);
        assert_eq!(body["data"]["demo"], true);
        assert!(!section(&body, "selected")["entries"].as_array().unwrap().is_empty());
    }
}

#[tokio::test]
async fn the_answer_is_cacheable_and_revalidates() {
    let (_up, url) = upstream(OK).await;
    let app = app_for(url).await;
    let res = app.get("/api/history?lang=en").await;
    assert_eq!(res.headers()["cache-control"], "public, max-age=300");
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .http
        .get(app.url("/api/history?lang=en"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
}

#[tokio::test]
async fn bad_parameters_are_named() {
    let (_up, url) = upstream(OK).await;
    let app = app_for(url).await;
    let (status, body) = get(&app, "/api/history?lang=de").await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Parameter `lang`"));
    let (status, body) = get(&app, "/api/history?city_id=abc").await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Parameter `city_id`"));
    assert_eq!(get(&app, "/api/history?city_id=1").await.0, 404);
}
