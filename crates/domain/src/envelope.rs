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
    // sonic-rs writes the bytes serde_json would (D448: tested on random pages), escaping
    // strings a SIMD block at a time; serde_json looks at each byte (7% of an uncached
    // list). Its errors (a value's own `Serialize` failing) keep serde_json's type.
    sonic_rs::to_writer(&mut body, &Envelope::ok(data)).map_err(<serde_json::Error as serde::ser::Error>::custom)?;
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

    #[derive(Serialize)]
    struct Card {
        id: i64,
        title: String,
        summary: String,
        score: f64,
        tags: Vec<String>,
        place: Option<(String, f64, f64)>,
        views: u64,
    }

    /// D448: whatever the text (quotes, backslashes, control characters, accents, emoji,
    /// line separators, runs longer than a SIMD block) and the numbers (NaN, infinities,
    /// extremes), a body is byte for byte what serde_json writes.
    #[test]
    fn d448_a_body_is_the_bytes_serde_json_writes_whatever_the_text() {
        let pool: Vec<char> =
            "abcXYZ 019\"\\/\u{0}\u{1}\u{8}\u{9}\u{a}\u{c}\u{d}\u{1f}\u{7f}éàçñ’—\u{2028}\u{2029}😀\u{fffd}"
                .chars()
                .collect();
        struct Rng(u64, Vec<char>);
        impl Rng {
            fn next(&mut self) -> u64 {
                self.0 ^= self.0 << 13;
                self.0 ^= self.0 >> 7;
                self.0 ^= self.0 << 17;
                self.0
            }
            fn text(&mut self, max: u64) -> String {
                let len = self.next() % max;
                (0..len)
                    .map(|_| {
                        let at = (self.next() % self.1.len() as u64) as usize;
                        self.1[at]
                    })
                    .collect()
            }
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15, pool);
        let numbers = [f64::NAN, f64::INFINITY, -0.0, 1e300, 5e-324, 0.1 + 0.2, 45.50884];
        for _ in 0..300 {
            let mut cards = Vec::new();
            for _ in 0..5 {
                cards.push(Card {
                    id: rng.next() as i64,
                    title: rng.text(90),
                    summary: rng.text(400),
                    score: numbers[(rng.next() % 7) as usize],
                    tags: (0..rng.next() % 4).map(|_| rng.text(12)).collect(),
                    place: rng
                        .next()
                        .is_multiple_of(2)
                        .then(|| (rng.text(20), -73.58781, 45.50884)),
                    views: rng.next(),
                });
            }
            let want = serde_json::to_vec(&Envelope::ok(&cards)).unwrap();
            assert_eq!(
                String::from_utf8(ok_body(&cards).unwrap()).unwrap(),
                String::from_utf8(want).unwrap()
            );
        }
    }

    /// A value that cannot be serialized is an error the caller sees, never a half body.
    #[test]
    fn a_value_that_fails_to_serialize_is_an_error() {
        struct Broken;
        impl Serialize for Broken {
            fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
                Err(serde::ser::Error::custom("broken on purpose"))
            }
        }
        let err = ok_body(vec![Broken]).unwrap_err();
        assert!(err.to_string().contains("broken on purpose"), "{err}");
    }

    #[test]
    fn the_etag_is_weak_and_names_the_body() {
        let a = weak_etag(b"one");
        assert!(a.starts_with("W/\"") && a.len() == 3 + 24 + 1, "{a}");
        assert_ne!(a, weak_etag(b"two"));
        assert_eq!(a, weak_etag(b"one"));
    }
}
