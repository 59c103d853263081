//! The API envelope `{code, data, message}` of a success (SPEC §7, §8; decision D5), and the
//! ETag of a body. The HTTP crate answers with it; the providers keep answers already in it
//! (D417), so a kept answer costs a lookup and a copy.

use serde::Serialize;

#[derive(Serialize)]
pub struct Envelope<'a, T> {
    pub code: u16,
    pub data: T,
    pub message: &'a str,
}

impl<T> Envelope<'static, T> {
    /// A success: code 0 and the data.
    pub fn ok(data: T) -> Self {
        Envelope {
            code: 0,
            data,
            message: "ok",
        }
    }
}

/// A success envelope's bytes, serialized in one pass (no intermediate tree).
pub fn ok_body<T: Serialize>(data: T) -> Result<Vec<u8>, serde_json::Error> {
    // A page of cards is tens of KB: growing from serde_json's 128 bytes copied it over
    // and over (7% of an uncached list's CPU, D433).
    let mut body = Vec::with_capacity(16 * 1024);
    serde_json::to_writer(&mut body, &Envelope::ok(data))?;
    // A small answer may be kept a while (the read cache): not in a 16 KB buffer.
    if body.len() < body.capacity() / 2 {
        body.shrink_to_fit();
    }
    Ok(body)
}

/// `W/"<96 bits of the body's XXH3-128>"`: weak, because compression may re-encode it.
/// An ETag only tells a reader's copy from a newer one of the same address, which a
/// non-cryptographic hash of 96 bits does (D440); SHA-256 of a 36 KB page of cards was 6% of
/// an uncached list's CPU, XXH3 is a few percent of that.
pub fn weak_etag(body: &[u8]) -> String {
    let hash = xxhash_rust::xxh3::xxh3_128(body).to_be_bytes();
    format!("W/\"{}\"", hex::encode(&hash[..12]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_7_a_success_is_code_0_its_data_and_ok() {
        let body = ok_body(serde_json::json!({"a": 1})).unwrap();
        assert_eq!(body, br#"{"code":0,"data":{"a":1},"message":"ok"}"#);
        assert!(
            body.capacity() < 1024,
            "a small answer is kept small: {}",
            body.capacity()
        );
    }

    #[test]
    fn the_etag_is_weak_and_names_the_body() {
        let a = weak_etag(b"one");
        assert!(a.starts_with("W/\"") && a.len() == 3 + 24 + 1, "{a}");
        assert_ne!(a, weak_etag(b"two"));
        assert_eq!(a, weak_etag(b"one"));
    }
}
