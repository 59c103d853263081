//! The SPEC §7 signed-request check every non-GET call passes (crates/api/src/signed.rs):
//! header bytes → `SignedHeaders::parse` → `signed::check` → the nonce memory, as
//! `signed::verify` runs them, without a server. A call that passes must have met every
//! rule: a `base` of at most 4096 bytes naming a well-formed device id, the right
//! signature, a timestamp within the window, a 10-character nonce never seen before.
//!
//! Input: a flags byte, then newline-separated fields: base, timestamp, nonce, sign,
//! token, path. Flags let the fuzzer past the checks it cannot guess: bit 0 replaces
//! `sign` with the correct one, bit 1 sets the timestamp to a known offset from now (the
//! offset from the timestamp field), bit 2 takes `now` from the token field instead.
#![no_main]

use api::nonces::NonceCache;
use api::signed::{MAX_DEVICE_ID, SignedHeaders, check};
use domain::signing::{is_valid_request_nonce, request_sign};
use http::{HeaderMap, HeaderValue};
use libfuzzer_sys::fuzz_target;

const SIGN_WORD: &str = "localwire-fuzz";
const WINDOW_MS: i64 = 300_000;
const NOW_MS: i64 = 1_763_640_000_000;

fn field<'a>(fields: &[&'a [u8]], i: usize) -> &'a [u8] {
    fields.get(i).copied().unwrap_or(b"")
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let fields: Vec<&[u8]> = rest.split(|&b| b == b'\n').collect();
    let text = |i: usize| String::from_utf8_lossy(field(&fields, i)).into_owned();
    let path = format!("/{}", text(5));
    let now = if flags & 4 != 0 {
        text(4).trim().parse::<i64>().unwrap_or(NOW_MS)
    } else {
        NOW_MS
    };

    let mut headers = HeaderMap::new();
    let mut put = |name: &'static str, value: &[u8]| {
        if let Ok(v) = HeaderValue::from_bytes(value) {
            headers.insert(name, v);
        }
    };
    put("base", field(&fields, 0));
    if flags & 2 != 0 {
        let offset: i64 = text(1).trim().parse().unwrap_or(0);
        put("timestamp", now.wrapping_add(offset).to_string().as_bytes());
    } else {
        put("timestamp", field(&fields, 1));
    }
    put("nonce", field(&fields, 2));
    if flags & 1 != 0 {
        // The signature a client holding the sign word would send, when the base names a
        // device id at all.
        let base = String::from_utf8_lossy(field(&fields, 0)).into_owned();
        let device_id = serde_json::from_str::<serde_json::Value>(&base)
            .ok()
            .and_then(|v| v.get("device_id").and_then(|d| d.as_str()).map(str::to_string))
            .unwrap_or_default();
        put("sign", request_sign(&base, &path, SIGN_WORD, &device_id).as_bytes());
    } else {
        put("sign", field(&fields, 3));
    }
    put("token", field(&fields, 4));

    let Ok(parsed) = SignedHeaders::parse(&headers) else {
        return;
    };
    if let Some(token) = &parsed.token {
        assert!(!token.is_empty() && token.trim() == token, "token {token:?}");
    }
    let Ok(device) = check(&parsed, &path, SIGN_WORD, WINDOW_MS, now) else {
        return;
    };
    // Passed: every rule must hold.
    assert!(parsed.base.len() <= 4096);
    let id = device.device_id.as_str();
    assert!(!id.is_empty() && id.len() <= MAX_DEVICE_ID);
    assert!(
        id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b)),
        "{id:?}"
    );
    assert!(
        parsed
            .sign
            .eq_ignore_ascii_case(&request_sign(&parsed.base, &path, SIGN_WORD, id))
    );
    let ts: i64 = parsed.timestamp.parse().expect("a passing timestamp parses");
    assert!(
        (i128::from(now) - i128::from(ts)).abs() <= i128::from(WINDOW_MS),
        "timestamp {ts} passed at {now}"
    );
    assert!(is_valid_request_nonce(&parsed.nonce));
    // The replay memory verify() adds: a nonce passes once.
    let nonces = NonceCache::new(WINDOW_MS);
    assert!(nonces.first_use(id, &parsed.nonce, now));
    assert!(!nonces.first_use(id, &parsed.nonce, now), "a replayed nonce passed");
});
