//! Bad input, on purpose: every case gets a clear error and the server keeps serving.

mod support;

use serde_json::json;
use support::{TestApp, signing};

async fn app() -> TestApp {
    support::start(support::sqlite_store().await.unwrap(), support::config()).await
}

fn base() -> String {
    support::base_for("dev-bad", "en", "US")
}

#[tokio::test]
async fn malformed_json_is_400_and_says_so() {
    let app = app().await;
    let (status, body) = app
        .call_with(
            &signing(&base(), "/user/init"),
            "/user/init",
            None,
            "{\"user_type\": ".into(),
        )
        .await;
    assert_eq!((status, body["code"].as_i64()), (400, Some(400)));
    assert!(
        body["message"].as_str().unwrap().starts_with("Malformed JSON body"),
        "{body}"
    );
    assert!(app.healthy().await);
}

#[tokio::test]
async fn wrong_types_are_400_naming_the_field() {
    let app = app().await;
    let (status, body) = app
        .call_with(
            &signing(&base(), "/user/init"),
            "/user/init",
            None,
            r#"{"user_type":"one"}"#.into(),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(
        body["message"],
        "Field `user_type`: invalid type: string \"one\", expected i32."
    );
}

#[tokio::test]
async fn huge_body_is_413() {
    let app = app().await;
    let big = format!("{{\"channel\":\"{}\"}}", "x".repeat(200_000));
    let (status, body) = app
        .call_with(&signing(&base(), "/user/init"), "/user/init", None, big)
        .await;
    assert_eq!(
        (status, body["message"].as_str()),
        (413, Some("Request body is larger than 65536 bytes."))
    );
    assert!(app.healthy().await);
}

#[tokio::test]
async fn bad_or_missing_sign_is_refused_with_a_clear_message() {
    let app = app().await;
    let mut s = signing(&base(), "/user/init");
    s.sign = "0".repeat(32);
    let (status, body) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("Request signature does not match")
    );
    // Signed for another path.
    let s = signing(&base(), "/user/info");
    let (status, _) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    assert_eq!(status, 400);
    // No headers at all.
    let res = app
        .http
        .post(app.url("/api/user/init"))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(
        body["message"],
        "Missing request header `base`: every non-GET call must be signed."
    );
    // A base that is not JSON.
    let mut s = signing(&base(), "/user/init");
    s.base = "not json".into();
    let (status, body) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("Request header `base` must be JSON")
    );
}

#[tokio::test]
async fn replayed_nonce_is_refused() {
    let app = app().await;
    let s = signing(&base(), "/user/init");
    let (first, _) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    let (second, body) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    assert_eq!((first, second), (200, 400));
    assert_eq!(
        body["message"],
        "This nonce was already used: every request needs a new nonce."
    );
}

#[tokio::test]
async fn stale_timestamp_is_refused() {
    let app = app().await;
    let mut s = signing(&base(), "/user/init");
    s.timestamp = (support::now_ms() - 10 * 60 * 1000).to_string();
    let (status, body) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    assert_eq!(status, 400);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("Request timestamp is more than 300 seconds"),
        "{body}"
    );
    s.timestamp = "yesterday".into();
    let (status, _) = app.call_with(&s, "/user/init", None, "{}".into()).await;
    assert_eq!(status, 400);
}

#[tokio::test]
async fn unknown_api_path_is_404_and_wrong_method_405() {
    let app = app().await;
    let body: serde_json::Value = app.get("/api/no/such/call").await.json().await.unwrap();
    assert_eq!(
        (body["code"].as_i64(), body["message"].as_str()),
        (Some(404), Some("Not Found"))
    );
    let res = app.get("/api/user/init").await;
    assert_eq!(res.status(), 405);
    let body: serde_json::Value = res.json().await.unwrap();
    assert_eq!(body["code"], 405);
    assert_eq!(body["message"], "Method GET is not allowed on /api/user/init.");
    let (status, _) = app.call("d", "/no/such", None, json!({})).await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn path_traversal_in_asset_paths_is_404() {
    let app = app().await;
    for path in [
        "/assets/../../../etc/passwd",
        "/assets/..%2f..%2fCargo.toml",
        "/static/../index.html",
        "/assets/%2e%2e/x",
    ] {
        let reply = app
            .raw(format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes())
            .await;
        assert!(
            reply.starts_with("HTTP/1.1 404"),
            "{path}: {}",
            reply.lines().next().unwrap_or("")
        );
        assert!(!reply.contains("[workspace]") && !reply.contains("root:"), "{path}");
    }
    assert!(app.healthy().await);
}

#[tokio::test]
async fn ten_thousand_character_path_is_a_small_clear_404() {
    let app = app().await;
    let path = format!("/{}", "a".repeat(10_000));
    let res = app.get(&path).await;
    assert_eq!(res.status(), 404);
    let html = res.text().await.unwrap();
    assert!(
        html.len() < 8_000,
        "the page does not echo 10 000 characters ({} bytes)",
        html.len()
    );
    assert!(html.contains("Page not found: /aaaa"));
    assert!(app.healthy().await);
}

#[tokio::test]
async fn non_utf8_bytes_in_the_url_are_handled() {
    let app = app().await;
    let res = app.get("/%FF%FE/%C3%28").await;
    assert_eq!(res.status(), 404);
    assert!(res.text().await.unwrap().contains("Page not found: /\u{FFFD}"));
    let reply = app
        .raw(b"GET /\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await;
    assert!(
        reply.starts_with("HTTP/1.1 4"),
        "raw bytes get a 4xx: {}",
        reply.lines().next().unwrap_or("")
    );
    let res = app.get("/latest?c=%FF").await;
    assert_eq!(res.status(), 200);
    assert!(app.healthy().await);
}

#[tokio::test]
async fn non_utf8_header_values_are_refused_cleanly() {
    let app = app().await;
    let req = b"POST /api/user/init HTTP/1.1\r\nHost: x\r\nbase: \xff\xfe\r\ntimestamp: 1\r\nnonce: abcdefghij\r\nsign: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
    let reply = app.raw(req).await;
    assert!(
        reply.starts_with("HTTP/1.1 400"),
        "{}",
        reply.lines().next().unwrap_or("")
    );
    assert!(reply.contains("printable ASCII"));
    assert!(app.healthy().await);
}
