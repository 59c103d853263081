//! Notifications by Web Push through the real router and the real notifier, on SQLite and
//! PostgreSQL (issue 19), against a loopback push service that checks the VAPID JWT and
//! decrypts every message with the browser's private key (`fake_providers::push`).
//!
//! Times: the notifier's clock is the test's. Each case works at a moment `T` at least 13 h
//! after the seed's stories (so they are past the breaking window) at a chosen local time
//! in Washington, and writes its own stories just before `T`.

mod support;

use fake_providers::push::{FakePushService, FakeSubscription, PushBehaviour};
use push::notifier::{Notifier, RoundReport};
use push::service::{Push, PushConfig};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use store::content::{ClusterChoice, ClusterId, NewsId};
use support::TestApp;
use support::seed::{Corpus, HOUR, WASHINGTON, item, put};

const MINUTE: i64 = 60_000;

fn push_config() -> PushConfig {
    PushConfig {
        notifier: false,
        targets: push::endpoint::PushTargets {
            allow_private: true,
            ..Default::default()
        },
        timeout: Duration::from_millis(400),
        attempts: 2,
        backoff: Duration::from_millis(10),
        ..PushConfig::default()
    }
}

fn config() -> api::ApiConfig {
    api::ApiConfig {
        push: push_config(),
        ..support::config()
    }
}

fn notifier(app: &TestApp) -> Notifier {
    Notifier::new(app.store.clone(), Arc::new(Push::new(push_config())))
}

async fn round(app: &TestApp, at: i64) -> RoundReport {
    notifier(app).round(at).await.expect("a notifier round")
}

/// The first moment at or after `after` when it is `hh:mm` in Washington.
fn washington_at(after: i64, hh: i64, mm: i64) -> i64 {
    let offset = geo::zone::utc_offset_minutes(after, "America/New_York") as i64;
    let local_minute = (after + offset * MINUTE).rem_euclid(86_400_000) / MINUTE;
    let want = hh * 60 + mm;
    let ahead = (want - local_minute).rem_euclid(1440);
    (after / MINUTE + ahead) * MINUTE
}

/// A moment past the seed's stories' breaking window, at `hh:mm` in Washington.
fn moment(corpus: &Corpus, hh: i64, mm: i64) -> i64 {
    washington_at(corpus.now_ms + 13 * HOUR, hh, mm)
}

/// A breaking story in Washington just before `at`: one item from each publisher named
/// (two publishers are breaking news; one publisher needs four items).
async fn story(app: &TestApp, corpus: &mut Corpus, name: &str, at: i64, publishers: &[&'static str]) -> Vec<NewsId> {
    let mut ids = Vec::new();
    let mut cluster: Option<ClusterId> = None;
    for (i, slug) in publishers.iter().enumerate() {
        let mut it = item(
            &format!("{name}-{i}"),
            &format!("{name} story part {i}"),
            at - (10 - i as i64) * MINUTE,
            Some(WASHINGTON),
        );
        it.signature = vec![9, 9, i as u8];
        let choice = match cluster {
            None => ClusterChoice::New,
            Some(c) => ClusterChoice::Join(c),
        };
        let id = put(app.store.as_ref(), corpus, slug, vec![it], vec![choice]).await[0];
        cluster.get_or_insert(ClusterId(id.0));
        ids.push(id);
    }
    ids
}

/// A guest subscribed on the fake push service through the API: (token, subscription).
async fn subscriber(app: &TestApp, push: &FakePushService, device: &str) -> (String, FakeSubscription) {
    let (_, token) = app.guest(device).await;
    let sub = push.subscribe();
    let (status, body) = app
        .call(
            device,
            "/user/push/subscribe",
            Some(&token),
            json!({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["subscribed"], true);
    (token, sub)
}

async fn set(app: &TestApp, device: &str, token: &str, changes: Value) -> Value {
    let (_, current) = app.call(device, "/user/push/settings", Some(token), json!({})).await;
    let mut settings = current["data"].clone();
    for (k, v) in changes.as_object().unwrap() {
        settings[k] = v.clone();
    }
    let (status, body) = app
        .call(device, "/user/push/settings/update", Some(token), settings)
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn d310_the_key_is_made_on_first_use_kept_and_shared(app: &TestApp) {
    let first: Value = app.get("/api/push/key").await.json().await.unwrap();
    let key = first["data"]["public_key"].as_str().unwrap().to_string();
    assert_eq!(key.len(), 87, "65 bytes, base64url: {first}");
    let again: Value = app.get("/api/push/key").await.json().await.unwrap();
    assert_eq!(again["data"]["public_key"], key.as_str());
    // Another process on the same database (a second sender) reads the same key.
    let other = Push::new(push_config());
    assert_eq!(other.key(app.store.as_ref()).await.unwrap().public_key(), key);
}

async fn d314_subscriptions_are_validated_and_turned_off_again(app: &TestApp) {
    let (_, token) = app.guest("dev-push-val").await;
    let push = FakePushService::start().await;
    let sub = push.subscribe();
    let call = |body: Value| {
        let token = token.clone();
        async move {
            app.call("dev-push-val", "/user/push/subscribe", Some(&token), body)
                .await
        }
    };
    let keys = json!({"p256dh": sub.p256dh, "auth": sub.auth});
    for (body, field) in [
        (json!({"endpoint": "http://push.example/x", "keys": keys}), "endpoint"),
        (json!({"endpoint": "not a url", "keys": keys}), "endpoint"),
        (
            json!({"endpoint": sub.endpoint, "keys": {"p256dh": "AAAA", "auth": sub.auth}}),
            "keys.p256dh",
        ),
        (
            json!({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": "short"}}),
            "keys.auth",
        ),
        (json!({"endpoint": sub.endpoint, "keys": keys, "lang": "de"}), "lang"),
        (json!({"endpoint": sub.endpoint, "keys": keys, "city_id": 1}), "city_id"),
    ] {
        let (status, body) = call(body).await;
        assert_eq!(status, 400, "{body}");
        assert_ne!(body["code"], 0);
        assert!(body["message"].as_str().unwrap().contains(field), "{field}: {body}");
    }
    let (status, body) = call(json!({"endpoint": sub.endpoint})).await;
    assert_eq!(status, 400, "keys are required: {body}");
    let (status, _) = app
        .call(
            "dev-push-val",
            "/user/push/subscribe",
            None,
            json!({"endpoint": sub.endpoint, "keys": keys}),
        )
        .await;
    assert_eq!(status, 401, "a token is needed");
    let (status, body) = call(json!({"endpoint": sub.endpoint, "keys": keys, "lang": "fr"})).await;
    assert_eq!(status, 200, "{body}");
    let (_, settings) = app
        .call("dev-push-val", "/user/push/settings", Some(&token), json!({}))
        .await;
    assert_eq!(settings["data"]["subscriptions"], 1);
    for _ in 0..2 {
        let (status, body) = app
            .call(
                "dev-push-val",
                "/user/push/unsubscribe",
                Some(&token),
                json!({"endpoint": sub.endpoint}),
            )
            .await;
        assert_eq!((status, &body["data"]["subscribed"]), (200, &json!(false)), "{body}");
    }
    let (_, settings) = app
        .call("dev-push-val", "/user/push/settings", Some(&token), json!({}))
        .await;
    assert_eq!(settings["data"]["subscriptions"], 0);
}

async fn d355_subscribe_takes_only_known_push_services_on_port_443(app: &TestApp) {
    let (_, token) = app.guest("dev-push-known").await;
    let push = FakePushService::start().await;
    let sub = push.subscribe();
    let keys = json!({"p256dh": sub.p256dh, "auth": sub.auth});
    for (endpoint, says) in [
        ("https://push.example/x", "push service this server knows"),
        (
            "https://fcm.googleapis.com.evil.example/x",
            "push service this server knows",
        ),
        ("https://fcm.googleapis.com:8443/fcm/send/x", "port 443"),
        ("https://93.184.216.34/x", "push service this server knows"),
        ("http://fcm.googleapis.com/fcm/send/x", "https"),
    ] {
        let (status, body) = app
            .call(
                "dev-push-known",
                "/user/push/subscribe",
                Some(&token),
                json!({"endpoint": endpoint, "keys": keys}),
            )
            .await;
        assert_eq!(status, 400, "{endpoint}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with("Field `endpoint`") && message.contains(says),
            "{endpoint}: {body}"
        );
    }
    let (status, body) = app
        .call(
            "dev-push-known",
            "/user/push/subscribe",
            Some(&token),
            json!({"endpoint": "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91b", "keys": keys}),
        )
        .await;
    assert_eq!(status, 200, "a real push service's endpoint: {body}");
}

async fn d356_another_readers_endpoint_is_refused_not_moved(app: &TestApp) {
    let push = FakePushService::start().await;
    let (owner, sub) = subscriber(app, &push, "dev-push-owner").await;
    let (_, thief) = app.guest("dev-push-thief").await;
    let (status, body) = app
        .call(
            "dev-push-thief",
            "/user/push/subscribe",
            Some(&thief),
            json!({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}, "lang": "fr"}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["code"], 409);
    assert_eq!(body["message"], api::push_api::TAKEN_MESSAGE);
    let count = |device: &'static str, token: String| async move {
        let (_, body) = app.call(device, "/user/push/settings", Some(&token), json!({})).await;
        body["data"]["subscriptions"].clone()
    };
    assert_eq!(count("dev-push-owner", owner.clone()).await, 1, "the owner keeps it");
    assert_eq!(count("dev-push-thief", thief.clone()).await, 0);
    // Nor can the other reader turn it off.
    let (status, _) = app
        .call(
            "dev-push-thief",
            "/user/push/unsubscribe",
            Some(&thief),
            json!({"endpoint": sub.endpoint}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(count("dev-push-owner", owner).await, 1);
}

/// A resolver that answers every name with one address, and remembers what it was asked.
#[derive(Default)]
struct AnswersWith {
    addr: Option<std::net::IpAddr>,
    asked: std::sync::Mutex<Vec<String>>,
}

impl ingest::fetch::HostLookup for AnswersWith {
    fn lookup(&self, host: &str) -> ingest::fetch::LookupFuture {
        self.asked.lock().unwrap().push(host.to_string());
        let addr = self.addr;
        Box::pin(async move { Ok(addr.into_iter().collect()) })
    }
}

async fn d355_a_known_name_that_resolves_to_a_private_address_is_refused_and_dropped(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    // Stored while private targets were allowed: the loopback push service, by IP literal.
    subscriber(app, &push, "dev-push-loopback").await;
    // Rows the API refuses, as an older release stored them: an operator-added host whose
    // name answers 127.0.0.1 (DNS rebinding), a known host on another port, and a host no
    // rule allows.
    let keys = push.subscribe();
    let mut users = Vec::new();
    for (device, endpoint) in [
        ("dev-push-rebind", "https://push.rebind.test/w/1"),
        ("dev-push-old-port", "https://fcm.googleapis.com:8443/fcm/send/1"),
        ("dev-push-old-host", "https://intranet.example/hook"),
    ] {
        let (user, _) = app.guest(device).await;
        let user = store::UserId(user["id"].as_i64().unwrap());
        let sub = store::push::NewSubscription {
            user,
            endpoint: endpoint.into(),
            p256dh: keys.p256dh.clone(),
            auth: keys.auth.clone(),
            city_id: WASHINGTON,
            lang: "en".into(),
        };
        app.store.put_push_subscription(&sub, 0).await.unwrap();
        users.push(user);
    }
    // The operator now runs with private targets off and one extra push host.
    let resolver = Arc::new(AnswersWith {
        addr: Some("127.0.0.1".parse().unwrap()),
        ..Default::default()
    });
    let config = PushConfig {
        targets: push::endpoint::PushTargets {
            extra_hosts: vec!["rebind.test".into()],
            allow_private: false,
        },
        ..push_config()
    };
    let sender = Arc::new(Push::with_lookup(config, resolver.clone()));
    let at = moment(&corpus, 15, 0);
    story(app, &mut corpus, "rebind", at, &["capitol", "lewiston"]).await;
    let r = Notifier::new(app.store.clone(), sender).round(at).await.unwrap();
    assert_eq!(
        (r.delivered, r.gone),
        (0, 4),
        "every refused endpoint is dropped: {r:?}"
    );
    assert_eq!(
        *resolver.asked.lock().unwrap(),
        ["push.rebind.test"],
        "the allowed name was resolved through the guard; the others never reached DNS"
    );
    assert!(
        push.received().is_empty(),
        "nothing was sent, not even to the loopback service"
    );
    for user in users {
        assert!(
            app.store.push_subscriptions_of(user).await.unwrap().is_empty(),
            "{user:?}"
        );
    }
}

async fn d310_settings_default_to_three_a_day_quiet_at_night_and_are_validated(app: &TestApp) {
    let (_, token) = app.guest("dev-push-set").await;
    let (status, body) = app
        .call("dev-push-set", "/user/push/settings", Some(&token), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"enabled": true, "daily_budget": 3, "quiet_start": "22:00", "quiet_end": "07:00",
               "digest_hour": null, "media_off": [], "topics_off": [], "subscriptions": 0})
    );
    let stored = set(
        app,
        "dev-push-set",
        &token,
        json!({"daily_budget": 5, "quiet_start": "23:30", "digest_hour": 8, "media_off": [3, 3], "topics_off": [" Sports "]}),
    )
    .await;
    assert_eq!(stored["daily_budget"], 5);
    assert_eq!(stored["quiet_start"], "23:30");
    assert_eq!(stored["digest_hour"], 8);
    assert_eq!(stored["media_off"], json!([3]));
    assert_eq!(stored["topics_off"], json!(["Sports"]));
    for (changes, field) in [
        (json!({"daily_budget": 99}), "daily_budget"),
        (json!({"quiet_start": "25:00"}), "quiet_start"),
        (json!({"quiet_end": "7"}), "quiet_end"),
        (json!({"digest_hour": 24}), "digest_hour"),
        (json!({"topics_off": [""]}), "topics_off"),
    ] {
        let mut body = stored.clone();
        for (k, v) in changes.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (status, answer) = app
            .call("dev-push-set", "/user/push/settings/update", Some(&token), body)
            .await;
        assert_eq!(status, 400, "{answer}");
        assert!(answer["message"].as_str().unwrap().contains(field), "{field}: {answer}");
    }
}

async fn d311_a_breaking_story_reaches_a_reader_once_encrypted_and_is_listed(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let (token, sub) = subscriber(app, &push, "dev-push-once").await;
    let (_, token_fr) = app.guest("dev-push-once-fr").await;
    let sub_fr = push.subscribe();
    let (status, body) = app
        .call(
            "dev-push-once-fr",
            "/user/push/subscribe",
            Some(&token_fr),
            json!({"endpoint": sub_fr.endpoint, "keys": {"p256dh": sub_fr.p256dh, "auth": sub_fr.auth}, "lang": "fr"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let at = moment(&corpus, 12, 0);
    let ids = story(app, &mut corpus, "bridge", at, &["capitol", "lewiston"]).await;
    let report = round(app, at).await;
    assert_eq!(
        (report.claimed, report.delivered),
        (1, 1),
        "{report:?} {:?}",
        push.refused()
    );
    let got = push.received_by(sub.id);
    assert_eq!(got.len(), 1, "refused: {:?}", push.refused());
    let p = &got[0].payload;
    assert_eq!(p["title"], "bridge story part 1", "the newest item: {p}");
    assert_eq!(p["url"], format!("/article/{}", ids[1].0));
    // The tag names the story (its first stored item), as the Topic header does, so a later
    // item of the same story replaces the notification (D311).
    assert_eq!(p["tag"], format!("story-{}", ids[0].0));
    assert!(p["body"].as_str().unwrap().starts_with("Lewiston Lantern"), "{p}");
    assert_eq!(got[0].ttl, 6 * 3600);
    let key: Value = app.get("/api/push/key").await.json().await.unwrap();
    assert_eq!(got[0].vapid_key, key["data"]["public_key"].as_str().unwrap());
    assert!(
        push.received_by(sub_fr.id).is_empty(),
        "no item in French: nothing for a French reader"
    );

    let again = round(app, at + MINUTE).await;
    assert_eq!(again.claimed, 0, "one push per story per reader");
    assert_eq!(push.received_by(sub.id).len(), 1);
    // A third publisher joins the story: still the same story.
    let mut more = item("bridge-late", "bridge story grows", at, Some(WASHINGTON));
    more.signature = vec![9, 9, 7];
    put(
        app.store.as_ref(),
        &mut corpus,
        "casco",
        vec![more],
        vec![ClusterChoice::Join(ClusterId(ids[0].0))],
    )
    .await;
    assert_eq!(round(app, at + 2 * MINUTE).await.claimed, 0);

    let (status, body) = app
        .call("dev-push-once", "/news/feed/byNotification", Some(&token), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    let list = body["data"]["list"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{body}");
    assert_eq!(list[0]["news_id"], ids[1].0);
    assert_eq!(list[0]["create_time"], at);
    assert_eq!(body["data"]["token"], "");
    let (status, body) = app
        .call(
            "dev-push-once",
            "/news/feed/byNotification",
            Some(&token),
            json!({"page_no": "nope"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, _) = app
        .call("dev-push-once", "/news/feed/byNotification", None, json!({}))
        .await;
    assert_eq!(status, 401);
}

async fn d313_quiet_hours_hold_pushes_on_both_sides_of_midnight_in_the_citys_time_zone(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let (_, sub) = subscriber(app, &push, "dev-push-quiet").await;
    let mut at = corpus.now_ms + 13 * HOUR;
    for (hh, mm) in [(23, 30), (0, 30), (6, 50)] {
        at = washington_at(at, hh, mm);
        story(app, &mut corpus, &format!("night-{hh}"), at, &["capitol", "lewiston"]).await;
        let r = round(app, at).await;
        assert_eq!(r.claimed, 0, "{hh}:{mm} in Washington is quiet (22:00-07:00)");
    }
    let at = washington_at(at, 7, 5);
    story(app, &mut corpus, "morning", at, &["capitol", "lewiston"]).await;
    assert_eq!(round(app, at).await.delivered, 1, "07:05 is not");
    assert_eq!(push.received_by(sub.id)[0].payload["title"], "morning story part 1");
}

async fn d313_the_daily_budget_counts_the_readers_local_day(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let (token, sub) = subscriber(app, &push, "dev-push-budget").await;
    set(app, "dev-push-budget", &token, json!({"daily_budget": 2})).await;
    let at = moment(&corpus, 20, 0);
    for name in ["one", "two", "three"] {
        story(app, &mut corpus, name, at, &["capitol", "lewiston"]).await;
    }
    for i in 0..4 {
        round(app, at + i * MINUTE).await;
    }
    assert_eq!(push.received_by(sub.id).len(), 2, "two a day, one a round");
    // 21:50 is the same day; 00:00 is quiet; the next day at 08:00 the budget is new.
    assert_eq!(round(app, at + 110 * MINUTE).await.claimed, 0);
    let next_day = washington_at(at, 8, 0);
    story(app, &mut corpus, "four", next_day, &["capitol", "lewiston"]).await;
    assert_eq!(round(app, next_day).await.delivered, 1);
    assert_eq!(push.received_by(sub.id).len(), 3);
}

async fn d313_a_digest_reader_gets_one_digest_at_their_hour(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let (token, sub) = subscriber(app, &push, "dev-push-digest").await;
    set(app, "dev-push-digest", &token, json!({"digest_hour": 8})).await;
    let before = moment(&corpus, 7, 40);
    for name in ["d-one", "d-two"] {
        story(app, &mut corpus, name, before, &["capitol", "lewiston"]).await;
    }
    assert_eq!(
        round(app, before).await.claimed,
        0,
        "no single pushes for a digest reader"
    );
    // One publisher alone is in a digest too (it holds the day's stories, not only breaking ones).
    story(app, &mut corpus, "d-small", before + 20 * MINUTE, &["casco"]).await;
    let at = before + 25 * MINUTE;
    let r = round(app, at).await;
    assert_eq!((r.claimed, r.delivered), (3, 1), "{r:?}");
    let got = push.received_by(sub.id);
    assert_eq!(got.len(), 1);
    let body = got[0].payload["body"].as_str().unwrap();
    assert_eq!(body.lines().count(), 3, "{body}");
    assert_eq!(got[0].payload["title"], "3 local stories today");
    assert_eq!(round(app, at + 10 * MINUTE).await.claimed, 0, "one digest a day");
    let (_, list) = app
        .call(
            "dev-push-digest",
            "/news/feed/byNotification",
            Some(&token),
            json!({"size": 2}),
        )
        .await;
    assert_eq!(list["data"]["list"].as_array().unwrap().len(), 2);
    assert_ne!(list["data"]["token"], "", "a second page");
}

async fn d311_blocked_publishers_muted_stories_and_switched_off_publishers_are_never_pushed(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let (t_block, s_block) = subscriber(app, &push, "dev-push-block").await;
    let (t_mute, s_mute) = subscriber(app, &push, "dev-push-mute").await;
    let (t_off, s_off) = subscriber(app, &push, "dev-push-off").await;
    let (_, s_all) = subscriber(app, &push, "dev-push-all").await;
    let capitol = corpus.media["capitol"].0;
    let (status, body) = app
        .call(
            "dev-push-block",
            "/user/media/block",
            Some(&t_block),
            json!({"media_id": capitol}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .call(
            "dev-push-mute",
            "/user/mutes/add",
            Some(&t_mute),
            json!({"kind": "keyword", "value": "flood"}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    set(app, "dev-push-off", &t_off, json!({"media_off": [capitol]})).await;
    let at = moment(&corpus, 13, 0);
    // Only the Capitol Ledger (four items), and a flood covered by two publishers.
    story(
        app,
        &mut corpus,
        "ledger",
        at,
        &["capitol", "capitol", "capitol", "capitol"],
    )
    .await;
    // The flood's newest item is the Ledger's: a reader who blocked it gets the other one.
    let flood = story(app, &mut corpus, "flood", at - MINUTE, &["lewiston", "capitol"]).await;
    for i in 0..3 {
        round(app, at + i * MINUTE).await;
    }
    let titles = |id: u64| -> Vec<String> {
        push.received_by(id)
            .iter()
            .map(|r| r.payload["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(titles(s_all.id).len(), 2, "others get both: {:?}", titles(s_all.id));
    assert!(titles(s_all.id).contains(&"flood story part 1".to_string()));
    assert_eq!(
        titles(s_block.id),
        ["flood story part 0"],
        "blocked: never the Ledger's, the other publisher's item of a shared story"
    );
    assert_eq!(titles(s_off.id), ["flood story part 0"], "switched off likewise");
    let muted = titles(s_mute.id);
    assert_eq!(
        muted,
        ["ledger story part 3"],
        "a muted keyword hides the flood: {muted:?}"
    );
    let urls: Vec<String> = push
        .received_by(s_block.id)
        .iter()
        .map(|r| r.payload["url"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(urls, [format!("/article/{}", flood[0].0)]);
    let _ = t_mute;
}

async fn d311_gone_subscriptions_are_removed_failures_retried_and_a_hanging_service_delays_nobody(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let (t_gone, s_gone) = subscriber(app, &push, "dev-push-gone").await;
    let (t_404, s_404) = subscriber(app, &push, "dev-push-404").await;
    let (t_fail, s_fail) = subscriber(app, &push, "dev-push-fail").await;
    let (_, s_hang) = subscriber(app, &push, "dev-push-hang").await;
    let (_, s_ok) = subscriber(app, &push, "dev-push-ok").await;
    push.set_behaviour(s_gone.id, PushBehaviour::Gone);
    push.set_behaviour(s_404.id, PushBehaviour::NotFound);
    push.set_behaviour(s_fail.id, PushBehaviour::Fail);
    push.set_behaviour(s_hang.id, PushBehaviour::Hang);
    let at = moment(&corpus, 15, 0);
    story(app, &mut corpus, "wind", at, &["capitol", "lewiston"]).await;
    let started = std::time::Instant::now();
    let r = round(app, at).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "timeouts bound a hanging push service: {:?}",
        started.elapsed()
    );
    assert_eq!((r.delivered, r.gone, r.failed), (1, 2, 2), "{r:?}");
    assert_eq!(push.received_by(s_ok.id).len(), 1);
    for (device, token) in [("dev-push-gone", &t_gone), ("dev-push-404", &t_404)] {
        let (_, body) = app.call(device, "/user/push/settings", Some(token), json!({})).await;
        assert_eq!(body["data"]["subscriptions"], 0, "{device}: removed");
    }
    let (_, body) = app
        .call("dev-push-fail", "/user/push/settings", Some(&t_fail), json!({}))
        .await;
    assert_eq!(body["data"]["subscriptions"], 1, "a 500 is kept and tried again");
    // The push service recovers: the story was given back, so the next round delivers it.
    push.set_behaviour(s_fail.id, PushBehaviour::Accept);
    let r = round(app, at + MINUTE).await;
    assert_eq!(push.received_by(s_fail.id).len(), 1, "{r:?}");
    assert_eq!(push.received_by(s_ok.id).len(), 1, "still once for the others");
}

async fn d312_two_notifiers_at_once_push_a_story_to_each_reader_once(app: &TestApp) {
    let mut corpus = support::seed::seed(app.store.as_ref()).await;
    let push = FakePushService::start().await;
    let mut subs = Vec::new();
    for i in 0..30 {
        subs.push(subscriber(app, &push, &format!("dev-push-two-{i}")).await.1);
    }
    let at = moment(&corpus, 16, 0);
    story(app, &mut corpus, "storm", at, &["capitol", "lewiston"]).await;
    let (a, b) = (notifier(app), notifier(app));
    let (ra, rb) = tokio::join!(a.round(at), b.round(at));
    let (ra, rb) = (ra.unwrap(), rb.unwrap());
    assert_eq!(ra.claimed + rb.claimed, 30, "{ra:?} {rb:?}");
    for s in &subs {
        assert_eq!(push.received_by(s.id).len(), 1, "subscription {}", s.id);
    }
}

macro_rules! push_tests {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let store = $crate::support::sqlite_store().await.expect("sqlite");
                    let app = $crate::support::start(store, super::config()).await;
                    super::$case(&app).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $case() {
                    let Some(store) = $crate::support::postgres_store().await else {
                        eprintln!("skipped: TEST_DATABASE_URL is not set");
                        return;
                    };
                    let app = $crate::support::start(store, super::config()).await;
                    super::$case(&app).await;
                }
            )*
        }
    };
}

push_tests!(
    d310_the_key_is_made_on_first_use_kept_and_shared,
    d314_subscriptions_are_validated_and_turned_off_again,
    d355_subscribe_takes_only_known_push_services_on_port_443,
    d356_another_readers_endpoint_is_refused_not_moved,
    d355_a_known_name_that_resolves_to_a_private_address_is_refused_and_dropped,
    d310_settings_default_to_three_a_day_quiet_at_night_and_are_validated,
    d311_a_breaking_story_reaches_a_reader_once_encrypted_and_is_listed,
    d313_quiet_hours_hold_pushes_on_both_sides_of_midnight_in_the_citys_time_zone,
    d313_the_daily_budget_counts_the_readers_local_day,
    d313_a_digest_reader_gets_one_digest_at_their_hour,
    d311_blocked_publishers_muted_stories_and_switched_off_publishers_are_never_pushed,
    d311_gone_subscriptions_are_removed_failures_retried_and_a_hanging_service_delays_nobody,
    d312_two_notifiers_at_once_push_a_story_to_each_reader_once,
);
