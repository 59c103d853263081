//! Session tokens: 256 random bits, handed out once, stored only as SHA-256 (D4).

use crate::envelope::ApiError;
use crate::state::AppState;
use base64::Engine as _;
use sha2::{Digest, Sha256};
use store::SessionUser;

/// A new random token (URL-safe, 43 characters).
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// What the store keeps for a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The live session behind a token, or 401 with a reason a client can act on.
pub async fn require_session(
    state: &AppState,
    token: Option<&str>,
    now_ms: i64,
) -> Result<SessionUser, ApiError> {
    let token = token.ok_or(ApiError::Unauthorized(
        "This call needs a session token in the `token` header; call /user/init first.",
    ))?;
    if token.len() > 256 {
        return Err(ApiError::Unauthorized(
            "The session token is not valid; call /user/init for a new one.",
        ));
    }
    let session =
        state
            .store
            .session_user(&token_hash(token))
            .await?
            .ok_or(ApiError::Unauthorized(
                "The session token is not valid; call /user/init for a new one.",
            ))?;
    if session.expires_at_ms <= now_ms {
        return Err(ApiError::Unauthorized(
            "The session has expired; call /user/init for a new one.",
        ));
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashes_are_sha256_hex() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 43);
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_ne!(
            token_hash(&a),
            a,
            "the token itself is never what is stored"
        );
    }
}
