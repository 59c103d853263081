//! The account page's calls (issue 17): linked providers, active sessions (revoke one or
//! all others), download my data, delete my account. Signed-in readers only: a guest gets
//! 403 (not 401, which tells the app its token is gone).

use crate::envelope::{ApiError, ok};
use crate::session::{parse_token, require_session};
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::user::{Empty, UserAndToken, start_guest};
use axum::extract::State;
use axum::response::Response;
use domain::user::{AccountType, UserServer};
use serde::{Deserialize, Serialize};
use store::{IdentityInfo, SessionUser, UserId};
use utoipa::ToSchema;

/// The signed-in session behind a token, with its id.
pub async fn require_account(state: &AppState, token: Option<&str>) -> Result<(i64, SessionUser), ApiError> {
    let session = require_session(state, token, now_ms()).await?;
    let signed_in = session
        .user
        .account_type
        .and_then(AccountType::from_code)
        .is_some_and(AccountType::is_signed_in);
    if !signed_in {
        return Err(ApiError::Forbidden);
    }
    let id = token.and_then(parse_token).map(|k| k.id).unwrap_or_default();
    Ok((id, session))
}

#[derive(Serialize, ToSchema)]
pub struct LinkedIdentity {
    /// SPEC §3.2 account type: 2 facebook, 3 google.
    #[serde(rename = "type")]
    pub account_type: i32,
    pub email: String,
    pub name: String,
    /// Milliseconds since 1970.
    pub linked_at: i64,
    pub last_used_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct AccountInfo {
    pub user: UserServer,
    pub identities: Vec<LinkedIdentity>,
    /// An operator of this server (`--admin-emails`): the account page links to /admin (D337).
    pub operator: bool,
}

/// How `--admin-emails` names an identity by provider and subject: `google:<sub>`,
/// `facebook:<user id>` (D361).
pub fn operator_entry(provider: AccountType, subject: &str) -> Option<String> {
    let name = match provider {
        AccountType::Google => "google",
        AccountType::Facebook => "facebook",
        _ => return None,
    };
    Some(format!("{name}:{}", subject.trim().to_ascii_lowercase()))
}

/// Whether an account is an operator of this server (D335, D337, D361): one of its
/// identities is named in `admin` (`--admin-emails`, lower case), by its email when the
/// provider vouched for it (Google, whose sign-in keeps only an email Google says is
/// verified), or by `provider:subject`. A Facebook email never makes an operator:
/// Facebook does not say whether it verified it, and an address anyone could put on a
/// Facebook profile must not open `/admin`.
pub fn is_operator(admin: &[String], identities: &[IdentityInfo]) -> bool {
    identities.iter().any(|i| {
        let by_subject = operator_entry(i.provider, &i.subject).is_some_and(|e| admin.contains(&e));
        let email = i.email.trim().to_ascii_lowercase();
        let by_email = i.provider == AccountType::Google && !email.is_empty() && admin.contains(&email);
        by_subject || by_email
    })
}

/// The signed-in reader and the providers linked to them.
#[utoipa::path(post, path = "/api/user/account", tag = "user", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the user and linked providers", body = AccountInfo),
        (status = 401, description = "Missing, unknown or expired token"),
        (status = 403, description = "A guest: sign in first")))]
pub async fn account(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let (_, session) = require_account(&state, call.token.as_deref()).await?;
    let identities = state.store.identities_of(UserId(session.user.id)).await?;
    let operator = is_operator(&state.config.admin_emails, &identities);
    let identities = identities
        .into_iter()
        .map(|i| LinkedIdentity {
            account_type: i.provider.code(),
            email: i.email,
            name: i.name,
            linked_at: i.linked_at_ms,
            last_used_at: i.last_used_at_ms,
        })
        .collect();
    let mut user = session.user;
    state.image_proxy.rewrite(&mut user.photo);
    Ok(ok(AccountInfo {
        user,
        identities,
        operator,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct ActiveSession {
    pub id: i64,
    /// Where it was opened, e.g. "Chrome on Linux".
    pub label: String,
    /// Milliseconds since 1970.
    pub created_at: i64,
    pub expires_at: i64,
    /// The session making this call.
    pub current: bool,
}

#[derive(Serialize, ToSchema)]
pub struct SessionList {
    pub list: Vec<ActiveSession>,
}

/// The reader's live sessions, newest first.
#[utoipa::path(post, path = "/api/user/sessions", tag = "user", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of sessions", body = SessionList),
        (status = 403, description = "A guest: sign in first")))]
pub async fn sessions(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let (current, session) = require_account(&state, call.token.as_deref()).await?;
    let list = state
        .store
        .sessions_of(UserId(session.user.id), now_ms())
        .await?
        .into_iter()
        .map(|s| ActiveSession {
            current: s.id == current,
            id: s.id,
            label: if s.label.is_empty() { "Browser".into() } else { s.label },
            created_at: s.created_at_ms,
            expires_at: s.expires_at_ms,
        })
        .collect();
    Ok(ok(SessionList { list }))
}

#[derive(Deserialize, ToSchema)]
pub struct RevokeRequest {
    /// One session to end (not the current one: log out for that).
    #[serde(default)]
    pub session_id: Option<i64>,
    /// End every session but the current one.
    #[serde(default)]
    pub all_others: Option<bool>,
}

#[derive(Serialize, ToSchema)]
pub struct Revoked {
    pub revoked: u64,
}

/// End one of the reader's other sessions, or all of them.
#[utoipa::path(post, path = "/api/user/sessions/revoke", tag = "user", request_body = RevokeRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with how many sessions ended", body = Revoked),
        (status = 400, description = "Neither or both of `session_id` and `all_others`, or the current session"),
        (status = 403, description = "A guest: sign in first")))]
pub async fn revoke(State(state): State<AppState>, call: Signed<RevokeRequest>) -> Result<Response, ApiError> {
    let (current, session) = require_account(&state, call.token.as_deref()).await?;
    let user = UserId(session.user.id);
    let revoked = match (call.body.session_id, call.body.all_others.unwrap_or(false)) {
        (Some(id), false) if id == current => {
            return Err(ApiError::BadRequest(
                "Field `session_id`: that is this session; log out to end it.".into(),
            ));
        }
        (Some(id), false) => u64::from(state.store.end_session_of(user, id).await?),
        (None, true) => state.store.end_other_sessions(user, current).await?,
        _ => {
            return Err(ApiError::BadRequest(
                "Give either `session_id` (one session) or `all_others: true`.".into(),
            ));
        }
    };
    Ok(ok(Revoked { revoked }))
}

/// "Download my data": everything stored about the reader, as JSON.
#[utoipa::path(post, path = "/api/user/export", tag = "user", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the user, identities, sessions, devices and every per-user table"),
        (status = 403, description = "A guest: sign in first")))]
pub async fn export(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let (_, session) = require_account(&state, call.token.as_deref()).await?;
    let export = state
        .store
        .export_user(UserId(session.user.id))
        .await?
        .ok_or(ApiError::Unauthorized(
            "The user of this session no longer exists; call /user/init.",
        ))?;
    let identities: Vec<_> = export
        .identities
        .iter()
        .map(|i| {
            serde_json::json!({
                "type": i.provider.code(), "email": i.email, "name": i.name,
                "linked_at": i.linked_at_ms, "last_used_at": i.last_used_at_ms,
            })
        })
        .collect();
    let sessions: Vec<_> = export
        .sessions
        .iter()
        .map(|s| {
            serde_json::json!({
                "id": s.id, "device_id": s.device_id, "label": s.label,
                "created_at": s.created_at_ms, "expires_at": s.expires_at_ms,
            })
        })
        .collect();
    let mut tables = serde_json::Map::new();
    for (name, rows) in export.tables {
        let rows: Vec<serde_json::Value> = rows
            .iter()
            .map(|r| serde_json::from_str(r).unwrap_or(serde_json::Value::String(r.clone())))
            .collect();
        tables.insert(name, serde_json::Value::Array(rows));
    }
    Ok(ok(serde_json::json!({
        "exported_at": now_ms(),
        "user": export.user,
        "identities": identities,
        "sessions": sessions,
        "devices": export.devices,
        "data": tables,
    })))
}

#[derive(Deserialize, ToSchema)]
pub struct DeleteRequest {
    /// Must be the word `delete`: the app asks the reader to confirm first.
    pub confirm: String,
}

/// Delete the reader's account and everything about it; answers a new guest session.
#[utoipa::path(post, path = "/api/user/delete", tag = "user", request_body = DeleteRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with a new guest `{user, token}`", body = UserAndToken),
        (status = 400, description = "`confirm` is not `delete`"),
        (status = 403, description = "A guest: sign in first")))]
pub async fn delete(State(state): State<AppState>, call: Signed<DeleteRequest>) -> Result<Response, ApiError> {
    if call.body.confirm.trim() != "delete" {
        return Err(ApiError::BadRequest(
            "Field `confirm`: must be `delete` to delete the account and everything in it.".into(),
        ));
    }
    let (_, session) = require_account(&state, call.token.as_deref()).await?;
    state.store.delete_user(UserId(session.user.id)).await?;
    tracing::info!("an account was deleted by its owner");
    let guest: UserAndToken = start_guest(&state, &call.device, 0, String::new()).await?;
    Ok(ok(guest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(provider: AccountType, subject: &str, email: &str) -> IdentityInfo {
        IdentityInfo {
            provider,
            subject: subject.into(),
            email: email.into(),
            name: String::new(),
            linked_at_ms: 0,
            last_used_at_ms: 0,
        }
    }

    #[test]
    fn d361_operators_are_google_emails_or_named_provider_subjects() {
        let admin = vec![
            "boss@example.org".to_string(),
            "facebook:2002".to_string(),
            "google:108".to_string(),
        ];
        let google = |sub, email| identity(AccountType::Google, sub, email);
        let facebook = |sub, email| identity(AccountType::Facebook, sub, email);
        assert!(
            is_operator(&admin, &[google("1", "Boss@Example.org")]),
            "a Google email"
        );
        assert!(is_operator(&admin, &[google("108", "")]), "a Google subject");
        assert!(is_operator(&admin, &[facebook("2002", "")]), "a Facebook subject");
        assert!(
            !is_operator(&admin, &[facebook("1001", "boss@example.org")]),
            "a Facebook email never makes an operator"
        );
        assert!(
            !is_operator(&admin, &[facebook("108", "")]),
            "a subject is the named provider's"
        );
        assert!(!is_operator(&admin, &[google("1", "")]), "no email, not listed");
        assert!(!is_operator(&admin, &[]));
        assert!(
            is_operator(
                &admin,
                &[facebook("1001", "boss@example.org"), google("7", "boss@example.org")]
            ),
            "the account's Google identity vouches for the email"
        );
    }
}
