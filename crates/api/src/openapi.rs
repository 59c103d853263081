//! The OpenAPI document, generated from the handlers' annotations.

use utoipa::{IntoParams, OpenApi};

#[derive(OpenApi)]
#[openapi(
    info(title = "Localwire API", description = "Every answer is an envelope `{code, data, message}`; code 0 means ok, \
        otherwise code is the HTTP status. Non-GET calls are signed (headers base, timestamp, nonce, sign, token)."),
    tags((name = "user", description = "Guest identity, sessions, location"),
        (name = "app", description = "Start-up configuration"),
        (name = "geo", description = "Countries and cities"),
        (name = "news", description = "News feeds, items, publishers and categories (public, cacheable)"),
        (name = "search", description = "News and publisher search (public, cacheable)"))
)]
pub struct ApiDoc;

/// The SPEC §7 signing headers every non-GET call carries.
#[derive(IntoParams)]
#[into_params(parameter_in = Header)]
#[allow(dead_code)]
pub struct SignedHeaders {
    /// JSON: device_id, os (3), app_lang, package_name, country, app_version, time_zone.
    base: String,
    /// Milliseconds since 1970; within 300 s of server time.
    timestamp: String,
    /// 10 letters or digits, never reused.
    nonce: String,
    /// Uppercase MD5 of base + path (after /api) + sign word + device_id.
    sign: String,
    /// Session token from /user/init, when the call needs a user.
    token: Option<String>,
}
