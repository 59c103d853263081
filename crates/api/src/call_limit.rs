//! The gate every request passes first: it is counted for `/metrics` (D397), then held to
//! its address's budget (D357): a script that hammers uncached reads (search, an old
//! article, a reader's filtered feed) from one address, or one IPv6 /64, slows itself down
//! and nobody else. The narrower limits (guest creation, sign-in, reports) still apply on
//! top of this one. One layer for both, since every layer costs every request (D401).

use crate::envelope::ApiError;
use crate::metrics::Metrics;
use crate::rate_limit::{RateLimit, client_ip};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Instant;

/// What the gate needs, and no more: it holds the counters and the limit, not the app's
/// state, so the state can own them without a loop (D225).
#[derive(Clone)]
pub struct Gate {
    pub metrics: Arc<Metrics>,
    /// `None`: the operator turned the call limit off.
    pub limit: Option<Arc<RateLimit>>,
    pub trust_forwarded_for: bool,
}

/// The operator's own probes are never refused.
fn exempt(path: &str) -> bool {
    matches!(path, "/healthz" | "/metrics")
}

/// The middleware: count the request, and past the address's budget answer 429 with
/// `Retry-After` (the API's envelope for `/api` calls, a line of text for pages); refused
/// calls are counted like the rest.
pub async fn layer(State(gate): State<Gate>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    let _ended = gate.metrics.start();
    let path = req.uri().path().to_owned();
    let res = match refusal(&gate, &req) {
        Some(refused) => refused,
        None => next.run(req).await,
    };
    gate.metrics
        .record(&path, res.status().as_u16(), started.elapsed().as_secs_f64());
    res
}

fn refusal(gate: &Gate, req: &Request) -> Option<Response> {
    let limit = gate.limit.as_ref()?;
    if exempt(req.uri().path()) {
        return None;
    }
    let ip = client_ip(req, gate.trust_forwarded_for)?;
    let retry_after_secs = limit.check(ip, Instant::now()).err()?;
    let refusal = ApiError::TooManyRequests { retry_after_secs };
    if req.uri().path().starts_with("/api") {
        return Some(refusal.into_response());
    }
    let mut page = (StatusCode::TOO_MANY_REQUESTS, refusal.to_string()).into_response();
    page.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
    Some(page)
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
