//! `POST /api/report` through the real router, on SQLite and PostgreSQL (SPEC §1.8,
//! §3.15–3.17, §5.7, §7.15, §9.11; D330–D333).

mod support;

use serde_json::{Value, json};
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
    (status, res.json().await.unwrap())
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
