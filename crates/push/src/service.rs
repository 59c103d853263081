//! The application server's side of Web Push: its VAPID key (made on first start, kept in
//! the database so every process shares it, D310), and one delivery to a push service
//! (RFC 8030 §5) with its retries and timeout, through the feed fetcher's SSRF guard (D355).

use crate::crypto::{CryptoError, VapidKey, encrypt};
use crate::endpoint::{EndpointProblem, PushTargets};
use ingest::fetch::{HostLookup, SystemLookup, guard};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Store;
use store::push::PushSubscription;
use url::Url;

/// Where the key is kept: the settings table (SQLite's file, or PostgreSQL's database,
/// which every `serve` process shares).
pub const VAPID_SETTING: &str = "push.vapid_pkcs8";

/// How notifications are sent (`LOCALWIRE_PUSH_*`).
#[derive(Debug, Clone)]
pub struct PushConfig {
    /// Run the notifier in `serve` (`--push-notifier`, on by default).
    pub notifier: bool,
    /// Where endpoints may point (D355): known push services, the operator's additions,
    /// and in tests private targets.
    pub targets: PushTargets,
    /// The VAPID `sub` claim: how a push service reaches the operator.
    pub subject: String,
    /// Time between two notifier rounds.
    pub interval: Duration,
    /// Deliveries in flight at once.
    pub concurrency: usize,
    /// A push service that has not answered by then has failed (this attempt).
    pub timeout: Duration,
    /// Attempts per delivery (a 429, a 5xx or no answer is tried again after a pause).
    pub attempts: u32,
    /// The first pause between attempts; it doubles each time.
    pub backoff: Duration,
}

impl Default for PushConfig {
    fn default() -> Self {
        PushConfig {
            notifier: true,
            targets: PushTargets::default(),
            subject: "mailto:operator@localwire.invalid".into(),
            interval: Duration::from_secs(60),
            concurrency: 64,
            timeout: Duration::from_secs(10),
            attempts: 3,
            backoff: Duration::from_millis(500),
        }
    }
}

/// What became of one delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// The push service took it (201, or any 2xx).
    Accepted,
    /// 404 or 410: the subscription has expired or was unsubscribed; remove it.
    Gone,
    /// Every attempt failed (status, or 0 when there was no answer).
    Failed(u16),
    /// The endpoint's name led to an address the SSRF guard refuses; remove it.
    Refused,
    /// The subscription's keys cannot be used; remove it.
    BadKeys,
}

pub struct Push {
    pub config: PushConfig,
    key: tokio::sync::OnceCell<Arc<VapidKey>>,
    client: reqwest::Client,
    /// The Authorization header per push service origin, with when it expires (s).
    authorizations: Mutex<HashMap<String, (String, i64)>>,
}

/// Authorization headers are made for 12 h and renewed an hour before they end.
const JWT_LIFETIME_S: i64 = 12 * 3600;

impl Push {
    pub fn new(config: PushConfig) -> Push {
        Push::with_lookup(config, Arc::new(SystemLookup))
    }

    /// Resolves push services' names with `lookup`; the guard still filters what it
    /// answers (tests hand in a resolver that answers a loopback address).
    pub fn with_lookup(config: PushConfig, lookup: Arc<dyn HostLookup>) -> Push {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            // A redirect could lead anywhere; a proxy would resolve names out of the
            // guard's sight.
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(guard::guarded_resolver(lookup, config.targets.allow_private))
            .pool_max_idle_per_host(config.concurrency.max(1))
            .build()
            .unwrap_or_default();
        Push {
            config,
            key: tokio::sync::OnceCell::new(),
            client,
            authorizations: Mutex::new(HashMap::new()),
        }
    }

    /// The VAPID key: read from the store, or made and stored on the first start. Made
    /// under the start-up lock, so processes starting together on PostgreSQL agree on one.
    pub async fn key(&self, store: &dyn Store) -> Result<Arc<VapidKey>, PushError> {
        self.key
            .get_or_try_init(|| async {
                if let Some(stored) = store.setting(VAPID_SETTING).await? {
                    return Ok(Arc::new(VapidKey::from_stored(&stored)?));
                }
                let lock = store.startup_lock().await?;
                let key = match store.setting(VAPID_SETTING).await? {
                    Some(stored) => VapidKey::from_stored(&stored),
                    None => {
                        let key = VapidKey::generate()?;
                        store
                            .put_setting(VAPID_SETTING, &key.to_stored(), domain::clock::now_ms())
                            .await?;
                        tracing::info!("made this server's Web Push (VAPID) key");
                        Ok(key)
                    }
                };
                lock.release().await;
                Ok(Arc::new(key?))
            })
            .await
            .cloned()
    }

    /// An endpoint the browser handed us, checked (D355, `endpoint`).
    pub fn check_endpoint(&self, endpoint: &str) -> Result<Url, EndpointProblem> {
        self.config.targets.check(endpoint)
    }

    fn authorization(&self, key: &VapidKey, endpoint: &Url) -> Result<String, CryptoError> {
        let origin = endpoint.origin().ascii_serialization();
        let now_s = domain::clock::now_ms() / 1000;
        if let Ok(kept) = self.authorizations.lock()
            && let Some((header, exp)) = kept.get(&origin)
            && *exp - now_s > 3600
        {
            return Ok(header.clone());
        }
        let exp = now_s + JWT_LIFETIME_S;
        let header = key.authorization(&origin, exp, &self.config.subject)?;
        if let Ok(mut kept) = self.authorizations.lock() {
            kept.insert(origin, (header.clone(), exp));
        }
        Ok(header)
    }

    /// Send `payload` to one subscription: encrypted, identified, tried again after a
    /// pause on 429, 5xx or no answer, each attempt bounded by the timeout.
    pub async fn deliver(
        &self,
        key: &VapidKey,
        sub: &PushSubscription,
        payload: &[u8],
        ttl_s: u32,
        topic: Option<&str>,
    ) -> Delivery {
        // Rows stored before the rule of D355 are checked again here, and dropped unsent.
        let Ok(endpoint) = self.check_endpoint(&sub.endpoint) else {
            return Delivery::Refused;
        };
        let Ok(auth) = self.authorization(key, &endpoint) else {
            return Delivery::Failed(0);
        };
        let body = match encrypt(&sub.p256dh, &sub.auth, payload) {
            Ok(b) => b,
            Err(CryptoError::BadPublicKey | CryptoError::BadAuthSecret) => return Delivery::BadKeys,
            Err(_) => return Delivery::Failed(0),
        };
        let mut pause = self.config.backoff;
        let mut last = 0;
        for attempt in 0..self.config.attempts.max(1) {
            if attempt > 0 {
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
            let mut req = self
                .client
                .post(endpoint.clone())
                .header("TTL", ttl_s.to_string())
                .header("Content-Encoding", "aes128gcm")
                .header("Content-Type", "application/octet-stream")
                .header("Urgency", "normal")
                .header("Authorization", &auth)
                .body(body.clone());
            if let Some(topic) = topic {
                req = req.header("Topic", topic);
            }
            match req.send().await {
                Ok(answer) => {
                    let status = answer.status().as_u16();
                    match status {
                        200..=299 => return Delivery::Accepted,
                        404 | 410 => return Delivery::Gone,
                        429 | 500..=599 => last = status,
                        // 400, 401, 403, 413: trying again would get the same answer.
                        _ => return Delivery::Failed(status),
                    }
                }
                Err(err) if guard::refused_by_guard(&err) => {
                    tracing::warn!(endpoint = %endpoint.origin().ascii_serialization(),
                        "a push service's name led to an address the SSRF guard refuses; subscription removed");
                    return Delivery::Refused;
                }
                Err(_) => last = 0,
            }
        }
        Delivery::Failed(last)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum PushError {
    #[error(transparent)]
    Store(#[from] store::StoreError),
    #[error(transparent)]
    Crypto(#[from] CryptoError),
}
