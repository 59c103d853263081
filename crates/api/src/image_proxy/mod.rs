//! The image proxy (issue 31, D380–D384): every image address the server hands a reader
//! (news images, publisher icons, `<img>` in articles, today-in-history pictures) becomes
//! `/proxy/{mac}/{base64url(address)}` on this server, so readers' addresses never reach
//! publishers or Wikimedia. `mac` is HMAC-SHA256 of the address with a key kept in the
//! database, so only addresses this server wrote are fetched (no open relay). Fetching goes
//! through the feed fetcher (its SSRF guard, redirect policy and limits) and only
//! `image/*` other than SVG is served; answers are kept in memory and by browsers.

pub mod cache;
pub mod rewrite;

use crate::envelope::ApiError;
use crate::rate_limit::RateLimit;
use aws_lc_rs::hmac;
use axum::body::Bytes;
use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use cache::{Image, ImageCache, Kept};
use ingest::fetch::{FetchError, FetchOutcome, FetchPolicy, Fetcher, Validators};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};
use store::Store;
use url::Url;

/// Where proxied images are served: `/proxy/{mac}/{address}`.
pub const PATH_PREFIX: &str = "/proxy/";

/// Where the key is kept: the settings table, which every `serve` process shares (D380).
pub const KEY_SETTING: &str = "image_proxy.hmac_key";

/// Longer addresses are left as they are (and cannot be fetched through the proxy).
pub const MAX_URL_BYTES: usize = 2048;

/// What the proxy asks publishers for: the formats browsers show, SVG not among them.
pub const IMAGE_ACCEPT: &str = "image/avif,image/webp,image/png,image/jpeg,image/gif,image/*;q=0.8";

/// The HMAC key: 32 random bytes. Never printed.
#[derive(Clone, PartialEq, Eq)]
pub struct ProxyKey([u8; 32]);

impl std::fmt::Debug for ProxyKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProxyKey(…)")
    }
}

impl ProxyKey {
    /// A fresh key (a process without a database key, such as a test server).
    pub fn random() -> ProxyKey {
        ProxyKey(rand::random())
    }

    pub fn from_bytes(bytes: [u8; 32]) -> ProxyKey {
        ProxyKey(bytes)
    }

    fn from_stored(stored: &str) -> Option<ProxyKey> {
        let bytes = hex::decode(stored.trim()).ok()?;
        Some(ProxyKey(bytes.try_into().ok()?))
    }

    fn to_stored(&self) -> String {
        hex::encode(self.0)
    }
}

/// This server's key: read from the store, or made and stored on the first start, under the
/// start-up lock so servers starting together on PostgreSQL agree on one (as the Web Push
/// key, D310). A stored value that is not a key is replaced.
pub async fn stored_key(store: &dyn Store) -> Result<ProxyKey, store::StoreError> {
    if let Some(key) = store
        .setting(KEY_SETTING)
        .await?
        .as_deref()
        .and_then(ProxyKey::from_stored)
    {
        return Ok(key);
    }
    let lock = store.startup_lock().await?;
    let result = async {
        if let Some(key) = store
            .setting(KEY_SETTING)
            .await?
            .as_deref()
            .and_then(ProxyKey::from_stored)
        {
            return Ok(key);
        }
        let key = ProxyKey::random();
        store
            .put_setting(KEY_SETTING, &key.to_stored(), domain::clock::now_ms())
            .await?;
        tracing::info!("made this server's image proxy key");
        Ok(key)
    }
    .await;
    lock.release().await;
    result
}

/// The proxy's settings (`--image-proxy`, D380).
#[derive(Debug, Clone)]
pub struct ImageProxyConfig {
    /// On by default; off, the original addresses are handed out and `/proxy/` answers 404.
    pub enabled: bool,
    pub key: ProxyKey,
    /// The feed fetcher's policy with the proxy's limits: its SSRF guard
    /// (`LOCALWIRE_ALLOW_PRIVATE_FEEDS` lets tests reach loopback), 5 redirects at most,
    /// 5 MB, 10 s in all.
    pub fetch: FetchPolicy,
    /// Bytes of images kept in memory.
    pub cache_bytes: usize,
    /// How long an image is kept here and by browsers.
    pub max_age: Duration,
    /// How long a failure is kept.
    pub failure_age: Duration,
    /// Upstream fetches (cache misses) one address may cause at once, then one per `fetch_every`.
    pub fetch_burst: u32,
    pub fetch_every: Duration,
}

impl Default for ImageProxyConfig {
    fn default() -> Self {
        ImageProxyConfig {
            enabled: true,
            key: ProxyKey::random(),
            fetch: image_fetch_policy(false),
            cache_bytes: 64 * 1024 * 1024,
            max_age: Duration::from_secs(24 * 3600),
            failure_age: Duration::from_secs(60),
            fetch_burst: 300,
            fetch_every: Duration::from_millis(100),
        }
    }
}

/// The feed fetcher's policy, with an image's limits.
pub fn image_fetch_policy(allow_private: bool) -> FetchPolicy {
    FetchPolicy {
        allow_private,
        connect_timeout: Duration::from_secs(5),
        total_timeout: Duration::from_secs(10),
        max_body_bytes: 5 * 1024 * 1024,
        max_redirects: 5,
        ..FetchPolicy::default()
    }
}

type InFlight = Arc<tokio::sync::OnceCell<Arc<Kept>>>;

/// The proxy: signs addresses, and fetches, checks and keeps what they name.
pub struct ImageProxy {
    pub(crate) config: ImageProxyConfig,
    hmac: hmac::Key,
    /// This server's own address (`--public-url`): its images need no proxy.
    own_origin: Option<String>,
    fetcher: Option<Fetcher>,
    cache: ImageCache,
    fetch_limit: RateLimit,
    in_flight: Mutex<HashMap<String, InFlight>>,
    /// Addresses already signed (D433): a list's cards repeat their publishers' icons and
    /// the next reader's list repeats this one's pictures, and signing (parsing the
    /// address, HMAC, two base64 passes) was a tenth of an uncached list's CPU.
    signed: Mutex<Signed>,
}

/// Signed addresses remembered at most; past it the memo starts over.
const SIGNED_MAX: usize = 8_192;
/// Bytes of addresses and paths remembered at most: a feed's `<img src>` may be any
/// length (a `data:` picture, an attacker's megabyte), so the count alone bounds nothing.
const SIGNED_BYTES: usize = 4 << 20;

/// The memo of signed addresses: each address, its path (None: left as it is), and the
/// bytes of both.
#[derive(Default)]
struct Signed {
    paths: HashMap<Box<str>, Option<Box<str>>>,
    bytes: usize,
}

impl ImageProxy {
    pub fn new(config: ImageProxyConfig, public_url: Option<&str>) -> ImageProxy {
        let fetcher = if config.enabled {
            Fetcher::new(config.fetch.clone())
                .map_err(|e| tracing::error!(error = %e, "the image proxy cannot fetch"))
                .ok()
        } else {
            None
        };
        ImageProxy {
            hmac: hmac::Key::new(hmac::HMAC_SHA256, &config.key.0),
            own_origin: public_url.map(|u| format!("{}/", u.trim_end_matches('/'))),
            fetcher,
            cache: ImageCache::new(config.cache_bytes),
            fetch_limit: RateLimit::new(config.fetch_burst, config.fetch_every),
            in_flight: Mutex::default(),
            signed: Mutex::default(),
            config,
        }
    }

    pub fn enabled(&self) -> bool {
        self.config.enabled
    }

    /// The address to hand a reader for the image at `original`: this server's
    /// `/proxy/…` for an absolute http(s) address elsewhere when the proxy is on; else
    /// `original` unchanged (empty, this server's own paths, `data:`, too long).
    pub fn url(&self, original: &str) -> String {
        self.proxied(original).unwrap_or_else(|| original.to_string())
    }

    /// [`ImageProxy::url`] in place.
    pub fn rewrite(&self, url: &mut String) {
        if let Some(proxied) = self.proxied(url) {
            *url = proxied;
        }
    }

    /// Article HTML with every `<img src>` through the proxy.
    pub fn html(&self, html: &str) -> String {
        if !self.config.enabled {
            return html.to_string();
        }
        rewrite::rewrite_img_srcs(html, |src| self.proxied(src))
    }

    fn proxied(&self, original: &str) -> Option<String> {
        if !self.config.enabled || original.is_empty() {
            return None;
        }
        if let Some(known) = self
            .signed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .paths
            .get(original)
        {
            return known.as_deref().map(str::to_string);
        }
        let signed = self.sign_if_remote(original);
        let bytes = original.len() + signed.as_ref().map_or(0, String::len);
        if bytes > MAX_URL_BYTES * 4 {
            return signed; // too long to be worth remembering (and never signed)
        }
        let mut memo = self.signed.lock().unwrap_or_else(PoisonError::into_inner);
        if memo.paths.len() >= SIGNED_MAX || memo.bytes + bytes > SIGNED_BYTES {
            *memo = Signed::default();
        }
        if memo
            .paths
            .insert(original.into(), signed.as_deref().map(Into::into))
            .is_none()
        {
            memo.bytes += bytes;
        }
        signed
    }

    /// The signed path of an absolute http(s) address elsewhere, else None.
    fn sign_if_remote(&self, original: &str) -> Option<String> {
        let trimmed = original.trim();
        let absolute = if let Some(rest) = trimmed.strip_prefix("//") {
            format!("https://{rest}")
        } else {
            trimmed.to_string()
        };
        let lower = absolute.get(..8).unwrap_or(&absolute).to_ascii_lowercase();
        if !(lower.starts_with("https://") || lower.starts_with("http://")) || absolute.len() > MAX_URL_BYTES {
            return None;
        }
        if self.own_origin.as_deref().is_some_and(|own| absolute.starts_with(own)) {
            return None;
        }
        Url::parse(&absolute).ok().filter(|u| u.host_str().is_some())?;
        Some(self.path_for(&absolute))
    }

    /// `/proxy/{mac}/{address}` for `url`, signed with this server's key.
    pub fn path_for(&self, url: &str) -> String {
        let mac = hmac::sign(&self.hmac, url.as_bytes());
        format!(
            "{PATH_PREFIX}{}/{}",
            URL_SAFE_NO_PAD.encode(mac.as_ref()),
            URL_SAFE_NO_PAD.encode(url)
        )
    }

    /// The address a `/proxy/{mac}/{encoded}` path names, if this server signed it.
    pub(crate) fn verified(&self, mac: &str, encoded: &str) -> Option<Url> {
        if mac.len() > 64 || encoded.len() > MAX_URL_BYTES * 4 / 3 + 4 {
            return None;
        }
        let mac = URL_SAFE_NO_PAD.decode(mac).ok()?;
        let url = URL_SAFE_NO_PAD.decode(encoded).ok()?;
        hmac::verify(&self.hmac, &url, &mac).ok()?;
        Url::parse(std::str::from_utf8(&url).ok()?).ok()
    }

    /// The image at a signed path: kept, or fetched once however many ask at once.
    pub(crate) async fn image(&self, url: &Url, client: Option<std::net::IpAddr>) -> Result<Arc<Kept>, ApiError> {
        let key = url.as_str();
        if let Some(kept) = self.cache.get(key, Instant::now()) {
            return Ok(kept);
        }
        if let Some(ip) = client
            && let Err(retry_after_secs) = self.fetch_limit.check(ip, Instant::now())
        {
            return Err(ApiError::TooManyRequests { retry_after_secs });
        }
        let cell = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key.to_string())
            .or_default()
            .clone();
        let kept = cell.get_or_init(|| self.fetch_and_keep(url)).await.clone();
        let mut in_flight = self.in_flight.lock().unwrap_or_else(PoisonError::into_inner);
        if in_flight.get(key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
            in_flight.remove(key);
        }
        Ok(kept)
    }

    async fn fetch_and_keep(&self, url: &Url) -> Arc<Kept> {
        let Some(fetcher) = self.fetcher.as_ref() else {
            return Arc::new(failed(StatusCode::SERVICE_UNAVAILABLE, "The image proxy cannot fetch."));
        };
        let kept = match fetcher
            .fetch_as(url, &Validators::default(), IMAGE_ACCEPT, wanted_image)
            .await
        {
            Ok(FetchOutcome::Fetched { body, content_type, .. }) => Kept::Image(Image {
                etag: format!("\"{}\"", hex::encode(&Sha256::digest(&body)[..12])),
                body: Bytes::from(body),
                content_type: essence(content_type.as_deref()).unwrap_or_default(),
            }),
            Ok(FetchOutcome::NotModified { .. }) => failed(StatusCode::BAD_GATEWAY, "The image's host answered 304."),
            Err(e) => refusal(&e, self.config.fetch.max_body_bytes),
        };
        let age = match kept {
            Kept::Image(_) => self.config.max_age,
            Kept::Failed { .. } => self.config.failure_age,
        };
        let kept = Arc::new(kept);
        self.cache.put(url.as_str(), kept.clone(), Instant::now() + age);
        kept
    }
}

fn failed(status: StatusCode, message: &str) -> Kept {
    Kept::Failed {
        status: status.as_u16(),
        message: message.to_string(),
    }
}

/// What a reader is told when the image could not be had; the operator's log has the rest.
fn refusal(e: &FetchError, max_bytes: usize) -> Kept {
    tracing::debug!(error = %e, "image proxy fetch failed");
    match e {
        FetchError::BlockedAddress { .. } | FetchError::UnsupportedScheme { .. } | FetchError::InvalidUrl { .. } => {
            failed(
                StatusCode::FORBIDDEN,
                "The image's address is not one this server fetches (a private, loopback or link-local address).",
            )
        }
        FetchError::BodyTooLarge { .. } => failed(
            StatusCode::BAD_GATEWAY,
            &format!("The image is larger than {} MB.", max_bytes / (1024 * 1024)),
        ),
        FetchError::UnwantedType { content_type, .. } => failed(
            StatusCode::BAD_GATEWAY,
            &format!(
                "The address does not give an image ({}); SVG is not served.",
                content_type.as_deref().unwrap_or("no content type")
            ),
        ),
        FetchError::Timeout { .. } => failed(StatusCode::GATEWAY_TIMEOUT, "The image's host did not answer in time."),
        FetchError::HttpStatus { status, .. } => failed(
            StatusCode::BAD_GATEWAY,
            &format!("The image's host answered HTTP {status}."),
        ),
        FetchError::TooManyRedirects { .. } => failed(StatusCode::BAD_GATEWAY, "The image's host redirects too often."),
        _ => failed(StatusCode::BAD_GATEWAY, "The image's host could not be reached."),
    }
}

/// `image/png; q=…` → `image/png`, lower case.
fn essence(content_type: Option<&str>) -> Option<String> {
    let essence = content_type?.split(';').next()?.trim().to_ascii_lowercase();
    (!essence.is_empty()).then_some(essence)
}

/// Raster images only: SVG can carry script and links, so it is refused (D381).
fn wanted_image(content_type: Option<&str>) -> bool {
    essence(content_type).is_some_and(|t| {
        t.strip_prefix("image/")
            .is_some_and(|sub| !sub.is_empty() && !sub.contains("svg") && !sub.contains("xml"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxy(enabled: bool) -> ImageProxy {
        ImageProxy::new(
            ImageProxyConfig {
                enabled,
                key: ProxyKey::from_bytes([7; 32]),
                ..Default::default()
            },
            Some("https://news.example"),
        )
    }

    #[test]
    fn d380_absolute_addresses_elsewhere_are_signed_and_verify_others_stay() {
        let p = proxy(true);
        let url = "https://img.example/a b.jpg?x=1&y=2";
        let path = p.url(url);
        let (mac, encoded) = path.strip_prefix(PATH_PREFIX).unwrap().split_once('/').unwrap();
        assert_eq!(
            p.verified(mac, encoded).unwrap().as_str(),
            Url::parse(url).unwrap().as_str()
        );
        assert_eq!(p.url("//img.example/p.png"), p.path_for("https://img.example/p.png"));
        for kept in [
            "",
            "/demo/media/images/a.jpg",
            "data:image/png;base64,AAAA",
            "javascript:alert(1)",
            "https://news.example/icons/icon-32.png",
        ] {
            assert_eq!(p.url(kept), kept);
        }
        let too_long = format!("https://img.example/{}", "a".repeat(MAX_URL_BYTES));
        assert_eq!(p.url(&too_long), too_long, "too long to sign: left as it is");
        let off = proxy(false);
        assert_eq!(off.url(url), url);
        assert_eq!(
            off.html("<img src=\"https://img.example/a.jpg\">"),
            "<img src=\"https://img.example/a.jpg\">"
        );
    }

    #[test]
    fn d433_a_remembered_address_is_signed_as_before_and_the_memo_stays_bounded() {
        let p = proxy(true);
        let url = "https://img.example/a.jpg";
        let kept = "/demo/media/images/a.jpg";
        for _ in 0..2 {
            assert_eq!(p.url(url), p.path_for(url), "signed, and the same from the memo");
            assert_eq!(p.url(kept), kept, "left as it is, and the same from the memo");
        }
        for i in 0..SIGNED_MAX + 10 {
            let other = format!("https://img.example/{i}.jpg");
            assert_eq!(p.url(&other), p.path_for(&other));
        }
        let remembered = p.signed.lock().unwrap().paths.len();
        assert!(remembered <= SIGNED_MAX, "{remembered} remembered");
        assert_eq!(p.url(url), p.path_for(url), "signed again after the memo started over");
    }

    /// An attacker's feed fills its articles with huge `<img src>` values, each different:
    /// the memo's bytes stay bounded, and the pictures are still left as they are.
    #[test]
    fn d433_huge_or_many_long_addresses_do_not_grow_the_memo_past_its_bytes() {
        let p = proxy(true);
        let huge = format!("data:image/png;base64,{}", "A".repeat(1 << 20));
        assert_eq!(p.url(&huge), huge, "left as it is");
        assert!(p.signed.lock().unwrap().paths.is_empty(), "too long to remember");
        for i in 0..4_000 {
            let long = format!("https://img.example/{i}/{}", "a".repeat(MAX_URL_BYTES - 40));
            assert_eq!(p.url(&long), p.path_for(&long));
        }
        let bytes = p.signed.lock().unwrap().bytes;
        assert!(bytes <= SIGNED_BYTES, "{bytes} bytes remembered");
    }

    #[test]
    fn d380_a_forged_or_altered_signature_does_not_verify() {
        let p = proxy(true);
        let path = p.path_for("https://img.example/a.jpg");
        let (mac, encoded) = path.strip_prefix(PATH_PREFIX).unwrap().split_once('/').unwrap();
        let other = URL_SAFE_NO_PAD.encode("http://169.254.169.254/latest/meta-data");
        assert!(p.verified(mac, &other).is_none(), "a signature for another address");
        assert!(p.verified("AAAA", encoded).is_none(), "a made-up signature");
        assert!(p.verified("", encoded).is_none());
        let other_key = ImageProxy::new(ImageProxyConfig::default(), None);
        assert!(other_key.verified(mac, encoded).is_none(), "another server's key");
    }

    #[test]
    fn d381_only_raster_images_are_wanted() {
        for yes in [
            "image/png",
            "image/jpeg; charset=binary",
            "IMAGE/WEBP",
            "image/gif",
            "image/avif",
        ] {
            assert!(wanted_image(Some(yes)), "{yes}");
        }
        for no in [
            None,
            Some(""),
            Some("image/svg+xml"),
            Some("text/html"),
            Some("application/octet-stream"),
            Some("image/"),
            Some("image/svg"),
        ] {
            assert!(!wanted_image(no), "{no:?}");
        }
    }
}
