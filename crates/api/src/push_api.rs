//! Notifications over HTTP (issue 19, SPEC §1.4, §7.6): the server's public key, subscribe
//! and unsubscribe, the reader's notification settings, and what was sent to them
//! (`POST /api/news/feed/byNotification`: list, token). Guests may do all of it; what they
//! set follows them into their account (D250). Thin: validate, call the store, answer.

use crate::envelope::{ApiError, ok};
use crate::reader::{AltNews, PageParams, alt_news, next_token, page};
use crate::session::reader;
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::user::Empty;
use axum::extract::State;
use axum::response::Response;
use domain::ids::{CityId, MediaId};
use serde::{Deserialize, Serialize};
use store::push::{NewSubscription, NotificationSettings, SettingsProblem, Subscribed};
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct PushKey {
    /// The VAPID public key (uncompressed P-256, base64url): the browser's
    /// `applicationServerKey`.
    pub public_key: String,
}

/// This server's Web Push key, for `PushManager.subscribe` (RFC 8292).
#[utoipa::path(get, path = "/api/push/key", tag = "notifications",
    responses((status = 200, description = "Envelope with `{public_key}`", body = PushKey),
        (status = 500, description = "The key could not be read or made")))]
pub async fn key(State(state): State<AppState>) -> Result<Response, ApiError> {
    let key = state
        .push
        .key(&*state.store)
        .await
        .map_err(|e| ApiError::Internal(format!("push key: {e}")))?;
    Ok(ok(PushKey {
        public_key: key.public_key(),
    }))
}

/// `PushSubscription.toJSON()`'s keys.
#[derive(Deserialize, ToSchema)]
pub struct SubscriptionKeys {
    /// The browser's P-256 public key, base64url.
    pub p256dh: String,
    /// The 16-byte authentication secret, base64url.
    pub auth: String,
}

#[derive(Deserialize, ToSchema)]
pub struct SubscribeRequest {
    /// The push service's address for this browser (https).
    pub endpoint: String,
    pub keys: SubscriptionKeys,
    /// The city to be told about (GeoNames id); default the reader's city.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    pub city_id: Option<CityId>,
    /// en, es or fr; default the reader's language.
    #[serde(default)]
    pub lang: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct SubscribedState {
    /// Whether this browser gets notifications now.
    pub subscribed: bool,
}

/// The 409 when another reader holds the endpoint: the app then asks the browser for a
/// new subscription and sends that instead.
pub const TAKEN_MESSAGE: &str = "This browser's push subscription belongs to another reader on this server; turn notifications off and on again to make a new one.";

/// Turn notifications on for this browser, for a city (issue 19).
#[utoipa::path(post, path = "/api/user/push/subscribe", tag = "notifications", request_body = SubscribeRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{subscribed: true}`", body = SubscribedState),
        (status = 400, description = "The endpoint, keys, city or language is unusable; the message says which"),
        (status = 401, description = "Missing, unknown or expired token"),
        (status = 409, description = "Another reader holds this endpoint (D356); subscribe the browser again for a new one")))]
pub async fn subscribe(State(state): State<AppState>, call: Signed<SubscribeRequest>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let body = call.body;
    let endpoint = state
        .push
        .check_endpoint(&body.endpoint)
        .map_err(|e| ApiError::BadRequest(format!("Field `endpoint`: {e}")))?;
    let p256dh = body.keys.p256dh.trim();
    if push::crypto::from_b64url(p256dh).is_none_or(|k| k.len() != 65 || k[0] != 4) {
        return Err(ApiError::BadRequest(
            "Field `keys.p256dh`: must be the browser's P-256 public key (65 bytes, base64url).".into(),
        ));
    }
    let auth = body.keys.auth.trim();
    if push::crypto::from_b64url(auth).is_none_or(|a| a.len() != 16) {
        return Err(ApiError::BadRequest(
            "Field `keys.auth`: must be the browser's 16-byte secret, base64url.".into(),
        ));
    }
    let me = state
        .store
        .user(user)
        .await?
        .ok_or(ApiError::Unauthorized("unknown user"))?;
    let city_id = body.city_id.unwrap_or(me.city_id);
    if geo::by_id(city_id).is_none() {
        return Err(ApiError::BadRequest(
            "Field `city_id`: no city has this id; choose your city first.".into(),
        ));
    }
    let lang = body
        .lang
        .as_deref()
        .map(str::trim)
        .unwrap_or(me.app_lang.as_str())
        .to_string();
    let lang = match domain::locale::Locale::from_code(&lang) {
        Some(l) => l.code().to_string(),
        None if body.lang.is_none() => domain::locale::Locale::DEFAULT.code().to_string(),
        None => return Err(ApiError::BadRequest("Field `lang`: must be en, es or fr.".into())),
    };
    let sub = NewSubscription {
        user,
        endpoint: endpoint.to_string(),
        p256dh: p256dh.to_string(),
        auth: auth.to_string(),
        city_id,
        lang,
    };
    match state.store.put_push_subscription(&sub, now_ms()).await? {
        Subscribed::Stored => Ok(ok(SubscribedState { subscribed: true })),
        Subscribed::TooMany => Err(ApiError::BadRequest(format!(
            "You get notifications on {} browsers already; turn them off on one first.",
            store::push::MAX_SUBSCRIPTIONS
        ))),
        // D356: an endpoint is never moved away from the reader who holds it.
        Subscribed::Taken => Err(ApiError::Conflict(TAKEN_MESSAGE.into())),
    }
}

#[derive(Deserialize, ToSchema)]
pub struct UnsubscribeRequest {
    pub endpoint: String,
}

/// Turn notifications off for this browser. Turning off what is off is fine.
#[utoipa::path(post, path = "/api/user/push/unsubscribe", tag = "notifications", request_body = UnsubscribeRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{subscribed: false}`", body = SubscribedState),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn unsubscribe(
    State(state): State<AppState>,
    call: Signed<UnsubscribeRequest>,
) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    state
        .store
        .remove_push_subscription(user, call.body.endpoint.trim())
        .await?;
    Ok(ok(SubscribedState { subscribed: false }))
}

/// A reader's notification settings as the API shows and takes them. Times are "HH:MM"
/// in the city's time zone.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone, PartialEq)]
pub struct SettingsDoc {
    /// Notifications at all (default true).
    pub enabled: bool,
    /// At most this many pushes a day, 0 to 24 (default 3).
    pub daily_budget: u32,
    /// Quiet hours start, "HH:MM" (default "22:00").
    pub quiet_start: String,
    /// Quiet hours end, "HH:MM" (default "07:00"); equal to the start: no quiet hours.
    pub quiet_end: String,
    /// One daily digest at this hour (0–23) instead of single pushes; null: single pushes.
    #[serde(default)]
    pub digest_hour: Option<u32>,
    /// Publishers whose stories are never pushed.
    #[serde(default)]
    #[schema(value_type = Vec<i64>)]
    pub media_off: Vec<MediaId>,
    /// Topics (tags, categories) whose stories are never pushed.
    #[serde(default)]
    pub topics_off: Vec<String>,
    /// Browsers of this reader that get notifications (read only).
    #[serde(default)]
    pub subscriptions: u32,
}

fn hhmm(minutes: u32) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

fn parse_hhmm(field: &str, text: &str) -> Result<u32, ApiError> {
    let bad = || ApiError::BadRequest(format!("Field `{field}`: must be a time of day like 22:00."));
    let (h, m) = text.trim().split_once(':').ok_or_else(bad)?;
    let (h, m): (u32, u32) = (h.parse().map_err(|_| bad())?, m.parse().map_err(|_| bad())?);
    if h > 23 || m > 59 {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

impl SettingsDoc {
    pub fn from_settings(s: &NotificationSettings, subscriptions: u32) -> SettingsDoc {
        SettingsDoc {
            enabled: s.enabled,
            daily_budget: s.daily_budget,
            quiet_start: hhmm(s.quiet_start),
            quiet_end: hhmm(s.quiet_end),
            digest_hour: s.digest_hour,
            media_off: s.media_off.clone(),
            topics_off: s.topics_off.clone(),
            subscriptions,
        }
    }

    pub fn to_settings(&self) -> Result<NotificationSettings, ApiError> {
        let s = NotificationSettings {
            enabled: self.enabled,
            daily_budget: self.daily_budget,
            quiet_start: parse_hhmm("quiet_start", &self.quiet_start)?,
            quiet_end: parse_hhmm("quiet_end", &self.quiet_end)?,
            digest_hour: self.digest_hour,
            media_off: self.media_off.clone(),
            topics_off: self.topics_off.clone(),
        };
        s.checked().map_err(|p| {
            ApiError::BadRequest(match p {
                SettingsProblem::Budget => {
                    format!("Field `daily_budget`: at most {} a day.", store::push::MAX_DAILY_BUDGET)
                }
                SettingsProblem::QuietHours => "Field `quiet_start`: must be a time of day like 22:00.".into(),
                SettingsProblem::DigestHour => "Field `digest_hour`: must be an hour from 0 to 23, or null.".into(),
                SettingsProblem::TooManySwitches => format!(
                    "At most {} publishers and {} topics can be switched off.",
                    store::push::MAX_SWITCHES,
                    store::push::MAX_SWITCHES
                ),
                SettingsProblem::TopicText => format!(
                    "Field `topics_off`: each topic is 1 to {} characters on one line.",
                    store::things::MAX_TEXT_CHARS
                ),
            })
        })
    }
}

async fn settings_doc(state: &AppState, user: store::UserId) -> Result<SettingsDoc, ApiError> {
    let settings = state.store.notification_settings(user).await?;
    let subs = state.store.push_subscriptions_of(user).await?.len() as u32;
    Ok(SettingsDoc::from_settings(&settings, subs))
}

/// The reader's notification settings (defaults until they change them).
#[utoipa::path(post, path = "/api/user/push/settings", tag = "notifications", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the settings", body = SettingsDoc),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn settings(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    Ok(ok(settings_doc(&state, user).await?))
}

/// Replace the reader's notification settings; answers them as stored.
#[utoipa::path(post, path = "/api/user/push/settings/update", tag = "notifications", request_body = SettingsDoc,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the settings as stored", body = SettingsDoc),
        (status = 400, description = "A field is out of range; the message names it"),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn update_settings(State(state): State<AppState>, call: Signed<SettingsDoc>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let settings = call.body.to_settings()?;
    state.store.put_notification_settings(user, &settings, now_ms()).await?;
    Ok(ok(settings_doc(&state, user).await?))
}

#[derive(Serialize, ToSchema)]
pub struct NotificationList {
    /// Newest first, in the §3 alternative news shape; `create_time` is when it was sent.
    pub list: Vec<AltNews>,
    /// Give it back as `page_no` for the next page; `""` on the last page.
    pub token: String,
}

/// What was sent to the reader (SPEC §7.6: params → list, token).
#[utoipa::path(post, path = "/api/news/feed/byNotification", tag = "notifications", request_body = PageParams,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, token}`", body = NotificationList),
        (status = 400, description = "A page token this server did not give, or a size out of 1–100"),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn by_notification(State(state): State<AppState>, call: Signed<PageParams>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let page = page(call.body.page_no.as_deref(), call.body.size)?;
    let sent = state.store.sent_pushes(user, page).await?;
    let entries: Vec<_> = sent.items.iter().map(|s| (s.news_id, s.sent_at_ms)).collect();
    Ok(ok(NotificationList {
        list: alt_news(&state, &entries).await?,
        token: next_token(sent.next),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d310_times_of_day_read_and_write_as_hh_mm() {
        assert_eq!(parse_hhmm("q", "22:00").unwrap(), 1320);
        assert_eq!(parse_hhmm("q", " 7:05 ").unwrap(), 425);
        assert_eq!(hhmm(425), "07:05");
        for bad in ["24:00", "7", "07:60", "", "ab:cd"] {
            assert!(parse_hhmm("q", bad).is_err(), "{bad}");
        }
    }
}
