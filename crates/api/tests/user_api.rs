//! The `/api/user/*` calls through the real router, on SQLite and PostgreSQL
//! (SPEC §3.1, §4.1, §7.1, §7.3, §7.4, §7.11).

mod support;

use serde_json::json;
use support::TestApp;

async fn spec_7_1_init_creates_a_guest_with_token(app: &TestApp) {
    let (status, body) = app.call("dev-init-1", "/user/init", None, json!({})).await;
    assert_eq!(status, 200);
    assert_eq!((body["code"].as_i64(), body["message"].as_str()), (Some(0), Some("ok")));
    let user = &body["data"]["user"];
    assert_eq!(user["account_type"], 0, "guest (§3.2)");
    assert_eq!(user["is_new_user"], 1);
    assert_eq!(user["user_type"], 0);
    assert_eq!(
        (user["city"].as_str(), user["city_show"].as_str()),
        (Some("Washington"), Some("Washington, DC"))
    );
    assert!(
        user["join_time"].as_i64().unwrap() > 1_000_000_000_000,
        "milliseconds (§3.1)"
    );
    assert!(user["id"].as_i64().unwrap() > 0);
    for field in [
        "name",
        "photo",
        "email",
        "last_time",
        "app_lang",
        "postal_code",
        "country",
        "admin_code",
        "city_id",
        "lat",
        "lon",
    ] {
        assert!(user.get(field).is_some(), "user has {field}");
    }
    let token = body["data"]["token"].as_str().unwrap();
    let (id, secret) = token.split_once('.').expect("<session id>.<secret>");
    assert!(id.parse::<i64>().unwrap() > 0);
    assert_eq!(secret.len(), 43, "256 random bits, base64url");
}

async fn spec_4_2_init_with_its_token_fetches_the_same_guest(app: &TestApp) {
    let (a, token) = app.guest("dev-init-2").await;
    let (status, body) = app.call("dev-init-2", "/user/init", Some(&token), json!({})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["id"], a["id"]);
    assert_eq!(body["data"]["user"]["is_new_user"], 0);
    assert_eq!(body["data"]["token"].as_str(), Some(token.as_str()), "the same session");
}

/// D350: the device id travels in the `base` header, a script-readable cookie and the
/// operator's usage export; naming it without its token opens nothing of its guest.
async fn d350_a_known_device_id_without_its_token_gets_a_new_guest(app: &TestApp) {
    let (victim, victim_token) = app.guest("dev-victim").await;
    let follow = json!({"kind": "category", "value": "sports"});
    let (status, _) = app
        .call("dev-victim", "/user/topics/follow", Some(&victim_token), follow)
        .await;
    assert_eq!(status, 200);
    for stolen in [None, Some("1.not-the-secret"), Some("garbage")] {
        let (status, body) = app.call("dev-victim", "/user/init", stolen, json!({})).await;
        assert_eq!(status, 200, "{body}");
        assert_ne!(
            body["data"]["user"]["id"], victim["id"],
            "a new guest, not the victim's"
        );
        assert_eq!(body["data"]["user"]["is_new_user"], 1);
        let token = body["data"]["token"].as_str().unwrap();
        let (_, topics) = app
            .call("dev-victim", "/user/topics/list", Some(token), json!({}))
            .await;
        assert_eq!(
            topics["data"]["list"],
            json!([]),
            "none of the victim's things: {topics}"
        );
    }
    let (_, topics) = app
        .call("dev-victim", "/user/topics/list", Some(&victim_token), json!({}))
        .await;
    assert_eq!(
        topics["data"]["list"].as_array().map(Vec::len),
        Some(1),
        "the victim keeps theirs"
    );
}

async fn spec_7_1_user_type_1_for_ad_channel(app: &TestApp) {
    let (status, body) = app
        .call(
            "dev-ad",
            "/user/init",
            None,
            json!({"user_type": 1, "channel": "googleadwords_int"}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["user"]["user_type"], 1);
    let (status, body) = app.call("dev-ad-2", "/user/init", None, json!({"user_type": 7})).await;
    assert_eq!(status, 400);
    assert!(body["message"].as_str().unwrap().starts_with("Field `user_type`"));
}

async fn spec_5_6_guest_from_unsupported_country_gets_default_location(app: &TestApp) {
    let base = support::base_for("dev-mx", "de", "MX");
    let (status, body) = app
        .call_with(&support::signing(&base, "/user/init"), "/user/init", None, "{}".into())
        .await;
    assert_eq!(status, 200);
    let u = &body["data"]["user"];
    assert_eq!(
        (u["country"].as_str(), u["app_lang"].as_str(), u["postal_code"].as_str()),
        (Some("US"), Some("en"), Some("20003"))
    );
    let base = support::base_for("dev-qc", "fr", "CA");
    let (_, body) = app
        .call_with(&support::signing(&base, "/user/init"), "/user/init", None, "{}".into())
        .await;
    assert_eq!(body["data"]["user"]["city_show"], "Ottawa, ON");
    assert_eq!(body["data"]["user"]["app_lang"], "fr");
}

async fn spec_7_3_info_returns_the_user_of_the_token(app: &TestApp) {
    let (user, token) = app.guest("dev-info").await;
    let (status, body) = app.call("dev-info", "/user/info", Some(&token), json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["id"], user["id"]);
    assert_eq!(body["data"]["account_type"], 0);
}

async fn spec_8_2_info_without_valid_token_is_401_unauthorized(app: &TestApp) {
    let (status, body) = app.call("dev-x", "/user/info", None, json!({})).await;
    assert_eq!(
        (status, body["code"].as_i64(), body["message"].as_str()),
        (401, Some(401), Some("Unauthorized"))
    );
    assert!(body["data"]["reason"].as_str().unwrap().contains("token"));
    let (status, body) = app.call("dev-x", "/user/info", Some("not-a-token"), json!({})).await;
    assert_eq!((status, body["message"].as_str()), (401, Some("Unauthorized")));
}

async fn spec_4_1_logout_ends_the_session_and_returns_a_new_guest(app: &TestApp) {
    let (user, token) = app.guest("dev-logout").await;
    let (status, body) = app.call("dev-logout", "/user/logout", Some(&token), json!({})).await;
    assert_eq!(status, 200);
    let new_user = &body["data"]["user"];
    let new_token = body["data"]["token"].as_str().unwrap();
    assert_ne!(new_user["id"], user["id"]);
    assert_eq!(new_user["account_type"], 0);
    assert_ne!(new_token, token);
    let (status, _) = app.call("dev-logout", "/user/info", Some(&token), json!({})).await;
    assert_eq!(status, 401, "the old token is gone");
    let (status, body) = app.call("dev-logout", "/user/info", Some(new_token), json!({})).await;
    assert_eq!((status, &body["data"]["id"]), (200, &new_user["id"]));
}

async fn spec_7_11_location_update_sets_city_and_fills_reply(app: &TestApp) {
    let (_, token) = app.guest("dev-loc").await;
    let body = json!({"lat": 45.50884, "lon": -73.58781, "country": "CA", "city": "Montréal", "city_id": 6077243,
                      "lang": "fr", "admin_code": "QC"});
    let (status, reply) = app.call("dev-loc", "/user/location/update", Some(&token), body).await;
    assert_eq!(status, 200, "{reply}");
    let u = &reply["data"]["user"];
    assert_eq!(
        (u["city"].as_str(), u["city_show"].as_str(), u["admin_code"].as_str()),
        (Some("Montréal"), Some("Montréal, QC"), Some("QC"))
    );
    assert_eq!(
        (u["app_lang"].as_str(), u["country"].as_str(), u["city_id"].as_i64()),
        (Some("fr"), Some("CA"), Some(6077243))
    );
    assert!(u.get("account_type").is_none(), "account_type is dropped (§7)");
    assert_eq!(reply["data"]["token"], token.as_str());
    let (_, info) = app.call("dev-loc", "/user/info", Some(&token), json!({})).await;
    assert_eq!(info["data"]["city"], "Montréal");
}

async fn spec_7_11_location_update_rejects_bad_fields(app: &TestApp) {
    let (_, token) = app.guest("dev-loc-bad").await;
    let cases = [
        (
            json!({"lat": 95, "lon": 0, "country": "US", "city": "X", "lang": "en"}),
            "Field `lat`",
        ),
        (
            json!({"lat": 1, "lon": 0, "country": "MX", "city": "X", "lang": "en"}),
            "Field `country`",
        ),
        (
            json!({"lat": 1, "lon": 0, "country": "US", "city": "X", "lang": "de"}),
            "Field `lang`",
        ),
        (
            json!({"lat": "north", "lon": 0, "country": "US", "city": "X", "lang": "en"}),
            "Field `lat`: invalid type",
        ),
        (
            json!({"lon": 0, "country": "US", "city": "X", "lang": "en"}),
            "Request body: missing field `lat`",
        ),
    ];
    for (body, want) in cases {
        let (status, reply) = app
            .call("dev-loc-bad", "/user/location/update", Some(&token), body.clone())
            .await;
        assert_eq!(status, 400, "{body}");
        assert!(reply["message"].as_str().unwrap().starts_with(want), "{body}: {reply}");
    }
    let valid = json!({"lat": 1, "lon": 0, "country": "US", "city": "X", "lang": "en"});
    let (status, _) = app.call("dev-loc-bad", "/user/location/update", None, valid).await;
    assert_eq!(status, 401, "a session is required");
}

async fn many_concurrent_inits_all_succeed(app: &TestApp) {
    let mut handles = Vec::new();
    for i in 0..64 {
        let client = app.http.clone();
        let url = app.url("/api/user/init");
        handles.push(tokio::spawn(async move {
            let device = format!("dev-conc-{i}");
            let s = support::signing(&support::base_for(&device, "en", "US"), "/user/init");
            client
                .post(url)
                .header("base", s.base)
                .header("timestamp", s.timestamp)
                .header("nonce", s.nonce)
                .header("sign", s.sign)
                .body("{}")
                .send()
                .await
                .map(|r| r.status().as_u16())
        }));
    }
    for h in handles {
        assert_eq!(h.await.unwrap().unwrap(), 200);
    }
}

/// D251: `last_time` is written at most once a minute; the answer still says now.
async fn d251_info_writes_last_seen_at_most_once_a_minute(app: &TestApp) {
    let (guest, token) = app.guest("dev-seen").await;
    let joined = guest["last_time"].as_i64().unwrap();
    let (status, body) = app.call("dev-seen", "/user/info", Some(&token), json!({})).await;
    assert_eq!(status, 200);
    assert!(
        body["data"]["last_time"].as_i64().unwrap() >= joined,
        "the answer says now"
    );
    let stored = app
        .store
        .user(store::UserId(guest["id"].as_i64().unwrap()))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.last_time, joined,
        "seen less than a minute ago: not written again"
    );
}

engine_tests!(
    d251_info_writes_last_seen_at_most_once_a_minute,
    spec_7_1_init_creates_a_guest_with_token,
    spec_4_2_init_with_its_token_fetches_the_same_guest,
    d350_a_known_device_id_without_its_token_gets_a_new_guest,
    spec_7_1_user_type_1_for_ad_channel,
    spec_5_6_guest_from_unsupported_country_gets_default_location,
    spec_7_3_info_returns_the_user_of_the_token,
    spec_8_2_info_without_valid_token_is_401_unauthorized,
    spec_4_1_logout_ends_the_session_and_returns_a_new_guest,
    spec_7_11_location_update_sets_city_and_fills_reply,
    spec_7_11_location_update_rejects_bad_fields,
    many_concurrent_inits_all_succeed,
);

#[tokio::test]
async fn expired_token_is_401_with_a_reason() {
    let store = support::sqlite_store().await.unwrap();
    let config = api::ApiConfig {
        session_ttl_ms: 1,
        ..support::config()
    };
    let app = support::start(store, config).await;
    let (_, token) = app.guest("dev-exp").await;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let (status, body) = app.call("dev-exp", "/user/info", Some(&token), json!({})).await;
    assert_eq!((status, body["message"].as_str()), (401, Some("Unauthorized")));
    assert!(body["data"]["reason"].as_str().unwrap().contains("expired"), "{body}");
}

/// Sends a signed init from `ip` (the server trusts `X-Forwarded-For` here).
async fn init_from(app: &TestApp, ip: &str, token: Option<&str>) -> (u16, Option<String>, serde_json::Value) {
    call_from(app, "/user/init", ip, token).await
}

async fn call_from(
    app: &TestApp,
    path: &str,
    ip: &str,
    token: Option<&str>,
) -> (u16, Option<String>, serde_json::Value) {
    let base = support::base_for(&format!("dev-{}", support::nonce()), "en", "US");
    let s = support::signing(&base, path);
    let mut req = app
        .http
        .post(app.url(&format!("/api{path}")))
        .header("content-type", "application/json")
        .header("base", &s.base)
        .header("timestamp", &s.timestamp)
        .header("nonce", &s.nonce)
        .header("sign", &s.sign)
        .header("x-forwarded-for", ip)
        .body("{}");
    if let Some(t) = token {
        req = req.header("token", t);
    }
    let res = req.send().await.unwrap();
    let status = res.status().as_u16();
    let retry = res
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_string());
    (status, retry, res.json().await.unwrap())
}

/// D351: one address (an IPv6 /64) makes a burst of guests, then one per interval; 429
/// with the envelope and Retry-After past it; other addresses are not held up, and a
/// reader who sends their token is answered whatever the budget.
#[tokio::test]
async fn d351_guest_creation_is_limited_per_address_and_ipv6_by_its_64() {
    let store = support::sqlite_store().await.unwrap();
    let config = api::ApiConfig {
        trust_forwarded_for: true,
        guests: api::guests::GuestConfig {
            burst: 3,
            every: std::time::Duration::from_secs(60),
            ..Default::default()
        },
        ..support::config()
    };
    let app = support::start(store, config).await;
    let mut token = None;
    for ip in ["2001:db8:5:6::1", "2001:db8:5:6::2", "2001:db8:5:6:a:b:c:d"] {
        let (status, _, body) = init_from(&app, ip, None).await;
        assert_eq!(status, 200, "{body}");
        token = body["data"]["token"].as_str().map(String::from);
    }
    let (status, retry, body) = init_from(&app, "2001:db8:5:6:ffff::9", None).await;
    assert_eq!((status, body["code"].as_i64()), (429, Some(429)), "{body}");
    assert_eq!(retry.as_deref(), Some("60"));
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("try again in 60 seconds"),
        "a message a person can act on: {body}"
    );
    let (status, _, body) = init_from(&app, "2001:db8:5:6::1", token.as_deref()).await;
    assert_eq!(status, 200, "fetching one's own guest creates nothing: {body}");
    // Logout makes a guest too: refused past the budget, but the session is over all the same.
    let (status, _, body) = call_from(&app, "/user/logout", "2001:db8:5:6::1", token.as_deref()).await;
    assert_eq!((status, body["code"].as_i64()), (429, Some(429)), "{body}");
    let (status, _, _) = call_from(&app, "/user/info", "2001:db8:5:6::1", token.as_deref()).await;
    assert_eq!(status, 401, "the signed-out session does not open the guest any more");
    assert_eq!(init_from(&app, "2001:db8:5:7::1", None).await.0, 200, "the next /64");
    assert_eq!(init_from(&app, "192.0.2.44", None).await.0, 200, "another address");
}

/// D357: every call counts against its address; past the burst, 429 with the envelope
/// for the API and a line of text for a page; the operator's probes and other addresses
/// are not held up; an IPv6 client counts by its /64.
#[tokio::test]
async fn d357_every_call_is_limited_per_address() {
    let store = support::sqlite_store().await.unwrap();
    let config = api::ApiConfig {
        trust_forwarded_for: true,
        calls: api::rate_limit::CallLimitConfig {
            burst: 4,
            per_second: 1,
        },
        ..support::config()
    };
    let app = support::start(store, config).await;
    let get = |path: &'static str, ip: &'static str| {
        let req = app.http.get(app.url(path)).header("x-forwarded-for", ip);
        async move {
            let res = req.send().await.unwrap();
            let retry = res
                .headers()
                .get("retry-after")
                .map(|v| v.to_str().unwrap().to_string());
            (res.status().as_u16(), retry, res.text().await.unwrap())
        }
    };
    for ip in ["2001:db8:9:9::1", "2001:db8:9:9::2", "2001:db8:9:9:1:2:3:4"] {
        assert_eq!(get("/api/push/key", ip).await.0, 200);
    }
    let (status, _, _) = call_from(&app, "/user/info", "2001:db8:9:9::5", None).await;
    assert_eq!(status, 401, "the fourth call is answered (a signed call counts too)");
    let (status, retry, body) = get("/api/push/key", "2001:db8:9:9::6").await;
    assert_eq!((status, retry.as_deref()), (429, Some("1")), "{body}");
    let envelope: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(envelope["code"], 429);
    assert!(
        envelope["message"].as_str().unwrap().contains("try again in 1 second."),
        "{body}"
    );
    let (status, retry, body) = get("/", "2001:db8:9:9::7").await;
    assert_eq!((status, retry.as_deref()), (429, Some("1")), "a page: {body}");
    assert!(body.contains("try again in"), "{body}");
    assert_eq!(get("/healthz", "2001:db8:9:9::8").await.0, 200, "the operator's probe");
    assert_eq!(get("/metrics", "2001:db8:9:9::8").await.0, 200);
    assert_eq!(get("/api/push/key", "2001:db8:9:a::1").await.0, 200, "the next /64");
    assert_eq!(get("/api/push/key", "192.0.2.7").await.0, 200, "another address");
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(
        get("/api/push/key", "2001:db8:9:9::1").await.0,
        200,
        "one a second again"
    );
}
