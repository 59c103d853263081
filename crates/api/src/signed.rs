//! The extractor for every non-GET API call: body limit, SPEC §7 signature check,
//! timestamp window, nonce replay check, and a JSON body whose errors name the field.

use crate::envelope::ApiError;
use crate::state::{AppState, now_ms};
use axum::extract::{FromRequest, Request};
use axum::http::HeaderMap;
use domain::signing::{is_valid_request_nonce, request_sign};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use utoipa::IntoParams;

/// The device description sent in the `base` header (SPEC §7).
#[derive(Debug, Clone, Deserialize)]
pub struct DeviceBase {
    pub device_id: String,
    #[serde(default)]
    pub app_lang: Option<String>,
    #[serde(default)]
    pub country: Option<String>,
}

/// A verified non-GET call: its device, its optional token and its parsed body.
pub struct Signed<T, const BODY_LIMIT: usize = 0> {
    pub device: DeviceBase,
    pub token: Option<String>,
    pub body: T,
}

/// The SPEC §7 signing headers every non-GET call carries, as read from the request and
/// as the OpenAPI document lists them on every signed operation.
#[derive(Debug, Clone, PartialEq, Eq, IntoParams)]
#[into_params(parameter_in = Header)]
pub struct SignedHeaders {
    /// JSON: device_id, os (3), app_lang, package_name, country, app_version, time_zone.
    pub base: String,
    /// Milliseconds since 1970; within 300 s of server time.
    pub timestamp: String,
    /// 10 letters or digits, never reused.
    pub nonce: String,
    /// Uppercase MD5 of base + path (after /api) + sign word + device_id.
    pub sign: String,
    /// Session token from /user/init, when the call needs a user.
    pub token: Option<String>,
}

impl SignedHeaders {
    /// The headers as sent: the four signing ones must be present and printable ASCII
    /// (a 400 names the first that is not); a blank or unreadable `token` is none. What
    /// they say is checked by [`verify`].
    pub fn parse(headers: &HeaderMap) -> Result<SignedHeaders, ApiError> {
        Ok(SignedHeaders {
            base: header(headers, "base")?.to_string(),
            timestamp: header(headers, "timestamp")?.to_string(),
            nonce: header(headers, "nonce")?.to_string(),
            sign: header(headers, "sign")?.to_string(),
            token: headers
                .get("token")
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string),
        })
    }
}

fn header<'a>(headers: &'a HeaderMap, name: &'static str) -> Result<&'a str, ApiError> {
    let value = headers.get(name).ok_or_else(|| {
        ApiError::BadRequest(format!(
            "Missing request header `{name}`: every non-GET call must be signed."
        ))
    })?;
    value
        .to_str()
        .map_err(|_| ApiError::BadRequest(format!("Request header `{name}` must be printable ASCII.")))
}

/// Longest `device_id` accepted in the `base` header.
pub const MAX_DEVICE_ID: usize = 128;

/// Check the SPEC §7 headers of a call to `path` (the part after `/api`).
pub fn verify(
    state: &AppState,
    headers: &HeaderMap,
    path: &str,
    now: i64,
) -> Result<(DeviceBase, Option<String>), ApiError> {
    let headers = SignedHeaders::parse(headers)?;
    let device = check(
        &headers,
        path,
        &state.config.sign_word,
        state.config.timestamp_window_ms,
        now,
    )?;
    if !state.nonces.first_use(&device.device_id, &headers.nonce, now) {
        return Err(ApiError::BadRequest(
            "This nonce was already used: every request needs a new nonce.".into(),
        ));
    }
    Ok((device, headers.token))
}

/// Everything [`verify`] checks that needs no memory of earlier calls: the `base` JSON
/// and its `device_id`, the signature, the timestamp within `window_ms` of `now`, and the
/// nonce's form. A plain function so the fuzz target `signed_headers` runs exactly it.
pub fn check(
    headers: &SignedHeaders,
    path: &str,
    sign_word: &str,
    window_ms: i64,
    now: i64,
) -> Result<DeviceBase, ApiError> {
    let (base, nonce) = (headers.base.as_str(), headers.nonce.as_str());
    if base.len() > 4096 {
        return Err(ApiError::BadRequest(
            "Request header `base` is longer than 4096 bytes.".into(),
        ));
    }
    let device: DeviceBase = serde_json::from_str(base).map_err(|e| {
        ApiError::BadRequest(format!(
            "Request header `base` must be JSON with a `device_id` string: {e}."
        ))
    })?;
    let device_id = device.device_id.as_str();
    if device_id.is_empty()
        || device_id.len() > MAX_DEVICE_ID
        || !device_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
    {
        return Err(ApiError::BadRequest(format!(
            "`device_id` in header `base` must be 1 to {MAX_DEVICE_ID} letters, digits or - _ . :"
        )));
    }
    let expected = request_sign(base, path, sign_word, device_id);
    if !headers.sign.eq_ignore_ascii_case(&expected) {
        return Err(ApiError::BadRequest(
            "Request signature does not match: `sign` must be the uppercase MD5 of base + path + sign word + device id."
                .into(),
        ));
    }
    let ts: i64 = headers
        .timestamp
        .parse()
        .map_err(|_| ApiError::BadRequest("Request header `timestamp` must be milliseconds since 1970.".into()))?;
    // `abs_diff`, not `(now - ts).abs()`: a timestamp 2^63 ms before now made that
    // subtraction wrap to i64::MIN, whose `abs()` stays negative in a release build, so
    // the call passed the window check (found by reading while writing the fuzz target).
    if now.abs_diff(ts) > window_ms.unsigned_abs() {
        return Err(ApiError::BadRequest(format!(
            "Request timestamp is more than {} seconds from server time; check the device clock.",
            window_ms / 1000
        )));
    }
    if !is_valid_request_nonce(nonce) {
        return Err(ApiError::BadRequest(
            "Request header `nonce` must be 10 letters or digits.".into(),
        ));
    }
    Ok(device)
}

/// Parse a JSON body into `T`; errors name the field and what was expected.
pub fn parse_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    // SPEC §5.2: non-GET requests carry a body; an empty one means `{}`.
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        bytes
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        match inner.classify() {
            serde_json::error::Category::Data if path != "." && !path.is_empty() => {
                ApiError::BadRequest(format!("Field `{path}`: {}.", strip_position(&inner)))
            }
            serde_json::error::Category::Data => {
                ApiError::BadRequest(format!("Request body: {}.", strip_position(&inner)))
            }
            _ => ApiError::BadRequest(format!("Malformed JSON body: {inner}.")),
        }
    })?;
    de.end()
        .map_err(|e| ApiError::BadRequest(format!("Malformed JSON body: {e}.")))?;
    Ok(parsed)
}

fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.find(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

impl<T: DeserializeOwned + Send, const BODY_LIMIT: usize> FromRequest<AppState> for Signed<T, BODY_LIMIT> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, ApiError> {
        let (parts, body) = req.into_parts();
        // A call that takes larger bodies (an OPML file) names its own limit.
        let limit = if BODY_LIMIT == 0 {
            state.config.body_limit
        } else {
            BODY_LIMIT
        };
        let declared = parts
            .headers
            .get(axum::http::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<usize>().ok());
        if declared.is_some_and(|n| n > limit) {
            return Err(ApiError::PayloadTooLarge(limit));
        }
        let path = parts.uri.path().strip_prefix("/api").unwrap_or(parts.uri.path());
        let (device, token) = verify(state, &parts.headers, path, now_ms())?;
        let bytes = axum::body::to_bytes(body, limit).await.map_err(|e| {
            if std::error::Error::source(&e).is_some_and(|s| s.is::<http_body_util::LengthLimitError>()) {
                ApiError::PayloadTooLarge(limit)
            } else {
                ApiError::BadRequest("The request body could not be read.".into())
            }
        })?;
        Ok(Signed {
            device,
            token,
            body: parse_body(&bytes)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Loc {
        lat: f64,
        #[serde(default)]
        city: Option<String>,
    }

    fn err(body: &str) -> String {
        match parse_body::<Loc>(body.as_bytes()) {
            Err(ApiError::BadRequest(m)) => m,
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn wrong_field_type_names_the_field() {
        assert_eq!(
            err(r#"{"lat":"north"}"#),
            "Field `lat`: invalid type: string \"north\", expected f64."
        );
    }

    #[test]
    fn missing_field_is_named() {
        assert_eq!(err(r#"{"city":"Ottawa"}"#), "Request body: missing field `lat`.");
    }

    #[test]
    fn malformed_json_says_where() {
        assert!(err(r#"{"lat": 1,"#).starts_with("Malformed JSON body: EOF while parsing"));
        assert!(err(r#"{"lat": 1} x"#).starts_with("Malformed JSON body: trailing characters"));
    }

    #[test]
    fn spec_7_the_documented_headers_are_the_parsed_ones() {
        let mut headers = HeaderMap::new();
        for (name, value) in [
            ("base", r#"{"device_id":"d1"}"#),
            ("timestamp", "1763640000000"),
            ("nonce", "abcde12345"),
            ("sign", "0A1B"),
            ("token", " t-1 "),
        ] {
            headers.insert(name, value.parse().unwrap());
        }
        assert_eq!(
            SignedHeaders::parse(&headers).unwrap(),
            SignedHeaders {
                base: r#"{"device_id":"d1"}"#.into(),
                timestamp: "1763640000000".into(),
                nonce: "abcde12345".into(),
                sign: "0A1B".into(),
                token: Some("t-1".into()),
            }
        );
        let documented: Vec<String> = SignedHeaders::into_params(|| None)
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(documented, ["base", "timestamp", "nonce", "sign", "token"]);

        headers.insert("token", "  ".parse().unwrap());
        assert_eq!(
            SignedHeaders::parse(&headers).unwrap().token,
            None,
            "a blank token is none"
        );
        headers.remove("token");
        headers.remove("sign");
        match SignedHeaders::parse(&headers) {
            Err(ApiError::BadRequest(m)) => assert!(m.contains("`sign`"), "{m}"),
            other => panic!("expected a 400 naming `sign`, got {other:?}"),
        }
    }

    fn signed_headers(timestamp: i64, nonce: &str) -> SignedHeaders {
        let base = r#"{"device_id":"d1"}"#;
        SignedHeaders {
            base: base.into(),
            timestamp: timestamp.to_string(),
            nonce: nonce.into(),
            sign: request_sign(base, "/user/init", "word", "d1"),
            token: None,
        }
    }

    #[test]
    fn spec_7_check_accepts_a_signed_call_inside_the_window() {
        let now = 1_763_640_000_000;
        for ts in [now, now - 300_000, now + 300_000] {
            let device = check(&signed_headers(ts, "abcde12345"), "/user/init", "word", 300_000, now).unwrap();
            assert_eq!(device.device_id, "d1");
        }
        for ts in [now - 300_001, now + 300_001, 0, i64::MAX] {
            assert!(check(&signed_headers(ts, "abcde12345"), "/user/init", "word", 300_000, now).is_err());
        }
        assert!(check(&signed_headers(now, "abcde1234"), "/user/init", "word", 300_000, now).is_err());
        assert!(check(&signed_headers(now, "abcde12345"), "/user/info", "word", 300_000, now).is_err());
    }

    #[test]
    fn timestamp_attack_2_pow_63_ms_before_now_does_not_wrap_into_the_window() {
        // now - ts overflows to i64::MIN here, and i64::MIN.abs() wraps to itself in a
        // release build: the old check read that as "0 seconds off".
        for now in [1_763_640_000_000_i64, 0, -1, i64::MAX] {
            let ts = now.wrapping_sub(i64::MIN);
            let refused = check(&signed_headers(ts, "abcde12345"), "/user/init", "word", 300_000, now);
            match refused {
                Err(ApiError::BadRequest(m)) => assert!(m.contains("timestamp"), "{m}"),
                other => panic!("timestamp {ts} at {now} must be refused, got {other:?}"),
            }
        }
        assert!(
            check(
                &signed_headers(i64::MIN, "abcde12345"),
                "/user/init",
                "word",
                300_000,
                i64::MAX
            )
            .is_err()
        );
    }

    #[test]
    fn spec_5_2_empty_body_is_an_empty_object() {
        #[derive(Deserialize)]
        struct Empty {}
        assert!(parse_body::<Empty>(b"").is_ok());
        assert!(parse_body::<Empty>(b"  ").is_ok());
    }
}
