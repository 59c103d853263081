//! Web Push's two pieces of cryptography, on aws-lc-rs (already in the build for TLS,
//! D310): the payload encrypted for one browser with `aes128gcm` (RFC 8291 over RFC 8188)
//! and the application server's VAPID identification (RFC 8292): an ES256 JWT naming the
//! push service's origin, with our public key.

use aws_lc_rs::agreement::{self, ECDH_P256, EphemeralPrivateKey, UnparsedPublicKey};
use aws_lc_rs::hmac;
use aws_lc_rs::rand::{SecureRandom, SystemRandom};
use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED_SIGNING, EcdsaKeyPair, KeyPair};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};

/// The record size we declare; a payload must fit one record (RFC 8291 §4).
pub const RECORD_SIZE: u32 = 4096;
/// The largest payload we encrypt: a record less the delimiter, the tag and the header.
pub const MAX_PAYLOAD: usize = 3800;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CryptoError {
    #[error("the subscription's p256dh is not a P-256 public key")]
    BadPublicKey,
    #[error("the subscription's auth secret is not 16 bytes")]
    BadAuthSecret,
    #[error("the payload is larger than {MAX_PAYLOAD} bytes")]
    TooLarge,
    #[error("the VAPID key could not be read or made")]
    Key,
    #[error("the cryptography library failed")]
    Library,
}

/// base64url without padding; browsers and push services send either form, so both are read.
pub fn b64url(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn from_b64url(text: &str) -> Option<Vec<u8>> {
    let t = text.trim().trim_end_matches('=');
    URL_SAFE_NO_PAD
        .decode(t)
        .ok()
        .or_else(|| STANDARD.decode(text.trim()).ok())
}

fn hmac_sha256(key: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    let key = hmac::Key::new(hmac::HMAC_SHA256, key);
    let mut ctx = hmac::Context::with_key(&key);
    for p in parts {
        ctx.update(p);
    }
    let tag = ctx.sign();
    let mut out = [0u8; 32];
    out.copy_from_slice(tag.as_ref());
    out
}

/// The content key and nonce of RFC 8291 §3.4 from the ECDH secret, the auth secret, the
/// two public keys and the salt.
pub fn derive_key_nonce(
    ecdh_secret: &[u8],
    auth: &[u8],
    ua_public: &[u8],
    as_public: &[u8],
    salt: &[u8],
) -> ([u8; 16], [u8; 12]) {
    let prk_key = hmac_sha256(auth, &[ecdh_secret]);
    let ikm = hmac_sha256(&prk_key, &[b"WebPush: info\0", ua_public, as_public, &[1]]);
    let prk = hmac_sha256(salt, &[&ikm]);
    let cek = hmac_sha256(&prk, &[b"Content-Encoding: aes128gcm\0", &[1]]);
    let nonce = hmac_sha256(&prk, &[b"Content-Encoding: nonce\0", &[1]]);
    let mut k = [0u8; 16];
    k.copy_from_slice(&cek[..16]);
    let mut n = [0u8; 12];
    n.copy_from_slice(&nonce[..12]);
    (k, n)
}

/// `payload` encrypted for the browser whose keys are `p256dh` and `auth` (base64url): the
/// whole request body, header (salt, record size, our ephemeral public key) and one record.
pub fn encrypt(p256dh: &str, auth: &str, payload: &[u8]) -> Result<Vec<u8>, CryptoError> {
    if payload.len() > MAX_PAYLOAD {
        return Err(CryptoError::TooLarge);
    }
    let ua_public = from_b64url(p256dh).filter(|k| k.len() == 65 && k[0] == 4);
    let ua_public = ua_public.ok_or(CryptoError::BadPublicKey)?;
    let auth = from_b64url(auth)
        .filter(|a| a.len() == 16)
        .ok_or(CryptoError::BadAuthSecret)?;
    let rng = SystemRandom::new();
    let mut salt = [0u8; 16];
    rng.fill(&mut salt).map_err(|_| CryptoError::Library)?;
    let private = EphemeralPrivateKey::generate(&ECDH_P256, &rng).map_err(|_| CryptoError::Library)?;
    let as_public = private.compute_public_key().map_err(|_| CryptoError::Library)?;
    let as_public = as_public.as_ref().to_vec();
    let (cek, nonce) = agreement::agree_ephemeral(
        private,
        UnparsedPublicKey::new(&ECDH_P256, &ua_public),
        CryptoError::BadPublicKey,
        |secret| Ok(derive_key_nonce(secret, &auth, &ua_public, &as_public, &salt)),
    )?;
    let mut record = Vec::with_capacity(payload.len() + 17);
    record.extend_from_slice(payload);
    record.push(2); // the last (and only) record's delimiter
    let key = aws_lc_rs::aead::LessSafeKey::new(
        aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::AES_128_GCM, &cek).map_err(|_| CryptoError::Library)?,
    );
    key.seal_in_place_append_tag(
        aws_lc_rs::aead::Nonce::assume_unique_for_key(nonce),
        aws_lc_rs::aead::Aad::empty(),
        &mut record,
    )
    .map_err(|_| CryptoError::Library)?;
    let mut body = Vec::with_capacity(16 + 4 + 1 + 65 + record.len());
    body.extend_from_slice(&salt);
    body.extend_from_slice(&RECORD_SIZE.to_be_bytes());
    body.push(as_public.len() as u8);
    body.extend_from_slice(&as_public);
    body.extend_from_slice(&record);
    Ok(body)
}

/// The application server's VAPID key pair (P-256).
pub struct VapidKey {
    pair: EcdsaKeyPair,
    pkcs8: Vec<u8>,
}

impl VapidKey {
    pub fn generate() -> Result<VapidKey, CryptoError> {
        let rng = SystemRandom::new();
        let doc = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, &rng).map_err(|_| CryptoError::Key)?;
        VapidKey::from_pkcs8(doc.as_ref())
    }

    pub fn from_pkcs8(pkcs8: &[u8]) -> Result<VapidKey, CryptoError> {
        let pair = EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_FIXED_SIGNING, pkcs8).map_err(|_| CryptoError::Key)?;
        Ok(VapidKey {
            pair,
            pkcs8: pkcs8.to_vec(),
        })
    }

    /// What is stored: the PKCS#8 document, base64.
    pub fn to_stored(&self) -> String {
        STANDARD.encode(&self.pkcs8)
    }

    pub fn from_stored(text: &str) -> Result<VapidKey, CryptoError> {
        let bytes = STANDARD.decode(text.trim()).map_err(|_| CryptoError::Key)?;
        VapidKey::from_pkcs8(&bytes)
    }

    /// The public key, uncompressed, base64url: the browser's `applicationServerKey` and
    /// the `k` of the Authorization header.
    pub fn public_key(&self) -> String {
        b64url(self.pair.public_key().as_ref())
    }

    /// `Authorization: vapid t=<jwt>, k=<key>` for a push service's `origin`, valid until
    /// `exp_s` (seconds since 1970; at most 24 h ahead, RFC 8292 §2).
    pub fn authorization(&self, origin: &str, exp_s: i64, subject: &str) -> Result<String, CryptoError> {
        let header = b64url(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({ "aud": origin, "exp": exp_s, "sub": subject });
        let claims = b64url(claims.to_string().as_bytes());
        let signing_input = format!("{header}.{claims}");
        let sig = self
            .pair
            .sign(&SystemRandom::new(), signing_input.as_bytes())
            .map_err(|_| CryptoError::Library)?;
        Ok(format!(
            "vapid t={signing_input}.{}, k={}",
            b64url(sig.as_ref()),
            self.public_key()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use aws_lc_rs::agreement::PrivateKey;
    use aws_lc_rs::signature::{ECDSA_P256_SHA256_FIXED, UnparsedPublicKey as SigKey};

    /// RFC 8291 §5's worked example: the same inputs give the same key and nonce.
    #[test]
    fn d310_key_and_nonce_match_rfc_8291s_example() {
        let ua_public =
            from_b64url("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
                .unwrap();
        let as_public =
            from_b64url("BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
                .unwrap();
        let auth = from_b64url("BTBZMqHH6r4Tts7J_aSIgg").unwrap();
        let salt = from_b64url("DGv6ra1nlYgDCS1FRnbzlw").unwrap();
        let ecdh = from_b64url("kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs").unwrap();
        let (cek, nonce) = derive_key_nonce(&ecdh, &auth, &ua_public, &as_public, &salt);
        assert_eq!(b64url(&cek), "oIhVW04MRdy2XN9CiKLxTg");
        assert_eq!(b64url(&nonce), "4h_95klXJ5E_qnoN");
    }

    #[test]
    fn d310_a_payload_decrypts_with_the_browsers_private_key() {
        let ua = PrivateKey::generate(&ECDH_P256).unwrap();
        let ua_public = ua.compute_public_key().unwrap().as_ref().to_vec();
        let auth = [7u8; 16];
        let body = encrypt(&b64url(&ua_public), &b64url(&auth), b"{\"title\":\"Hi\"}").unwrap();
        let salt = &body[..16];
        assert_eq!(u32::from_be_bytes(body[16..20].try_into().unwrap()), RECORD_SIZE);
        let idlen = body[20] as usize;
        let as_public = &body[21..21 + idlen];
        let (cek, nonce) = agreement::agree(&ua, UnparsedPublicKey::new(&ECDH_P256, as_public), (), |s| {
            Ok(derive_key_nonce(s, &auth, &ua_public, as_public, salt))
        })
        .unwrap();
        let key = aws_lc_rs::aead::LessSafeKey::new(
            aws_lc_rs::aead::UnboundKey::new(&aws_lc_rs::aead::AES_128_GCM, &cek).unwrap(),
        );
        let mut record = body[21 + idlen..].to_vec();
        let plain = key
            .open_in_place(
                aws_lc_rs::aead::Nonce::assume_unique_for_key(nonce),
                aws_lc_rs::aead::Aad::empty(),
                &mut record,
            )
            .unwrap();
        assert_eq!(plain, b"{\"title\":\"Hi\"}\x02");
        assert_eq!(encrypt("nope", &b64url(&auth), b"x"), Err(CryptoError::BadPublicKey));
        assert_eq!(
            encrypt(&b64url(&ua_public), "AAAA", b"x"),
            Err(CryptoError::BadAuthSecret)
        );
    }

    #[test]
    fn d310_the_vapid_jwt_verifies_with_the_public_key_and_names_the_origin() {
        let key = VapidKey::generate().unwrap();
        let again = VapidKey::from_stored(&key.to_stored()).unwrap();
        assert_eq!(again.public_key(), key.public_key(), "the stored key is the same key");
        let header = key
            .authorization("https://push.example", 1_800_000_000, "mailto:ops@example.org")
            .unwrap();
        let rest = header.strip_prefix("vapid t=").unwrap();
        let (jwt, k) = rest.split_once(", k=").unwrap();
        assert_eq!(k, key.public_key());
        let (input, sig) = jwt.rsplit_once('.').unwrap();
        SigKey::new(&ECDSA_P256_SHA256_FIXED, from_b64url(k).unwrap())
            .verify(input.as_bytes(), &from_b64url(sig).unwrap())
            .expect("signature verifies");
        let claims: serde_json::Value =
            serde_json::from_slice(&from_b64url(input.split('.').nth(1).unwrap()).unwrap()).unwrap();
        assert_eq!(claims["aud"], "https://push.example");
        assert_eq!(claims["exp"], 1_800_000_000);
    }
}
