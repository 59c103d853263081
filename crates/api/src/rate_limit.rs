//! Per-address rate limits for calls a script would hammer: sign-in starts, callbacks and
//! native sign-in (and, later, reporting). A token bucket per client address: `burst`
//! calls at once, then one every `every`. In memory, per process: several servers on one
//! database each allow their own budget, which is still a small multiple.

use axum::http::{HeaderMap, Request};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Past this many addresses, full (idle) buckets are dropped before adding one.
const MAX_TRACKED: usize = 100_000;

pub struct RateLimit {
    burst: u32,
    every: Duration,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl RateLimit {
    pub fn new(burst: u32, every: Duration) -> RateLimit {
        RateLimit {
            burst,
            every,
            buckets: Mutex::default(),
        }
    }

    /// Take one call for `ip` at `now`: `Ok` or the seconds until the next is allowed.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), u64> {
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let burst = f64::from(self.burst);
        let per_sec = 1.0 / self.every.as_secs_f64().max(1e-9);
        if buckets.len() >= MAX_TRACKED && !buckets.contains_key(&ip) {
            buckets.retain(|_, b| b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * per_sec < burst);
        }
        let bucket = buckets.entry(ip).or_insert(Bucket { tokens: burst, at: now });
        let refilled = bucket.tokens + now.saturating_duration_since(bucket.at).as_secs_f64() * per_sec;
        bucket.tokens = refilled.min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let wait = (1.0 - bucket.tokens) / per_sec;
            Err(wait.ceil().max(1.0) as u64)
        }
    }
}

/// The client's address: the connection's peer, or, when the operator says the server is
/// behind a proxy (`--forwarded-for`), the last address that proxy appended to
/// `X-Forwarded-For` (earlier entries are the client's to forge).
pub fn client_ip<B>(req: &Request<B>, trust_forwarded_for: bool) -> Option<IpAddr> {
    if trust_forwarded_for && let Some(ip) = forwarded_for(req.headers()) {
        return Some(ip);
    }
    req.extensions()
        .get::<axum::extract::ConnectInfo<SocketAddr>>()
        .map(|info| info.0.ip())
}

fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let all = headers.get_all("x-forwarded-for");
    let last = all.iter().next_back()?.to_str().ok()?;
    last.rsplit(',').next()?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_allowed_then_one_call_per_interval() {
        let limit = RateLimit::new(3, Duration::from_secs(6));
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        let other: IpAddr = "192.0.2.2".parse().unwrap();
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(limit.check(ip, t), Ok(()));
        }
        assert_eq!(limit.check(ip, t), Err(6), "the fourth waits for a refill");
        assert_eq!(limit.check(other, t), Ok(()), "each address has its own budget");
        assert_eq!(limit.check(ip, t + Duration::from_secs(3)), Err(3));
        assert_eq!(limit.check(ip, t + Duration::from_secs(6)), Ok(()));
        assert_eq!(limit.check(ip, t + Duration::from_secs(6)), Err(6));
    }

    #[test]
    fn forwarded_for_is_read_only_when_trusted_and_takes_the_proxys_entry() {
        let req = Request::builder()
            .header("x-forwarded-for", "10.9.9.9, 203.0.113.7")
            .body(())
            .unwrap();
        assert_eq!(client_ip(&req, true), Some("203.0.113.7".parse().unwrap()));
        assert_eq!(client_ip(&req, false), None, "no peer address in this request");
    }
}
