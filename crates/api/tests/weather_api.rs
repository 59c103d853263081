//! `GET /api/weather` against a loopback Open-Meteo (issue 20; D280–D282). The stand-in
//! answers `crates/providers/tests/fixtures/open-meteo-forecast.json` (Open-Meteo's documented format; its
//! origin is in `crates/providers/tests/fixtures/README.md`), or hangs, or fails, as a test asks. Nothing
//! is stored, so these run on SQLite only.

mod support;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use providers::weather::WeatherConfig;
use providers::weather::kept::Timing;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use support::TestApp;

const FIXTURE: &str = include_str!("../../providers/tests/fixtures/open-meteo-forecast.json");
/// Washington, DC.
const WASHINGTON: i64 = 4140963;

const ANSWER: u8 = 0;
const HANG: u8 = 1;
const FAIL: u8 = 2;
const GARBAGE: u8 = 3;

#[derive(Default)]
struct Upstream {
    calls: AtomicUsize,
    mode: AtomicU8,
    last_query: std::sync::Mutex<String>,
}

async fn forecast(State(up): State<Arc<Upstream>>, RawQuery(q): RawQuery) -> Response {
    up.calls.fetch_add(1, Ordering::SeqCst);
    *up.last_query.lock().unwrap() = q.unwrap_or_default();
    match up.mode.load(Ordering::SeqCst) {
        HANG => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            StatusCode::GATEWAY_TIMEOUT.into_response()
        }
        FAIL => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "{\"error\":true,\"reason\":\"down\"}",
        )
            .into_response(),
        GARBAGE => "<html>not json</html>".into_response(),
        _ => {
            // Open-Meteo answers slowly enough that readers pile up behind the first.
            tokio::time::sleep(Duration::from_millis(100)).await;
            ([("content-type", "application/json; charset=utf-8")], FIXTURE).into_response()
        }
    }
}

async fn upstream(mode: u8) -> (Arc<Upstream>, String) {
    let up = Arc::new(Upstream::default());
    up.mode.store(mode, Ordering::SeqCst);
    let app = Router::new()
        .route("/v1/forecast", get(forecast))
        .with_state(up.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (up, format!("http://{addr}"))
}

async fn app(weather: WeatherConfig) -> TestApp {
    let config = api::ApiConfig {
        weather,
        ..support::config()
    };
    support::start(support::sqlite_store().await.unwrap(), config).await
}

async fn get_json(app: &TestApp, path: &str) -> (u16, Value) {
    let res = app.get(path).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn the_forecast_has_now_48_hours_and_7_days_in_the_readers_units() {
    let (up, url) = upstream(ANSWER).await;
    let app = app(WeatherConfig {
        url,
        ..Default::default()
    })
    .await;
    let (status, body) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}")).await;
    assert_eq!((status, body["code"].as_i64()), (200, Some(0)), "{body}");
    let d = &body["data"];
    assert_eq!(
        (d["source"].as_str(), d["unit"].as_str()),
        (Some("open-meteo"), Some("F"))
    );
    assert_eq!(d["units"]["wind_speed"], "mph");
    assert_eq!(d["timezone"], "America/New_York");
    assert_eq!(d["current"]["temperature"], 48.9);
    assert_eq!(d["current"]["weather_code"], 3);
    assert_eq!(d["current"]["is_day"], true);
    assert_eq!(d["hourly"].as_array().unwrap().len(), 48);
    assert_eq!(d["daily"].as_array().unwrap().len(), 7);
    assert!(d["daily"][0]["sunrise"].as_i64().unwrap() > 0);
    assert!(d["daily"][1]["precipitation_probability"].as_f64().unwrap() > 0.0);
    assert!(d["attribution"].as_str().unwrap().contains("Open-Meteo"));
    let q = up.last_query.lock().unwrap().clone();
    assert!(q.starts_with("latitude=38.89"), "{q}");

    let (_, metric) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}&unit=C")).await;
    assert_eq!(metric["data"]["current"]["temperature"], 9.4);
    assert_eq!(metric["data"]["units"]["precipitation"], "mm");
    assert_eq!(up.calls.load(Ordering::SeqCst), 1, "both units come from one call");

    // Home's widget (D425): the same current conditions alone, from the same call.
    let (status, now) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}&unit=C&part=now")).await;
    assert_eq!(status, 200, "{now}");
    assert_eq!(now["data"]["current"], metric["data"]["current"]);
    assert_eq!(now["data"]["units"], metric["data"]["units"]);
    assert_eq!(now["data"]["hourly"].as_array().map(Vec::len), Some(0));
    assert_eq!(now["data"]["daily"].as_array().map(Vec::len), Some(0));
    assert_eq!(
        up.calls.load(Ordering::SeqCst),
        1,
        "the current conditions come from the same call"
    );
}

#[tokio::test]
async fn many_readers_of_a_city_make_one_upstream_call() {
    let (up, url) = upstream(ANSWER).await;
    let app = Arc::new(
        app(WeatherConfig {
            url,
            ..Default::default()
        })
        .await,
    );
    let readers: Vec<_> = (0..40)
        .map(|i| {
            let app = app.clone();
            let unit = if i % 2 == 0 { "F" } else { "C" };
            tokio::spawn(async move {
                get_json(&app, &format!("/api/weather?city_id={WASHINGTON}&unit={unit}"))
                    .await
                    .0
            })
        })
        .collect();
    for r in readers {
        assert_eq!(r.await.unwrap(), 200);
    }
    assert_eq!(up.calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn a_hanging_upstream_answers_unavailable_within_a_second() {
    let (up, url) = upstream(HANG).await;
    let app = app(WeatherConfig {
        url,
        ..Default::default()
    })
    .await;
    for _ in 0..3 {
        let started = Instant::now();
        let (status, body) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}")).await;
        assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
        assert_eq!((status, body["code"].as_i64()), (503, Some(503)), "{body}");
        assert!(body["message"].as_str().unwrap().contains("unavailable"));
    }
    assert_eq!(
        up.calls.load(Ordering::SeqCst),
        1,
        "the one hanging call is not repeated"
    );
}

#[tokio::test]
async fn a_broken_upstream_answers_unavailable_and_is_not_asked_again_at_once() {
    for mode in [FAIL, GARBAGE] {
        let (up, url) = upstream(mode).await;
        let app = app(WeatherConfig {
            url,
            ..Default::default()
        })
        .await;
        for _ in 0..3 {
            let started = Instant::now();
            let (status, _) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}")).await;
            assert!(started.elapsed() < Duration::from_secs(1));
            assert_eq!(status, 503);
        }
        assert_eq!(up.calls.load(Ordering::SeqCst), 1, "mode {mode}");
    }
}

#[tokio::test]
async fn a_stale_forecast_is_served_at_once_while_one_call_renews_it_and_kept_when_the_upstream_fails() {
    let (up, url) = upstream(ANSWER).await;
    let app = app(WeatherConfig {
        url,
        timing: Timing {
            fresh_for: Duration::from_millis(300),
            retry_after: Duration::from_millis(0),
            ..WeatherConfig::default().timing
        },
        ..Default::default()
    })
    .await;
    let path = format!("/api/weather?city_id={WASHINGTON}");
    let (_, first) = get_json(&app, &path).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    // Stale now: the upstream hangs, readers still get the kept forecast, at once.
    up.mode.store(HANG, Ordering::SeqCst);
    for _ in 0..5 {
        let started = Instant::now();
        let (status, body) = get_json(&app, &path).await;
        assert!(started.elapsed() < Duration::from_millis(300));
        assert_eq!(status, 200);
        assert_eq!(body["data"]["fetched_at"], first["data"]["fetched_at"]);
    }
    assert_eq!(up.calls.load(Ordering::SeqCst), 2, "one renewal, however many readers");
}

#[tokio::test]
async fn an_unknown_city_is_404_and_a_bad_unit_is_400() {
    let (_, url) = upstream(ANSWER).await;
    let app = app(WeatherConfig {
        url,
        ..Default::default()
    })
    .await;
    assert_eq!(get_json(&app, "/api/weather?city_id=1").await.0, 404);
    let (status, body) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}&unit=K")).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Parameter `unit`"));
    assert_eq!(get_json(&app, "/api/weather").await.0, 400);
    let (status, body) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}&part=days")).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Parameter `part`"));
}

#[tokio::test]
async fn demo_weather_needs_no_network_and_says_it_is_demo() {
    let app = app(WeatherConfig {
        url: "http://127.0.0.1:9".into(),
        demo: true,
        ..Default::default()
    })
    .await;
    let (status, body) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}&unit=C")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["source"], "demo");
    assert!(body["data"]["attribution"].as_str().unwrap().contains("Demo"));
    assert_eq!(body["data"]["hourly"].as_array().unwrap().len(), 48);
}

#[tokio::test]
async fn a_kept_answer_carries_an_etag_and_answers_304() {
    let (_, url) = upstream(ANSWER).await;
    let app = app(WeatherConfig {
        url,
        ..Default::default()
    })
    .await;
    let path = format!("/api/weather?city_id={WASHINGTON}");
    let res = app.get(&path).await;
    assert_eq!(res.headers()["cache-control"], "public, max-age=300");
    let etag = res.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .http
        .get(app.url(&path))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status().as_u16(), 304);
}
