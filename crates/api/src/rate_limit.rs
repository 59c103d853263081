//! Per-address rate limits for calls a script would hammer: guest creation, sign-in starts,
//! callbacks, native sign-in and reporting. A token bucket per client address: `burst`
//! calls at once, then one every `every`. An IPv6 client is counted by its /64 (one
//! subscriber's network: a host picks any address in it at will), an IPv4-mapped IPv6
//! address as the IPv4 address it is. In memory, per process: several servers on one
//! database each allow their own budget, which is still a small multiple.

use axum::http::{HeaderMap, Request};
use hashbrown::HashTable;
use std::hash::{BuildHasher, RandomState};
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Past this many addresses, full (idle) buckets are dropped before adding one. Just under
/// 7/8 of 2^16, so the maps together never grow past 65,536 slots of 16 bytes (about 1 MB):
/// every call is limited (D357), and a run of new addresses must not cost the server's
/// memory.
const MAX_TRACKED: usize = 57_344;
/// The buckets are split over this many maps, each behind its own lock, by a hash of the
/// address: two calls rarely wait for each other, and a new address that finds its map
/// full scans a sixteenth of what is tracked, not all of it (D401).
const SHARDS: usize = 16;
const SHARD_MAX: usize = MAX_TRACKED / SHARDS;

pub struct RateLimit {
    burst: f64,
    /// Tokens regained per millisecond.
    per_ms: f64,
    /// Bucket times count milliseconds from here.
    epoch: Instant,
    /// Hashes an address once, for its shard and its slot; keyed per process, so nobody
    /// can aim many addresses at one shard or one slot.
    hasher: RandomState,
    shards: [Mutex<HashTable<(u64, Bucket)>>; SHARDS],
}

/// 8 bytes: the tokens left, and when they were counted (ms after `epoch`, wrapping after
/// 49 days: an address idle that long is given less refill than it earned, at worst one
/// 429 for one interval).
#[derive(Clone, Copy)]
struct Bucket {
    tokens: f32,
    at_ms: u32,
}

impl RateLimit {
    pub fn new(burst: u32, every: Duration) -> RateLimit {
        RateLimit {
            burst: f64::from(burst),
            per_ms: 1.0 / every.as_secs_f64().max(1e-9) / 1000.0,
            epoch: Instant::now(),
            hasher: RandomState::new(),
            shards: std::array::from_fn(|_| Mutex::new(HashTable::new())),
        }
    }

    /// Take one call for `ip` at `now`: `Ok` or the seconds until the next is allowed.
    pub fn check(&self, ip: IpAddr, now: Instant) -> Result<(), u64> {
        let key = bucket_key(ip);
        let now_ms = now.saturating_duration_since(self.epoch).as_millis() as u32;
        let (burst, per_ms) = (self.burst, self.per_ms);
        let refilled = |b: &Bucket| f64::from(b.tokens) + f64::from(now_ms.wrapping_sub(b.at_ms)) * per_ms;
        let hash = self.hasher.hash_one(key);
        // The table's slot comes from the hash's low bits, its tags from the top ones.
        let shard = &self.shards[(hash >> 32) as usize % SHARDS];
        let mut buckets = shard.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let same = |e: &(u64, Bucket)| e.0 == key;
        if buckets.len() >= SHARD_MAX && buckets.find(hash, same).is_none() {
            buckets.retain(|(_, b)| refilled(b) < burst);
            // Still nearly full (many addresses at once, as from one big IPv6 block): start
            // over rather than scan again on the next new address. Each scan then frees at
            // least a tenth, so keeping track costs O(1) per call however many come.
            if buckets.len() >= SHARD_MAX / 10 * 9 {
                buckets.clear();
            }
        }
        let fresh = Bucket {
            tokens: burst as f32,
            at_ms: now_ms,
        };
        let (_, bucket) = buckets
            .entry(hash, same, |e| self.hasher.hash_one(e.0))
            .or_insert((key, fresh))
            .into_mut();
        let tokens = refilled(bucket).min(burst);
        bucket.at_ms = now_ms;
        if tokens >= 1.0 {
            bucket.tokens = (tokens - 1.0) as f32;
            Ok(())
        } else {
            bucket.tokens = tokens as f32;
            let wait_s = (1.0 - tokens) / per_ms / 1000.0;
            Err(wait_s.ceil().max(1.0) as u64)
        }
    }

    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.shards.iter().map(|s| s.lock().unwrap().len()).sum()
    }
}

/// The map key of [`address_key`]: an IPv6 /64 is its 64 prefix bits; an IPv4 address sits
/// under ffff:ffff::/32, a multicast prefix no client sends from.
fn bucket_key(ip: IpAddr) -> u64 {
    match address_key(ip) {
        IpAddr::V4(v4) => 0xffff_ffff_0000_0000 | u64::from(u32::from(v4)),
        IpAddr::V6(v6) => (u128::from(v6) >> 64) as u64,
    }
}

/// How many calls one address may make (`--calls-burst`, `--calls-per-second`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallLimitConfig {
    /// Calls at once.
    pub burst: u32,
    /// Calls a second after the burst; 0 turns the limit off.
    pub per_second: u32,
}

impl Default for CallLimitConfig {
    /// A page load makes about ten calls and a busy reader a few a second, so an office
    /// or school behind one address fits many readers; a script at full speed does not.
    fn default() -> Self {
        CallLimitConfig {
            burst: 1200,
            per_second: 120,
        }
    }
}

impl CallLimitConfig {
    pub fn limit(&self) -> Option<RateLimit> {
        (self.per_second > 0 && self.burst > 0)
            .then(|| RateLimit::new(self.burst, Duration::from_secs_f64(1.0 / f64::from(self.per_second))))
    }
}

/// What a limit counts a client by: an IPv4 address itself (also when it comes
/// IPv4-mapped), an IPv6 address by its /64.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
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
    fn an_ipv6_network_is_one_client_by_its_64() {
        let limit = RateLimit::new(2, Duration::from_secs(60));
        let t = Instant::now();
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff:ffff:ffff:fffe".parse().unwrap();
        let next_net: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(limit.check(a, t), Ok(()));
        assert_eq!(limit.check(b, t), Ok(()));
        assert!(
            limit.check(a, t).is_err(),
            "another address of the same /64 shares its budget"
        );
        assert_eq!(limit.check(next_net, t), Ok(()), "the next /64 is another client");
        let mapped: IpAddr = "::ffff:192.0.2.9".parse().unwrap();
        assert_eq!(address_key(mapped), "192.0.2.9".parse::<IpAddr>().unwrap());
        assert_eq!(bucket_key(mapped), bucket_key("192.0.2.9".parse().unwrap()));
        assert_ne!(
            bucket_key("192.0.2.9".parse().unwrap()),
            bucket_key("2001:db8::c000:209".parse().unwrap())
        );
    }

    #[test]
    fn d357_a_bucket_is_16_bytes_in_the_map() {
        assert_eq!(std::mem::size_of::<(u64, Bucket)>(), 16);
    }

    #[test]
    fn addresses_from_a_whole_ipv6_block_keep_tracking_bounded() {
        let limit = RateLimit::new(30, Duration::from_secs(10));
        let t = Instant::now();
        for i in 0..(MAX_TRACKED as u32 + 5_000) {
            let ip = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, (i >> 16) as u16, i as u16, 0, 0, 0, 1));
            assert_eq!(limit.check(ip, t), Ok(()));
        }
        let tracked = limit.tracked();
        assert!(tracked <= MAX_TRACKED, "{tracked} tracked");
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
