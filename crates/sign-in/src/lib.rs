//! The provider side of sign-in (issue 17): Google through OpenID Connect and Facebook
//! through its OAuth dialog and Graph API. Builds authorize URLs, exchanges codes and
//! verifies tokens; it keeps no state beyond caches and serves nothing.
//!
//! Every failure is a [`SignInError`]: `Unavailable` when the provider is down, slow or
//! answers something unreadable (try again later), `Rejected` when the provider or our
//! checks refuse the sign-in (start again). Messages name the provider and are meant for a
//! person; they never contain secrets, codes or tokens.

mod facebook;
mod flow;
mod google;
mod http;
mod jws;

pub use facebook::{Facebook, FacebookConfig};
pub use flow::{FlowSecrets, pkce_challenge};
pub use google::{Google, GoogleConfig};

/// A sign-in provider. The account types follow SPEC §3 ("Account type").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Provider {
    Google,
    Facebook,
}

impl Provider {
    /// The SPEC §3 account type: facebook 2, google 3.
    pub fn account_type(self) -> i32 {
        match self {
            Provider::Google => 3,
            Provider::Facebook => 2,
        }
    }

    /// The lower-case name used in routes and configuration.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Google => "google",
            Provider::Facebook => "facebook",
        }
    }

    /// The inverse of [`Provider::name`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Provider> {
        if name.eq_ignore_ascii_case("google") {
            Some(Provider::Google)
        } else if name.eq_ignore_ascii_case("facebook") {
            Some(Provider::Facebook)
        } else {
            None
        }
    }

    /// The provider's name as a person reads it in messages.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Google => "Google",
            Provider::Facebook => "Facebook",
        }
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Who signed in, as the provider vouched for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profile {
    pub provider: Provider,
    /// The provider's stable id for the person (Google `sub`, Facebook user id).
    pub subject: String,
    /// Only an address the provider has verified; Facebook may give none.
    pub email: Option<String>,
    /// Display name; empty when the provider gave none.
    pub name: String,
    /// Photo URL; empty when the provider gave none.
    pub photo: String,
}

/// Why a sign-in did not complete. The message is a sentence a person can act on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignInError {
    /// The provider is down, did not answer in time or answered something unreadable.
    #[error("{0}")]
    Unavailable(String),
    /// The provider refused, or the answer failed our checks (signature, claims, app).
    #[error("{0}")]
    Rejected(String),
}

impl SignInError {
    /// The message without the variant.
    pub fn message(&self) -> &str {
        match self {
            SignInError::Unavailable(m) | SignInError::Rejected(m) => m,
        }
    }
}

pub type Result<T, E = SignInError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn account_types_follow_spec_3() {
        assert_eq!(Provider::Google.account_type(), 3);
        assert_eq!(Provider::Facebook.account_type(), 2);
    }

    #[test]
    fn names_round_trip() {
        for p in [Provider::Google, Provider::Facebook] {
            assert_eq!(Provider::from_name(p.name()), Some(p));
        }
        assert_eq!(Provider::from_name("apple"), None);
    }
}
