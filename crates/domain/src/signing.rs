//! SPEC §7 request signing (decision D6).

use md5::{Digest, Md5};

/// `sign` = uppercase hex MD5 of base + path + sign word + device id, where `path` is
/// the API path after `/api` (e.g. `/user/init`).
pub fn request_sign(base: &str, path: &str, sign_word: &str, device_id: &str) -> String {
    let mut h = Md5::new();
    h.update(base.as_bytes());
    h.update(path.as_bytes());
    h.update(sign_word.as_bytes());
    h.update(device_id.as_bytes());
    hex::encode_upper(h.finalize())
}

/// §9.9: a request nonce is 10 characters; we accept ASCII letters and digits.
pub fn is_valid_request_nonce(nonce: &str) -> bool {
    nonce.len() == crate::constants::REQUEST_NONCE_LEN && nonce.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_7_sign_is_uppercase_md5_of_base_path_word_device() {
        // md5("") is a well-known vector; concatenation order matters.
        assert_eq!(request_sign("", "", "", ""), "D41D8CD98F00B204E9800998ECF8427E");
        let a = request_sign("{\"device_id\":\"d1\"}", "/user/init", "localwire", "d1");
        let b = request_sign("{\"device_id\":\"d1\"}", "/user/info", "localwire", "d1");
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(a, a.to_ascii_uppercase());
        // md5("abc") = 900150983cd24fb0d6963f7d28e17f72, split across the four parts.
        assert_eq!(request_sign("a", "b", "c", ""), "900150983CD24FB0D6963F7D28E17F72");
    }

    #[test]
    fn spec_9_9_request_nonce_is_10_chars() {
        assert!(is_valid_request_nonce("abcDEF1234"));
        assert!(!is_valid_request_nonce("abc"));
        assert!(!is_valid_request_nonce("abcdefghijk"));
        assert!(!is_valid_request_nonce("abc def 12"));
    }
}
