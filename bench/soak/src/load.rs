//! The readers: `workers` tasks, each with its own readers, calling at full speed with no
//! pause (saturation). Every call is signed as the web app signs it (SPEC §7) and comes
//! from its reader's own IPv6 /64 (`X-Forwarded-For`, `serve --forwarded-for`), so the
//! per-address limits see many readers, as on the internet, and a 429 means a limit
//! refused a reader who kept within it.

use crate::stats::{Kind, Stats};
use fake_providers::push::FakePushService;
use rand::Rng;
use rand::rngs::SmallRng;
use rand::{SeedableRng, seq::IndexedRandom};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::Instant;

/// Readers each worker keeps; an init replaces one with a new guest.
const READERS_PER_WORKER: usize = 16;
/// The newest story ids seen in answers, for saves, reactions and detail reads.
const KEEP_STORIES: usize = 2_000;

const SEARCH_WORDS: &[&str] = &[
    "council",
    "budget",
    "flood",
    "school board",
    "transit",
    "housing",
    "hospital",
    "bridge",
    "teachers",
    "presupuesto",
    "inundación",
    "logement",
    "pont",
    "Portland",
    "Montréal",
    "Austin",
    "wildfire smoke",
    "library",
    "election",
    "stadium",
];
const CATEGORIES: &[&str] = &["politics", "local", "business", "health", "education", "weather"];
const REACTIONS: &[&str] = &["like", "love", "insightful", "funny", "sad", "angry"];

/// What every worker shares.
pub struct Shared {
    pub client: reqwest::Client,
    pub base: String,
    pub sign_word: String,
    /// GeoNames ids of the soak's cities.
    pub city_ids: Vec<i64>,
    pub stories: RwLock<Vec<i64>>,
    pub publishers: RwLock<Vec<i64>>,
    pub push: FakePushService,
    pub stats: Stats,
    pub stop: AtomicBool,
    pub next_reader: AtomicU64,
}

struct Reader {
    device: String,
    token: String,
    /// `X-Forwarded-For`: an address of the reader's own /64.
    ip: String,
    city: i64,
    saved: Vec<i64>,
    followed: Vec<i64>,
    blocked: Vec<i64>,
    push_endpoint: Option<String>,
}

/// Answers: 200 with envelope code 0, a 429, or anything else (an error, kept for the report).
enum Outcome {
    Ok(Value),
    Limited,
    Failed(String),
}

impl Shared {
    async fn new_reader(&self, rng: &mut SmallRng) -> Option<Reader> {
        let n = self.next_reader.fetch_add(1, Ordering::Relaxed);
        let device = format!("soak-{}-{n}", std::process::id());
        let ip = format!("2001:db8:{:x}:{:x}::7", (n >> 16) & 0xffff, n & 0xffff);
        let started = Instant::now();
        let outcome = self.signed(&device, &ip, "/user/init", None, json!({})).await;
        let token = match &outcome {
            Outcome::Ok(v) => v["data"]["token"].as_str().map(str::to_string),
            _ => None,
        };
        self.stats.record(Kind::Init, started, &outcome_code(&outcome));
        Some(Reader {
            device,
            token: token?,
            ip,
            city: *self.city_ids.choose(rng).unwrap_or(&0),
            saved: Vec::new(),
            followed: Vec::new(),
            blocked: Vec::new(),
            push_endpoint: None,
        })
    }

    async fn signed(&self, device: &str, ip: &str, path: &str, token: Option<&str>, body: Value) -> Outcome {
        let base = json!({"device_id": device, "os": 3, "app_lang": "en", "package_name": "localwire.web",
                          "country": "US", "app_version": "30010200", "time_zone": "GMT-05:00"})
        .to_string();
        let sign = domain::signing::request_sign(&base, path, &self.sign_word, device);
        let nonce: String = {
            let mut rng = rand::rng();
            (0..10).map(|_| rng.sample(rand::distr::Alphanumeric) as char).collect()
        };
        let mut req = self
            .client
            .post(format!("{}/api{path}", self.base))
            .header("content-type", "application/json")
            .header("base", base)
            .header("timestamp", crate::now_ms().to_string())
            .header("nonce", nonce)
            .header("sign", sign)
            .header("x-forwarded-for", ip)
            .body(body.to_string());
        if let Some(t) = token {
            req = req.header("token", t);
        }
        answer(req).await
    }

    async fn get(&self, ip: &str, path_and_query: &str, token: &str) -> Outcome {
        let req = self
            .client
            .get(format!("{}{path_and_query}", self.base))
            .header("token", token)
            .header("x-forwarded-for", ip);
        answer(req).await
    }

    fn remember(&self, answer: &Value) {
        let Some(list) = answer["data"]["list"].as_array() else {
            return;
        };
        let ids: Vec<i64> = list.iter().filter_map(|i| i["news_id"].as_i64()).collect();
        let media: Vec<i64> = list.iter().filter_map(|i| i["media_id"].as_i64()).collect();
        if !ids.is_empty()
            && let Ok(mut stories) = self.stories.write()
        {
            stories.extend(ids);
            if stories.len() > KEEP_STORIES * 2 {
                let cut = stories.len() - KEEP_STORIES;
                stories.drain(..cut);
            }
        }
        if let Ok(mut publishers) = self.publishers.write() {
            for m in media {
                if !publishers.contains(&m) {
                    publishers.push(m);
                }
            }
        }
    }

    fn some_story(&self, rng: &mut SmallRng) -> Option<i64> {
        self.stories.read().ok()?.choose(rng).copied()
    }

    fn some_publisher(&self, rng: &mut SmallRng) -> Option<i64> {
        self.publishers.read().ok()?.choose(rng).copied()
    }
}

async fn answer(req: reqwest::RequestBuilder) -> Outcome {
    let response = match req.send().await {
        Ok(r) => r,
        Err(e) => return Outcome::Failed(format!("no answer: {e}")),
    };
    let status = response.status().as_u16();
    let bytes = match response.bytes().await {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("{status}, body cut: {e}")),
    };
    if status == 429 {
        return Outcome::Limited;
    }
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    if status == 200 && body["code"].as_i64() == Some(0) {
        Outcome::Ok(body)
    } else {
        Outcome::Failed(format!(
            "{status} {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
        ))
    }
}

fn outcome_code(o: &Outcome) -> Result<(), Option<String>> {
    match o {
        Outcome::Ok(_) => Ok(()),
        Outcome::Limited => Err(None),
        Outcome::Failed(why) => Err(Some(why.clone())),
    }
}

/// What a reader does next, by weight (out of 100): mostly reading, as readers do.
#[derive(Clone, Copy)]
enum Action {
    Init,
    Info,
    Latest,
    Top,
    Local,
    Category,
    Publisher,
    Detail,
    Search,
    SaveOrUnsave,
    SavedList,
    React,
    FollowOrUnfollow,
    BlockOrUnblock,
    Report,
    PushOnOrOff,
}

const ACTIONS: &[(Action, u32)] = &[
    (Action::Init, 2),
    (Action::Info, 3),
    (Action::Latest, 15),
    (Action::Top, 8),
    (Action::Local, 12),
    (Action::Category, 4),
    (Action::Publisher, 4),
    (Action::Detail, 12),
    (Action::Search, 8),
    (Action::SaveOrUnsave, 8),
    (Action::SavedList, 3),
    (Action::React, 6),
    (Action::FollowOrUnfollow, 5),
    (Action::BlockOrUnblock, 2),
    (Action::Report, 6),
    (Action::PushOnOrOff, 2),
];

fn pick(rng: &mut SmallRng) -> Action {
    let total: u32 = ACTIONS.iter().map(|a| a.1).sum();
    let mut n = rng.random_range(0..total);
    for &(action, weight) in ACTIONS {
        if n < weight {
            return action;
        }
        n -= weight;
    }
    Action::Latest
}

/// One worker: makes its readers, then calls until told to stop.
pub async fn worker(shared: Arc<Shared>, seed: u64) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut readers = Vec::new();
    while readers.len() < READERS_PER_WORKER && !shared.stop.load(Ordering::Relaxed) {
        if let Some(r) = shared.new_reader(&mut rng).await {
            readers.push(r);
        }
    }
    while !shared.stop.load(Ordering::Relaxed) && !readers.is_empty() {
        let i = rng.random_range(0..readers.len());
        let action = pick(&mut rng);
        if let Action::Init = action {
            if let Some(r) = shared.new_reader(&mut rng).await {
                readers[i] = r;
            }
            continue;
        }
        act(&shared, &mut readers[i], action, &mut rng).await;
    }
}

async fn act(shared: &Shared, r: &mut Reader, action: Action, rng: &mut SmallRng) {
    let mut started = Instant::now();
    let (kind, outcome) = match action {
        Action::Init => return,
        Action::Info => (Kind::Info, call(shared, r, "/user/info", json!({})).await),
        Action::Latest => {
            read(
                shared,
                r,
                Kind::Latest,
                "/api/news/feed?channel=latest&country=US&size=20".into(),
            )
            .await
        }
        Action::Top => read(shared, r, Kind::Top, "/api/news/feed?channel=top&size=20".into()).await,
        Action::Local => {
            let q = format!("/api/news/feed?channel=local&city_id={}&size=20", r.city);
            read(shared, r, Kind::Local, q).await
        }
        Action::Category => {
            let q = format!(
                "/api/news/feed?channel=category&category={}&size=20",
                CATEGORIES.choose(rng).unwrap_or(&"local")
            );
            read(shared, r, Kind::Category, q).await
        }
        Action::Publisher => {
            let Some(m) = shared.some_publisher(rng) else { return };
            read(
                shared,
                r,
                Kind::Publisher,
                format!("/api/news/feed?channel=media&media_id={m}&size=20"),
            )
            .await
        }
        Action::Detail => {
            let Some(id) = shared.some_story(rng) else { return };
            read(shared, r, Kind::Detail, format!("/api/news/detail?news_id={id}")).await
        }
        Action::Search => {
            let word = SEARCH_WORDS.choose(rng).unwrap_or(&"council").replace(' ', "%20");
            read(shared, r, Kind::Search, format!("/api/search/news?q={word}&size=20")).await
        }
        Action::SaveOrUnsave => {
            if !r.saved.is_empty() && rng.random_bool(0.4) {
                let id = r.saved.swap_remove(rng.random_range(0..r.saved.len()));
                (
                    Kind::Unsave,
                    call(shared, r, "/user/news/unCollect", json!({"news_id": id})).await,
                )
            } else {
                let Some(id) = shared.some_story(rng) else { return };
                let o = call(shared, r, "/user/news/collect", json!({"news_id": id})).await;
                if matches!(o, Outcome::Ok(_)) && !r.saved.contains(&id) {
                    r.saved.push(id);
                }
                (Kind::Save, o)
            }
        }
        Action::SavedList => (
            Kind::SavedList,
            call(shared, r, "/user/news/collectList", json!({"size": 20})).await,
        ),
        Action::React => {
            let Some(id) = shared.some_story(rng) else { return };
            let reaction = if rng.random_bool(0.15) {
                Value::Null
            } else {
                json!(REACTIONS.choose(rng).unwrap_or(&"like"))
            };
            (
                Kind::React,
                call(shared, r, "/ugc/react", json!({"news_id": id, "reaction": reaction})).await,
            )
        }
        Action::FollowOrUnfollow => {
            if !r.followed.is_empty() && rng.random_bool(0.4) {
                let m = r.followed.swap_remove(rng.random_range(0..r.followed.len()));
                (
                    Kind::Unfollow,
                    call(shared, r, "/user/media/unfollow", json!({"media_id": m})).await,
                )
            } else {
                let Some(m) = shared.some_publisher(rng) else { return };
                let o = call(shared, r, "/user/media/follow", json!({"media_id": m})).await;
                if matches!(o, Outcome::Ok(_)) && !r.followed.contains(&m) {
                    r.followed.push(m);
                }
                (Kind::Follow, o)
            }
        }
        Action::BlockOrUnblock => {
            if !r.blocked.is_empty() && rng.random_bool(0.5) {
                let m = r.blocked.swap_remove(rng.random_range(0..r.blocked.len()));
                (
                    Kind::Unblock,
                    call(shared, r, "/user/media/unblock", json!({"media_id": m})).await,
                )
            } else {
                let Some(m) = shared.some_publisher(rng) else { return };
                let o = call(shared, r, "/user/media/block", json!({"media_id": m})).await;
                if matches!(o, Outcome::Ok(_)) && !r.blocked.contains(&m) {
                    r.blocked.push(m);
                }
                (Kind::Block, o)
            }
        }
        Action::Report => (Kind::Report, report(shared, r, rng).await),
        Action::PushOnOrOff => match r.push_endpoint.take() {
            Some(endpoint) => (
                Kind::PushOff,
                call(shared, r, "/user/push/unsubscribe", json!({"endpoint": endpoint})).await,
            ),
            None => {
                // No quiet hours, so pushes come at any hour the soak runs.
                let settings =
                    json!({"enabled": true, "daily_budget": 24, "quiet_start": "00:00", "quiet_end": "00:00"});
                let o = call(shared, r, "/user/push/settings/update", settings).await;
                shared.stats.record(Kind::PushSettings, started, &outcome_code(&o));
                started = Instant::now();
                let sub = shared.push.subscribe();
                let body = json!({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}, "city_id": r.city});
                let o = call(shared, r, "/user/push/subscribe", body).await;
                if matches!(o, Outcome::Ok(_)) {
                    r.push_endpoint = Some(sub.endpoint);
                }
                (Kind::PushOn, o)
            }
        },
    };
    shared.stats.record(kind, started, &outcome_code(&outcome));
}

async fn call(shared: &Shared, r: &Reader, path: &str, body: Value) -> Outcome {
    shared.signed(&r.device, &r.ip, path, Some(&r.token), body).await
}

async fn read(shared: &Shared, r: &Reader, kind: Kind, path_and_query: String) -> (Kind, Outcome) {
    let o = shared.get(&r.ip, &path_and_query, &r.token).await;
    if let Outcome::Ok(v) = &o {
        shared.remember(v);
    }
    (kind, o)
}

/// A usage report as the web app sends it: five events.
async fn report(shared: &Shared, r: &Reader, rng: &mut SmallRng) -> Outcome {
    let story = shared.some_story(rng).unwrap_or(1);
    let events: Vec<Value> = (0..5)
        .map(|i| match i {
            0 => json!({"event": "coreBehavior", "behavior_id": "NewsDetail_Show", "sub_behavior_id": story.to_string(), "is_base": 1}),
            1 => json!({"event": "search", "keyword": SEARCH_WORDS.choose(rng).unwrap_or(&"council")}),
            _ => json!({"event": "pageView", "location_origin": "http://localhost", "page_path": format!("/article/{story}"),
                        "page_title": "Story", "news_id": story.to_string()}),
        })
        .collect();
    let body = json!({
        "app_id": 20310, "timestamp": crate::now_ms(), "nonce_str": "0123456789abcdef", "source": 4, "data": events,
        "property": {"os": 5, "device_id": r.device, "app_lang": "en", "country": "US", "channel": "", "network_type": "wifi"}
    });
    let req = shared
        .client
        .post(format!("{}/api/report", shared.base))
        .header("content-type", "application/json")
        .header(
            "user-agent",
            "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36",
        )
        .header("x-forwarded-for", &r.ip)
        .body(body.to_string());
    answer(req).await
}
