//! The operator's usage calls (issue 21, D335) through the real router, on SQLite and
//! PostgreSQL: operators only (a guest or another account gets 403), the usage of a range,
//! the NDJSON export, and ranges a person can fix.

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

mod sqlite {
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
}

mod postgres {
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
}

async fn start(store: std::sync::Arc<dyn store::Store>) -> TestApp {
    let mut config = support::config();
    config.admin_emails = vec![OPERATOR.to_ascii_lowercase()];
    support::start(store, config).await
}
