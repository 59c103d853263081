//! SPEC §7.22, D220: with `encrypt_responses` on, successful non-GET answers carry their
//! data only in the encrypted `edata` field; off, nothing changes.

mod support;

use api::encrypted_answers::{FIELD, answer_key, open};
use serde_json::{Value, json};
use support::{SIGN_WORD, TestApp};

fn encrypting() -> api::ApiConfig {
    api::ApiConfig {
        encrypt_responses: true,
        ..support::config()
    }
}

/// Two servers over one database: encryption off and on.
async fn off_and_on() -> (TestApp, TestApp) {
    let store = support::sqlite_store().await.expect("sqlite");
    let off = support::start(store.clone(), support::config()).await;
    let on = support::start(store, encrypting()).await;
    (off, on)
}

/// The data an encrypted answer carries, as the app decrypts it.
fn decrypted(body: &Value) -> Value {
    let edata = body[FIELD].as_str().unwrap_or_else(|| panic!("no {FIELD}: {body}"));
    let plain = open(&answer_key(SIGN_WORD), edata).expect("the server's key opens it");
    serde_json::from_slice(&plain).expect("the plaintext is JSON")
}

fn without_last_time(mut user: Value) -> Value {
    // `/user/info` stamps the time of the call; everything else must be equal.
    user.as_object_mut().expect("user").remove("last_time");
    user
}

#[tokio::test]
async fn spec_7_22_on_non_get_answers_carry_only_edata_and_decrypt_to_the_plain_data() {
    let (off, on) = off_and_on().await;
    let (status, body) = on.call("dev-enc", "/user/init", None, json!({})).await;
    assert_eq!(status, 200, "{body}");
    let fields: Vec<&str> = body.as_object().expect("envelope").keys().map(String::as_str).collect();
    assert_eq!(fields, ["code", "data", FIELD, "message"], "{body}");
    assert_eq!(
        (&body["code"], &body["data"], &body["message"]),
        (&json!(0), &Value::Null, &json!("ok"))
    );
    let init = decrypted(&body);
    let token = init["token"].as_str().expect("the token is in the encrypted data");
    assert_eq!(init["user"]["is_new_user"], 1);

    let (status, plain) = off.call("dev-enc", "/user/info", Some(token), json!({})).await;
    assert_eq!(status, 200);
    assert!(plain.get(FIELD).is_none());
    let (status, sealed) = on.call("dev-enc", "/user/info", Some(token), json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(sealed["data"], Value::Null);
    assert_eq!(
        without_last_time(decrypted(&sealed)),
        without_last_time(plain["data"].clone())
    );
    assert_eq!(decrypted(&sealed)["id"], init["user"]["id"]);
}

#[tokio::test]
async fn spec_7_22_every_answer_has_its_own_nonce() {
    let (_, on) = off_and_on().await;
    let (_, first) = on.call("dev-nonce", "/user/init", None, json!({})).await;
    let token = decrypted(&first)["token"].as_str().expect("token").to_string();
    let (_, a) = on.call("dev-nonce", "/user/info", Some(&token), json!({})).await;
    let (_, b) = on.call("dev-nonce", "/user/info", Some(&token), json!({})).await;
    let nonce = |v: &Value| v[FIELD].as_str().expect("edata")[..16].to_string();
    assert_ne!(nonce(&a), nonce(&b));
    assert_ne!(nonce(&first), nonce(&a));
}

#[tokio::test]
async fn spec_7_22_off_by_default_answers_are_plain() {
    assert!(!api::ApiConfig::default().encrypt_responses);
    let (off, _) = off_and_on().await;
    let (status, body) = off.call("dev-plain", "/user/init", None, json!({})).await;
    assert_eq!(status, 200);
    assert!(body.get(FIELD).is_none(), "{body}");
    assert!(body["data"]["token"].is_string(), "{body}");
}

#[tokio::test]
async fn spec_7_22_on_errors_and_get_answers_stay_plain() {
    let (_, on) = off_and_on().await;
    let (status, body) = on.call("dev-err", "/user/info", None, json!({})).await;
    assert_eq!(status, 401);
    assert!(body.get(FIELD).is_none(), "{body}");
    assert!(body["data"]["reason"].is_string(), "{body}");
    let (status, body) = on.call("dev-err", "/user/init", None, json!({"user_type": 7})).await;
    assert_eq!(status, 400);
    assert!(body.get(FIELD).is_none(), "{body}");

    let res = on.get("/api/app/config").await;
    assert_eq!(res.status(), 200);
    let body: Value = res.json().await.expect("json");
    assert!(body.get(FIELD).is_none());
    assert!(body["data"].is_object(), "{body}");
}

#[tokio::test]
async fn spec_7_22_on_encrypted_answers_keep_their_json_and_no_store_headers() {
    let (_, on) = off_and_on().await;
    let base = support::base_for("dev-gzip", "en", "US");
    let s = support::signing(&base, "/user/init");
    let res = on
        .http
        .post(on.url("/api/user/init"))
        .header("content-type", "application/json")
        .header("accept-encoding", "identity")
        .header("base", &s.base)
        .header("timestamp", &s.timestamp)
        .header("nonce", &s.nonce)
        .header("sign", &s.sign)
        .body("{}")
        .send()
        .await
        .expect("POST");
    assert_eq!(res.status(), 200);
    assert_eq!(
        res.headers().get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/json")
    );
    assert_eq!(
        res.headers().get("cache-control").and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let body: Value = res.json().await.expect("json");
    assert!(decrypted(&body)["token"].is_string());
}
