//! A short-lived in-process cache of the public read answers (D140).
//!
//! Readers of one city ask for the same few pages (the city's feed, latest, top, a
//! trending search), and those answers change only when ingestion stores something. So
//! each answer is kept as serialized bytes, with its ETag and (made on first demand) its
//! gzip and brotli encodings, and served again while it is fresh:
//! - it was made at the store's current [`content_generation`], i.e. nothing that
//!   readers see was written by this process since; and
//! - it is younger than [`TTL_MS`] (writes by another server process sharing a
//!   PostgreSQL database, and `is_hot`'s dependence on the clock, are caught by age).
//!
//! When a kept answer is no longer fresh, the first reader to ask makes the new one
//! while others are still given the old one (for at most [`STALE_MAX_MS`]): 64 readers
//! of a page that just went stale wait for nothing, and the store makes it once, not 64
//! times at once. So a write shows to everyone as soon as one reader's answer is made.
//!
//! The answers depend on the URL alone (no cookies, no signed-in state), so the path
//! and query are the key. Errors are never kept.
//!
//! [`content_generation`]: store::ContentStore::content_generation

use crate::assets::accepts;
use crate::envelope::{ApiError, names_etag, ok_body, weak_etag};
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::HashMap;
use std::future::Future;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// How long an answer is served without looking at the store. Clients are told they
/// may keep list answers for 30 s (`Cache-Control`), so 5 s adds no staleness they
/// would notice, and under load it still serves nearly every request from memory.
pub const TTL_MS: i64 = 5_000;
/// A stale answer is given to other readers while one reader makes the new one, for
/// at most this long after it was made; past that, readers wait for a new answer.
pub const STALE_MAX_MS: i64 = 60_000;
/// At most this many answers are kept (a few MB: list pages are 5–40 KB).
pub const MAX_ENTRIES: usize = 1_024;
/// Larger answers are not kept (none of the read calls makes one today).
pub const MAX_BODY: usize = 512 * 1024;
/// Keys longer than this (odd query strings) are not kept.
pub(crate) const MAX_KEY: usize = 512;

/// One kept answer.
struct Entry {
    generation: u64,
    made_ms: i64,
    etag: HeaderValue,
    content_type: &'static str,
    body: Encoded,
    /// A reader is making this answer's successor.
    refreshing: AtomicBool,
}

impl Entry {
    fn fresh(&self, generation: u64, now_ms: i64) -> bool {
        is_fresh(self.generation, self.made_ms, generation, now_ms)
    }

    /// Stale, but still good enough for others while one reader makes the new one.
    fn usable(&self, now_ms: i64) -> bool {
        (0..STALE_MAX_MS).contains(&(now_ms - self.made_ms))
    }
}

/// Whether something made at `made_generation` and `made_ms` may still be given out:
/// nothing readers see was written since, and it is younger than [`TTL_MS`] (a clock
/// that went backwards does not make it live forever).
pub fn is_fresh(made_generation: u64, made_ms: i64, generation: u64, now_ms: i64) -> bool {
    made_generation == generation && (0..TTL_MS).contains(&(now_ms - made_ms))
}

enum Found {
    Fresh(Arc<Entry>),
    Stale(Arc<Entry>),
    Nothing,
}

#[derive(Default)]
pub struct ReadCache {
    entries: Mutex<HashMap<Box<str>, Arc<Entry>>>,
    /// Keys being made with nothing kept to give meanwhile: one reader makes the
    /// answer, the others wait their turn here and then find it made.
    gates: Mutex<HashMap<Box<str>, Arc<tokio::sync::Mutex<()>>>>,
}

/// A document made for the cache: its bytes and their media type.
pub struct Made {
    pub body: Vec<u8>,
    pub content_type: &'static str,
}

const JSON: &str = "application/json";

/// What a cache lookup says (for `/metrics` and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// A fresh kept answer.
    Hit,
    /// A stale kept answer, while another reader makes the new one.
    Stale,
    /// Made for this request.
    Miss,
}

impl ReadCache {
    /// The answer for `key` (the request's path and query): the kept one while fresh,
    /// else `make`'s, kept for the next reader. `generation` is the store's
    /// [`content_generation`](store::ContentStore::content_generation) read *before*
    /// `make` runs, so a write that lands while it runs makes the answer stale at once.
    pub async fn answer<T, F, Fut>(
        &self,
        key: &str,
        generation: u64,
        now_ms: i64,
        headers: &HeaderMap,
        cache_control: CacheControl,
        make: F,
    ) -> Result<(Response, Lookup), ApiError>
    where
        T: Serialize,
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<T, ApiError>>,
    {
        let envelope = || async {
            Ok(Made {
                body: ok_body(make().await?)?,
                content_type: JSON,
            })
        };
        self.answer_document(key, generation, now_ms, headers, cache_control, envelope)
            .await
    }

    /// [`ReadCache::answer`] for a document that is not an envelope (a sitemap, a feed):
    /// `make` gives its bytes and media type.
    pub async fn answer_document<F, Fut>(
        &self,
        key: &str,
        generation: u64,
        now_ms: i64,
        headers: &HeaderMap,
        cache_control: CacheControl,
        make: F,
    ) -> Result<(Response, Lookup), ApiError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Made, ApiError>>,
    {
        let old = match self.find(key, generation, now_ms) {
            Found::Fresh(entry) => return Ok((respond(&entry, headers, cache_control), Lookup::Hit)),
            Found::Stale(entry) if entry.refreshing.swap(true, Ordering::AcqRel) => {
                return Ok((respond(&entry, headers, cache_control), Lookup::Stale));
            }
            Found::Stale(entry) => Some(entry),
            Found::Nothing => {
                return self
                    .answer_once(key, generation, now_ms, headers, cache_control, make)
                    .await;
            }
        };
        let made = self.make(key, generation, now_ms, make).await;
        if let (Err(_), Some(old)) = (&made, old) {
            // Let the next reader try again.
            old.refreshing.store(false, Ordering::Release);
        }
        let entry = made?;
        Ok((respond(&entry, headers, cache_control), Lookup::Miss))
    }

    /// Nothing kept to give meanwhile: the first reader makes the answer while the
    /// others wait for it (64 readers of a cold page would otherwise all ask the store).
    async fn answer_once<F, Fut>(
        &self,
        key: &str,
        generation: u64,
        now_ms: i64,
        headers: &HeaderMap,
        cache_control: CacheControl,
        make: F,
    ) -> Result<(Response, Lookup), ApiError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Made, ApiError>>,
    {
        let gate = {
            let Ok(mut gates) = self.gates.lock() else {
                return Err(ApiError::Internal("read cache lock poisoned".into()));
            };
            if gates.len() >= MAX_ENTRIES && !gates.contains_key(key) {
                gates.clear();
            }
            gates.entry(key.into()).or_default().clone()
        };
        let _turn = gate.lock().await;
        // Made by the reader this one waited for?
        let made_meanwhile = self.entries.lock().ok().and_then(|map| {
            map.get(key)
                .filter(|e| e.generation == generation && (-1_000..TTL_MS).contains(&(now_ms - e.made_ms)))
                .cloned()
        });
        let made = match made_meanwhile {
            Some(entry) => Ok((entry, Lookup::Hit)),
            None => self
                .make(key, generation, now_ms, make)
                .await
                .map(|e| (e, Lookup::Miss)),
        };
        if let Ok(mut gates) = self.gates.lock()
            && gates.get(key).is_some_and(|g| Arc::ptr_eq(g, &gate))
            && Arc::strong_count(&gate) == 2
        {
            // Nobody else waits on it: forget it.
            gates.remove(key);
        }
        let (entry, lookup) = made?;
        Ok((respond(&entry, headers, cache_control), lookup))
    }

    async fn make<F, Fut>(&self, key: &str, generation: u64, now_ms: i64, make: F) -> Result<Arc<Entry>, ApiError>
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = Result<Made, ApiError>>,
    {
        let Made { body, content_type } = make().await?;
        let entry = Arc::new(Entry {
            generation,
            made_ms: now_ms,
            etag: HeaderValue::from_str(&weak_etag(&body)).map_err(|e| ApiError::Internal(e.to_string()))?,
            content_type,
            body: Encoded::new(Bytes::from(body)),
            refreshing: AtomicBool::new(false),
        });
        self.put(key, &entry, now_ms);
        Ok(entry)
    }

    /// How many answers are kept now.
    pub fn len(&self) -> usize {
        self.entries.lock().map(|m| m.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn find(&self, key: &str, generation: u64, now_ms: i64) -> Found {
        let Ok(map) = self.entries.lock() else {
            return Found::Nothing;
        };
        match map.get(key) {
            Some(e) if e.fresh(generation, now_ms) => Found::Fresh(e.clone()),
            Some(e) if e.usable(now_ms) => Found::Stale(e.clone()),
            _ => Found::Nothing,
        }
    }

    fn put(&self, key: &str, entry: &Arc<Entry>, now_ms: i64) {
        let Ok(mut map) = self.entries.lock() else { return };
        if key.len() > MAX_KEY || entry.body.len() > MAX_BODY {
            // An older answer to the same request must not outlive this one.
            map.remove(key);
            return;
        }
        if map.len() >= MAX_ENTRIES && !map.contains_key(key) {
            // Drop what is stale first; if everything is fresh, start over (a full
            // table of fresh answers means the keys are spread thin anyway).
            map.retain(|_, e| e.fresh(entry.generation, now_ms));
            if map.len() >= MAX_ENTRIES {
                map.clear();
            }
        }
        map.insert(key.into(), entry.clone());
    }
}

/// The kept answer in the best encoding the client accepts; 304 when it already has it.
fn respond(entry: &Entry, headers: &HeaderMap, cache_control: CacheControl) -> Response {
    let mut res = if names_etag(headers.get(header::IF_NONE_MATCH), entry.etag.to_str().unwrap_or("")) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let (body, encoding) = entry.body.for_request(headers);
        let mut res = (StatusCode::OK, body).into_response();
        let h = res.headers_mut();
        h.insert(header::CONTENT_TYPE, HeaderValue::from_static(entry.content_type));
        if let Some(encoding) = encoding {
            // The compression layer leaves answers that already name an encoding alone.
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        res
    };
    let h = res.headers_mut();
    h.insert(header::VARY, HeaderValue::from_static("accept-encoding, token"));
    h.insert(header::ETAG, entry.etag.clone());
    match cache_control {
        CacheControl::Public { max_age } => {
            if let Ok(v) = HeaderValue::from_str(&format!("public, max-age={max_age}")) {
                h.insert(header::CACHE_CONTROL, v);
            }
        }
        CacheControl::Private => {
            h.insert(header::CACHE_CONTROL, HeaderValue::from_static("private, no-cache"));
        }
    }
    res
}

/// How clients may keep an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheControl {
    /// Anyone may keep it this many seconds: it is the same for every reader.
    Public { max_age: u32 },
    /// Made for the reader who asked (D270): revalidated each time, kept by nobody else.
    Private,
}

/// A body kept with its brotli and gzip encodings, each made once, on first demand.
pub struct Encoded {
    identity: Bytes,
    gzip: OnceLock<Bytes>,
    br: OnceLock<Bytes>,
}

impl Encoded {
    pub fn new(identity: Bytes) -> Encoded {
        Encoded {
            identity,
            gzip: OnceLock::new(),
            br: OnceLock::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.identity.len()
    }

    pub fn is_empty(&self) -> bool {
        self.identity.is_empty()
    }

    /// The body in the best encoding the request accepts, and that encoding's name.
    pub fn for_request(&self, headers: &HeaderMap) -> (Bytes, Option<&'static str>) {
        if accepts(headers, "br") {
            (self.br.get_or_init(|| brotli(&self.identity)).clone(), Some("br"))
        } else if accepts(headers, "gzip") {
            (self.gzip.get_or_init(|| gzip(&self.identity)).clone(), Some("gzip"))
        } else {
            (self.identity.clone(), None)
        }
    }
}

/// Brotli at quality 5: made once per kept answer, so a little slower than the
/// on-the-fly default is worth its smaller bodies.
fn brotli(data: &[u8]) -> Bytes {
    let mut out = Vec::with_capacity(data.len() / 4);
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, 5, 20);
        // Writing to a Vec cannot fail.
        let _ = w.write_all(data);
    }
    Bytes::from(out)
}

fn gzip(data: &[u8]) -> Bytes {
    let mut w = flate2::write::GzEncoder::new(Vec::with_capacity(data.len() / 4), flate2::Compression::new(6));
    let _ = w.write_all(data);
    Bytes::from(w.finish().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUBLIC_30: CacheControl = CacheControl::Public { max_age: 30 };
    use http_body_util::BodyExt;
    use std::io::Read;

    async fn body(res: Response) -> Vec<u8> {
        res.into_body()
            .collect()
            .await
            .map(|b| b.to_bytes().to_vec())
            .unwrap_or_default()
    }

    fn accept(encoding: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_str(encoding).unwrap());
        h
    }

    async fn ask(cache: &ReadCache, generation: u64, now: i64, value: u32) -> (Vec<u8>, Lookup) {
        let (res, lookup) = cache
            .answer(
                "/api/x?a=1",
                generation,
                now,
                &HeaderMap::new(),
                PUBLIC_30,
                || async move { Ok(serde_json::json!({ "v": value })) },
            )
            .await
            .unwrap();
        (body(res).await, lookup)
    }

    #[tokio::test]
    async fn a_kept_answer_is_served_until_the_store_changes_or_it_ages() {
        let cache = ReadCache::default();
        let (first, lookup) = ask(&cache, 7, 1_000, 1).await;
        assert_eq!(lookup, Lookup::Miss);
        assert_eq!(first, br#"{"code":0,"data":{"v":1},"message":"ok"}"#);
        // Same generation, young: the kept bytes, even though the source changed.
        assert_eq!(ask(&cache, 7, 1_000 + TTL_MS - 1, 2).await, (first, Lookup::Hit));
        // A write happened: made again.
        let (b, lookup) = ask(&cache, 8, 1_001, 3).await;
        assert_eq!(
            (lookup, b.as_slice()),
            (Lookup::Miss, &br#"{"code":0,"data":{"v":3},"message":"ok"}"#[..])
        );
        // Old: made again.
        assert_eq!(ask(&cache, 8, 1_001 + TTL_MS, 4).await.1, Lookup::Miss);
        // A clock that went backwards does not make an answer live forever.
        assert_eq!(ask(&cache, 8, 0, 5).await.1, Lookup::Miss);
        // Far too old to give anyone: made again.
        assert_eq!(ask(&cache, 8, STALE_MAX_MS, 6).await.1, Lookup::Miss);
    }

    #[tokio::test]
    async fn while_one_reader_makes_a_new_answer_others_get_the_stale_one() {
        let cache = std::sync::Arc::new(ReadCache::default());
        ask(&cache, 1, 0, 1).await;
        let (started, wait) = tokio::sync::oneshot::channel::<()>();
        let (release, go) = tokio::sync::oneshot::channel::<()>();
        let maker = {
            let cache = cache.clone();
            tokio::spawn(async move {
                cache
                    .answer("/api/x?a=1", 2, 10, &HeaderMap::new(), PUBLIC_30, || async move {
                        let _ = started.send(());
                        let _ = go.await;
                        Ok(serde_json::json!({ "v": 2 }))
                    })
                    .await
                    .map(|(_, lookup)| lookup)
            })
        };
        wait.await.unwrap();
        // The store changed (generation 2) and one reader is making the answer: the
        // others get the old one rather than all asking the store at once.
        let (b, lookup) = ask(&cache, 2, 11, 99).await;
        assert_eq!(lookup, Lookup::Stale);
        assert_eq!(b, br#"{"code":0,"data":{"v":1},"message":"ok"}"#);
        release.send(()).unwrap();
        assert_eq!(maker.await.unwrap().unwrap(), Lookup::Miss);
        assert_eq!(
            ask(&cache, 2, 12, 99).await,
            (br#"{"code":0,"data":{"v":2},"message":"ok"}"#.to_vec(), Lookup::Hit)
        );
    }

    #[tokio::test]
    async fn readers_of_a_cold_key_wait_for_one_maker() {
        use std::sync::atomic::AtomicUsize;
        let cache = std::sync::Arc::new(ReadCache::default());
        let made = std::sync::Arc::new(AtomicUsize::new(0));
        let (started, wait) = tokio::sync::oneshot::channel::<()>();
        let (release, go) = tokio::sync::oneshot::channel::<()>();
        let first = {
            let (cache, made) = (cache.clone(), made.clone());
            tokio::spawn(async move {
                cache
                    .answer("/cold", 1, 0, &HeaderMap::new(), PUBLIC_30, || async move {
                        made.fetch_add(1, Ordering::SeqCst);
                        let _ = started.send(());
                        let _ = go.await;
                        Ok(1)
                    })
                    .await
                    .map(|(_, lookup)| lookup)
            })
        };
        wait.await.unwrap();
        let second = {
            let (cache, made) = (cache.clone(), made.clone());
            tokio::spawn(async move {
                cache
                    .answer("/cold", 1, 0, &HeaderMap::new(), PUBLIC_30, || async move {
                        made.fetch_add(1, Ordering::SeqCst);
                        Ok(2)
                    })
                    .await
                    .map(|(_, lookup)| lookup)
            })
        };
        // Wait until the second reader waits at the gate (map, first, second).
        while cache.gates.lock().unwrap().get("/cold").map(Arc::strong_count) != Some(3) {
            tokio::task::yield_now().await;
        }
        release.send(()).unwrap();
        assert_eq!(first.await.unwrap().unwrap(), Lookup::Miss);
        assert_eq!(
            second.await.unwrap().unwrap(),
            Lookup::Hit,
            "it found the first reader's answer"
        );
        assert_eq!(made.load(Ordering::SeqCst), 1, "the store was asked once");
        assert!(cache.gates.lock().unwrap().is_empty(), "gates are forgotten");
    }

    #[tokio::test]
    async fn a_failed_refresh_lets_the_next_reader_try() {
        let cache = ReadCache::default();
        ask(&cache, 1, 0, 1).await;
        let failed = cache
            .answer("/api/x?a=1", 2, 1, &HeaderMap::new(), PUBLIC_30, || async {
                Err::<u8, _>(ApiError::NotFound)
            })
            .await;
        assert!(failed.is_err());
        assert_eq!(ask(&cache, 2, 2, 3).await.1, Lookup::Miss);
    }

    #[tokio::test]
    async fn errors_are_not_kept() {
        let cache = ReadCache::default();
        let failed = cache
            .answer("/k", 1, 0, &HeaderMap::new(), PUBLIC_30, || async {
                Err::<u8, _>(ApiError::NotFound)
            })
            .await;
        assert!(matches!(failed, Err(ApiError::NotFound)));
        assert!(cache.is_empty());
    }

    #[tokio::test]
    async fn encodings_follow_accept_encoding_and_decode_to_the_same_bytes() {
        let cache = ReadCache::default();
        let make = || async { Ok(vec!["Montréal city council"; 200]) };
        let (plain, _) = cache
            .answer("/k", 1, 0, &HeaderMap::new(), PUBLIC_30, make)
            .await
            .unwrap();
        let plain = body(plain).await;

        let (res, lookup) = cache
            .answer("/k", 1, 1, &accept("gzip, br"), PUBLIC_30, make)
            .await
            .unwrap();
        assert_eq!(lookup, Lookup::Hit);
        assert_eq!(res.headers()[header::CONTENT_ENCODING], "br");
        assert_eq!(
            res.headers()[header::VARY],
            "accept-encoding, token",
            "D270: a reader's token changes the answer"
        );
        let packed = body(res).await;
        assert!(packed.len() < plain.len() / 4);
        let mut unpacked = Vec::new();
        brotli::Decompressor::new(packed.as_slice(), 4096)
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, plain);

        let (res, _) = cache
            .answer("/k", 1, 2, &accept("gzip, br;q=0"), PUBLIC_30, make)
            .await
            .unwrap();
        assert_eq!(res.headers()[header::CONTENT_ENCODING], "gzip");
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(body(res).await.as_slice())
            .read_to_end(&mut unpacked)
            .unwrap();
        assert_eq!(unpacked, plain);
    }

    #[tokio::test]
    async fn if_none_match_with_the_kept_etag_is_304() {
        let cache = ReadCache::default();
        let make = || async { Ok(1) };
        let (res, _) = cache
            .answer("/k", 1, 0, &HeaderMap::new(), PUBLIC_30, make)
            .await
            .unwrap();
        let etag = res.headers()[header::ETAG].clone();
        assert_eq!(res.headers()[header::CACHE_CONTROL], "public, max-age=30");
        let mut h = HeaderMap::new();
        h.insert(header::IF_NONE_MATCH, etag.clone());
        let (res, _) = cache.answer("/k", 1, 1, &h, PUBLIC_30, make).await.unwrap();
        assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
        assert_eq!(res.headers()[header::ETAG], etag);
    }

    #[tokio::test]
    async fn the_table_stays_bounded() {
        let cache = ReadCache::default();
        for i in 0..(MAX_ENTRIES + 10) {
            let key = format!("/k{i}");
            cache
                .answer(&key, 1, 0, &HeaderMap::new(), PUBLIC_30, || async { Ok(1) })
                .await
                .unwrap();
        }
        assert!(cache.len() <= MAX_ENTRIES);
        let long = "/k".repeat(MAX_KEY);
        cache
            .answer(&long, 1, 0, &HeaderMap::new(), PUBLIC_30, || async { Ok(1) })
            .await
            .unwrap();
        assert!(matches!(cache.find(&long, 1, 0), Found::Nothing));
    }

    #[tokio::test]
    async fn a_full_table_lets_its_stale_answers_go_first() {
        let cache = ReadCache::default();
        for i in 0..MAX_ENTRIES {
            let generation = if i % 2 == 0 { 1 } else { 2 };
            cache
                .answer(
                    &format!("/k{i}"),
                    generation,
                    0,
                    &HeaderMap::new(),
                    PUBLIC_30,
                    || async { Ok(1) },
                )
                .await
                .unwrap();
        }
        cache
            .answer("/new", 2, 0, &HeaderMap::new(), PUBLIC_30, || async { Ok(1) })
            .await
            .unwrap();
        assert_eq!(cache.len(), MAX_ENTRIES / 2 + 1, "the fresh half and the new answer");
        assert!(matches!(cache.find("/k1", 2, 0), Found::Fresh(_)));
        assert!(
            matches!(cache.find("/k0", 2, 0), Found::Nothing),
            "a stale answer let go"
        );
    }
}
