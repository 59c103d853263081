//! A loopback Web Push service for tests (issue 19). It speaks the real protocol: a push
//! message is `POST {endpoint}` (RFC 8030 §5) with `TTL`, `Content-Encoding: aes128gcm`
//! and `Authorization: vapid t=<JWT>, k=<key>` (RFC 8292); the service checks the ES256
//! signature, the audience (its own origin) and the expiry, then decrypts the body with
//! the subscription's private key (RFC 8291, written here independently of the server's
//! code) and keeps the plaintext for the test to read.
//!
//! [`FakePushService::subscribe`] plays the browser: it makes a P-256 key pair and an auth
//! secret and hands back what `PushSubscription.toJSON()` would. Each subscription can be
//! told how to answer: accept (201), gone (404 or 410), fail (500) or hang.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use aws_lc_rs::aead::{AES_128_GCM, Aad, LessSafeKey, Nonce, UnboundKey};
use aws_lc_rs::agreement::{self, ECDH_P256, PrivateKey, UnparsedPublicKey};
use aws_lc_rs::hmac;
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey as SignatureKey};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// How a subscription's endpoint answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PushBehaviour {
    Accept,
    /// 404 Not Found: the subscription expired.
    NotFound,
    /// 410 Gone: the browser unsubscribed.
    Gone,
    /// 500, every time.
    Fail,
    /// Never answers (until the test ends).
    Hang,
}

/// What a browser hands the application server.
#[derive(Debug, Clone)]
pub struct FakeSubscription {
    pub id: u64,
    pub endpoint: String,
    pub p256dh: String,
    pub auth: String,
}

/// A message the service took and decrypted.
#[derive(Debug, Clone)]
pub struct ReceivedPush {
    pub subscription: u64,
    /// The decrypted payload (the application server's JSON).
    pub payload: serde_json::Value,
    pub ttl: u32,
    pub topic: Option<String>,
    /// The VAPID public key the message was signed with.
    pub vapid_key: String,
}

struct Browser {
    private: PrivateKey,
    public: Vec<u8>,
    auth: [u8; 16],
    behaviour: PushBehaviour,
}

struct Shared {
    origin: String,
    browsers: Mutex<HashMap<u64, Arc<Mutex<Browser>>>>,
    received: Mutex<Vec<ReceivedPush>>,
    refused: Mutex<Vec<String>>,
    next_id: AtomicU64,
    requests: AtomicUsize,
}

/// The running push service. Dropping it stops the server.
pub struct FakePushService {
    shared: Arc<Shared>,
    addr: SocketAddr,
    server: tokio::task::JoinHandle<()>,
}

impl Drop for FakePushService {
    fn drop(&mut self) {
        self.server.abort();
    }
}

fn now_s() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> Vec<u8> {
    let key = hmac::Key::new(hmac::HMAC_SHA256, key);
    let mut ctx = hmac::Context::with_key(&key);
    for p in parts {
        ctx.update(p);
    }
    ctx.sign().as_ref().to_vec()
}

fn b64(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD.decode(text.trim_end_matches('=')).ok()
}

impl FakePushService {
    pub async fn start() -> FakePushService {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .expect("the fake push service could not bind a loopback port");
        let addr = listener.local_addr().expect("local address");
        let shared = Arc::new(Shared {
            origin: format!("http://{addr}"),
            browsers: Mutex::new(HashMap::new()),
            received: Mutex::new(Vec::new()),
            refused: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(1),
            requests: AtomicUsize::new(0),
        });
        let app = Router::new()
            .route("/push/{id}", post(receive))
            .with_state(shared.clone());
        let server = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakePushService { shared, addr, server }
    }

    pub fn origin(&self) -> String {
        self.shared.origin.clone()
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// A new browser subscription on this service.
    pub fn subscribe(&self) -> FakeSubscription {
        let private = PrivateKey::generate(&ECDH_P256).expect("P-256 key");
        let public = private.compute_public_key().expect("public key").as_ref().to_vec();
        let mut auth = [0u8; 16];
        SystemRandom::new().fill(&mut auth).expect("random");
        let id = self.shared.next_id.fetch_add(1, Ordering::Relaxed);
        let sub = FakeSubscription {
            id,
            endpoint: format!("{}/push/{id}", self.shared.origin),
            p256dh: URL_SAFE_NO_PAD.encode(&public),
            auth: URL_SAFE_NO_PAD.encode(auth),
        };
        let browser = Browser {
            private,
            public,
            auth,
            behaviour: PushBehaviour::Accept,
        };
        if let Ok(mut b) = self.shared.browsers.lock() {
            b.insert(id, Arc::new(Mutex::new(browser)));
        }
        sub
    }

    pub fn set_behaviour(&self, subscription: u64, behaviour: PushBehaviour) {
        if let Some(b) = self
            .shared
            .browsers
            .lock()
            .ok()
            .and_then(|b| b.get(&subscription).cloned())
            && let Ok(mut b) = b.lock()
        {
            b.behaviour = behaviour;
        }
    }

    /// Every message taken and decrypted, in arrival order.
    pub fn received(&self) -> Vec<ReceivedPush> {
        self.shared.received.lock().map(|r| r.clone()).unwrap_or_default()
    }

    pub fn received_by(&self, subscription: u64) -> Vec<ReceivedPush> {
        self.received()
            .into_iter()
            .filter(|r| r.subscription == subscription)
            .collect()
    }

    /// Why messages were refused (a bad signature, audience, expiry or encryption).
    pub fn refused(&self) -> Vec<String> {
        self.shared.refused.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Requests seen, answered or not.
    pub fn requests(&self) -> usize {
        self.shared.requests.load(Ordering::Relaxed)
    }
}

async fn receive(
    State(shared): State<Arc<Shared>>,
    Path(id): Path<u64>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    shared.requests.fetch_add(1, Ordering::Relaxed);
    let browser = shared.browsers.lock().ok().and_then(|b| b.get(&id).cloned());
    let Some(browser) = browser else {
        return StatusCode::NOT_FOUND;
    };
    let behaviour = browser.lock().map(|b| b.behaviour).unwrap_or(PushBehaviour::Fail);
    match behaviour {
        PushBehaviour::Accept => {}
        PushBehaviour::NotFound => return StatusCode::NOT_FOUND,
        PushBehaviour::Gone => return StatusCode::GONE,
        PushBehaviour::Fail => return StatusCode::INTERNAL_SERVER_ERROR,
        PushBehaviour::Hang => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            return StatusCode::GATEWAY_TIMEOUT;
        }
    }
    let result = (|| {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let ttl: u32 = header("ttl")
            .ok_or("no TTL header")?
            .trim()
            .parse()
            .map_err(|_| "TTL is not a number")?;
        if header("content-encoding") != Some("aes128gcm") {
            return Err("Content-Encoding is not aes128gcm");
        }
        let vapid_key = check_vapid(
            header("authorization").ok_or("no Authorization header")?,
            &shared.origin,
        )?;
        let b = browser.lock().map_err(|_| "browser lock")?;
        let plain = decrypt(&b, &body)?;
        let payload: serde_json::Value = serde_json::from_slice(&plain).map_err(|_| "the payload is not JSON")?;
        Ok(ReceivedPush {
            subscription: id,
            payload,
            ttl,
            topic: header("topic").map(str::to_string),
            vapid_key,
        })
    })();
    match result {
        Ok(r) => {
            if let Ok(mut all) = shared.received.lock() {
                all.push(r);
            }
            StatusCode::CREATED
        }
        Err(why) => {
            if let Ok(mut all) = shared.refused.lock() {
                all.push(why.to_string());
            }
            StatusCode::BAD_REQUEST
        }
    }
}

/// RFC 8292 §3: `vapid t=<jwt>, k=<key>`; the JWT is ES256, for our origin, unexpired and
/// at most 24 h ahead. Returns the key.
fn check_vapid(header: &str, origin: &str) -> Result<String, &'static str> {
    let rest = header.strip_prefix("vapid ").ok_or("Authorization is not vapid")?;
    let mut t = None;
    let mut k = None;
    for part in rest.split(',') {
        let part = part.trim();
        if let Some(v) = part.strip_prefix("t=") {
            t = Some(v);
        } else if let Some(v) = part.strip_prefix("k=") {
            k = Some(v);
        }
    }
    let (t, k) = (t.ok_or("no t=")?, k.ok_or("no k=")?);
    let key = b64(k).filter(|k| k.len() == 65).ok_or("k is not a P-256 key")?;
    let (input, sig) = t.rsplit_once('.').ok_or("the JWT has no signature")?;
    SignatureKey::new(&ECDSA_P256_SHA256_FIXED, &key)
        .verify(input.as_bytes(), &b64(sig).ok_or("the signature is not base64url")?)
        .map_err(|_| "the JWT signature does not verify with k")?;
    let (head, claims) = input.split_once('.').ok_or("the JWT has no claims")?;
    let head: serde_json::Value =
        serde_json::from_slice(&b64(head).ok_or("bad JWT header")?).map_err(|_| "bad JWT header")?;
    if head["alg"] != "ES256" {
        return Err("the JWT is not ES256");
    }
    let claims: serde_json::Value =
        serde_json::from_slice(&b64(claims).ok_or("bad JWT claims")?).map_err(|_| "bad JWT claims")?;
    if claims["aud"] != origin {
        return Err("the JWT's aud is not this push service's origin");
    }
    let exp = claims["exp"].as_i64().ok_or("the JWT has no exp")?;
    let now = now_s();
    if exp <= now || exp > now + 24 * 3600 {
        return Err("the JWT's exp is past or more than 24 h ahead");
    }
    if !claims["sub"]
        .as_str()
        .is_some_and(|s| s.starts_with("mailto:") || s.starts_with("https:"))
    {
        return Err("the JWT's sub is not a mailto: or https: address");
    }
    Ok(k.to_string())
}

/// RFC 8291 §3.4 and RFC 8188: one record, the keys from our ECDH with the sender's key.
fn decrypt(b: &Browser, body: &[u8]) -> Result<Vec<u8>, &'static str> {
    if body.len() < 21 {
        return Err("the body is shorter than its header");
    }
    let salt = &body[..16];
    let rs = u32::from_be_bytes([body[16], body[17], body[18], body[19]]) as usize;
    let idlen = body[20] as usize;
    if idlen != 65 || body.len() < 21 + idlen + 17 {
        return Err("the key id is not a P-256 public key");
    }
    let as_public = &body[21..21 + idlen];
    let record = &body[21 + idlen..];
    if record.len() > rs {
        return Err("more than one record");
    }
    let (cek, nonce) = agreement::agree(
        &b.private,
        UnparsedPublicKey::new(&ECDH_P256, as_public),
        "ECDH failed",
        |ecdh| {
            let prk_key = hmac_sha256(&b.auth, &[ecdh]);
            let ikm = hmac_sha256(&prk_key, &[b"WebPush: info\0", &b.public, as_public, &[1]]);
            let prk = hmac_sha256(salt, &[&ikm]);
            let cek = hmac_sha256(&prk, &[b"Content-Encoding: aes128gcm\0", &[1]]);
            let nonce = hmac_sha256(&prk, &[b"Content-Encoding: nonce\0", &[1]]);
            Ok((cek[..16].to_vec(), nonce[..12].to_vec()))
        },
    )?;
    let key = LessSafeKey::new(UnboundKey::new(&AES_128_GCM, &cek).map_err(|_| "bad key")?);
    let nonce = Nonce::try_assume_unique_for_key(&nonce).map_err(|_| "bad nonce")?;
    let mut data = record.to_vec();
    let plain = key
        .open_in_place(nonce, Aad::empty(), &mut data)
        .map_err(|_| "the record does not decrypt")?;
    // The last record ends with 2, then any zero padding.
    let end = plain.iter().rposition(|&x| x != 0).ok_or("no delimiter")?;
    if plain[end] != 2 {
        return Err("the last record's delimiter is not 2");
    }
    Ok(plain[..end].to_vec())
}
