//! Google and Facebook sign-in through the real router, against loopback providers that
//! speak the real protocols (`fake-providers`), on SQLite and PostgreSQL (issue 17;
//! SPEC §4.1, §4.5, §6.2, §7.2–7.4, §7.16).

mod support;

use fake_providers::{
    FACEBOOK_APP_ID, FACEBOOK_APP_SECRET, FakeFacebookUser, FakeProviders, FakeUser, GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET, GoogleFault,
};
use serde_json::{Value, json};
use support::TestApp;

struct Env {
    app: TestApp,
    fake: FakeProviders,
}

async fn env(store: std::sync::Arc<dyn store::Store>) -> Env {
    let fake = FakeProviders::start().await;
    let config = sign_in_config(&fake);
    let app = support::start_with(store, |addr| api::ApiConfig {
        // The redirect address is built from the public address only (D362).
        public_url: Some(format!("http://{addr}")),
        ..config
    })
    .await;
    Env { app, fake }
}

/// The admin list of the sign-in tests: an email and a Facebook subject (D361).
const ADMIN_EMAIL: &str = "boss@example.com";
const ADMIN_FACEBOOK: &str = "facebook:2002";

fn sign_in_config(fake: &FakeProviders) -> api::ApiConfig {
    api::ApiConfig {
        google: Some(sign_in::GoogleConfig {
            client_id: GOOGLE_CLIENT_ID.into(),
            client_secret: GOOGLE_CLIENT_SECRET.into(),
            issuer: fake.google_issuer(),
        }),
        facebook: Some(sign_in::FacebookConfig {
            app_id: FACEBOOK_APP_ID.into(),
            app_secret: FACEBOOK_APP_SECRET.into(),
            graph_url: fake.facebook_graph_url(),
            dialog_url: fake.facebook_dialog_url(),
        }),
        trust_forwarded_for: true,
        admin_emails: vec![ADMIN_EMAIL.into(), ADMIN_FACEBOOK.into()],
        ..support::config()
    }
}

macro_rules! both_engines {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let store = crate::support::sqlite_store().await.expect("sqlite");
                    super::$case(&super::env(store).await).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some(store) = crate::support::postgres_store().await else {
                        eprintln!("skipped: TEST_DATABASE_URL is not set");
                        return;
                    };
                    super::$case(&super::env(store).await).await;
                }
            )*
        }
    };
}

/// What a browser does between the app and the callback, with its own cookies.
struct Browser {
    token: String,
    sign_in_cookie: Option<String>,
    ip: String,
}

fn set_cookie(res: &reqwest::Response, name: &str) -> Option<String> {
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            let (pair, _) = v.split_once(';').unwrap_or((v, ""));
            let (k, val) = pair.split_once('=')?;
            (k == name).then(|| val.to_string())
        })
}

fn location(res: &reqwest::Response) -> String {
    res.headers()["location"].to_str().unwrap().to_string()
}

impl Browser {
    fn new(token: &str) -> Browser {
        Browser {
            token: token.into(),
            sign_in_cookie: None,
            ip: "198.51.100.1".into(),
        }
    }

    fn cookies(&self) -> String {
        match &self.sign_in_cookie {
            Some(c) => format!("token={}; lw_sign_in={c}", self.token),
            None => format!("token={}", self.token),
        }
    }

    async fn get(&self, env: &Env, url: &str) -> reqwest::Response {
        env.app
            .http
            .get(url)
            .header("cookie", self.cookies())
            .header("x-forwarded-for", &self.ip)
            .header(
                "user-agent",
                "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36",
            )
            .send()
            .await
            .expect("GET")
    }

    /// Start at our server, pass the provider (which signs in at once), and stop before
    /// the callback: its URL.
    async fn start_until_callback(&mut self, env: &Env, provider: &str, query: &str) -> String {
        let start = self
            .get(env, &env.app.url(&format!("/auth/{provider}/start?{query}")))
            .await;
        assert_eq!(start.status(), 303, "{}", start.text().await.unwrap_or_default());
        self.sign_in_cookie = set_cookie(&start, "lw_sign_in");
        assert!(self.sign_in_cookie.is_some(), "the browser gets its half of the flow");
        let at_provider = env.app.http.get(location(&start)).send().await.expect("provider");
        assert!(at_provider.status().is_redirection(), "{}", at_provider.status());
        location(&at_provider)
    }

    /// The whole flow: the callback's answer.
    async fn sign_in(&mut self, env: &Env, provider: &str, query: &str) -> reqwest::Response {
        let callback = self.start_until_callback(env, provider, query).await;
        let res = self.get(env, &callback).await;
        if let Some(token) = set_cookie(&res, "token") {
            self.token = token;
        }
        res
    }
}

async fn page_reason(res: reqwest::Response) -> (u16, String) {
    let status = res.status().as_u16();
    let html = res.text().await.unwrap();
    let reason = html
        .split("data-reason=\"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap_or("?")
        .to_string();
    (status, reason)
}

async fn info(env: &Env, device: &str, token: &str) -> (u16, Value) {
    env.app.call(device, "/user/info", Some(token), json!({})).await
}

fn montreal() -> Value {
    json!({"lat": 45.5, "lon": -73.57, "country": "CA", "city": "Montréal", "city_id": 6077243, "lang": "fr",
           "admin_code": "QC", "postal_code": "H2X"})
}

async fn a_guest_signs_in_by_popup_keeping_the_city_and_the_session_rotates(env: &Env) {
    let (guest, guest_token) = env.app.guest("dev-web-1").await;
    let (status, _) = env
        .app
        .call("dev-web-1", "/user/location/update", Some(&guest_token), montreal())
        .await;
    assert_eq!(status, 200);
    let mut browser = Browser::new(&guest_token);
    let res = browser.sign_in(env, "google", "return=%2Flocal&mode=popup").await;
    assert_eq!(res.status(), 200);
    assert!(set_cookie(&res, "token").is_some(), "the app's token cookie is set");
    let html = res.text().await.unwrap();
    assert!(
        html.contains("data-ok=\"1\"") && html.contains("/auth/complete.js"),
        "{html}"
    );
    assert_ne!(browser.token, guest_token, "a new session (no fixation)");
    let (status, body) = info(env, "dev-web-1", &browser.token).await;
    assert_eq!(status, 200, "{body}");
    let user = &body["data"];
    assert_eq!(user["id"], guest["id"], "the guest became the account");
    assert_eq!(user["account_type"], 3, "google (§3.2)");
    assert_eq!(
        (user["name"].as_str(), user["city"].as_str()),
        (Some("Ada Lovelace"), Some("Montréal"))
    );
    assert_eq!(
        info(env, "dev-web-1", &guest_token).await.0,
        401,
        "the guest session ended"
    );
}

async fn a_second_device_signs_in_to_the_same_account_and_its_guest_merges(env: &Env) {
    let (_, t1) = env.app.guest("dev-two-1").await;
    let mut first = Browser::new(&t1);
    first.sign_in(env, "google", "").await;
    let (_, account) = info(env, "dev-two-1", &first.token).await;
    let (guest2, t2) = env.app.guest("dev-two-2").await;
    let mut second = Browser::new(&t2);
    second.sign_in(env, "google", "").await;
    let (status, body) = info(env, "dev-two-2", &second.token).await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["id"], account["data"]["id"], "the same account");
    assert_ne!(body["data"]["id"], guest2["id"]);
    let (_, sessions) = env
        .app
        .call("dev-two-2", "/user/sessions", Some(&second.token), json!({}))
        .await;
    let list = sessions["data"]["list"].as_array().unwrap();
    assert_eq!(list.len(), 2, "one session per device: {sessions}");
    assert_eq!(list.iter().filter(|s| s["current"] == true).count(), 1);
    assert_eq!(list[0]["label"], "Chrome on Linux");
}

async fn a_state_is_used_once_and_only_by_the_browser_it_was_issued_to(env: &Env) {
    let (_, token) = env.app.guest("dev-state").await;
    let mut browser = Browser::new(&token);
    let callback = browser.start_until_callback(env, "google", "").await;
    // Another browser (no lw_sign_in cookie) with the same callback URL.
    let stranger = Browser::new(&token);
    assert_eq!(
        page_reason(stranger.get(env, &callback).await).await,
        (400, "SignIn_OtherBrowser".into())
    );
    // That attempt used the state up: the real browser cannot use it either.
    assert_eq!(
        page_reason(browser.get(env, &callback).await).await,
        (400, "SignIn_Expired".into())
    );
    // A forged state.
    let forged = callback.replace("state=", "state=x");
    assert_eq!(page_reason(browser.get(env, &forged).await).await.1, "SignIn_Expired");
    // A fresh flow, used, then replayed (state and code again).
    let callback = browser.start_until_callback(env, "google", "").await;
    let first = browser.get(env, &callback).await;
    assert_eq!(first.status(), 200);
    assert_eq!(page_reason(browser.get(env, &callback).await).await.1, "SignIn_Expired");
}

async fn a_bad_id_token_signs_nobody_in(env: &Env) {
    for (fault, why) in [
        (GoogleFault::WrongNonce, "wrong nonce"),
        (GoogleFault::Expired, "expired"),
        (GoogleFault::AlgNone, "unsigned"),
        (GoogleFault::WrongKey, "wrongly signed"),
        (GoogleFault::OtherAudience, "another client id"),
        (GoogleFault::WrongIssuer, "another issuer"),
    ] {
        env.fake.google_fault(fault);
        let device = format!("dev-bad-{}", why.replace(' ', "-"));
        let (guest, token) = env.app.guest(&device).await;
        let mut browser = Browser::new(&token);
        let res = browser.sign_in(env, "google", "").await;
        assert!(set_cookie(&res, "token").is_none(), "{why}: no new token");
        assert_eq!(page_reason(res).await, (400, "SignIn_Rejected".into()), "{why}");
        let (status, body) = info(env, &device, &token).await;
        assert_eq!(
            (status, &body["data"]["account_type"]),
            (200, &json!(0)),
            "{why}: still a guest"
        );
        assert_eq!(body["data"]["id"], guest["id"]);
    }
    env.fake.google_fault(GoogleFault::None);
}

/// Whether the account behind `token` is an operator: what the account call says, and
/// whether the operator's feed list opens (200) or not (403).
async fn operator(env: &Env, device: &str, token: &str) -> (Option<bool>, u16) {
    let (_, account) = env.app.call(device, "/user/account", Some(token), json!({})).await;
    let (status, _) = env.app.call(device, "/admin/feeds", Some(token), json!({})).await;
    (account["data"]["operator"].as_bool(), status)
}

async fn d361_an_unverified_google_email_on_the_admin_list_is_not_an_operator(env: &Env) {
    env.fake.set_google_user(FakeUser {
        sub: "g-unverified".into(),
        email: Some(ADMIN_EMAIL.into()),
        email_verified: false,
        ..FakeUser::default()
    });
    let (_, token) = env.app.guest("dev-unverified").await;
    let mut browser = Browser::new(&token);
    assert_eq!(browser.sign_in(env, "google", "").await.status(), 200);
    assert_eq!(
        operator(env, "dev-unverified", &browser.token).await,
        (Some(false), 403),
        "Google did not say the email is verified"
    );

    env.fake.set_google_user(FakeUser {
        sub: "g-verified".into(),
        email: Some(ADMIN_EMAIL.to_uppercase()),
        email_verified: true,
        ..FakeUser::default()
    });
    let (_, token) = env.app.guest("dev-verified").await;
    let mut browser = Browser::new(&token);
    assert_eq!(browser.sign_in(env, "google", "").await.status(), 200);
    assert_eq!(
        operator(env, "dev-verified", &browser.token).await,
        (Some(true), 200),
        "a verified Google email on the list"
    );
}

async fn d361_a_facebook_email_on_the_admin_list_is_not_an_operator_a_listed_subject_is(env: &Env) {
    env.fake.set_facebook_user(FakeFacebookUser {
        id: "1001".into(),
        email: Some(ADMIN_EMAIL.into()),
        ..FakeFacebookUser::default()
    });
    let (_, token) = env.app.guest("dev-fb-email").await;
    let mut browser = Browser::new(&token);
    assert_eq!(browser.sign_in(env, "facebook", "").await.status(), 200);
    assert_eq!(
        operator(env, "dev-fb-email", &browser.token).await,
        (Some(false), 403),
        "Facebook does not say whether an email is verified"
    );

    env.fake.set_facebook_user(FakeFacebookUser {
        id: ADMIN_FACEBOOK.trim_start_matches("facebook:").into(),
        email: None,
        ..FakeFacebookUser::default()
    });
    let (_, token) = env.app.guest("dev-fb-subject").await;
    let mut browser = Browser::new(&token);
    assert_eq!(browser.sign_in(env, "facebook", "").await.status(), 200);
    assert_eq!(
        operator(env, "dev-fb-subject", &browser.token).await,
        (Some(true), 200),
        "listed as facebook:<id>"
    );
}

async fn facebook_without_email_signs_in(env: &Env) {
    env.fake.set_facebook_user(FakeFacebookUser {
        id: "fb-1001".into(),
        name: "Grace Hopper".into(),
        email: None,
        picture: "https://graph.example/p/1001.jpg".into(),
    });
    let (_, token) = env.app.guest("dev-fb").await;
    let mut browser = Browser::new(&token);
    let res = browser.sign_in(env, "facebook", "").await;
    assert_eq!(res.status(), 200);
    let (_, body) = info(env, "dev-fb", &browser.token).await;
    let user = &body["data"];
    assert_eq!(user["account_type"], 2, "facebook (§3.2)");
    assert_eq!(
        (user["name"].as_str(), user["email"].as_str()),
        (Some("Grace Hopper"), Some(""))
    );
    // §7.16 avatar from the picture data, handed out through the image proxy (D382).
    let photo = user["photo"].as_str().unwrap_or_default();
    let original = base64::Engine::encode(
        &base64::engine::general_purpose::URL_SAFE_NO_PAD,
        "https://graph.example/p/1001.jpg",
    );
    assert!(
        photo.starts_with("/proxy/") && photo.ends_with(&format!("/{original}")),
        "§7.16 avatar from the picture data, through the image proxy: {photo}"
    );
}

async fn a_whole_window_sign_in_returns_only_to_our_own_paths(env: &Env) {
    let cases = [
        ("%2Fcategory%2Fsports%3Fx%3D1", "/category/sports?x=1"),
        ("%2F%2Fevil.example%2F", "/"),
        ("%2F%5Cevil.example", "/"),
        ("%5C%2Fevil.example", "/"),
        ("%2F%09%2Fevil.example", "/"),
        ("%2F%252F%252Fevil.example", "/"),
        ("https%3A%2F%2Fevil.example%2F", "/"),
    ];
    for (i, (asked, landed)) in cases.into_iter().enumerate() {
        let (_, token) = env.app.guest(&format!("dev-page-{i}")).await;
        let mut browser = Browser::new(&token);
        let res = browser
            .sign_in(env, "google", &format!("mode=page&return={asked}"))
            .await;
        assert_eq!(res.status(), 303);
        assert_eq!(location(&res), landed);
    }
}

async fn linking_facebook_to_a_google_account(env: &Env) {
    let (_, token) = env.app.guest("dev-link").await;
    let mut browser = Browser::new(&token);
    browser.sign_in(env, "google", "").await;
    let res = browser.sign_in(env, "facebook", "link=1").await;
    assert_eq!(res.status(), 200);
    let (_, account) = env
        .app
        .call("dev-link", "/user/account", Some(&browser.token), json!({}))
        .await;
    let types: Vec<_> = account["data"]["identities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["type"].as_i64().unwrap())
        .collect();
    assert_eq!(types, [3, 2], "{account}");
}

async fn logout_after_sign_in_gives_a_new_guest(env: &Env) {
    let (_, token) = env.app.guest("dev-out").await;
    let mut browser = Browser::new(&token);
    browser.sign_in(env, "google", "").await;
    let (status, body) = env
        .app
        .call("dev-out", "/user/logout", Some(&browser.token), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["user"]["account_type"], 0, "§4.1 a new anonymous session");
    assert_eq!(
        info(env, "dev-out", &browser.token).await.0,
        401,
        "the account session ended"
    );
    // Signing in again from the new guest finds the account.
    let mut again = Browser::new(body["data"]["token"].as_str().unwrap());
    again.sign_in(env, "google", "").await;
    assert_eq!(info(env, "dev-out", &again.token).await.1["data"]["account_type"], 3);
}

async fn account_page_calls_for_sessions_download_and_delete(env: &Env) {
    let (_, guest_token) = env.app.guest("dev-acct").await;
    assert_eq!(
        env.app
            .call("dev-acct", "/user/account", Some(&guest_token), json!({}))
            .await
            .0,
        403,
        "a guest has no account page"
    );
    let mut browser = Browser::new(&guest_token);
    browser.sign_in(env, "google", "").await;
    let mut other = Browser::new(&env.app.guest("dev-acct-2").await.1);
    other.sign_in(env, "google", "").await;
    let (_, list) = env
        .app
        .call("dev-acct", "/user/sessions", Some(&browser.token), json!({}))
        .await;
    let other_id = list["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["current"] == false)
        .map(|s| s["id"].clone())
        .expect("the other device");
    let (status, body) = env
        .app
        .call(
            "dev-acct",
            "/user/sessions/revoke",
            Some(&browser.token),
            json!({"session_id": other_id}),
        )
        .await;
    assert_eq!((status, &body["data"]["revoked"]), (200, &json!(1)));
    assert_eq!(info(env, "dev-acct-2", &other.token).await.0, 401, "revoked");
    let (status, body) = env
        .app
        .call("dev-acct", "/user/sessions/revoke", Some(&browser.token), json!({}))
        .await;
    assert_eq!(status, 400, "{body}");

    let (status, export) = env
        .app
        .call("dev-acct", "/user/export", Some(&browser.token), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(export["data"]["user"]["email"], "ada@example.com");
    assert_eq!(export["data"]["identities"][0]["type"], 3);
    assert!(
        export["data"]["devices"]
            .as_array()
            .unwrap()
            .contains(&json!("dev-acct"))
    );

    let (status, body) = env
        .app
        .call(
            "dev-acct",
            "/user/delete",
            Some(&browser.token),
            json!({"confirm": "yes"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let user_id = export["data"]["user"]["id"].as_i64().unwrap();
    let (status, body) = env
        .app
        .call(
            "dev-acct",
            "/user/delete",
            Some(&browser.token),
            json!({"confirm": "delete"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["account_type"], 0, "a new guest");
    assert!(
        env.app.store.user(store::UserId(user_id)).await.unwrap().is_none(),
        "gone"
    );
    assert!(
        env.app
            .store
            .export_user(store::UserId(user_id))
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(info(env, "dev-acct", &browser.token).await.0, 401);
}

async fn native_third_login_verifies_with_the_provider_first(env: &Env) {
    let ada = FakeUser::default();
    let id_token = env.fake.mint_google_id_token(&ada, None);
    let (_, guest_token) = env.app.guest("dev-native").await;
    let (status, body) = env
        .app
        .call(
            "dev-native",
            "/user/third/login",
            Some(&guest_token),
            json!({"type": 3, "id_token": id_token}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["account_type"], 3);
    let token = body["data"]["token"].as_str().unwrap();
    assert_eq!(info(env, "dev-native", token).await.0, 200);
    assert_eq!(info(env, "dev-native", &guest_token).await.0, 401, "rotated");

    // Facebook, without a token from init: a new guest signs in (never the device's, D350).
    let fb = FakeFacebookUser::default();
    let access = env.fake.mint_facebook_access_token(&fb);
    let (status, body) = env
        .app
        .call(
            "dev-native-fb",
            "/user/third/login",
            None,
            json!({"type": 2, "access_token": access}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["account_type"], 2);

    // Unverifiable: a clear error, nothing created.
    env.fake.google_fault(GoogleFault::WrongKey);
    let forged = env.fake.mint_google_id_token(
        &FakeUser {
            sub: "forged".into(),
            ..FakeUser::default()
        },
        None,
    );
    env.fake.google_fault(GoogleFault::None);
    let (status, body) = env
        .app
        .call(
            "dev-native-2",
            "/user/third/login",
            None,
            json!({"type": 3, "id_token": forged}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body["message"].as_str().unwrap().contains("Google"), "{body}");
    for (payload, field) in [
        (json!({"type": 3}), "id_token"),
        (json!({"type": 2, "access_token": ""}), "access_token"),
        (json!({"type": 7, "id_token": "x"}), "type"),
    ] {
        let (status, body) = env.app.call("dev-native-3", "/user/third/login", None, payload).await;
        assert_eq!(status, 400);
        assert!(
            body["message"].as_str().unwrap().contains(&format!("`{field}`")),
            "{body}"
        );
    }
}

async fn sign_in_starts_are_rate_limited_per_address(env: &Env) {
    let (_, token) = env.app.guest("dev-rate").await;
    let mut browser = Browser::new(&token);
    browser.ip = "203.0.113.9".into();
    let url = env.app.url("/auth/google/start");
    for _ in 0..10 {
        assert_eq!(browser.get(env, &url).await.status(), 303);
    }
    let res = browser.get(env, &url).await;
    assert_eq!(page_reason(res).await, (429, "SignIn_TooMany".into()));
    browser.ip = "203.0.113.10".into();
    assert_eq!(browser.get(env, &url).await.status(), 303, "another address");
    // Native sign-in: the §7 envelope with Retry-After.
    let mut last = (0, Value::Null);
    for i in 0..11 {
        let base = support::base_for(&format!("dev-rate-n{i}"), "en", "US");
        let s = support::signing(&base, "/user/third/login");
        let res = env
            .app
            .http
            .post(env.app.url("/api/user/third/login"))
            .header("content-type", "application/json")
            .header("base", &s.base)
            .header("timestamp", &s.timestamp)
            .header("nonce", &s.nonce)
            .header("sign", &s.sign)
            .header("x-forwarded-for", "203.0.113.11")
            .body(r#"{"type":3,"id_token":"x"}"#)
            .send()
            .await
            .unwrap();
        let retry = res.headers().get("retry-after").is_some();
        last = (res.status().as_u16(), res.json().await.unwrap());
        assert_eq!(retry, last.0 == 429);
    }
    assert_eq!(last.0, 429);
    assert_eq!(last.1["code"], 429);
}

/// D350: a session the guest had besides the one that signs in (another tab's, or one
/// handed out for its device id before device ids stopped being credentials) does not
/// open the account the guest becomes.
async fn d350_a_guest_becoming_an_account_ends_its_other_sessions(env: &Env) {
    let (guest, token) = env.app.guest("dev-upgrade-other").await;
    let secret = api::session::new_secret();
    let other_id = env
        .app
        .store
        .start_account_session(&store::AccountSessionRequest {
            user_id: store::UserId(guest["id"].as_i64().unwrap()),
            device_id: "dev-upgrade-other".into(),
            verifier_hash: api::session::verifier_hash(&secret),
            label: "another browser".into(),
            now_ms: support::now_ms(),
            expires_at_ms: support::now_ms() + 86_400_000,
        })
        .await
        .unwrap();
    let other = api::session::compose_token(other_id, &secret);
    assert_eq!(
        info(env, "dev-upgrade-other", &other).await.0,
        200,
        "the other session was live"
    );
    let mut browser = Browser::new(&token);
    let res = browser.sign_in(env, "google", "mode=popup").await;
    assert_eq!(res.status(), 200);
    let (status, body) = info(env, "dev-upgrade-other", &browser.token).await;
    assert_eq!(
        (status, body["data"]["id"].clone()),
        (200, guest["id"].clone()),
        "{body}"
    );
    assert_eq!(
        info(env, "dev-upgrade-other", &other).await.0,
        401,
        "the other session ended"
    );
    assert_eq!(
        info(env, "dev-upgrade-other", &token).await.0,
        401,
        "the signing-in session ended"
    );
}

/// D350: a native sign-in that names a reader's device id but carries no token signs a new
/// guest in; the reader's guest, its things and its session are untouched.
async fn d350_native_sign_in_with_a_victims_device_id_never_takes_their_guest(env: &Env) {
    let (victim, victim_token) = env.app.guest("dev-victim-native").await;
    let follow = json!({"kind": "category", "value": "sports"});
    let (status, _) = env
        .app
        .call("dev-victim-native", "/user/topics/follow", Some(&victim_token), follow)
        .await;
    assert_eq!(status, 200);
    let attacker = FakeUser {
        sub: "attacker-1".into(),
        email: Some("attacker@example.org".into()),
        ..FakeUser::default()
    };
    let id_token = env.fake.mint_google_id_token(&attacker, None);
    let (status, body) = env
        .app
        .call(
            "dev-victim-native",
            "/user/third/login",
            None,
            json!({"type": 3, "id_token": id_token}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_ne!(body["data"]["user"]["id"], victim["id"], "not the victim's guest");
    let attacker_token = body["data"]["token"].as_str().unwrap();
    let (_, topics) = env
        .app
        .call(
            "dev-victim-native",
            "/user/topics/list",
            Some(attacker_token),
            json!({}),
        )
        .await;
    assert_eq!(topics["data"]["list"], json!([]), "{topics}");
    let (status, body) = info(env, "dev-victim-native", &victim_token).await;
    assert_eq!(
        (status, body["data"]["account_type"].as_i64()),
        (200, Some(0)),
        "still the victim's guest"
    );
}

both_engines!(
    a_guest_signs_in_by_popup_keeping_the_city_and_the_session_rotates,
    a_second_device_signs_in_to_the_same_account_and_its_guest_merges,
    a_state_is_used_once_and_only_by_the_browser_it_was_issued_to,
    a_bad_id_token_signs_nobody_in,
    facebook_without_email_signs_in,
    a_whole_window_sign_in_returns_only_to_our_own_paths,
    d361_an_unverified_google_email_on_the_admin_list_is_not_an_operator,
    d361_a_facebook_email_on_the_admin_list_is_not_an_operator_a_listed_subject_is,
    linking_facebook_to_a_google_account,
    logout_after_sign_in_gives_a_new_guest,
    account_page_calls_for_sessions_download_and_delete,
    native_third_login_verifies_with_the_provider_first,
    sign_in_starts_are_rate_limited_per_address,
    d350_a_guest_becoming_an_account_ends_its_other_sessions,
    d350_native_sign_in_with_a_victims_device_id_never_takes_their_guest,
);

/// A provider that is down or never answers: a clear message within 10 s, and the
/// reader's session untouched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_provider_down_or_hanging_fails_soft_within_ten_seconds() {
    let env = env(support::sqlite_store().await.expect("sqlite")).await;
    let (_, token) = env.app.guest("dev-down").await;
    let mut browser = Browser::new(&token);
    // Down from the start: discovery fails, so the popup says so at once.
    env.fake.google_fault(GoogleFault::Down);
    let res = browser.get(&env, &env.app.url("/auth/google/start")).await;
    assert_eq!(page_reason(res).await, (400, "SignIn_ProviderDown".into()));
    // Hanging at the code exchange: the callback gives up within the provider timeout.
    env.fake.google_fault(GoogleFault::None);
    let callback = browser.start_until_callback(&env, "google", "").await;
    env.fake.google_fault(GoogleFault::Hang);
    let started = std::time::Instant::now();
    let res = browser.get(&env, &callback).await;
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(page_reason(res).await, (400, "SignIn_ProviderDown".into()));
    env.fake.google_fault(GoogleFault::None);
    assert_eq!(
        info(&env, "dev-down", &token).await.0,
        200,
        "the guest session is untouched"
    );
}

/// A provider with no client id is off: the popup and the native call say so.
#[tokio::test]
async fn a_provider_without_a_client_id_is_off() {
    let app = support::start(support::sqlite_store().await.unwrap(), support::config()).await;
    let (_, token) = app.guest("dev-off").await;
    let res = app
        .http
        .get(app.url("/auth/google/start"))
        .header("cookie", format!("token={token}"))
        .send()
        .await
        .unwrap();
    let (status, reason) = {
        let status = res.status().as_u16();
        let html = res.text().await.unwrap();
        (status, html.contains("data-reason=\"SignIn_NotConfigured\""))
    };
    assert_eq!((status, reason), (400, true));
    let (status, body) = app
        .call(
            "dev-off",
            "/user/third/login",
            Some(&token),
            json!({"type": 3, "id_token": "x"}),
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "Google sign-in is not set up on this server.");
    let (_, config) = (0, app.get("/api/app/config").await.json::<Value>().await.unwrap());
    assert_eq!(config["data"]["sign_in"], json!({"google": false, "facebook": false}));
}
