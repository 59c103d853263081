//! Memory of recently used request nonces, so a signed request cannot be replayed
//! within the timestamp window (decision D6).
//!
//! Each entry is a keyed 64-bit hash of (device id, nonce) and the time it was seen:
//! 16 bytes, whatever the client sends. Entries older than two windows are forgotten
//! (a replay that old is refused for its timestamp anyway), and a hard cap bounds the
//! memory under any load: past it, the oldest entries go first (logged), which only
//! narrows the replay memory, never the timestamp check.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher, RandomState};
use std::sync::Mutex;

const SHARDS: usize = 16;
/// At most about 9 MB across all shards (hash-map capacity is a power of two, plus a
/// control byte per slot). A sustained flood beyond it shortens how long nonces are
/// remembered to the last few seconds; the timestamp window still applies (D6).
const MAX_ENTRIES: usize = 1 << 18;

pub struct NonceCache {
    window_ms: i64,
    keys: RandomState,
    shards: Vec<Mutex<HashMap<u64, i64>>>,
}

impl NonceCache {
    pub fn new(window_ms: i64) -> NonceCache {
        NonceCache {
            window_ms,
            keys: RandomState::new(),
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    /// Record the nonce for the device; `false` when it was already used in the window.
    pub fn first_use(&self, device_id: &str, nonce: &str, now_ms: i64) -> bool {
        if nonce.len() != domain::constants::REQUEST_NONCE_LEN {
            return false;
        }
        let mut h = self.keys.build_hasher();
        h.write(device_id.as_bytes());
        h.write_u8(0xff);
        h.write(nonce.as_bytes());
        let key = h.finish();
        let shard = &self.shards[(key as usize) % SHARDS];
        let mut map = match shard.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(&seen) = map.get(&key)
            && now_ms - seen <= 2 * self.window_ms
        {
            return false;
        }
        if map.len() >= MAX_ENTRIES / SHARDS {
            self.prune(&mut map, now_ms);
        }
        map.insert(key, now_ms);
        true
    }

    fn prune(&self, map: &mut HashMap<u64, i64>, now_ms: i64) {
        let mut horizon = now_ms - 2 * self.window_ms;
        map.retain(|_, t| *t >= horizon);
        let target = MAX_ENTRIES / SHARDS * 3 / 4;
        while map.len() > target {
            // Still full of live entries: keep only the newest part.
            horizon += (now_ms - horizon).max(2) / 2;
            map.retain(|_, t| *t >= horizon);
            tracing::warn!(
                kept_ms = now_ms - horizon,
                "nonce memory is full; keeping only the most recent nonces"
            );
        }
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.shards.iter().map(|s| s.lock().map(|m| m.len()).unwrap_or(0)).sum()
    }
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
        assert!(
            c.first_use("d1a", "bcdefghij0", 2_000),
            "device and nonce do not run together"
        );
        assert!(c.first_use("d1", "abcdefghik", 2_000));
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

    #[test]
    fn memory_stays_bounded_under_a_flood() {
        let c = NonceCache::new(300_000);
        for i in 0..(MAX_ENTRIES + MAX_ENTRIES / 2) {
            assert!(c.first_use("flood", &format!("{i:010}"), i as i64 / 1000));
        }
        assert!(c.len() <= MAX_ENTRIES, "{} entries", c.len());
        // The most recent nonces are still remembered.
        let last = MAX_ENTRIES + MAX_ENTRIES / 2 - 1;
        assert!(!c.first_use("flood", &format!("{last:010}"), last as i64 / 1000));
    }
}
