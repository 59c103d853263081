//! The per-attempt secrets of an authorization-code flow: state (CSRF), nonce (ID-token
//! replay) and the PKCE pair (RFC 7636, S256).

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Secrets for one sign-in attempt. The caller keeps `state`, `verifier` and `nonce`
/// (server side, bound to the browser) and sends `state`, `nonce` and `challenge` out.
#[derive(Clone, PartialEq, Eq)]
pub struct FlowSecrets {
    /// 32 random bytes, base64url: echoed back by the provider, compared on the callback.
    pub state: String,
    /// PKCE code verifier: 32 random bytes, base64url, 43 characters.
    pub verifier: String,
    /// PKCE S256 challenge: base64url(SHA-256(verifier)).
    pub challenge: String,
    /// 32 random bytes, base64url: must come back inside Google's ID token.
    pub nonce: String,
}

impl FlowSecrets {
    pub fn new() -> FlowSecrets {
        let verifier = random_token();
        FlowSecrets {
            state: random_token(),
            challenge: pkce_challenge(&verifier),
            verifier,
            nonce: random_token(),
        }
    }
}

impl Default for FlowSecrets {
    fn default() -> Self {
        Self::new()
    }
}

// Secrets stay out of logs even when a caller debug-prints the struct.
impl std::fmt::Debug for FlowSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FlowSecrets")
            .field("challenge", &self.challenge)
            .finish_non_exhaustive()
    }
}

/// The RFC 7636 S256 code challenge of a verifier: base64url(SHA-256(ASCII(verifier))).
pub fn pkce_challenge(verifier: &str) -> String {
    URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verifier_is_43_unreserved_characters() {
        let s = FlowSecrets::new();
        assert_eq!(s.verifier.len(), 43);
        assert!(
            s.verifier
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(s.state.len(), 43);
        assert_eq!(s.nonce.len(), 43);
        assert_ne!(s.state, FlowSecrets::new().state);
    }

    #[test]
    fn debug_hides_the_secrets() {
        let s = FlowSecrets::new();
        let shown = format!("{s:?}");
        assert!(!shown.contains(&s.verifier));
        assert!(!shown.contains(&s.state));
        assert!(!shown.contains(&s.nonce));
    }
}
