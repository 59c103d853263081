//! SPEC §7 (checklist 7.22), decision D220: the operator's opt-in encryption of non-GET
//! answers.
//!
//! With `--encrypt-responses`, a successful non-GET `/api` answer carries its `data`
//! encrypted in a separate field: `{"code":0,"data":null,"edata":"…","message":"ok"}`.
//! `edata` is base64url without padding of nonce (12 random bytes) ‖ ciphertext ‖ tag
//! (16 bytes): AES-256-GCM over the JSON text of `data`, no associated data, keyed by
//! SHA-256 of `"localwire-response-key"` + the sign word. The app has the sign word (it is
//! in every page, D200), so it can always decrypt: this keeps casual scrapers from reading
//! answers off the wire, it is not a security boundary. Error envelopes (code ≠ 0) and
//! GET answers (public and cached) stay plain. The app's side is `web/src/lib/answerCipher.ts`;
//! both read `web/src/lib/encrypted-answer.fixture.json`.

use crate::envelope::ApiError;
use crate::state::AppState;
use aes_gcm::Aes256Gcm;
use aes_gcm::aead::{Aead, Key, KeyInit, Nonce};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The envelope field that carries the encrypted data.
pub const FIELD: &str = "edata";
/// Mixed before the sign word when deriving the key (the app's `KEY_CONTEXT`).
pub const KEY_CONTEXT: &str = "localwire-response-key";
pub const NONCE_BYTES: usize = 12;
const TAG_BYTES: usize = 16;
/// Non-GET answers are a user and a token or a page of a list; far below this.
const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// The AES-256-GCM key for `sign_word`: SHA-256 of context + word.
pub fn answer_key(sign_word: &str) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(KEY_CONTEXT.as_bytes());
    h.update(sign_word.as_bytes());
    h.finalize().into()
}

/// `plaintext` sealed with `nonce`, as the `edata` text.
/// (Only a plaintext over 64 GiB fails, which an answer never is.)
pub fn seal(key: &[u8; 32], nonce: [u8; NONCE_BYTES], plaintext: &[u8]) -> Option<String> {
    let cipher = Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key));
    let sealed = cipher.encrypt(&Nonce::<Aes256Gcm>::from(nonce), plaintext).ok()?;
    let mut out = Vec::with_capacity(NONCE_BYTES + sealed.len());
    out.extend_from_slice(&nonce);
    out.extend_from_slice(&sealed);
    Some(URL_SAFE_NO_PAD.encode(out))
}

/// The plaintext of an `edata` text; `None` when it was tampered with or the key is wrong.
pub fn open(key: &[u8; 32], edata: &str) -> Option<Vec<u8>> {
    let bytes = URL_SAFE_NO_PAD.decode(edata).ok()?;
    if bytes.len() < NONCE_BYTES + TAG_BYTES {
        return None;
    }
    let (nonce, sealed) = bytes.split_at(NONCE_BYTES);
    let nonce = Nonce::<Aes256Gcm>::try_from(nonce).ok()?;
    Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key))
        .decrypt(&nonce, sealed)
        .ok()
}

/// A success envelope's bytes with `data` moved, encrypted, to `edata`; `None` when the
/// bytes are not a success envelope (they then go out as they are).
pub fn encrypt_envelope(key: &[u8; 32], nonce: [u8; NONCE_BYTES], body: &[u8]) -> Option<Vec<u8>> {
    let mut envelope: Value = serde_json::from_slice(body).ok()?;
    let fields = envelope.as_object_mut()?;
    if fields.get("code").and_then(Value::as_i64) != Some(0) {
        return None;
    }
    let data = fields.insert("data".into(), Value::Null)?;
    let plaintext = serde_json::to_vec(&data).ok()?;
    fields.insert(FIELD.into(), Value::String(seal(key, nonce, &plaintext)?));
    serde_json::to_vec(&envelope).ok()
}

/// Whether an answer to `method` on `path` is one the setting encrypts.
pub fn encrypts(method: &Method, path: &str) -> bool {
    method != Method::GET && method != Method::HEAD && path.starts_with("/api/")
}

/// The layer, mounted only when the operator turned encryption on (`router`): seal the
/// data of every successful non-GET `/api` answer with a fresh random nonce.
pub async fn layer(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if !encrypts(req.method(), req.uri().path()) {
        return next.run(req).await;
    }
    let res = next.run(req).await;
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if res.status() != StatusCode::OK || !is_json {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_ANSWER_BYTES).await {
        Ok(b) => b,
        Err(e) => return ApiError::Internal(format!("reading an answer to encrypt: {e}")).into_response(),
    };
    let key = answer_key(&state.config.sign_word);
    match encrypt_envelope(&key, rand::random(), &bytes) {
        Some(sealed) => {
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(sealed))
        }
        None => Response::from_parts(parts, Body::from(bytes)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    /// The fixture the app's `answerCipher.test.ts` reads too.
    #[derive(Deserialize)]
    struct Fixture {
        sign_word: String,
        key_hex: String,
        nonce_hex: String,
        plaintext: String,
        edata: String,
    }

    fn fixture() -> Fixture {
        serde_json::from_str(include_str!("../../../web/src/lib/encrypted-answer.fixture.json")).expect("fixture")
    }

    fn nonce(hex_text: &str) -> [u8; NONCE_BYTES] {
        hex::decode(hex_text).expect("hex").try_into().expect("12 bytes")
    }

    #[test]
    fn spec_7_22_key_is_sha256_of_context_and_sign_word_as_the_app_derives_it() {
        let f = fixture();
        assert_eq!(hex::encode(answer_key(&f.sign_word)), f.key_hex);
    }

    #[test]
    fn spec_7_22_sealing_the_shared_fixture_gives_the_apps_edata() {
        let f = fixture();
        let key = answer_key(&f.sign_word);
        assert_eq!(
            seal(&key, nonce(&f.nonce_hex), f.plaintext.as_bytes()).as_deref(),
            Some(f.edata.as_str())
        );
    }

    #[test]
    fn spec_7_22_opening_the_shared_fixture_gives_its_plaintext() {
        let f = fixture();
        let key = answer_key(&f.sign_word);
        assert_eq!(open(&key, &f.edata).as_deref(), Some(f.plaintext.as_bytes()));
    }

    #[test]
    fn spec_7_22_a_tampered_field_or_another_word_does_not_open() {
        let f = fixture();
        let key = answer_key(&f.sign_word);
        let mut bytes = URL_SAFE_NO_PAD.decode(&f.edata).expect("base64url");
        let n = bytes.len();
        bytes[n - 20] ^= 1;
        assert_eq!(open(&key, &URL_SAFE_NO_PAD.encode(&bytes)), None);
        assert_eq!(open(&answer_key("another-word"), &f.edata), None);
        assert_eq!(open(&key, "not base64url!"), None);
        assert_eq!(open(&key, "AAAA"), None);
    }

    #[test]
    fn spec_7_22_a_success_envelope_moves_its_data_into_edata() {
        let key = answer_key("w");
        let body = br#"{"code":0,"data":{"user":{"id":1},"token":"t"},"message":"ok"}"#;
        let sealed = encrypt_envelope(&key, [7; NONCE_BYTES], body).expect("sealed");
        let v: Value = serde_json::from_slice(&sealed).expect("json");
        assert_eq!(v["code"], 0);
        assert_eq!(v["message"], "ok");
        assert_eq!(v["data"], Value::Null);
        let plain = open(&key, v[FIELD].as_str().expect("edata")).expect("opens");
        let data: Value = serde_json::from_slice(&plain).expect("json");
        assert_eq!(data, serde_json::json!({"user": {"id": 1}, "token": "t"}));
    }

    #[test]
    fn spec_7_22_error_envelopes_and_other_bodies_stay_plain() {
        let key = answer_key("w");
        let error = br#"{"code":401,"data":{"reason":"expired"},"message":"Unauthorized"}"#;
        assert_eq!(encrypt_envelope(&key, [0; NONCE_BYTES], error), None);
        assert_eq!(encrypt_envelope(&key, [0; NONCE_BYTES], b"not json"), None);
        assert_eq!(encrypt_envelope(&key, [0; NONCE_BYTES], b"[1,2]"), None);
    }

    #[test]
    fn spec_7_22_only_non_get_api_answers_are_encrypted() {
        assert!(encrypts(&Method::POST, "/api/user/init"));
        assert!(encrypts(&Method::DELETE, "/api/user/x"));
        assert!(!encrypts(&Method::GET, "/api/news/feed"));
        assert!(!encrypts(&Method::HEAD, "/api/news/feed"));
        assert!(!encrypts(&Method::POST, "/fr/ville/montreal"));
    }
}
