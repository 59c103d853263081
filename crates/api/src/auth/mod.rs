//! Signing in with Google and Facebook (SPEC §4.1, §7.2, §7.16; issue 17): the browser
//! flow ([`web_flow`]: popup, authorization code, state + PKCE + nonce), the native apps'
//! call ([`native`]: `/user/third/login`), and what both end with ([`finish_sign_in`]):
//! the store signs the session's user in (a guest becomes, or merges into, the account),
//! and the session rotates: a new token for the account, the old session ended.

pub mod label;
pub mod native;
pub mod page;
pub mod web_flow;

use crate::envelope::ApiError;
use crate::session::{compose_token, new_secret, verifier_hash};
use crate::state::{AppState, now_ms};
use crate::user::{UserAndToken, start_guest};
use domain::user::{AccountType, UserServer};
use sign_in::{Profile, Provider, SignInError};
use store::{AccountSessionRequest, ProviderIdentity, SignIn, SignInOutcome, SignInRefusal, UserId};

pub fn display_name(provider: Provider) -> &'static str {
    match provider {
        Provider::Google => "Google",
        Provider::Facebook => "Facebook",
    }
}

/// The §3.2 account type a provider's readers get.
pub(crate) fn account_type(provider: Provider) -> AccountType {
    match provider {
        Provider::Google => AccountType::Google,
        Provider::Facebook => AccountType::Facebook,
    }
}

/// Why a sign-in did not happen. Each has a message key in the catalogues (the popup page
/// and the app show it in the reader's language) and an API error for native calls.
#[derive(Debug)]
pub enum Failure {
    NotConfigured(Provider),
    Cancelled,
    Expired,
    OtherBrowser,
    ProviderDown(Provider, String),
    Rejected(Provider, String),
    LinkedElsewhere(Provider),
    LinkNeedsAccount,
    SessionGone,
    TooMany(u64),
    Server(String),
}

impl Failure {
    /// The catalogue key of the message a reader sees.
    pub fn key(&self) -> &'static str {
        match self {
            Failure::NotConfigured(_) => "SignIn_NotConfigured",
            Failure::Cancelled => "SignIn_Cancelled",
            Failure::Expired => "SignIn_Expired",
            Failure::OtherBrowser => "SignIn_OtherBrowser",
            Failure::ProviderDown(..) => "SignIn_ProviderDown",
            Failure::Rejected(..) => "SignIn_Rejected",
            Failure::LinkedElsewhere(_) => "SignIn_LinkedElsewhere",
            Failure::LinkNeedsAccount => "SignIn_LinkNeedsAccount",
            Failure::SessionGone => "SignIn_SessionGone",
            Failure::TooMany(_) => "SignIn_TooMany",
            Failure::Server(_) => "SignIn_ServerError",
        }
    }

    pub fn provider(&self) -> Option<Provider> {
        match self {
            Failure::NotConfigured(p)
            | Failure::ProviderDown(p, _)
            | Failure::Rejected(p, _)
            | Failure::LinkedElsewhere(p) => Some(*p),
            _ => None,
        }
    }

    pub fn api_error(self) -> ApiError {
        match self {
            Failure::NotConfigured(p) => {
                ApiError::BadRequest(format!("{} sign-in is not set up on this server.", display_name(p)))
            }
            Failure::ProviderDown(_, why) => ApiError::Unavailable(why),
            Failure::Rejected(_, why) => ApiError::BadRequest(why),
            Failure::LinkedElsewhere(p) => ApiError::Conflict(format!(
                "This {} account is already linked to another Localwire account; sign in with it instead.",
                display_name(p)
            )),
            Failure::LinkNeedsAccount => ApiError::BadRequest("Sign in first, then link another provider.".into()),
            Failure::SessionGone => ApiError::Unauthorized("The session has ended; call /user/init for a new one."),
            Failure::TooMany(secs) => ApiError::TooManyRequests { retry_after_secs: secs },
            Failure::Server(cause) => ApiError::Internal(cause),
            Failure::Cancelled | Failure::Expired | Failure::OtherBrowser => {
                ApiError::BadRequest("This sign-in is not valid any more; start again.".into())
            }
        }
    }
}

impl From<store::StoreError> for Failure {
    fn from(e: store::StoreError) -> Failure {
        Failure::Server(e.to_string())
    }
}

pub fn provider_failure(provider: Provider, e: SignInError) -> Failure {
    match e {
        SignInError::Unavailable(why) => Failure::ProviderDown(provider, why),
        SignInError::Rejected(why) => Failure::Rejected(provider, why),
    }
}

fn identity(profile: Profile) -> ProviderIdentity {
    ProviderIdentity {
        provider: account_type(profile.provider),
        subject: profile.subject,
        email: profile.email.unwrap_or_default(),
        name: profile.name.chars().take(200).collect(),
        photo: profile.photo.chars().take(2000).collect(),
    }
}

/// A Facebook email on the `--admin-emails` list makes no operator (D361); tell the
/// operator, who is likely the one signing in, what to list instead.
fn warn_unverified_operator(state: &AppState, identity: &ProviderIdentity) {
    let admin = &state.config.admin_emails;
    let email = identity.email.trim().to_ascii_lowercase();
    if identity.provider != AccountType::Facebook || email.is_empty() || !admin.contains(&email) {
        return;
    }
    let Some(entry) = crate::account::operator_entry(identity.provider, &identity.subject) else {
        return;
    };
    if !admin.contains(&entry) {
        tracing::warn!(
            "a Facebook account with the email {email}, which --admin-emails lists, signed in; Facebook does not say \
             whether an email is verified, so it is not an operator. To make it one, add `{entry}` to --admin-emails"
        );
    }
}

/// The session a sign-in starts from.
pub struct FromSession {
    pub session_id: i64,
    pub user: UserServer,
    pub device_id: String,
    /// The device's `base` country and language, for a fresh guest if one is needed.
    pub device: crate::signed::DeviceBase,
}

/// Sign the session's user in with a provider's profile (or link it), then rotate the
/// session: a new one for the account, the old one ended (no session fixation).
pub async fn finish_sign_in(
    state: &AppState,
    from: &FromSession,
    profile: Profile,
    link: bool,
    label: String,
) -> Result<UserAndToken, Failure> {
    let provider = profile.provider;
    let identity = identity(profile);
    warn_unverified_operator(state, &identity);
    let now = now_ms();
    let mut from_user = UserId(from.user.id);
    let mut outcome = state
        .store
        .sign_in(&SignIn {
            from_user,
            identity: identity.clone(),
            link,
            now_ms: now,
        })
        .await?;
    if outcome == SignInOutcome::Refused(SignInRefusal::NotAGuest) {
        // Another person on a device signed in as someone else: they start from a fresh
        // guest, never from the other account.
        let guest = start_guest(state, &from.device, 0, String::new())
            .await
            .map_err(|e| Failure::Server(e.to_string()))?;
        from_user = UserId(guest.user.id);
        // Only a step on the way: its session ends here, the account gets its own below.
        if let Some(key) = crate::session::parse_token(&guest.token) {
            state.store.end_session(&key).await?;
        }
        outcome = state
            .store
            .sign_in(&SignIn {
                from_user,
                identity,
                link,
                now_ms: now,
            })
            .await?;
    }
    let upgraded = matches!(outcome, SignInOutcome::Upgraded(_));
    let user = match outcome {
        SignInOutcome::Refused(SignInRefusal::LinkedElsewhere) => return Err(Failure::LinkedElsewhere(provider)),
        SignInOutcome::Refused(SignInRefusal::LinkNeedsAccount) => return Err(Failure::LinkNeedsAccount),
        SignInOutcome::Refused(_) => return Err(Failure::SessionGone),
        SignInOutcome::Upgraded(user) | SignInOutcome::SignedIn(user) | SignInOutcome::Merged { user, .. } => user,
    };
    // A merge brought the guest's blocks, mutes and follows into the account (D270).
    state.reader_views.forget(UserId(user.id));
    let secret = new_secret();
    let session_id = state
        .store
        .start_account_session(&AccountSessionRequest {
            user_id: UserId(user.id),
            device_id: from.device_id.clone(),
            verifier_hash: verifier_hash(&secret),
            label,
            now_ms: now,
            expires_at_ms: now.saturating_add(state.config.session_ttl_ms),
        })
        .await?;
    // The session signed in from is over (a merged guest's went with it already).
    state
        .store
        .end_session_of(UserId(from.user.id), from.session_id)
        .await?;
    if upgraded {
        // The guest is the account now: any other session it had (another tab's, or one
        // from before device ids stopped being credentials) must not open the account
        // (D350). Only the session just made for this sign-in stays.
        state.store.end_other_sessions(UserId(user.id), session_id).await?;
    }
    // The provider's picture is shown through the image proxy like every image (D382).
    let mut user = user;
    state.image_proxy.rewrite(&mut user.photo);
    Ok(UserAndToken {
        user,
        token: compose_token(session_id, &secret),
    })
}
