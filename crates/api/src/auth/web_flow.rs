//! The browser's sign-in: `GET /auth/{provider}/start` (in a popup, or the whole window
//! when popups are blocked) and `GET /auth/{provider}/callback`.
//!
//! Start: the reader's session (the app's `token` cookie) must be live. A flow is stored
//! under the SHA-256 of a random `state`, with the PKCE verifier, the nonce, the session
//! and the SHA-256 of a second secret set in this browser's `lw_sign_in` cookie; then the
//! browser goes to the provider. Callback: the flow is taken (so a state works once), and
//! must be this provider's, unexpired, from this browser (cookie) and this session; the
//! code is exchanged (PKCE) and the ID token checked (nonce); then the session's user signs
//! in and gets a new session, whose token is set as the app's `token` cookie. The answer
//! tells the opener (popup) or goes back to the page the reader was on (whole window),
//! which is always a path on this site.

use super::page::{self, Outcome};
use super::{Failure, FromSession, account_type, display_name, finish_sign_in, label::session_label, provider_failure};
use crate::pages::{TOKEN_COOKIE, cookie};
use crate::rate_limit::{RateLimit, client_ip};
use crate::same_origin::is_same_origin_path;
use crate::session::{new_secret, parse_token, require_session, verifier_hash};
use crate::signed::DeviceBase;
use crate::state::{AppState, now_ms};
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::locale::{CountryLanguage, Locale};
use domain::user::AccountType;
use sign_in::{FlowSecrets, Provider};
use std::net::IpAddr;
use std::time::Instant;
use store::SignInFlow;

/// The browser half of a flow: a cookie only the starting browser has.
pub const BROWSER_COOKIE: &str = "lw_sign_in";
/// How long a reader has to finish at the provider.
const FLOW_TTL_MS: i64 = 10 * 60 * 1000;
const MAX_RETURN: usize = 512;

/// Where to land afterwards: a path on this site, else home. A path that
/// [`crate::same_origin::same_origin_path`] would have to change (`//host`, `/\host`,
/// `/%2F%2Fhost`, a tab or newline inside…) is an attack, not a page the reader was on:
/// home instead (D360). Never a scheme, never a control character or backslash.
pub fn safe_return_path(raw: Option<&str>) -> String {
    match raw {
        Some(p)
            if p.starts_with('/')
                && p.len() <= MAX_RETURN
                && !p.chars().any(|c| c.is_control() || c == '\\')
                && is_same_origin_path(p) =>
        {
            p.to_string()
        }
        _ => "/".to_string(),
    }
}

fn query_pairs(req: &Request) -> Vec<(String, String)> {
    url::form_urlencoded::parse(req.uri().query().unwrap_or("").as_bytes())
        .into_owned()
        .take(16)
        .collect()
}

fn param<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn reader_locale(headers: &HeaderMap) -> Locale {
    cookie(headers, crate::pages::LOCALE_COOKIE)
        .and_then(CountryLanguage::parse)
        .map_or(Locale::DEFAULT, |c| c.locale)
}

fn secure(state: &AppState) -> &'static str {
    let https = state
        .config
        .public_url
        .as_deref()
        .is_some_and(|u| u.starts_with("https://"));
    if https { "; Secure" } else { "" }
}

fn limited(limit: &RateLimit, ip: Option<IpAddr>) -> Result<(), Failure> {
    match ip {
        Some(ip) => limit.check(ip, Instant::now()).map_err(Failure::TooMany),
        // No address (a test router without connection info): nothing to count by.
        None => Ok(()),
    }
}

/// The address the provider sends the browser back to: always under `--public-url`,
/// never from the request's Host header, which anyone can set (D362). The binary does not
/// start with a provider and no public address; a router built without one refuses here.
fn redirect_uri(state: &AppState, provider: Provider) -> Result<String, Failure> {
    let base = state.config.public_url.as_deref().ok_or_else(|| {
        Failure::Server(format!(
            "{} sign-in needs the server's public address (--public-url)",
            display_name(provider)
        ))
    })?;
    Ok(format!(
        "{}/auth/{}/callback",
        base.trim_end_matches('/'),
        provider.name()
    ))
}

/// The session behind the app's `token` cookie, with its id.
async fn cookie_session(state: &AppState, headers: &HeaderMap) -> Result<FromSession, Failure> {
    let token = cookie(headers, TOKEN_COOKIE)
        .map(|t| percent_encoding::percent_decode_str(t).decode_utf8_lossy().into_owned())
        .ok_or(Failure::SessionGone)?;
    let key = parse_token(&token).ok_or(Failure::SessionGone)?;
    let session = require_session(state, Some(&token), now_ms())
        .await
        .map_err(|_| Failure::SessionGone)?;
    Ok(FromSession {
        session_id: key.id,
        device: DeviceBase {
            device_id: session.device_id.clone(),
            app_lang: Some(session.user.app_lang.clone()),
            country: Some(session.user.country.clone()),
        },
        device_id: session.device_id,
        user: session.user,
    })
}

/// `GET /auth/{provider}/start?return=/path&mode=popup|page&link=1`
pub async fn start(State(state): State<AppState>, Path(provider): Path<String>, req: Request) -> Response {
    let pairs = query_pairs(&req);
    let popup = param(&pairs, "mode") != Some("page");
    let locale = reader_locale(req.headers());
    let ip = client_ip(&req, state.config.trust_forwarded_for);
    let headers = req.headers().clone();
    match begin(&state, &provider, &pairs, popup, ip, &headers).await {
        Ok(to) => to,
        Err(failure) => page::answer(locale, popup, &Outcome::Failed(failure), "/"),
    }
}

async fn begin(
    state: &AppState,
    provider: &str,
    pairs: &[(String, String)],
    popup: bool,
    ip: Option<IpAddr>,
    headers: &HeaderMap,
) -> Result<Response, Failure> {
    let provider = Provider::from_name(provider).ok_or(Failure::Expired)?;
    limited(&state.sign_in_limits.start, ip)?;
    if !state.providers.has(provider) {
        return Err(Failure::NotConfigured(provider));
    }
    let callback = redirect_uri(state, provider)?;
    let from = cookie_session(state, headers).await?;
    let link = param(pairs, "link") == Some("1");
    let secrets = FlowSecrets::new();
    let browser_secret = new_secret();
    let now = now_ms();
    let account_type = account_type(provider);
    state
        .store
        .put_sign_in_flow(&SignInFlow {
            state_hash: verifier_hash(&secrets.state),
            provider: account_type,
            browser_hash: verifier_hash(&browser_secret),
            session_id: from.session_id,
            pkce_verifier: secrets.verifier.clone(),
            nonce: secrets.nonce.clone(),
            return_to: safe_return_path(param(pairs, "return")),
            popup,
            link,
            created_at_ms: now,
            expires_at_ms: now + FLOW_TTL_MS,
        })
        .await?;
    let to = match provider {
        Provider::Google => {
            let google = state
                .providers
                .google
                .as_ref()
                .ok_or(Failure::NotConfigured(provider))?;
            google
                .authorize_url(&callback, &secrets)
                .await
                .map_err(|e| provider_failure(provider, e))?
        }
        Provider::Facebook => {
            let facebook = state
                .providers
                .facebook
                .as_ref()
                .ok_or(Failure::NotConfigured(provider))?;
            facebook.authorize_url(&callback, &secrets)
        }
    };
    let cookie = format!(
        "{BROWSER_COOKIE}={browser_secret}; Max-Age={}; Path=/auth; HttpOnly; SameSite=Lax{}",
        FLOW_TTL_MS / 1000,
        secure(state)
    );
    let mut res = StatusCode::SEE_OTHER.into_response();
    let h = res.headers_mut();
    h.insert(
        header::LOCATION,
        HeaderValue::from_str(&to)
            .map_err(|_| Failure::Server("the provider's address is not a valid header".into()))?,
    );
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        h.append(header::SET_COOKIE, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(res)
}

/// `GET /auth/{provider}/callback?code=…&state=…` (or `?error=…&state=…`)
pub async fn callback(State(state): State<AppState>, Path(provider): Path<String>, req: Request) -> Response {
    let pairs = query_pairs(&req);
    let locale = reader_locale(req.headers());
    let ip = client_ip(&req, state.config.trust_forwarded_for);
    let headers = req.headers().clone();
    let flow = match take_flow(&state, &provider, &pairs, ip, &headers).await {
        Ok(flow) => flow,
        // No flow: nothing says whether it was a popup; a popup page also works in a window.
        Err(failure) => return page::answer(locale, true, &Outcome::Failed(failure), "/"),
    };
    let result = complete(&state, &flow, &pairs, &headers).await;
    let outcome = match result {
        Ok(token) => Outcome::SignedIn { token },
        Err(failure) => Outcome::Failed(failure),
    };
    let mut res = page::answer(locale, flow.popup, &outcome, &flow.return_to);
    let h = res.headers_mut();
    let expired = format!(
        "{BROWSER_COOKIE}=; Max-Age=0; Path=/auth; HttpOnly; SameSite=Lax{}",
        secure(&state)
    );
    if let Ok(v) = HeaderValue::from_str(&expired) {
        h.append(header::SET_COOKIE, v);
    }
    if let Outcome::SignedIn { token } = &outcome {
        // The app keeps its token in this cookie (SPEC §3.5, 30 days); it reads it on its
        // next call, so the opener is signed in as soon as this answer arrives.
        let value = format!(
            "{TOKEN_COOKIE}={token}; Max-Age={}; Path=/; SameSite=Lax{}",
            30 * 24 * 3600,
            secure(&state)
        );
        if let Ok(v) = HeaderValue::from_str(&value) {
            h.append(header::SET_COOKIE, v);
        }
    }
    res
}

async fn take_flow(
    state: &AppState,
    provider: &str,
    pairs: &[(String, String)],
    ip: Option<IpAddr>,
    headers: &HeaderMap,
) -> Result<SignInFlow, Failure> {
    limited(&state.sign_in_limits.callback, ip)?;
    let provider = Provider::from_name(provider).ok_or(Failure::Expired)?;
    let given = param(pairs, "state")
        .filter(|s| !s.is_empty() && s.len() <= 256)
        .ok_or(Failure::Expired)?;
    let flow = state
        .store
        .take_sign_in_flow(&verifier_hash(given), now_ms())
        .await?
        .ok_or(Failure::Expired)?;
    if flow.provider != account_type(provider) {
        return Err(Failure::Expired);
    }
    let browser = cookie(headers, BROWSER_COOKIE).ok_or(Failure::OtherBrowser)?;
    if verifier_hash(browser) != flow.browser_hash {
        return Err(Failure::OtherBrowser);
    }
    Ok(flow)
}

async fn complete(
    state: &AppState,
    flow: &SignInFlow,
    pairs: &[(String, String)],
    headers: &HeaderMap,
) -> Result<String, Failure> {
    let provider = if flow.provider == AccountType::Google {
        Provider::Google
    } else {
        Provider::Facebook
    };
    if param(pairs, "error").is_some() {
        return Err(Failure::Cancelled);
    }
    let code = param(pairs, "code")
        .filter(|c| !c.is_empty() && c.len() <= 2048)
        .ok_or(Failure::Cancelled)?;
    // The session that started the flow, in this browser, still live.
    let from = cookie_session(state, headers).await?;
    if from.session_id != flow.session_id {
        return Err(Failure::OtherBrowser);
    }
    let callback = redirect_uri(state, provider)?;
    let profile = match provider {
        Provider::Google => {
            let google = state
                .providers
                .google
                .as_ref()
                .ok_or(Failure::NotConfigured(provider))?;
            google.finish(code, &flow.pkce_verifier, &callback, &flow.nonce).await
        }
        Provider::Facebook => {
            let facebook = state
                .providers
                .facebook
                .as_ref()
                .ok_or(Failure::NotConfigured(provider))?;
            facebook.finish(code, &flow.pkce_verifier, &callback).await
        }
    }
    .map_err(|e| provider_failure(provider, e))?;
    tracing::info!(provider = display_name(provider), link = flow.link, "sign-in");
    let ua = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let signed_in = finish_sign_in(state, &from, profile, flow.link, session_label(ua)).await?;
    Ok(signed_in.token)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_paths_on_this_site_are_returned_to() {
        let cases = [
            (Some("/local?city=1#top"), "/local?city=1#top"),
            (Some("/fr/user"), "/fr/user"),
            (Some("//evil.example/x"), "/"),
            (Some("/\\evil.example"), "/"),
            (Some("https://evil.example/"), "/"),
            (Some("javascript:alert(1)"), "/"),
            (Some("/a\nb"), "/"),
            (Some("/\t/evil.example"), "/"),
            (Some("/%2F%2Fevil.example"), "/"),
            (Some("/%2f%5cevil.example"), "/"),
            (Some("/%5Cevil.example"), "/"),
            (Some("\\/evil.example"), "/"),
            (Some(""), "/"),
            (None, "/"),
        ];
        for (raw, want) in cases {
            assert_eq!(safe_return_path(raw), want, "{raw:?}");
        }
        assert_eq!(safe_return_path(Some(&format!("/{}", "a".repeat(600)))), "/");
    }
}
