//! The sign-in providers this server is configured for and the per-address budgets of
//! sign-in calls: what the shared state holds (kept apart from the flows, which read the
//! state, so nothing imports in a circle).

use crate::rate_limit::RateLimit;
use sign_in::{Facebook, FacebookConfig, Google, GoogleConfig, Provider};
use std::time::Duration;

/// How long a provider may take to answer one call (§8: a clear message, never a hang).
pub const PROVIDER_TIMEOUT: Duration = Duration::from_secs(8);

/// The providers this server is configured for; `None` is off (its button says so).
pub struct Providers {
    pub google: Option<Google>,
    pub facebook: Option<Facebook>,
}

impl Providers {
    pub fn new(google: Option<GoogleConfig>, facebook: Option<FacebookConfig>) -> Providers {
        Providers {
            google: google.map(|cfg| Google::new(cfg, PROVIDER_TIMEOUT)),
            facebook: facebook.map(|cfg| Facebook::new(cfg, PROVIDER_TIMEOUT)),
        }
    }

    pub fn has(&self, provider: Provider) -> bool {
        match provider {
            Provider::Google => self.google.is_some(),
            Provider::Facebook => self.facebook.is_some(),
        }
    }
}

/// Per-address budgets: starting a sign-in, its callbacks, native sign-in.
pub struct SignInLimits {
    pub start: RateLimit,
    pub callback: RateLimit,
    pub native: RateLimit,
}

impl Default for SignInLimits {
    /// Ten at once, then one every six seconds: a person retrying is never stopped, a
    /// script is slowed to ten a minute.
    fn default() -> SignInLimits {
        let limit = || RateLimit::new(10, Duration::from_secs(6));
        SignInLimits {
            start: limit(),
            callback: limit(),
            native: limit(),
        }
    }
}
