//! The built web app, embedded in the binary (release builds) and served with
//! content-hashed names, long cache headers and precompressed brotli/gzip variants.

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use std::borrow::Cow;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../web/dist"]
#[allow_missing = true]
pub struct WebDist;

/// Content-hashed files live under `assets/`: they never change, so cache for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const SHORT: &str = "public, max-age=3600";
/// `static/` holds files that change only with a new release (the flags, SPEC §2.24):
/// a week, then revalidated with the ETag.
const WEEK: &str = "public, max-age=604800";

fn content_type(key: &str) -> &'static str {
    let ext = key.rsplit('.').next().unwrap_or("");
    match ext {
        // Module and worker scripts are always read as UTF-8 (HTML, Fetch): a charset
        // would be 15 bytes on every script answer for nothing (D423). The app has no
        // classic page scripts.
        "js" | "mjs" => "text/javascript",
        "css" => "text/css; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        "json" | "map" => "application/json",
        "webmanifest" => "application/manifest+json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// A safe embedded key for a request path: no empty, `.`/`..` or hidden (`.vite/`, the
/// build manifest) segments, backslashes or control characters; never the shell template
/// itself.
pub fn asset_key(path: &str) -> Option<&str> {
    let key = path.strip_prefix('/')?;
    let safe = !key.is_empty()
        && key != "index.html"
        && !key.contains('\\')
        && !key.bytes().any(|b| b.is_ascii_control())
        && key.split('/').all(|s| !s.is_empty() && !s.starts_with('.'));
    safe.then_some(key)
}

pub(crate) fn accepts(headers: &HeaderMap, encoding: &str) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| matches!(p.trim(), "q=0" | "q=0.0" | "q=0.00" | "q=0.000"));
            name.eq_ignore_ascii_case(encoding) && !refused
        })
}

fn body(data: Cow<'static, [u8]>) -> Body {
    match data {
        Cow::Borrowed(bytes) => Body::from(bytes),
        Cow::Owned(bytes) => Body::from(bytes),
    }
}

/// Serve an embedded file for the path, or `None` when there is no such file.
pub fn serve(path: &str, headers: &HeaderMap) -> Option<Response> {
    let key = asset_key(path)?;
    let file = WebDist::get(key)?;
    let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..12]));
    let cache = if key.starts_with("assets/") {
        IMMUTABLE
    } else if key.starts_with("static/") {
        WEEK
    } else {
        SHORT
    };
    let mut res = if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let variant = [("br", ".br"), ("gzip", ".gz")]
            .into_iter()
            .filter(|(enc, _)| accepts(headers, enc))
            .find_map(|(enc, suffix)| WebDist::get(&format!("{key}{suffix}")).map(|f| (enc, f)));
        let mut res = match variant {
            Some((encoding, compressed)) => {
                let mut res = body(compressed.data).into_response();
                res.headers_mut()
                    .insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
                res
            }
            None => body(file.data).into_response(),
        };
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type(key)));
        res
    };
    let hashed = cache == IMMUTABLE && (key.ends_with(".js") || key.ends_with(".css"));
    if hashed {
        res.extensions_mut().insert(crate::security::HashedAsset);
    }
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if key.ends_with(".html") || key.ends_with(".svg") {
        // Documents (and SVG, which can carry script) get the full policy.
        crate::security::add_document_headers(h);
    }
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    // A hashed file's name is its version and it is kept for a year unasked (immutable):
    // no client has a reason to revalidate it, so it carries no ETag (D423).
    if !hashed && let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    Some(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_traversal_and_odd_keys_are_refused() {
        for bad in [
            "/",
            "/../etc/passwd",
            "/assets/../../x",
            "/assets//x.js",
            "/a\\b",
            "/./x",
            "/index.html",
            "/a\u{0}b",
            "/.vite/manifest.json",
            "x",
        ] {
            assert_eq!(asset_key(bad), None, "{bad:?}");
        }
        assert_eq!(asset_key("/assets/app-1a2b.js"), Some("assets/app-1a2b.js"));
        assert_eq!(asset_key("/static/country/us.png"), Some("static/country/us.png"));
    }

    #[test]
    fn accept_encoding_parsing_honours_q_zero() {
        let mut h = HeaderMap::new();
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, deflate, br;q=0"),
        );
        assert!(accepts(&h, "gzip"));
        assert!(!accepts(&h, "br"));
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("BR"));
        assert!(accepts(&h, "br"));
    }

    #[test]
    fn content_types_for_web_files() {
        assert!(content_type("assets/a.js").starts_with("text/javascript"));
        assert!(content_type("assets/a.css").starts_with("text/css"));
        assert_eq!(content_type("static/country/us.png"), "image/png");
    }
}
