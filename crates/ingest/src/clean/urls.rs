//! Links and image addresses as we keep them: absolute http(s), no tracking parameters;
//! and the tracking pixels that are dropped.

use url::Url;

/// Query parameters that only track readers; dropped from every URL we keep.
const TRACKING_PARAMS: [&str; 16] = [
    "fbclid",
    "gclid",
    "gbraid",
    "wbraid",
    "dclid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "_hsenc",
    "_hsmi",
    "igshid",
    "yclid",
    "twclid",
    "ttclid",
    "mkt_tok",
    "oly_enc_id",
];

fn is_tracking_param(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("utm_") || TRACKING_PARAMS.contains(&lower.as_str())
}

/// An absolute http(s) URL without tracking parameters or fragment-only noise;
/// `None` for anything else (javascript:, data:, garbage).
pub fn clean_url(raw: &str, base: Option<&Url>) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > 2048 {
        return None;
    }
    let url = match base {
        Some(base) => base.join(raw).ok()?,
        None => Url::parse(raw).ok()?,
    };
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return None;
    }
    let mut url = url;
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| !is_tracking_param(k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if kept.is_empty() {
        url.set_query(None);
    } else if url.query_pairs().count() != kept.len() {
        url.query_pairs_mut().clear().extend_pairs(kept);
    }
    Some(url.to_string())
}

/// Known tracking-pixel hosts and paths.
pub(super) fn is_tracking_pixel(src: &str) -> bool {
    const MARKERS: [&str; 9] = [
        "feeds.feedburner.com/~r/",
        "feedburner.com/~ff/",
        "doubleclick.net",
        "google-analytics.com",
        "stats.wp.com",
        "/pixel",
        "pixel.",
        "/track/open",
        "/beacon",
    ];
    let lower = src.to_ascii_lowercase();
    MARKERS.iter().any(|m| lower.contains(m))
}
