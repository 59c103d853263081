//! `/api/user/*`: guest identity, user info, logout and location (SPEC §3.1, §4.1, §7).

use crate::envelope::{ApiError, ok};
use crate::rate_limit::client_ip;
use crate::session::{compose_token, new_secret, parse_token, require_session, verifier_hash};
use crate::signed::{DeviceBase, Signed};
use crate::state::{AppState, now_ms};
use axum::extract::{FromRequest, Request, State};
use axum::response::Response;
use domain::geo::{Country, city_show, location_for_country};
use domain::ids::CityId;
use domain::locale::Locale;
use domain::user::UserServer;
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::time::Instant;
use store::{GuestSessionRequest, LocationUpdate, NewGuest, UserId};
use utoipa::ToSchema;

/// How often a reader's `last_time` is written (D251).
pub const LAST_SEEN_EVERY_MS: i64 = 60_000;

/// SPEC §3.13 login result: user and token.
#[derive(Serialize, ToSchema)]
pub struct UserAndToken {
    pub user: UserServer,
    /// Send it back in the `token` header. Shown once; the server keeps only its hash.
    pub token: String,
}

#[derive(Deserialize, ToSchema, Default)]
pub struct InitRequest {
    /// 1 when the visit came from an ad channel (SPEC §7.1), else 0.
    #[serde(default)]
    pub user_type: Option<i32>,
    /// The acquisition channel (SPEC §3.14), kept with the device.
    #[serde(default)]
    pub channel: Option<String>,
}

#[derive(Deserialize, ToSchema, Default)]
pub struct Empty {}

fn new_guest(device: &DeviceBase, user_type: i32, channel: String) -> NewGuest {
    let place = location_for_country(device.country.as_deref().unwrap_or(""));
    let app_lang = device
        .app_lang
        .as_deref()
        .and_then(|l| Locale::from_code(l.split(['_', '-']).next().unwrap_or("")))
        .map(|l| l.code().to_string())
        .unwrap_or(place.lang.clone());
    NewGuest {
        user_type,
        app_lang,
        city_show: city_show(&place.city, &place.admin_code),
        country: place.country,
        postal_code: place.postal_code,
        admin_code: place.admin_code,
        city: place.city,
        city_id: place.city_id,
        lat: place.lat,
        lon: place.lon,
        channel,
    }
}

/// A new guest and its session for a device (a device id never leads back to an earlier
/// guest: D350).
pub(crate) async fn start_guest(
    state: &AppState,
    device: &DeviceBase,
    user_type: i32,
    channel: String,
) -> Result<UserAndToken, ApiError> {
    start_session(state, device, new_guest(device, user_type, channel)).await
}

/// Take one new guest from the address's budget (D351): 429 with Retry-After when spent.
/// A call without a known address (a test server without connection info) is not counted.
fn guest_budget(state: &AppState, ip: Option<IpAddr>) -> Result<(), ApiError> {
    match ip {
        Some(ip) => state
            .guest_limit
            .check(ip, Instant::now())
            .map_err(|secs| ApiError::TooManyRequests { retry_after_secs: secs }),
        None => Ok(()),
    }
}

async fn start_session(state: &AppState, device: &DeviceBase, guest: NewGuest) -> Result<UserAndToken, ApiError> {
    let now = now_ms();
    let secret = new_secret();
    let req = GuestSessionRequest {
        device_id: device.device_id.clone(),
        guest,
        verifier_hash: verifier_hash(&secret),
        now_ms: now,
        expires_at_ms: now.saturating_add(state.config.session_ttl_ms),
    };
    let session = state.store.start_guest_session(&req).await?;
    Ok(UserAndToken {
        user: session.user,
        token: compose_token(session.session_id, &secret),
    })
}

/// Create a guest user and a session token, or fetch the user of the token sent
/// (SPEC §4.2, §7.1). Only a token leads to an existing user: a device id is a public label,
/// so an init that names a known device without its token gets a new guest (D350).
#[utoipa::path(post, path = "/api/user/init", tag = "user", request_body = InitRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{user, token}`: the token's own user and the same token when a live one is sent, else a new guest", body = UserAndToken),
        (status = 400, description = "Bad signature, stale timestamp, reused nonce or invalid body"),
        (status = 429, description = "Too many new guests from this address (an IPv6 /64); Retry-After says when to try again")))]
pub async fn init(State(state): State<AppState>, req: Request) -> Result<Response, ApiError> {
    let ip = client_ip(&req, state.config.trust_forwarded_for);
    let call: Signed<InitRequest> = Signed::from_request(req, &state).await?;
    let user_type = call.body.user_type.unwrap_or(0);
    if !matches!(user_type, 0 | 1) {
        return Err(ApiError::BadRequest(
            "Field `user_type`: must be 0 (organic) or 1 (ad channel).".into(),
        ));
    }
    if let Some(token) = call.token.as_deref()
        && let Ok(session) = require_session(&state, Some(token), now_ms()).await
    {
        // The caller holds this user's token already: hand the same one back.
        let mut user = session.user;
        user.is_new_user = 0;
        state.image_proxy.rewrite(&mut user.photo);
        return Ok(ok(UserAndToken {
            user,
            token: token.trim().to_string(),
        }));
    }
    guest_budget(&state, ip)?;
    let channel: String = call.body.channel.unwrap_or_default().trim().chars().take(64).collect();
    let guest = new_guest(&call.device, user_type, channel);
    Ok(ok(start_session(&state, &call.device, guest).await?))
}

/// The signed-in or guest user behind the token (SPEC §7.3).
#[utoipa::path(post, path = "/api/user/info", tag = "user", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the user", body = UserServer),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn info(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let now = now_ms();
    let session = require_session(&state, call.token.as_deref(), now).await?;
    // `last_time` says when the reader was last seen, to the minute: writing it on every
    // call would make each read a write, one at a time through SQLite's writer (D251).
    if now.saturating_sub(session.user.last_time) >= LAST_SEEN_EVERY_MS {
        state.store.touch_user(UserId(session.user.id), now).await?;
    }
    let mut user = session.user;
    user.last_time = now;
    state.image_proxy.rewrite(&mut user.photo);
    Ok(ok(user))
}

/// End the session and start a new guest one for the device (SPEC §4.1, §7.4).
#[utoipa::path(post, path = "/api/user/logout", tag = "user", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with a new guest `{user, token}`", body = UserAndToken),
        (status = 429, description = "Too many new guests from this address (an IPv6 /64); the session has ended all the same")))]
pub async fn logout(State(state): State<AppState>, req: Request) -> Result<Response, ApiError> {
    let ip = client_ip(&req, state.config.trust_forwarded_for);
    let call: Signed<Empty> = Signed::from_request(req, &state).await?;
    if let Some(key) = call.token.as_deref().and_then(parse_token) {
        state.store.end_session(&key).await?;
    }
    guest_budget(&state, ip)?;
    let guest = new_guest(&call.device, 0, String::new());
    Ok(ok(start_session(&state, &call.device, guest).await?))
}

/// SPEC §7.11 payload.
#[derive(Deserialize, ToSchema)]
pub struct LocationRequest {
    pub lat: f64,
    pub lon: f64,
    /// US or CA.
    pub country: String,
    pub city: String,
    #[serde(default)]
    #[schema(value_type = i64)]
    pub city_id: CityId,
    /// en, es or fr.
    pub lang: String,
    #[serde(default)]
    pub admin_code: Option<String>,
    #[serde(default)]
    pub postal_code: Option<String>,
}

fn bad(field: &str, why: &str) -> ApiError {
    ApiError::BadRequest(format!("Field `{field}`: {why}"))
}

/// Validate a location request into the update the store applies.
pub fn location_update(req: &LocationRequest) -> Result<LocationUpdate, ApiError> {
    if !(-90.0..=90.0).contains(&req.lat) {
        return Err(bad("lat", "must be between -90 and 90."));
    }
    if !(-180.0..=180.0).contains(&req.lon) {
        return Err(bad("lon", "must be between -180 and 180."));
    }
    let country = Country::from_iso(&req.country).ok_or_else(|| {
        bad(
            "country",
            &format!(
                "'{}' is not supported; use US or CA.",
                req.country.chars().take(16).collect::<String>()
            ),
        )
    })?;
    let city = req.city.trim();
    if city.is_empty() || city.chars().count() > 200 {
        return Err(bad("city", "must be a city name of 1 to 200 characters."));
    }
    let lang = Locale::from_code(req.lang.trim()).ok_or_else(|| bad("lang", "must be one of en, es, fr."))?;
    let short = |field: &str, v: &Option<String>| -> Result<String, ApiError> {
        let v = v.as_deref().unwrap_or("").trim();
        if v.chars().count() > 16 {
            Err(bad(field, "must be at most 16 characters."))
        } else {
            Ok(v.to_string())
        }
    };
    if req.city_id.0 < 0 {
        return Err(bad("city_id", "must not be negative."));
    }
    let admin_code = short("admin_code", &req.admin_code)?;
    let postal_code = short("postal_code", &req.postal_code)?;
    Ok(LocationUpdate {
        lat: req.lat,
        lon: req.lon,
        country: country.iso().to_string(),
        city: city.to_string(),
        city_show: city_show(city, &admin_code),
        city_id: req.city_id,
        app_lang: lang.code().to_string(),
        admin_code,
        postal_code,
    })
}

/// SPEC §7: in the location-update reply, missing admin_code and postal_code are
/// filled from the request, and account_type is dropped.
pub fn location_reply(mut user: UserServer, update: &LocationUpdate) -> UserServer {
    if user.admin_code.is_empty() {
        user.admin_code.clone_from(&update.admin_code);
    }
    if user.postal_code.is_empty() {
        user.postal_code.clone_from(&update.postal_code);
    }
    user.account_type = None;
    user
}

/// Set the user's city, coordinates and language (SPEC §4.3, §4.4, §7.11).
#[utoipa::path(post, path = "/api/user/location/update", tag = "user", request_body = LocationRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{user, token}`; user has no account_type", body = UserAndToken),
        (status = 400, description = "A field is missing or out of range; the message names it"),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn location_update_handler(
    State(state): State<AppState>,
    call: Signed<LocationRequest>,
) -> Result<Response, ApiError> {
    let now = now_ms();
    let session = require_session(&state, call.token.as_deref(), now).await?;
    let update = location_update(&call.body)?;
    let user = state
        .store
        .update_location(UserId(session.user.id), &update, now)
        .await?
        .ok_or(ApiError::Unauthorized(
            "The user of this session no longer exists; call /user/init.",
        ))?;
    let token = call.token.unwrap_or_default();
    let mut user = location_reply(user, &update);
    state.image_proxy.rewrite(&mut user.photo);
    Ok(ok(UserAndToken { user, token }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req() -> LocationRequest {
        LocationRequest {
            lat: 45.5,
            lon: -73.6,
            country: "ca".into(),
            city: " Montréal ".into(),
            city_id: CityId(6077243),
            lang: "fr".into(),
            admin_code: Some("QC".into()),
            postal_code: None,
        }
    }

    #[test]
    fn spec_7_11_location_update_validates_and_normalises() {
        let u = location_update(&req()).unwrap();
        assert_eq!(
            (u.country.as_str(), u.city.as_str(), u.city_show.as_str()),
            ("CA", "Montréal", "Montréal, QC")
        );
        assert_eq!((u.app_lang.as_str(), u.postal_code.as_str()), ("fr", ""));
    }

    #[test]
    fn spec_7_11_location_update_rejects_bad_fields_by_name() {
        let msg = |r: LocationRequest| match location_update(&r) {
            Err(ApiError::BadRequest(m)) => m,
            _ => panic!("expected 400"),
        };
        assert!(msg(LocationRequest { lat: 91.0, ..req() }).starts_with("Field `lat`"));
        assert!(msg(LocationRequest { lon: -181.0, ..req() }).starts_with("Field `lon`"));
        assert!(
            msg(LocationRequest {
                country: "MX".into(),
                ..req()
            })
            .contains("'MX' is not supported")
        );
        assert!(
            msg(LocationRequest {
                city: "  ".into(),
                ..req()
            })
            .starts_with("Field `city`")
        );
        assert!(
            msg(LocationRequest {
                lang: "de".into(),
                ..req()
            })
            .starts_with("Field `lang`")
        );
        assert!(
            msg(LocationRequest {
                admin_code: Some("X".repeat(17)),
                ..req()
            })
            .starts_with("Field `admin_code`")
        );
    }

    #[test]
    fn spec_7_location_reply_fills_codes_from_request_and_drops_account_type() {
        let update = location_update(&LocationRequest {
            postal_code: Some("H2X".into()),
            ..req()
        })
        .unwrap();
        let stored = UserServer {
            id: 1,
            name: String::new(),
            photo: String::new(),
            email: String::new(),
            is_new_user: 0,
            account_type: Some(0),
            join_time: 1,
            last_time: 1,
            app_lang: "fr".into(),
            postal_code: String::new(),
            country: "CA".into(),
            admin_code: String::new(),
            city: "Montréal".into(),
            city_show: "Montréal, QC".into(),
            city_id: CityId(6077243),
            lat: 45.5,
            lon: -73.6,
            user_type: 0,
        };
        let reply = location_reply(stored, &update);
        assert_eq!((reply.admin_code.as_str(), reply.postal_code.as_str()), ("QC", "H2X"));
        assert_eq!(reply.account_type, None);
        let json = serde_json::to_value(&reply).unwrap();
        assert!(
            json.get("account_type").is_none(),
            "account_type is dropped from the JSON"
        );
    }

    #[test]
    fn spec_5_6_guest_from_unsupported_country_gets_default_location() {
        let device = DeviceBase {
            device_id: "d".into(),
            app_lang: Some("de".into()),
            country: Some("MX".into()),
        };
        let g = new_guest(&device, 0, String::new());
        assert_eq!(
            (g.country.as_str(), g.app_lang.as_str(), g.city.as_str()),
            ("US", "en", "Washington")
        );
        assert_eq!((g.postal_code.as_str(), g.admin_code.as_str()), ("20003", "DC"));
        let device = DeviceBase {
            device_id: "d".into(),
            app_lang: Some("fr".into()),
            country: Some("CA".into()),
        };
        let g = new_guest(&device, 1, String::new());
        assert_eq!(
            (
                g.country.as_str(),
                g.app_lang.as_str(),
                g.city_show.as_str(),
                g.user_type
            ),
            ("CA", "fr", "Ottawa, ON", 1)
        );
    }
}
