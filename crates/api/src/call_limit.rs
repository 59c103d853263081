//! Every call is counted against its address (D357): a script that hammers uncached reads
//! (search, an old article, a reader's filtered feed) from one address, or one IPv6 /64,
//! slows itself down and nobody else. The narrower limits (guest creation, sign-in,
//! reports) still apply on top of this one.

use crate::envelope::ApiError;
use crate::rate_limit::client_ip;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::time::Instant;

/// The operator's own probes are never refused.
fn exempt(path: &str) -> bool {
    matches!(path, "/healthz" | "/metrics")
}

/// The middleware: past the address's budget, 429 with `Retry-After`; the API's envelope
/// for `/api` calls, a line of text for pages.
pub async fn layer(State(state): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(limit) = state.call_limit.as_ref()
        && !exempt(req.uri().path())
        && let Some(ip) = client_ip(&req, state.config.trust_forwarded_for)
        && let Err(retry_after_secs) = limit.check(ip, Instant::now())
    {
        let refusal = ApiError::TooManyRequests { retry_after_secs };
        if req.uri().path().starts_with("/api") {
            return refusal.into_response();
        }
        let mut page = (StatusCode::TOO_MANY_REQUESTS, refusal.to_string()).into_response();
        page.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
        return page;
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rate_limit::CallLimitConfig;
    use std::time::Duration;

    #[test]
    fn d357_zero_turns_the_limit_off_and_the_default_allows_a_burst_then_a_rate() {
        assert!(
            CallLimitConfig {
                burst: 10,
                per_second: 0
            }
            .limit()
            .is_none()
        );
        assert!(
            CallLimitConfig {
                burst: 0,
                per_second: 10
            }
            .limit()
            .is_none()
        );
        let limit = CallLimitConfig {
            burst: 3,
            per_second: 2,
        }
        .limit()
        .unwrap();
        let ip = "203.0.113.9".parse().unwrap();
        let t = Instant::now();
        for _ in 0..3 {
            assert!(limit.check(ip, t).is_ok());
        }
        assert_eq!(limit.check(ip, t), Err(1));
        assert!(limit.check(ip, t + Duration::from_millis(500)).is_ok(), "2 a second");
        assert!(limit.check(ip, t + Duration::from_millis(500)).is_err());
        assert!(exempt("/healthz") && exempt("/metrics") && !exempt("/api/news/feed/latest"));
    }
}
