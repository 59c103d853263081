//! The API envelope `{code, data, message}` and the one mapping from errors to it
//! (SPEC §7, §8; decision D5).

use axum::body::Bytes;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::envelope::Envelope;
pub use domain::envelope::weak_etag;
use providers::kept_answer::KeptAnswer;
use serde::Serialize;
use serde_json::json;

/// A success: code 0 and the data, serialized in one pass (no intermediate tree).
pub fn ok<T: Serialize>(data: T) -> Response {
    json_response(StatusCode::OK, &Envelope::ok(data))
}

/// A public, cacheable success (docs/api-reading.md): `ETag` (a hash of the body),
/// `Cache-Control: public, max-age={max_age}`, and 304 when `If-None-Match` names the
/// same body.
pub fn ok_cached<T: Serialize>(data: T, if_none_match: Option<&HeaderValue>, max_age: u32) -> Response {
    let body = match ok_body(data) {
        Ok(b) => b,
        Err(e) => return e.into_response(),
    };
    let etag = weak_etag(&body);
    respond_body(body.into(), &etag, if_none_match, max_age)
}

/// A kept answer (a provider's, D417), with the same headers as [`ok_cached`].
pub fn ok_kept(kept: &KeptAnswer, if_none_match: Option<&HeaderValue>, max_age: u32) -> Response {
    respond_body(kept.body.clone(), &kept.etag, if_none_match, max_age)
}

fn respond_body(body: Bytes, etag: &str, if_none_match: Option<&HeaderValue>, max_age: u32) -> Response {
    let mut res = if names_etag(if_none_match, etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut res = (StatusCode::OK, body).into_response();
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        res
    };
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    if let Ok(v) = HeaderValue::from_str(&format!("public, max-age={max_age}")) {
        h.insert(header::CACHE_CONTROL, v);
    }
    res
}

/// A success envelope's bytes.
pub fn ok_body<T: Serialize>(data: T) -> Result<Vec<u8>, ApiError> {
    domain::envelope::ok_body(data).map_err(|e| ApiError::Internal(format!("serializing an answer: {e}")))
}

/// Whether `If-None-Match` names `etag` (or is `*`).
pub fn names_etag(if_none_match: Option<&HeaderValue>, etag: &str) -> bool {
    if_none_match
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == "*" || weak_eq(t.trim(), etag)))
}

/// Weak comparison (RFC 9110 §8.8.3.2): `"x"` and `W/"x"` name the same body.
fn weak_eq(a: &str, b: &str) -> bool {
    a.trim_start_matches("W/") == b.trim_start_matches("W/")
}

pub fn json_response<B: Serialize + ?Sized>(status: StatusCode, body: &B) -> Response {
    let bytes =
        serde_json::to_vec(body).unwrap_or_else(|_| br#"{"code":500,"data":null,"message":"Server Error"}"#.to_vec());
    let mut res = (status, bytes).into_response();
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Every way an API call can fail. The message a person sees is decided here only.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is wrong in a way the caller can fix; the text says how.
    #[error("{0}")]
    BadRequest(String),
    /// 401 'Unauthorized'; the reason goes in `data.reason`.
    #[error("Unauthorized")]
    Unauthorized(&'static str),
    #[error("Forbidden")]
    Forbidden,
    #[error("Not Found")]
    NotFound,
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("Request body is larger than {0} bytes.")]
    PayloadTooLarge(usize),
    /// 409: the request clashes with what is stored; the text says what to do.
    #[error("{0}")]
    Conflict(String),
    /// 429 with `Retry-After`: a rate limit (sign-in, reporting).
    #[error("Too many attempts from this address; try again in {}.", seconds(*.retry_after_secs))]
    TooManyRequests { retry_after_secs: u64 },
    /// 429 with `Retry-After`: an address's report bytes for the UTC day are used up (D366).
    #[error(
        "Reports from this address have reached today's limit of {bytes_per_day} bytes; they are taken again from midnight UTC, in {retry_after_secs} seconds."
    )]
    ReportDayUsed { bytes_per_day: u64, retry_after_secs: u64 },
    /// 507: the report store is at its cap (D367); retrying does not help.
    #[error(
        "Reports are not being stored: the report store is at its cap of {0} bytes. The operator can raise --report-max-bytes or shorten --report-retention-days."
    )]
    ReportStoreFull(u64),
    /// 503: an upstream (a sign-in provider) failed or did not answer in time.
    #[error("{0}")]
    Unavailable(String),
    /// 503 with `Retry-After`: the database cannot be reached or written right now
    /// (issue 30); the cause is logged, never shown.
    #[error("The service cannot reach its database right now; try again in a few seconds.")]
    StoreUnavailable(String),
    /// 403, 502 or 504: the image proxy could not give an image (D381); the text says why.
    #[error("{1}")]
    Upstream(StatusCode, String),
    /// 500 'Server Error'; the cause is logged, never shown.
    #[error("Server Error")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden => StatusCode::FORBIDDEN,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyRequests { .. } | ApiError::ReportDayUsed { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::ReportStoreFull(_) => StatusCode::INSUFFICIENT_STORAGE,
            ApiError::Unavailable(_) | ApiError::StoreUnavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Upstream(status, _) => *status,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// "1 second", "6 seconds": a wait in words a person reads.
fn seconds(n: u64) -> String {
    if n == 1 {
        "1 second".into()
    } else {
        format!("{n} seconds")
    }
}

/// How long a client is told to wait when the database is unavailable: a PostgreSQL
/// restart or failover takes seconds.
pub const STORE_RETRY_AFTER_SECS: u64 = 5;

impl From<store::StoreError> for ApiError {
    fn from(e: store::StoreError) -> Self {
        match e {
            store::StoreError::Unavailable(cause) => ApiError::StoreUnavailable(cause),
            other => ApiError::Internal(other.to_string()),
        }
    }
}

impl From<providers::Unavailable> for ApiError {
    fn from(e: providers::Unavailable) -> Self {
        ApiError::Unavailable(e.0)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let data = match &self {
            ApiError::Unauthorized(reason) => json!({ "reason": reason }),
            ApiError::Internal(cause) => {
                tracing::error!(%cause, "internal error in an API call");
                serde_json::Value::Null
            }
            ApiError::StoreUnavailable(cause) => {
                tracing::warn!(%cause, "an API call found the database unavailable");
                serde_json::Value::Null
            }
            _ => serde_json::Value::Null,
        };
        let mut res = json_response(
            status,
            &json!({ "code": status.as_u16(), "data": data, "message": self.to_string() }),
        );
        if let ApiError::TooManyRequests { retry_after_secs } | ApiError::ReportDayUsed { retry_after_secs, .. } = self
        {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        }
        if let ApiError::StoreUnavailable(_) = self {
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(STORE_RETRY_AFTER_SECS));
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(e: ApiError) -> (u16, String) {
        (e.status().as_u16(), e.to_string())
    }

    #[test]
    fn spec_8_2_catalogue_messages_are_exact() {
        assert_eq!(message(ApiError::NotFound), (404, "Not Found".into()));
        assert_eq!(
            message(ApiError::Internal("db down".into())),
            (500, "Server Error".into())
        );
        assert_eq!(message(ApiError::Forbidden), (403, "Forbidden".into()));
        assert_eq!(message(ApiError::Unauthorized("expired")), (401, "Unauthorized".into()));
    }

    #[test]
    fn spec_8_2_other_errors_carry_the_servers_message() {
        assert_eq!(
            message(ApiError::BadRequest("Field `lat`: bad".into())),
            (400, "Field `lat`: bad".into())
        );
        assert_eq!(
            message(ApiError::TooManyRequests { retry_after_secs: 6 }),
            (
                429,
                "Too many attempts from this address; try again in 6 seconds.".into()
            )
        );
        assert_eq!(
            message(ApiError::TooManyRequests { retry_after_secs: 1 }).1,
            "Too many attempts from this address; try again in 1 second."
        );
        let res = ApiError::TooManyRequests { retry_after_secs: 6 }.into_response();
        assert_eq!(res.headers()[header::RETRY_AFTER], "6");
        assert_eq!(
            message(ApiError::PayloadTooLarge(65536)),
            (413, "Request body is larger than 65536 bytes.".into())
        );
    }
}
