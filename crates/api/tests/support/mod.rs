//! A real server on an ephemeral port, over a fresh SQLite file or a fresh
//! PostgreSQL database, and a client that signs its calls as the web app does.

#![allow(dead_code)]

pub mod seed;
pub mod xml;

use api::{ApiConfig, AppState};
use domain::signing::request_sign;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use store::Store;

pub const SIGN_WORD: &str = "test-word";

pub struct TestApp {
    pub addr: SocketAddr,
    pub http: reqwest::Client,
    /// The server's store, for seeding data directly.
    pub store: Arc<dyn Store>,
}

pub fn config() -> ApiConfig {
    ApiConfig {
        sign_word: SIGN_WORD.into(),
        ..ApiConfig::default()
    }
}

pub async fn sqlite_store() -> Option<Arc<dyn Store>> {
    let dir = std::env::temp_dir().join(format!("lw-http-{}-{:016x}", std::process::id(), rand::random::<u64>()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let store = store_sql::sqlite::SqliteStore::open_file(&dir.join("db.sqlite"))
        .await
        .expect("sqlite");
    Some(Arc::new(store))
}

pub async fn postgres_store() -> Option<Arc<dyn Store>> {
    let options = store_sql::postgres::testing::fresh_database().await?;
    let store = store_sql::postgres::PgStore::connect_with(options)
        .await
        .expect("postgres");
    Some(Arc::new(store))
}

pub async fn start(store: Arc<dyn Store>, config: ApiConfig) -> TestApp {
    start_with(store, |_| config).await
}

/// [`start`] with a config that may name the server's own address (`--public-url`).
pub async fn start_with(store: Arc<dyn Store>, config: impl FnOnce(SocketAddr) -> ApiConfig) -> TestApp {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let app = api::router(AppState::new(store.clone(), config(addr)));
    tokio::spawn(async move {
        axum::serve(listener, app).await.expect("serve");
    });
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client");
    TestApp { addr, http, store }
}

pub fn nonce() -> String {
    const CHARS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    (0..10)
        .map(|_| CHARS[rand::random_range(0..CHARS.len())] as char)
        .collect()
}

pub use api::state::now_ms;

/// The SPEC §7 headers for a call.
pub struct Signing {
    pub base: String,
    pub timestamp: String,
    pub nonce: String,
    pub sign: String,
}

pub fn base_for(device: &str, lang: &str, country: &str) -> String {
    json!({"device_id": device, "os": 3, "app_lang": lang, "package_name": "localwire.web", "country": country,
           "app_version": "30010200", "time_zone": "GMT-05:00"})
    .to_string()
}

pub fn signing(base: &str, path: &str) -> Signing {
    let device = serde_json::from_str::<Value>(base)
        .ok()
        .and_then(|v| v["device_id"].as_str().map(String::from))
        .unwrap_or_default();
    Signing {
        base: base.to_string(),
        timestamp: now_ms().to_string(),
        nonce: nonce(),
        sign: request_sign(base, path, SIGN_WORD, &device),
    }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.http.get(self.url(path)).send().await.expect("GET")
    }

    /// A signed POST as the web app sends it; `path` is after `/api`.
    pub async fn call(&self, device: &str, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let base = base_for(device, "en", "US");
        self.call_with(&signing(&base, path), path, token, body.to_string())
            .await
    }

    pub async fn call_with(&self, s: &Signing, path: &str, token: Option<&str>, body: String) -> (u16, Value) {
        let mut req = self
            .http
            .post(self.url(&format!("/api{path}")))
            .header("content-type", "application/json")
            .header("base", &s.base)
            .header("timestamp", &s.timestamp)
            .header("nonce", &s.nonce)
            .header("sign", &s.sign)
            .body(body);
        if let Some(t) = token {
            req = req.header("token", t);
        }
        let res = req.send().await.expect("POST");
        let status = res.status().as_u16();
        let body: Value = res.json().await.unwrap_or(Value::Null);
        (status, body)
    }

    /// A new guest: (user, token).
    pub async fn guest(&self, device: &str) -> (Value, String) {
        let (status, body) = self.call(device, "/user/init", None, json!({})).await;
        assert_eq!(status, 200, "{body}");
        let token = body["data"]["token"].as_str().expect("token").to_string();
        (body["data"]["user"].clone(), token)
    }

    /// Send raw bytes (for requests a normal client refuses to make).
    pub async fn raw(&self, request: &[u8]) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut s = tokio::net::TcpStream::connect(self.addr).await.expect("connect");
        s.write_all(request).await.expect("write");
        let mut out = Vec::new();
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), s.read_to_end(&mut out)).await;
        String::from_utf8_lossy(&out).into_owned()
    }

    pub async fn healthy(&self) -> bool {
        self.get("/healthz").await.status() == 200
    }
}

/// One named test per case and engine: `engine_tests!(case_a, case_b)` expands to
/// `sqlite::case_a`, `postgres::case_a`, … Each case is `async fn(&TestApp)`.
#[macro_export]
macro_rules! engine_tests {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let store = $crate::support::sqlite_store().await.expect("sqlite");
                    let app = $crate::support::start(store, $crate::support::config()).await;
                    super::$case(&app).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $case() {
                    let Some(store) = $crate::support::postgres_store().await else {
                        eprintln!("skipped: TEST_DATABASE_URL is not set");
                        return;
                    };
                    let app = $crate::support::start(store, $crate::support::config()).await;
                    super::$case(&app).await;
                }
            )*
        }
    };
}
