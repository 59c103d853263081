//! `POST /api/report` through the real router, on SQLite and PostgreSQL (SPEC §1.8,
//! §3.15–3.17, §5.7, §7.15, §9.11; D330–D333).

mod support;

use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use support::TestApp;

const BROWSER: &str =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

fn report(data: Value) -> Value {
    json!({"app_id": 20310, "timestamp": support::now_ms(), "nonce_str": "0123456789abcdef", "source": 4,
           "data": data,
           "property": {"os": 5, "device_id": "dev-r", "user_id": "42", "ip": "198.51.100.7", "app_lang": "fr",
                        "country": "ca", "channel": "metaweb_int", "network_type": "wifi", "screen_width": 1280}})
}

async fn send(app: &TestApp, body: String, headers: &[(&str, &str)]) -> (u16, Value) {
    let (status, _, body) = send_full(app, body, headers).await;
    (status, body)
}

/// The status, the Retry-After header and the envelope.
async fn send_full(app: &TestApp, body: String, headers: &[(&str, &str)]) -> (u16, Option<u64>, Value) {
    let mut req = app
        .http
        .post(format!("http://{}/api/report", app.addr))
        .header("content-type", "text/plain;charset=UTF-8")
        .body(body);
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("user-agent")) {
        req = req.header("user-agent", BROWSER);
    }
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let retry_after = res
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    (status, retry_after, res.json().await.unwrap())
}

async fn stored(app: &TestApp) -> Vec<store::reports::ReportEvent> {
    app.store.report_events(0, i64::MAX, 0, 1000).await.unwrap()
}

fn every_model() -> Value {
    json!([
        {"event": "install"},
        {"event": "launch", "mode": "auto"},
        {"event": "usingTime", "duration": 61000},
        {"event": "clientBehavior", "behavior_id": "Share", "sub_behavior_id": "copy"},
        {"event": "clientException", "type": "error", "module": "web", "code": "E1", "message": "boom", "stack_trace": "at x", "app_version": "30010200"},
        {"event": "coreBehavior", "behavior_id": "NewsDetail_Show", "sub_behavior_id": "7", "nonce_id": "n", "is_base": 1},
        {"event": "permissionStatus", "permission": 1},
        {"event": "search", "keyword": " Flood "},
        {"event": "deeplink", "type": "normal", "url": "https://example.org/x"},
        {"event": "adSource", "type": "ads"},
        {"event": "registerChannel", "media_source": "metaweb_int"},
        {"event": "register"},
        {"event": "device", "browser": "Chrome", "version": "130", "system": "Linux", "type": 1},
        {"event": "pageView", "location_origin": "http://localhost", "page_path": "/article/7", "page_title": "Flood", "news_id": "7"},
        {"event": "should_show", "placement_id": "p", "rule_id": "r", "scene": "feed"},
        {"event": "ping_back", "placement_id": "p", "rule_id": "r", "revenue": 0.1, "floor_price": 0.05, "show_time": 1, "load_time": 2, "scene": "feed"},
        {"event": "ad_click", "placement_id": "p", "rule_id": "r", "revenue": 0.1, "floor_price": 0.05, "click_time": 3, "show_time": 1, "load_time": 2, "scene": "article"}
    ])
}

async fn s3_17_every_event_model_is_stored(app: &TestApp) {
    let (status, body) = send(app, report(every_model()).to_string(), &[]).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["code"], 0);
    assert_eq!(body["data"]["accepted"], 17);
    assert_eq!(body["data"]["rejected"], json!([]));
    let events = stored(app).await;
    assert_eq!(events.len(), 17);
    let search = events.iter().find(|e| e.event == "search").unwrap();
    assert_eq!(search.subject, "Flood", "strings trimmed (§5.7)");
    let page = events.iter().find(|e| e.event == "pageView").unwrap();
    assert_eq!(
        (page.subject.as_str(), page.detail.as_str(), page.label.as_str()),
        ("/article/7", "7", "Flood")
    );
    assert_eq!(
        (page.country.as_str(), page.lang.as_str(), page.channel.as_str()),
        ("CA", "fr", "metaweb_int")
    );
    let click: Value = serde_json::from_str(&events.iter().find(|e| e.event == "ad_click").unwrap().fields).unwrap();
    assert_eq!(click["adn_id"], 37);
    assert_eq!(click["click_time"], 3);
    let property: Value = serde_json::from_str(&page.property).unwrap();
    assert!(
        property.get("ip").is_none(),
        "the client's claimed address is never kept"
    );
    assert_eq!(property["screen_width"], 1280);
    assert_eq!(page.user_agent, BROWSER);
}

async fn s5_7_no_event_model_and_no_report_event_list(app: &TestApp) {
    let (status, body) = send(
        app,
        report(json!([{"event": "nope"}, {"event": "install"}])).to_string(),
        &[],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["accepted"], 1);
    assert_eq!(
        body["data"]["rejected"],
        json!([{"index": 0, "message": "No event model: nope"}])
    );
    let (status, body) = send(app, report(json!([{"event": "nope"}])).to_string(), &[]).await;
    assert_eq!((status, body["code"].as_i64()), (400, Some(400)));
    assert_eq!(body["message"], "No report event list");
    let (status, body) = send(app, report(json!([])).to_string(), &[]).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("No report event list")));
    let (status, body) = send(app, "{not json".into(), &[]).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("The report is not JSON"));
    let mut wrong = report(json!([{"event": "install"}]));
    wrong["app_id"] = json!(1);
    let (status, body) = send(app, wrong.to_string(), &[]).await;
    assert_eq!((status, body["message"].as_str()), (400, Some("app_id must be 20310.")));
    let (status, body) = send(app, "x".repeat(300 * 1024), &[]).await;
    assert_eq!(status, 413);
    assert_eq!(body["code"], 413);
    assert_eq!(stored(app).await.len(), 1);
}

async fn s1_8_bots_and_do_not_track_are_not_stored(app: &TestApp) {
    let body = report(json!([{"event": "launch"}])).to_string();
    let (status, answer) = send(
        app,
        body.clone(),
        &[("user-agent", "Googlebot/2.1 (+http://www.google.com/bot.html)")],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        (answer["data"]["accepted"].as_i64(), answer["data"]["dropped"].as_str()),
        (Some(0), Some("bot"))
    );
    let (_, answer) = send(app, body.clone(), &[("dnt", "1")]).await;
    assert_eq!(answer["data"]["dropped"], "do-not-track");
    let (_, answer) = send(app, body, &[("sec-gpc", "1")]).await;
    assert_eq!(answer["data"]["dropped"], "do-not-track");
    assert!(stored(app).await.is_empty());
}

async fn s9_11_long_user_agent_is_capped_at_500(app: &TestApp) {
    let long = format!("Mozilla/5.0 {}", "x".repeat(900));
    let (status, _) = send(
        app,
        report(json!([{"event": "launch"}])).to_string(),
        &[("user-agent", &long)],
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(stored(app).await[0].user_agent.chars().count(), 500);
}

async fn d333_retention_deletes_events_past_the_configured_days(app: &TestApp) {
    send(app, report(json!([{"event": "launch"}])).to_string(), &[]).await;
    let now = support::now_ms();
    assert_eq!(
        api::report::retention::delete_expired(app.store.as_ref(), now, 90)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        api::report::retention::delete_expired(app.store.as_ref(), now + 91 * 86_400_000, 90)
            .await
            .unwrap(),
        1
    );
    assert!(stored(app).await.is_empty());
}

engine_tests!(
    s3_17_every_event_model_is_stored,
    s5_7_no_event_model_and_no_report_event_list,
    s1_8_bots_and_do_not_track_are_not_stored,
    s9_11_long_user_agent_is_capped_at_500,
    d333_retention_deletes_events_past_the_configured_days,
);

/// D331, D333: the address is kept truncated, and each address has its own budget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d331_d333_address_truncated_and_reports_rate_limited_per_address() {
    let store = support::sqlite_store().await.unwrap();
    let mut config = support::config();
    config.trust_forwarded_for = true;
    config.report.burst = 2;
    config.report.every = Duration::from_secs(60);
    let app = support::start(store, config).await;
    let body = report(json!([{"event": "launch"}])).to_string();
    for _ in 0..2 {
        let (status, _) = send(&app, body.clone(), &[("x-forwarded-for", "203.0.113.77")]).await;
        assert_eq!(status, 200);
    }
    let (status, answer) = send(&app, body.clone(), &[("x-forwarded-for", "203.0.113.77")]).await;
    assert_eq!((status, answer["code"].as_i64()), (429, Some(429)));
    let (status, _) = send(&app, body, &[("x-forwarded-for", "2001:db8:abcd:12::1")]).await;
    assert_eq!(status, 200, "another address has its own budget");
    let ips: Vec<String> = stored(&app).await.into_iter().map(|e| e.ip).collect();
    assert_eq!(ips, ["203.0.113.0", "203.0.113.0", "2001:db8:abcd::"]);
}

/// Issue 29's attack: the most events a call may carry, each as short as an event can be
/// and filled in by the model (`ad_click`: nine fields), with a property record of long
/// fields and a 500-character user agent; about 4.5 KB a call.
fn amplifying_call() -> (String, String) {
    let long = |c: char| c.to_string().repeat(190);
    let events: Vec<Value> = (0..100).map(|_| json!({"event": "ad_click"})).collect();
    let body = json!({"app_id": 20310, "timestamp": support::now_ms(), "nonce_str": "0123456789abcdef", "source": 4,
        "data": events,
        "property": {"os": 5, "device_id": long('d'), "device_model": long('m'), "brand": long('b'),
                     "carrier": long('c'), "sys_lang": long('s'), "app_lang": long('l'), "sys_version": long('v'),
                     "app_version": long('a'), "channel": long('h'), "country": long('y'),
                     "screen_width": 1280, "screen_height": 800, "memory": 8, "storage": 256,
                     "available_storage": 100}});
    let ua = format!("Mozilla/5.0 {}", "u".repeat(488));
    (body.to_string(), ua)
}

/// Replays the attack and returns (bytes sent: bodies and user agents, bytes stored as
/// the engine measures them).
async fn replay_amplification(app: &TestApp, measure: impl AsyncFn() -> i64) -> (i64, i64) {
    let (body, ua) = amplifying_call();
    assert!(
        (4_300..4_800).contains(&body.len()),
        "about 4.5 KB a call: {}",
        body.len()
    );
    let before = measure().await;
    let mut sent = 0;
    for _ in 0..60 {
        let (status, answer) = send(app, body.clone(), &[("user-agent", &ua)]).await;
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["data"]["accepted"], 100);
        sent += (body.len() + ua.len()) as i64;
    }
    let stored = measure().await - before;
    let events = app.store.report_events(0, i64::MAX, 0, 10_000).await.unwrap();
    assert_eq!(events.len(), 6000, "every event is kept");
    let click: Value = serde_json::from_str(&events[0].fields).unwrap();
    assert_eq!(click["adn_id"], 37, "filled-in fields read back");
    assert_eq!(click["placement_id"], "");
    assert_eq!(
        events[5999].user_agent, ua,
        "each event still carries the call's user agent"
    );
    let property: Value = serde_json::from_str(&events[5999].property).unwrap();
    assert_eq!(property["brand"], "b".repeat(190), "and its property record");
    eprintln!(
        "amplification: sent {sent} bytes, stored {stored} bytes ({:.2}x)",
        stored as f64 / sent as f64
    );
    (sent, stored)
}

/// Issue 29: 60 unauthenticated calls of ~4.5 KB once stored 29 MB (108×); what repeats is
/// now stored once per call (D365) and what is stored stays within 3× what was sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d365_sixty_amplifying_report_calls_store_at_most_3x_what_was_sent_on_sqlite() {
    let dir = std::env::temp_dir().join(format!(
        "lw-amplify-{}-{:016x}",
        std::process::id(),
        rand::random::<u64>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let store = Arc::new(
        store_sql::sqlite::SqliteStore::open_file(&dir.join("db.sqlite"))
            .await
            .unwrap(),
    );
    let app = support::start(store.clone(), support::config()).await;
    let (sent, stored) = replay_amplification(&app, async || store.report_file_bytes().await.unwrap()).await;
    assert!(stored <= 3 * sent, "stored {stored} bytes for {sent} sent");
    let counted = app.store.report_stored_bytes().await.unwrap();
    assert!(
        counted >= stored,
        "the caps count at least what SQLite uses: {counted} < {stored}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d365_sixty_amplifying_report_calls_store_at_most_3x_what_was_sent_on_postgres() {
    let Some(options) = store_sql::postgres::testing::fresh_database().await else {
        eprintln!("skipped: TEST_DATABASE_URL is not set");
        return;
    };
    let store = Arc::new(store_sql::postgres::PgStore::connect_with(options).await.unwrap());
    let app = support::start(store.clone(), support::config()).await;
    let (sent, stored) = replay_amplification(&app, async || store.report_table_bytes().await.unwrap()).await;
    assert!(stored <= 3 * sent, "stored {stored} bytes for {sent} sent");
}

fn small_call() -> String {
    report(json!([{"event": "launch"}])).to_string()
}

/// D366: an address may store so many bytes per UTC day; then 429 with Retry-After until
/// midnight. Another address, or another /64, has its own; two addresses of one /64 share.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d366_an_address_that_used_its_daily_report_bytes_gets_429_until_midnight_utc() {
    let store = support::sqlite_store().await.unwrap();
    let mut config = support::config();
    config.trust_forwarded_for = true;
    let one_call = {
        let app = support::start(support::sqlite_store().await.unwrap(), support::config()).await;
        send(&app, small_call(), &[]).await;
        app.store.report_stored_bytes().await.unwrap() as u64
    };
    config.report.address_bytes_per_day = 2 * one_call + one_call / 2;
    let app = support::start(store, config).await;
    let from = |ip: &'static str| [("x-forwarded-for", ip)];
    for _ in 0..2 {
        assert_eq!(send(&app, small_call(), &from("203.0.113.77")).await.0, 200);
    }
    let (status, retry_after, answer) = send_full(&app, small_call(), &from("203.0.113.77")).await;
    assert_eq!((status, answer["code"].as_i64()), (429, Some(429)));
    let retry_after = retry_after.expect("Retry-After");
    let to_midnight = (86_400_000 - support::now_ms() % 86_400_000) / 1000;
    assert!(
        retry_after.abs_diff(to_midnight as u64) <= 2,
        "{retry_after} s, midnight in {to_midnight} s"
    );
    let message = answer["message"].as_str().unwrap();
    assert!(
        message.contains("today's limit") && message.contains("midnight UTC"),
        "{message}"
    );
    assert_eq!(
        send(&app, small_call(), &from("203.0.113.78")).await.0,
        200,
        "another address has its own budget"
    );
    for _ in 0..2 {
        assert_eq!(send(&app, small_call(), &from("2001:db8:abcd:12::1")).await.0, 200);
    }
    assert_eq!(
        send(&app, small_call(), &from("2001:db8:abcd:12:ffff::2")).await.0,
        429,
        "another address of the same /64 shares its budget"
    );
    assert_eq!(
        send(&app, small_call(), &from("2001:db8:abcd:13::1")).await.0,
        200,
        "the next /64 is another client"
    );
    assert_eq!(stored(&app).await.len(), 6, "refused calls store nothing");
}

/// D367: when what all reports take reaches --report-max-bytes, new reports are refused
/// with 507 and a message for the operator; what is stored is kept.
async fn d367_a_full_report_store_refuses_new_reports_with_507(app: &TestApp) {
    assert_eq!(send(app, small_call(), &[]).await.0, 200);
    let (status, answer) = send(app, small_call(), &[]).await;
    assert_eq!((status, answer["code"].as_i64()), (507, Some(507)));
    let message = answer["message"].as_str().unwrap();
    assert!(message.contains("--report-max-bytes"), "{message}");
    assert_eq!(stored(app).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d367_a_full_report_store_refuses_new_reports_with_507_on_both_engines() {
    let one_call = {
        let app = support::start(support::sqlite_store().await.unwrap(), support::config()).await;
        send(&app, small_call(), &[]).await;
        app.store.report_stored_bytes().await.unwrap() as u64
    };
    let mut config = support::config();
    config.report.max_bytes = one_call + one_call / 2;
    let app = support::start(support::sqlite_store().await.unwrap(), config.clone()).await;
    d367_a_full_report_store_refuses_new_reports_with_507(&app).await;
    if let Some(store) = support::postgres_store().await {
        let app = support::start(store, config).await;
        d367_a_full_report_store_refuses_new_reports_with_507(&app).await;
    }
}
