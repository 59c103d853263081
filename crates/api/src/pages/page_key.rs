//! The key a whole page is kept under (D145; `crate::page_cache`). A page depends on its
//! URL and on a few request inputs: the locale cookie and `Accept-Language` (which
//! locale), the `iso` and `cityId` app settings (whose news), the `city` and `adminCode`
//! settings (the header's city in the first screen), and the `Host` header when no public
//! URL is configured (canonical and preview links). All of them are in the key, so two
//! readers share a kept page only when the server would have written them the same one.

use crate::read_cache::MAX_KEY;
use axum::http::{HeaderMap, header};
use std::fmt::Write;

/// The key of the page for this request, or `None` when it is too long to keep.
/// `host` is left out when a public URL names the server (links do not use it then).
pub fn key(path_and_query: &str, headers: &HeaderMap, with_host: bool) -> Option<String> {
    let header = |name: header::HeaderName| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("");
    let cookie = |name: &str| super::cookie(headers, name).unwrap_or("");
    let mut key = String::with_capacity(128);
    let _ = write!(
        key,
        "{path_and_query}\n{}\n{}\n{}\n{}\n{}\n{}",
        cookie(super::LOCALE_COOKIE),
        cookie(super::ISO_COOKIE),
        cookie(super::CITY_COOKIE),
        // The header of the server's first screen names the reader's city (D156).
        cookie("city"),
        cookie("adminCode"),
        header(header::ACCEPT_LANGUAGE),
    );
    if with_host {
        key.push('\n');
        key.push_str(header(header::HOST));
    }
    (key.len() <= MAX_KEY).then_some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        h
    }

    #[test]
    fn every_input_a_page_depends_on_is_in_its_key() {
        let plain = key("/?a=1", &HeaderMap::new(), true).unwrap();
        let variants = [
            key("/?a=2", &HeaderMap::new(), true),
            key("/latest?a=1", &HeaderMap::new(), true),
            key("/?a=1", &headers(&[(header::COOKIE, "lw_locale=fr_CA")]), true),
            key("/?a=1", &headers(&[(header::COOKIE, "iso=CA")]), true),
            key("/?a=1", &headers(&[(header::COOKIE, "cityId=6094817")]), true),
            key("/?a=1", &headers(&[(header::COOKIE, "city=Ottawa")]), true),
            key("/?a=1", &headers(&[(header::COOKIE, "adminCode=ON")]), true),
            key("/?a=1", &headers(&[(header::ACCEPT_LANGUAGE, "fr-CA")]), true),
            key("/?a=1", &headers(&[(header::HOST, "news.example")]), true),
        ];
        for variant in variants {
            assert_ne!(variant.unwrap(), plain);
        }
        // Cookies the page does not read share one page.
        let other = headers(&[(header::COOKIE, "token=abc; _ga=1")]);
        assert_eq!(key("/?a=1", &other, true).unwrap(), plain);
        // With a public URL, the Host header changes nothing.
        let host = headers(&[(header::HOST, "news.example")]);
        assert_eq!(key("/", &host, false), key("/", &HeaderMap::new(), false));
    }

    #[test]
    fn long_keys_are_not_kept() {
        assert!(key(&format!("/{}", "a".repeat(MAX_KEY)), &HeaderMap::new(), true).is_none());
    }
}
