//! Security headers: on every answer no sniffing, and HSTS when the public address is
//! https; on every answer but a hashed script or style (D423) no framing and a strict
//! referrer policy; on HTML documents also a strict Content-Security-Policy (no inline
//! scripts or styles; the page payload is inert JSON). CSP means nothing on JSON or
//! images, and it is a third of the bytes of a small API answer.

use axum::extract::State;
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::response::Response;

/// Publisher images and media come from their own (https) hosts.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data: https:; media-src 'self' https:; font-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// [`CONTENT_SECURITY_POLICY`] when every image is this server's (the image proxy is on,
/// D384): pictures load from this origin or `data:` only, so a page cannot be made to
/// send a reader's address anywhere by an image. Audio and video still come from their
/// publishers.
pub const CONTENT_SECURITY_POLICY_IMAGES_PROXIED: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; media-src 'self' https:; font-src 'self'; connect-src 'self'; \
     object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// With the image proxy on, the document policy's `img-src` is narrowed to this server
/// (D384). One layer, so every document (pages, the shell's public files, sign-in pages)
/// gets the same policy.
pub async fn images_from_self(mut res: axum::response::Response) -> axum::response::Response {
    let h = res.headers_mut();
    if h.get(header::CONTENT_SECURITY_POLICY)
        .is_some_and(|v| v.as_bytes() == CONTENT_SECURITY_POLICY.as_bytes())
    {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY_IMAGES_PROXIED),
        );
    }
    res
}

/// Add the document-only headers to an HTML answer.
pub fn add_document_headers(headers: &mut HeaderMap) {
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        HeaderName::from_static("permissions-policy"),
        HeaderValue::from_static("geolocation=(self), camera=(), microphone=()"),
    );
    headers.insert(
        HeaderName::from_static("cross-origin-opener-policy"),
        HeaderValue::from_static("same-origin-allow-popups"),
    );
}

/// HSTS when the public address is https (D363): a year, for this host only. Not
/// `includeSubDomains`: the operator may serve other things under the same domain, over
/// plain http, and this server cannot know; not `preload` either, which is the domain
/// owner's choice to make with the browsers' list.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000";

/// Is the server's public address (`--public-url`) an https one?
pub fn public_https(public_url: Option<&str>) -> bool {
    public_url.is_some_and(|u| u.trim().to_ascii_lowercase().starts_with("https://"))
}

/// Marks an answer as a content-hashed script or style from `/assets/` (D423). Nothing
/// frames such a file, and what it loads is fetched under the page's referrer policy
/// when its own answer names none, so `X-Frame-Options` and `Referrer-Policy` are left
/// off: 73 bytes on each of the 20-odd such answers of a first load.
#[derive(Clone, Copy)]
pub struct HashedAsset;

/// Adds the headers every answer carries (a header the answer already has is kept);
/// `https`: the public address is https, so HSTS too.
pub async fn add_common_headers(State(https): State<bool>, mut res: Response) -> Response {
    let asset = res.extensions().get::<HashedAsset>().is_some();
    let headers = res.headers_mut();
    let mut add = |name: HeaderName, value: &'static str| {
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    };
    add(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    if !asset {
        add(header::X_FRAME_OPTIONS, "DENY");
        add(header::REFERRER_POLICY, "strict-origin-when-cross-origin");
    }
    if https {
        add(header::STRICT_TRANSPORT_SECURITY, STRICT_TRANSPORT_SECURITY);
    }
    res
}
