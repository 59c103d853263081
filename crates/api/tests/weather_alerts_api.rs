//! `GET /api/weather/alerts` against a loopback NWS and a loopback MSC GeoMet (issue 20 ★;
//! D284–D287). The stand-ins answer `crates/providers/tests/fixtures/nws-alerts-active.geojson` and
//! `crates/providers/tests/fixtures/eccc-weather-alerts.geojson` (each provider's documented format; their
//! origin is in `crates/providers/tests/fixtures/README.md`), or hang, or fail, as a test asks; the same
//! server answers Open-Meteo's forecast, so a test can show the forecast still served while
//! the alerts' issuer is down. Nothing is stored, so these run on SQLite only.

mod support;

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use providers::weather::WeatherConfig;
use providers::weather::alerts::AlertsConfig;
use providers::weather::kept::Timing;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use support::TestApp;

const NWS_FIXTURE: &str = include_str!("../../providers/tests/fixtures/nws-alerts-active.geojson");
const ECCC_FIXTURE: &str = include_str!("../../providers/tests/fixtures/eccc-weather-alerts.geojson");
const FORECAST_FIXTURE: &str = include_str!("../../providers/tests/fixtures/open-meteo-forecast.json");
/// Washington, DC, and Ottawa, ON (the default cities, §9.1).
const WASHINGTON: i64 = 4140963;
const OTTAWA: i64 = 6094817;

const ANSWER: u8 = 0;
const HANG: u8 = 1;
const FAIL: u8 = 2;
const GARBAGE: u8 = 3;

#[derive(Default)]
struct Upstream {
    nws_calls: AtomicUsize,
    eccc_calls: AtomicUsize,
    forecast_calls: AtomicUsize,
    /// How the alert issuers answer (the forecast always answers).
    mode: AtomicU8,
    last_query: std::sync::Mutex<String>,
    last_headers: std::sync::Mutex<Option<HeaderMap>>,
}

async fn answer(up: &Upstream, body: &'static str) -> Response {
    match up.mode.load(Ordering::SeqCst) {
        HANG => {
            tokio::time::sleep(Duration::from_secs(30)).await;
            StatusCode::GATEWAY_TIMEOUT.into_response()
        }
        FAIL => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [("content-type", "application/problem+json")],
            "{\"type\":\"https://api.weather.gov/problems/UnexpectedProblem\",\"title\":\"Unexpected Problem\",\"status\":500}",
        )
            .into_response(),
        GARBAGE => "<html>not json</html>".into_response(),
        _ => {
            // Slow enough that readers pile up behind the first call.
            tokio::time::sleep(Duration::from_millis(100)).await;
            ([("content-type", "application/geo+json")], body).into_response()
        }
    }
}

async fn nws(State(up): State<Arc<Upstream>>, headers: HeaderMap, RawQuery(q): RawQuery) -> Response {
    up.nws_calls.fetch_add(1, Ordering::SeqCst);
    *up.last_query.lock().unwrap() = q.unwrap_or_default();
    *up.last_headers.lock().unwrap() = Some(headers);
    answer(&up, NWS_FIXTURE).await
}

async fn eccc(State(up): State<Arc<Upstream>>, RawQuery(q): RawQuery) -> Response {
    up.eccc_calls.fetch_add(1, Ordering::SeqCst);
    *up.last_query.lock().unwrap() = q.unwrap_or_default();
    answer(&up, ECCC_FIXTURE).await
}

async fn forecast(State(up): State<Arc<Upstream>>) -> Response {
    up.forecast_calls.fetch_add(1, Ordering::SeqCst);
    ([("content-type", "application/json")], FORECAST_FIXTURE).into_response()
}

async fn upstream(mode: u8) -> (Arc<Upstream>, String) {
    let up = Arc::new(Upstream::default());
    up.mode.store(mode, Ordering::SeqCst);
    let app = Router::new()
        .route("/alerts/active", get(nws))
        .route("/collections/weather-alerts/items", get(eccc))
        .route("/v1/forecast", get(forecast))
        .with_state(up.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (up, format!("http://{addr}"))
}

fn alerts_config(url: &str) -> AlertsConfig {
    AlertsConfig {
        nws_url: url.into(),
        eccc_url: url.into(),
        ..Default::default()
    }
}

async fn app(url: &str, weather_alerts: AlertsConfig) -> TestApp {
    let config = api::ApiConfig {
        weather: WeatherConfig {
            url: url.into(),
            ..Default::default()
        },
        weather_alerts,
        ..support::config()
    };
    support::start(support::sqlite_store().await.unwrap(), config).await
}

async fn get_json(app: &TestApp, path: &str) -> (u16, Value) {
    let res = app.get(path).await;
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

fn events(body: &Value) -> Vec<String> {
    body["data"]["alerts"]
        .as_array()
        .unwrap_or(&vec![])
        .iter()
        .map(|a| a["event"].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test]
async fn d284_us_alerts_come_from_nws_by_point_most_severe_first_without_expired_or_test_messages() {
    let (up, url) = upstream(ANSWER).await;
    let app = app(&url, alerts_config(&url)).await;
    let (status, body) = get_json(&app, &format!("/api/weather/alerts?city_id={WASHINGTON}")).await;
    assert_eq!((status, body["code"].as_i64()), (200, Some(0)), "{body}");
    assert_eq!(body["data"]["source"], "nws");
    assert_eq!(
        events(&body),
        ["Winter Storm Warning", "Wind Advisory", "Special Weather Statement"],
        "Severe, Moderate, Minor; the expired Frost Advisory and the Test Message left out"
    );
    let storm = &body["data"]["alerts"][0];
    assert_eq!(storm["severity"], "Severe");
    assert_eq!(storm["sender"], "NWS Sterling VA");
    assert_eq!(storm["language"], "en");
    assert!(storm["description"].as_str().unwrap().contains("inches.\n\n* WHERE"));
    assert!(storm["instruction"].as_str().unwrap().starts_with("If you must travel"));
    assert!(
        storm["url"]
            .as_str()
            .unwrap()
            .starts_with("https://api.weather.gov/alerts/")
    );
    assert!(storm["onset"].as_i64().unwrap() < storm["ends"].as_i64().unwrap());
    assert_eq!(up.last_query.lock().unwrap().as_str(), "point=38.8951,-77.0364");
    let headers = up.last_headers.lock().unwrap().clone().unwrap();
    let ua = headers["user-agent"].to_str().unwrap();
    assert!(
        ua.starts_with("Localwire/") && ua.contains("weather alerts"),
        "NWS asks for a descriptive User-Agent: {ua}"
    );
    assert!(headers["accept"].to_str().unwrap().contains("application/geo+json"));
    assert_eq!(up.eccc_calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn d284_a_french_reader_in_canada_gets_eccc_words_in_french_from_the_same_call() {
    let (up, url) = upstream(ANSWER).await;
    let app = app(&url, alerts_config(&url)).await;
    let (status, fr) = get_json(&app, &format!("/api/weather/alerts?city_id={OTTAWA}&lang=fr")).await;
    assert_eq!(status, 200, "{fr}");
    assert_eq!(fr["data"]["source"], "eccc");
    assert_eq!(
        events(&fr),
        ["avertissement de neige", "bulletin météorologique spécial"],
        "the snowfall warning once, the statement after it; the ended freezing rain and another region's wind warning left out"
    );
    let snow = &fr["data"]["alerts"][0];
    assert_eq!(
        (snow["language"].as_str(), snow["severity"].as_str()),
        (Some("fr"), Some("Severe"))
    );
    assert_eq!(snow["sender"], "Environnement et Changement climatique Canada");
    assert!(snow["description"].as_str().unwrap().contains("Quand : Cette nuit"));
    assert!(snow["url"].as_str().unwrap().contains("index_f"));

    let (_, en) = get_json(&app, &format!("/api/weather/alerts?city_id={OTTAWA}&lang=en")).await;
    assert_eq!(events(&en), ["snowfall warning", "special weather statement"]);
    assert_eq!(en["data"]["alerts"][0]["language"], "en");
    let q = up.last_query.lock().unwrap().clone();
    assert!(q.contains("bbox=-75.7081,45.4012,-75.6881,45.4212"), "{q}");
    assert_eq!(
        up.eccc_calls.load(Ordering::SeqCst),
        1,
        "both languages come from one call"
    );
    assert_eq!(up.nws_calls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn d286_many_readers_of_a_city_make_one_upstream_call() {
    let (up, url) = upstream(ANSWER).await;
    let app = Arc::new(app(&url, alerts_config(&url)).await);
    let readers: Vec<_> = (0..40)
        .map(|i| {
            let app = app.clone();
            let lang = ["en", "es", "fr"][i % 3];
            tokio::spawn(async move {
                get_json(&app, &format!("/api/weather/alerts?city_id={WASHINGTON}&lang={lang}"))
                    .await
                    .0
            })
        })
        .collect();
    for r in readers {
        assert_eq!(r.await.unwrap(), 200);
    }
    assert_eq!(up.nws_calls.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn d286_a_hanging_issuer_answers_unavailable_within_a_second_while_the_forecast_is_served() {
    let (up, url) = upstream(HANG).await;
    let app = app(&url, alerts_config(&url)).await;
    for _ in 0..3 {
        let started = Instant::now();
        let (status, body) = get_json(&app, &format!("/api/weather/alerts?city_id={WASHINGTON}")).await;
        assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
        assert_eq!((status, body["code"].as_i64()), (503, Some(503)), "{body}");
        assert!(body["message"].as_str().unwrap().contains("unavailable"));
    }
    assert_eq!(
        up.nws_calls.load(Ordering::SeqCst),
        1,
        "the one hanging call is not repeated"
    );
    let (status, weather) = get_json(&app, &format!("/api/weather?city_id={WASHINGTON}")).await;
    assert_eq!(status, 200, "the forecast does not depend on the alerts: {weather}");
    assert_eq!(weather["data"]["hourly"].as_array().unwrap().len(), 48);
}

#[tokio::test]
async fn d286_a_broken_issuer_answers_unavailable_and_is_not_asked_again_at_once() {
    for mode in [FAIL, GARBAGE] {
        let (up, url) = upstream(mode).await;
        let app = app(&url, alerts_config(&url)).await;
        for _ in 0..3 {
            let started = Instant::now();
            let (status, _) = get_json(&app, &format!("/api/weather/alerts?city_id={OTTAWA}")).await;
            assert!(started.elapsed() < Duration::from_secs(1));
            assert_eq!(status, 503);
        }
        assert_eq!(up.eccc_calls.load(Ordering::SeqCst), 1, "mode {mode}");
        assert_eq!(get_json(&app, &format!("/api/weather?city_id={OTTAWA}")).await.0, 200);
    }
}

#[tokio::test]
async fn d286_kept_alerts_are_served_at_once_while_one_call_renews_them() {
    let (up, url) = upstream(ANSWER).await;
    let app = app(
        &url,
        AlertsConfig {
            timing: Timing {
                fresh_for: Duration::from_millis(300),
                retry_after: Duration::from_millis(0),
                ..alerts_config(&url).timing
            },
            ..alerts_config(&url)
        },
    )
    .await;
    let path = format!("/api/weather/alerts?city_id={WASHINGTON}");
    let (_, first) = get_json(&app, &path).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    up.mode.store(HANG, Ordering::SeqCst);
    for _ in 0..5 {
        let started = Instant::now();
        let (status, body) = get_json(&app, &path).await;
        assert!(started.elapsed() < Duration::from_millis(300));
        assert_eq!(status, 200);
        assert_eq!(body["data"]["fetched_at"], first["data"]["fetched_at"]);
        assert_eq!(events(&body).len(), 3);
    }
    assert_eq!(
        up.nws_calls.load(Ordering::SeqCst),
        2,
        "one renewal, however many readers"
    );
}

#[tokio::test]
async fn d286_an_unknown_city_is_404_and_bad_parameters_are_400_with_the_parameter_named() {
    let (_, url) = upstream(ANSWER).await;
    let app = app(&url, alerts_config(&url)).await;
    assert_eq!(get_json(&app, "/api/weather/alerts?city_id=1").await.0, 404);
    let (status, body) = get_json(&app, "/api/weather/alerts?city_id=abc").await;
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().starts_with("Parameter `city_id`"),
        "{body}"
    );
    let (status, body) = get_json(&app, &format!("/api/weather/alerts?city_id={WASHINGTON}&lang=de")).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().contains("lang"), "{body}");
    assert_eq!(get_json(&app, "/api/weather/alerts").await.0, 400);
}

#[tokio::test]
async fn d287_demo_alerts_need_no_network_and_say_they_are_demo() {
    let app = app(
        "http://127.0.0.1:9",
        AlertsConfig {
            demo: true,
            ..alerts_config("http://127.0.0.1:9")
        },
    )
    .await;
    let (status, body) = get_json(&app, &format!("/api/weather/alerts?city_id={WASHINGTON}")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["source"], "demo");
    assert!(body["data"]["attribution"].as_str().unwrap().contains("Demo"));
    let list = body["data"]["alerts"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["severity"], "Severe");
    assert!(list.iter().all(|a| a["headline"].as_str().unwrap().starts_with("DEMO")));
    let (_, fr) = get_json(&app, &format!("/api/weather/alerts?city_id={OTTAWA}&lang=fr")).await;
    assert!(
        fr["data"]["alerts"][0]["headline"]
            .as_str()
            .unwrap()
            .starts_with("DÉMO")
    );
    // Any other city: no alerts, the empty state.
    let (status, other) = get_json(&app, "/api/weather/alerts?city_id=4229546").await;
    assert_eq!(status, 200);
    assert_eq!(other["data"]["alerts"].as_array().unwrap().len(), 0);
}
