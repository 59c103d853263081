//! Whole pages kept for a few seconds (D145), under the read cache's freshness rule
//! (D140): made at the store's current content generation and younger than
//! [`TTL_MS`](crate::read_cache::TTL_MS). What a page is kept under is
//! `pages::page_key`; pages behind sign-in are never kept.

use crate::read_cache::{Encoded, MAX_BODY, MAX_ENTRIES, is_fresh};
use axum::body::Bytes;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// One written page: what [`respond`] turns into a response.
pub struct Page {
    pub status: StatusCode,
    pub html: Encoded,
    /// The locale cookie, when the page applied a `c` code (D3).
    pub set_cookie: Option<HeaderValue>,
}

struct Kept {
    generation: u64,
    made_ms: i64,
    page: Arc<Page>,
}

/// At most this many bytes of pages are kept (before compression): pages of odd
/// queries (a search for every word) must not grow memory past the server's budget.
pub const MAX_BYTES: usize = 16 * 1024 * 1024;

#[derive(Default)]
pub struct PageCache(Mutex<Table>);

#[derive(Default)]
struct Table {
    pages: HashMap<Box<str>, Kept>,
    /// The kept pages' sizes, summed.
    bytes: usize,
}

impl PageCache {
    pub fn get(&self, key: &str, generation: u64, now_ms: i64) -> Option<Arc<Page>> {
        let table = self.0.lock().ok()?;
        let kept = table.pages.get(key)?;
        is_fresh(kept.generation, kept.made_ms, generation, now_ms).then(|| kept.page.clone())
    }

    pub fn put(&self, key: &str, generation: u64, now_ms: i64, page: Arc<Page>) {
        if page.html.len() > MAX_BODY {
            return;
        }
        let Ok(mut table) = self.0.lock() else { return };
        let size = page.html.len();
        let full = table.pages.len() >= MAX_ENTRIES || table.bytes + size > MAX_BYTES;
        if full && !table.pages.contains_key(key) {
            // Stale pages go first; if everything is fresh, start over.
            table
                .pages
                .retain(|_, k| is_fresh(k.generation, k.made_ms, generation, now_ms));
            table.bytes = table.pages.values().map(|k| k.page.html.len()).sum();
            if table.pages.len() >= MAX_ENTRIES || table.bytes + size > MAX_BYTES {
                table.pages.clear();
                table.bytes = 0;
            }
        }
        let kept = Kept {
            generation,
            made_ms: now_ms,
            page,
        };
        if let Some(old) = table.pages.insert(key.into(), kept) {
            table.bytes -= old.page.html.len();
        }
        table.bytes += size;
    }

    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.0.lock().map(|t| t.bytes).unwrap_or(0)
    }
}

/// The page in the best encoding the request accepts, with the document headers.
pub fn respond(page: &Page, headers: &HeaderMap) -> Response {
    let (body, encoding) = page.html.for_request(headers);
    let mut res = (page.status, body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    if let Some(encoding) = encoding {
        // The compression layer leaves answers that already name an encoding alone.
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    crate::security::add_document_headers(h);
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::VARY,
        HeaderValue::from_static("Cookie, Accept-Language, Accept-Encoding"),
    );
    if let Some(cookie) = &page.set_cookie {
        h.append(header::SET_COOKIE, cookie.clone());
    }
    res
}

impl Page {
    pub fn new(status: StatusCode, html: String, set_cookie: Option<HeaderValue>) -> Page {
        Page {
            status,
            html: Encoded::new(Bytes::from(html)),
            set_cookie,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_pages_stay_within_the_byte_budget() {
        let cache = PageCache::default();
        let page = || Arc::new(Page::new(StatusCode::OK, "x".repeat(MAX_BODY), None));
        for i in 0..(2 * MAX_BYTES / MAX_BODY) {
            cache.put(&format!("k{i}"), 1, 1_000, page());
            assert!(cache.bytes() <= MAX_BYTES, "{} bytes after {i}", cache.bytes());
        }
        // The same key again replaces, not adds.
        let before = cache.bytes();
        let last = format!("k{}", 2 * MAX_BYTES / MAX_BODY - 1);
        cache.put(&last, 1, 1_000, page());
        assert_eq!(cache.bytes(), before);
        assert!(cache.get(&last, 1, 1_000).is_some());
    }

    #[test]
    fn a_kept_page_lasts_while_the_store_is_unchanged_and_it_is_young() {
        let cache = PageCache::default();
        let page = Arc::new(Page::new(StatusCode::OK, "<p>hi</p>".into(), None));
        cache.put("k", 3, 1_000, page);
        assert!(cache.get("k", 3, 1_000 + crate::read_cache::TTL_MS - 1).is_some());
        assert!(cache.get("k", 4, 1_001).is_none(), "a write readers see");
        assert!(
            cache.get("k", 3, 1_000 + crate::read_cache::TTL_MS).is_none(),
            "too old"
        );
        assert!(cache.get("other", 3, 1_001).is_none());
    }
}
