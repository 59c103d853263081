//! Accounts (issue 17): provider identities, signing in (the guest's things kept), the
//! account page's sessions, download and deletion, and sign-in flows in progress.

use crate::UserId;
use domain::user::{AccountType, UserServer};

/// A person as a sign-in provider knows them (SPEC §7.16), after the provider vouched
/// for them (a checked ID token, or Facebook's `debug_token`).
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderIdentity {
    /// Google or Facebook: the account type the user gets (§3.2).
    pub provider: AccountType,
    /// The provider's stable id for the person (OpenID `sub`, Facebook's user id).
    pub subject: String,
    /// Empty when the provider has none (Facebook may not share it).
    pub email: String,
    pub name: String,
    pub photo: String,
}

/// Sign in (or link a provider) for the user of the session that asked.
#[derive(Debug, Clone, PartialEq)]
pub struct SignIn {
    /// The user of the session that started the sign-in: usually a guest.
    pub from_user: UserId,
    pub identity: ProviderIdentity,
    /// Link the identity to `from_user` (an account) instead of signing in with it.
    pub link: bool,
    pub now_ms: i64,
}

/// What signing in did. In every case but `Refused` the caller starts a new session for
/// `user` and ends the old one (no session fixation).
#[derive(Debug, Clone, PartialEq)]
pub enum SignInOutcome {
    /// A new identity: the guest became the account, keeping its id and everything it had.
    Upgraded(UserServer),
    /// A known identity: the guest's things moved into that account and the guest is gone.
    Merged {
        user: UserServer,
        guest: UserId,
    },
    /// The session's user already was this account, or another account (then nothing is
    /// merged: two accounts never merge), or the identity was linked to the session's
    /// account.
    SignedIn(UserServer),
    Refused(SignInRefusal),
}

impl SignInOutcome {
    /// The signed-in user, unless refused.
    pub fn user(&self) -> Option<&UserServer> {
        match self {
            SignInOutcome::Upgraded(user) | SignInOutcome::Merged { user, .. } | SignInOutcome::SignedIn(user) => {
                Some(user)
            }
            SignInOutcome::Refused(_) => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInRefusal {
    /// The session's user no longer exists.
    UserGone,
    /// Linking: this provider identity already belongs to another account.
    LinkedElsewhere,
    /// Linking needs a signed-in account, not a guest.
    LinkNeedsAccount,
    /// A new identity from a session that is already another account: sign in from a
    /// fresh guest instead (accounts are only ever made from guests).
    NotAGuest,
}

/// What signing in must do, decided once for both engines from the session's user, the
/// identity's owner (if known) and whether it is a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignInPlan {
    Refuse(SignInRefusal),
    /// A new identity and a guest: the guest becomes the account.
    Upgrade,
    /// A new identity linked to the session's account.
    Link,
    /// A known identity: sign in as its owner, first merging the session's user into it
    /// when that is a guest.
    Owner {
        owner: UserId,
        merge_guest: bool,
    },
}

pub fn plan_sign_in(from: Option<&UserServer>, owner: Option<UserId>, link: bool) -> SignInPlan {
    let Some(from) = from else {
        return SignInPlan::Refuse(SignInRefusal::UserGone);
    };
    let from_id = UserId(from.id);
    let is_guest = from.account_type == Some(AccountType::Guest.code());
    match (link, owner) {
        (true, _) if is_guest => SignInPlan::Refuse(SignInRefusal::LinkNeedsAccount),
        (true, Some(o)) if o != from_id => SignInPlan::Refuse(SignInRefusal::LinkedElsewhere),
        (true, Some(_)) => SignInPlan::Owner {
            owner: from_id,
            merge_guest: false,
        },
        (true, None) => SignInPlan::Link,
        (false, None) if is_guest => SignInPlan::Upgrade,
        (false, None) => SignInPlan::Refuse(SignInRefusal::NotAGuest),
        (false, Some(o)) => SignInPlan::Owner {
            owner: o,
            merge_guest: is_guest && o != from_id,
        },
    }
}

/// A session for a signed-in user (sign-in rotates the session: the guest's ends).
#[derive(Debug, Clone, PartialEq)]
pub struct AccountSessionRequest {
    pub user_id: UserId,
    pub device_id: String,
    /// SHA-256 (hex) of the token's secret part.
    pub verifier_hash: String,
    /// Where it was opened, e.g. "Chrome on Linux" (from the User-Agent).
    pub label: String,
    pub now_ms: i64,
    pub expires_at_ms: i64,
}

/// A session as the account page lists it (never its verifier).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionInfo {
    pub id: i64,
    pub device_id: String,
    pub label: String,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

/// A provider identity linked to a user, as the account page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct IdentityInfo {
    pub provider: AccountType,
    /// The provider's stable id for the person (Google `sub`, Facebook user id).
    pub subject: String,
    pub email: String,
    pub name: String,
    pub linked_at_ms: i64,
    pub last_used_at_ms: i64,
}

/// Everything stored about a user, for "download my data". Each table of
/// [`crate::user_data::USER_TABLES`] appears under its name, one JSON text per row.
#[derive(Debug, Clone, PartialEq)]
pub struct UserExport {
    pub user: UserServer,
    pub identities: Vec<IdentityInfo>,
    pub sessions: Vec<SessionInfo>,
    pub devices: Vec<String>,
    pub tables: Vec<(String, Vec<String>)>,
}

/// A sign-in started in a browser, waiting for the provider's callback (single use).
#[derive(Debug, Clone, PartialEq)]
pub struct SignInFlow {
    /// SHA-256 (hex) of the `state` sent to the provider.
    pub state_hash: String,
    pub provider: AccountType,
    /// SHA-256 (hex) of the secret in the starting browser's cookie.
    pub browser_hash: String,
    /// The session that started it: its user signs in, and it ends once signed in.
    pub session_id: i64,
    pub pkce_verifier: String,
    pub nonce: String,
    /// A path on this site to land on afterwards.
    pub return_to: String,
    /// Opened in a popup (answer with a page that tells the opener) or the whole window.
    pub popup: bool,
    pub link: bool,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(id: i64, account_type: AccountType) -> UserServer {
        UserServer {
            id,
            name: String::new(),
            photo: String::new(),
            email: String::new(),
            is_new_user: 0,
            account_type: Some(account_type.code()),
            join_time: 0,
            last_time: 0,
            app_lang: "en".into(),
            postal_code: String::new(),
            country: "US".into(),
            admin_code: String::new(),
            city: String::new(),
            city_show: String::new(),
            city_id: domain::ids::CityId(0),
            lat: 0.0,
            lon: 0.0,
            user_type: 0,
        }
    }

    #[test]
    fn sign_in_plan_for_every_case() {
        use SignInPlan::*;
        let guest = user(1, AccountType::Guest);
        let account = user(2, AccountType::Google);
        let cases = [
            (None, None, false, Refuse(SignInRefusal::UserGone)),
            (Some(&guest), None, false, Upgrade),
            (
                Some(&guest),
                Some(UserId(2)),
                false,
                Owner {
                    owner: UserId(2),
                    merge_guest: true,
                },
            ),
            (Some(&guest), None, true, Refuse(SignInRefusal::LinkNeedsAccount)),
            (Some(&account), None, true, Link),
            (
                Some(&account),
                Some(UserId(2)),
                true,
                Owner {
                    owner: UserId(2),
                    merge_guest: false,
                },
            ),
            (
                Some(&account),
                Some(UserId(3)),
                true,
                Refuse(SignInRefusal::LinkedElsewhere),
            ),
            (Some(&account), None, false, Refuse(SignInRefusal::NotAGuest)),
            (
                Some(&account),
                Some(UserId(3)),
                false,
                Owner {
                    owner: UserId(3),
                    merge_guest: false,
                },
            ),
        ];
        for (from, owner, link, want) in cases {
            assert_eq!(plan_sign_in(from, owner, link), want, "{from:?} {owner:?} link={link}");
        }
    }
}
