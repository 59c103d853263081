//! Security headers on every answer: a strict Content-Security-Policy (no inline
//! scripts or styles; the page payload is inert JSON), no framing, no sniffing.

use axum::http::{HeaderName, HeaderValue, header};
use tower_http::set_header::SetResponseHeaderLayer;

/// Publisher images and media come from their own (https) hosts.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data: https:; media-src 'self' https:; font-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

pub fn layers() -> Vec<SetResponseHeaderLayer<HeaderValue>> {
    let pairs: [(HeaderName, &'static str); 6] = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (
            HeaderName::from_static("permissions-policy"),
            "geolocation=(self), camera=(), microphone=()",
        ),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin-allow-popups",
        ),
    ];
    pairs
        .into_iter()
        .map(|(name, value)| SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value)))
        .collect()
}
