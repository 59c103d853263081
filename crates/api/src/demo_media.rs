//! `GET /demo/media/{*path}`: the demo corpus's images, icons, video and audio
//! (`ingest::demo::media`), same-origin so the CSP's `img-src`/`media-src 'self'` allow
//! them. Single byte ranges are answered (206) so audio and video can seek.

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

/// The corpus changes only with the binary; a week, revalidated by ETag after that.
const CACHE_CONTROL: &str = "public, max-age=604800";

/// The Content-Type of a demo file by its extension; `None` for anything else.
pub fn content_type(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Some(match ext.as_str() {
        "svg" => "image/svg+xml",
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "webp" => "image/webp",
        "mp4" => "video/mp4",
        "mp3" => "audio/mpeg",
        "m4a" => "audio/mp4",
        "ogg" => "audio/ogg",
        _ => return None,
    })
}

/// A single `bytes=` range within `len` bytes: `Some(Ok((start, end)))` inclusive,
/// `Some(Err(()))` when unsatisfiable, `None` when absent or not a single byte range
/// (then the whole file is sent, as RFC 9110 allows).
pub fn parse_range(header: Option<&str>, len: usize) -> Option<Result<(usize, usize), ()>> {
    let spec = header?.trim().strip_prefix("bytes=")?.trim();
    if spec.contains(',') {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    let range = if a.is_empty() {
        let suffix: usize = b.parse().ok()?;
        if suffix == 0 || len == 0 {
            return Some(Err(()));
        }
        (len.saturating_sub(suffix), len - 1)
    } else {
        let start: usize = a.parse().ok()?;
        let end: usize = if b.is_empty() { usize::MAX } else { b.parse().ok()? };
        if end < start {
            return None;
        }
        if start >= len {
            return Some(Err(()));
        }
        (start, end.min(len - 1))
    };
    Some(Ok(range))
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found").into_response()
}

pub async fn serve(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let Some(ctype) = content_type(&path) else {
        return not_found();
    };
    if path.starts_with('/') || path.contains('\\') {
        return not_found();
    }
    let Some(bytes) = ingest::demo::media(&path) else {
        return not_found();
    };
    let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&bytes)[..12]));
    let mut res = if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag))
    {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let len = bytes.len();
        let range = headers.get(header::RANGE).and_then(|v| v.to_str().ok());
        match parse_range(range, len) {
            None => (StatusCode::OK, bytes.into_owned()).into_response(),
            Some(Err(())) => {
                let mut res = StatusCode::RANGE_NOT_SATISFIABLE.into_response();
                if let Ok(v) = HeaderValue::from_str(&format!("bytes */{len}")) {
                    res.headers_mut().insert(header::CONTENT_RANGE, v);
                }
                return res;
            }
            Some(Ok((start, end))) => {
                let mut res = (StatusCode::PARTIAL_CONTENT, bytes[start..=end].to_vec()).into_response();
                if let Ok(v) = HeaderValue::from_str(&format!("bytes {start}-{end}/{len}")) {
                    res.headers_mut().insert(header::CONTENT_RANGE, v);
                }
                res
            }
        }
    };
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(ctype));
    h.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(CACHE_CONTROL));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    if ctype == "image/svg+xml" {
        // An SVG opened on its own is a document of this origin: no script, ever.
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'; sandbox"),
        );
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type("icons/a.svg"), Some("image/svg+xml"));
        assert_eq!(content_type("images/a.JPG"), Some("image/jpeg"));
        assert_eq!(content_type("audio/a.m4a"), Some("audio/mp4"));
        assert_eq!(content_type("audio/a.mp3"), Some("audio/mpeg"));
        assert_eq!(content_type("video/a.mp4"), Some("video/mp4"));
        assert_eq!(content_type("a.html"), None);
        assert_eq!(content_type("noext"), None);
    }

    #[test]
    fn byte_ranges() {
        assert_eq!(parse_range(Some("bytes=0-9"), 100), Some(Ok((0, 9))));
        assert_eq!(parse_range(Some("bytes=90-"), 100), Some(Ok((90, 99))));
        assert_eq!(parse_range(Some("bytes=-10"), 100), Some(Ok((90, 99))));
        assert_eq!(parse_range(Some("bytes=50-500"), 100), Some(Ok((50, 99))));
        assert_eq!(parse_range(Some("bytes=100-"), 100), Some(Err(())));
        assert_eq!(parse_range(Some("bytes=0-1,5-6"), 100), None);
        assert_eq!(parse_range(Some("bytes=9-1"), 100), None);
        assert_eq!(parse_range(Some("items=0-1"), 100), None);
        assert_eq!(parse_range(None, 100), None);
    }
}
