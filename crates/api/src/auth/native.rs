//! `POST /api/user/third/login` (SPEC §7.2) for native apps, which sign in with the
//! provider's own SDK and hand the server what it gave them: Google's ID token (type 3)
//! or Facebook's access token (type 2). The server asks the provider (signature and
//! audience; `debug_token` for this app) before anything is created.

use super::{Failure, FromSession, finish_sign_in, label::session_label, provider_failure};
use crate::envelope::{ApiError, ok};
use crate::rate_limit::client_ip;
use crate::session::{parse_token, require_session};
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::user::{UserAndToken, start_guest};
use axum::extract::{FromRequest, Request, State};
use axum::http::header;
use axum::response::Response;
use serde::Deserialize;
use sign_in::Provider;
use std::time::Instant;
use utoipa::ToSchema;

/// SPEC §7.2: `type` plus the provider's fields.
#[derive(Deserialize, ToSchema)]
pub struct ThirdLoginRequest {
    /// SPEC §3.2 account type: 3 google, 2 facebook.
    #[serde(rename = "type")]
    pub account_type: i32,
    /// Google: the ID token the app's Google sign-in returned.
    #[serde(default)]
    pub id_token: Option<String>,
    /// Facebook: the user access token the app's Facebook login returned.
    #[serde(default)]
    pub access_token: Option<String>,
}

const MAX_TOKEN: usize = 8 * 1024;

fn token_field(value: Option<&str>, field: &str, provider: &str) -> Result<String, ApiError> {
    let value = value.map(str::trim).unwrap_or("");
    if value.is_empty() {
        return Err(ApiError::BadRequest(format!(
            "Field `{field}`: required for {provider} sign-in."
        )));
    }
    if value.len() > MAX_TOKEN {
        return Err(ApiError::BadRequest(format!(
            "Field `{field}`: longer than {MAX_TOKEN} bytes."
        )));
    }
    Ok(value.to_string())
}

/// Sign in with a provider token from a native app; answers the §3 login result.
#[utoipa::path(post, path = "/api/user/third/login", tag = "user", request_body = ThirdLoginRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the signed-in `{user, token}`", body = UserAndToken),
        (status = 400, description = "A field is missing, or the provider did not vouch for the token; the message says which"),
        (status = 409, description = "Linking: the identity belongs to another account"),
        (status = 429, description = "Too many sign-ins from this address (Retry-After)"),
        (status = 503, description = "The provider did not answer in time")))]
pub async fn third_login(State(state): State<AppState>, req: Request) -> Result<Response, ApiError> {
    if let Some(ip) = client_ip(&req, state.config.trust_forwarded_for) {
        state
            .sign_in_limits
            .native
            .check(ip, Instant::now())
            .map_err(|secs| ApiError::TooManyRequests { retry_after_secs: secs })?;
    }
    let label = session_label(
        req.headers()
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or(""),
    );
    let call: Signed<ThirdLoginRequest> = Signed::from_request(req, &state).await?;
    let body = &call.body;
    let profile = match body.account_type {
        3 => {
            let google = state
                .providers
                .google
                .as_ref()
                .ok_or(Failure::NotConfigured(Provider::Google).api_error())?;
            let token = token_field(body.id_token.as_deref(), "id_token", "Google")?;
            google
                .verify_id_token(&token, None)
                .await
                .map_err(|e| provider_failure(Provider::Google, e).api_error())?
        }
        2 => {
            let facebook = state
                .providers
                .facebook
                .as_ref()
                .ok_or(Failure::NotConfigured(Provider::Facebook).api_error())?;
            let token = token_field(body.access_token.as_deref(), "access_token", "Facebook")?;
            facebook
                .verify_access_token(&token)
                .await
                .map_err(|e| provider_failure(Provider::Facebook, e).api_error())?
        }
        _ => {
            return Err(ApiError::BadRequest(
                "Field `type`: must be 3 (google) or 2 (facebook).".into(),
            ));
        }
    };
    // The app's session (a guest from /user/init), or, without one, a new guest: never the
    // guest a device id names (D350).
    let now = now_ms();
    let (session_id, session) = match call.token.as_deref().and_then(parse_token) {
        Some(key) => (key.id, require_session(&state, call.token.as_deref(), now).await?),
        None => {
            let guest = start_guest(&state, &call.device, 0, String::new()).await?;
            let key =
                parse_token(&guest.token).ok_or_else(|| ApiError::Internal("a new token does not parse".into()))?;
            (key.id, require_session(&state, Some(&guest.token), now).await?)
        }
    };
    let from = FromSession {
        session_id,
        device_id: session.device_id.clone(),
        user: session.user,
        device: call.device.clone(),
    };
    let signed_in: UserAndToken = finish_sign_in(&state, &from, profile, false, label)
        .await
        .map_err(Failure::api_error)?;
    Ok(ok(signed_in))
}
