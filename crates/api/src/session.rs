//! Session tokens (D4): `<session id>.<secret>`. The secret is 256 random bits, shown
//! once; the store keeps only its SHA-256. The id lets the store find the session by
//! a sequential key, so creating sessions appends rather than scattering writes.

use crate::envelope::ApiError;
use crate::state::AppState;
use base64::Engine as _;
use sha2::{Digest, Sha256};
use store::{SessionKey, SessionUser};

/// A new random secret (URL-safe, 43 characters).
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the store keeps for a secret.
pub fn verifier_hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// The token handed to the client.
pub fn compose_token(session_id: i64, secret: &str) -> String {
    format!("{session_id}.{secret}")
}

/// The store key for a token, or `None` when the token is not of our form.
pub fn parse_token(token: &str) -> Option<SessionKey> {
    let (id, secret) = token.trim().split_once('.')?;
    let id: i64 = id.parse().ok().filter(|id| *id > 0)?;
    let well_formed = secret.len() == 43
        && secret
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    well_formed.then(|| SessionKey {
        id,
        verifier_hash: verifier_hash(secret),
    })
}

const INVALID: &str = "The session token is not valid; call /user/init for a new one.";

/// The live session behind a token, or 401 with a reason a client can act on.
pub async fn require_session(state: &AppState, token: Option<&str>, now_ms: i64) -> Result<SessionUser, ApiError> {
    let token = token.ok_or(ApiError::Unauthorized(
        "This call needs a session token in the `token` header; call /user/init first.",
    ))?;
    let key = parse_token(token).ok_or(ApiError::Unauthorized(INVALID))?;
    let session = state
        .store
        .session_user(&key)
        .await?
        .ok_or(ApiError::Unauthorized(INVALID))?;
    if session.expires_at_ms <= now_ms {
        return Err(ApiError::Unauthorized(
            "The session has expired; call /user/init for a new one.",
        ));
    }
    Ok(session)
}

/// The reader behind the token: a guest or an account.
pub async fn reader(state: &AppState, token: Option<&str>) -> Result<store::UserId, ApiError> {
    let session = require_session(state, token, crate::state::now_ms()).await?;
    Ok(store::UserId(session.user.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_verifiers_are_sha256_hex() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(
            verifier_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn tokens_round_trip_and_malformed_ones_are_refused() {
        let secret = new_secret();
        let key = parse_token(&compose_token(42, &secret)).unwrap();
        assert_eq!(
            key,
            SessionKey {
                id: 42,
                verifier_hash: verifier_hash(&secret)
            }
        );
        assert_ne!(key.verifier_hash, secret, "the secret itself is never what is stored");
        for bad in [
            "",
            "42",
            "42.",
            ".abc",
            "x.abc",
            "0.".to_string().as_str(),
            "-1.aaaa",
            "42.short",
        ] {
            assert_eq!(parse_token(bad), None, "{bad:?}");
        }
        let not_b64 = format!("7.{}", "!".repeat(43));
        assert_eq!(parse_token(&not_b64), None);
    }
}
