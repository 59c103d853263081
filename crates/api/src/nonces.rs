//! Memory of recently used request nonces, so a signed request cannot be replayed
//! within the timestamp window (decision D6). Entries older than the window are
//! forgotten: a replay that old is already refused for its stale timestamp.

use std::collections::HashMap;
use std::sync::Mutex;

const SHARDS: usize = 16;

/// (device id, nonce) → when it was first seen, in milliseconds.
type Seen = HashMap<(Box<str>, [u8; 10]), i64>;

pub struct NonceCache {
    window_ms: i64,
    shards: Vec<Mutex<Seen>>,
}

impl NonceCache {
    pub fn new(window_ms: i64) -> NonceCache {
        NonceCache {
            window_ms,
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    /// Record the nonce for the device; `false` when it was already used in the window.
    pub fn first_use(&self, device_id: &str, nonce: &str, now_ms: i64) -> bool {
        let Ok(nonce_bytes) = <[u8; 10]>::try_from(nonce.as_bytes()) else {
            return false;
        };
        let shard = &self.shards[shard_of(device_id, &nonce_bytes)];
        let mut map = match shard.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        let key = (Box::<str>::from(device_id), nonce_bytes);
        if let Some(&seen) = map.get(&key)
            && now_ms - seen <= 2 * self.window_ms
        {
            return false;
        }
        // Prune lazily, at most once per doubling, so the map stays bounded by the
        // number of requests in two windows.
        if map.len() >= 4096 && map.len().is_power_of_two() {
            let horizon = now_ms - 2 * self.window_ms;
            map.retain(|_, t| *t >= horizon);
        }
        map.insert(key, now_ms);
        true
    }
}

fn shard_of(device_id: &str, nonce: &[u8; 10]) -> usize {
    let mut h: usize = 0;
    for b in device_id.bytes().chain(nonce.iter().copied()) {
        h = h.wrapping_mul(31).wrapping_add(usize::from(b));
    }
    h % SHARDS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nonce_is_accepted_once_per_device() {
        let c = NonceCache::new(300_000);
        assert!(c.first_use("d1", "abcdefghij", 1_000));
        assert!(!c.first_use("d1", "abcdefghij", 2_000), "replay refused");
        assert!(
            c.first_use("d2", "abcdefghij", 2_000),
            "another device may use the same nonce"
        );
    }

    #[test]
    fn a_nonce_is_forgotten_after_two_windows() {
        let c = NonceCache::new(1_000);
        assert!(c.first_use("d1", "abcdefghij", 0));
        assert!(!c.first_use("d1", "abcdefghij", 2_000));
        assert!(c.first_use("d1", "abcdefghij", 2_001));
    }

    #[test]
    fn malformed_nonce_is_refused() {
        assert!(!NonceCache::new(1_000).first_use("d1", "short", 0));
    }
}
