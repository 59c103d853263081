//! Live sessions as last read, in memory: a signed-in reader's every call looks its session
//! up, and through sqlx each lookup is a round trip to a reader thread (user/info ran at
//! half the rate of guest init, p99 7.4 ms; D251). SQLite has one process per database
//! file, so every write that could change an answer goes through this store and empties
//! the cache (a generation bump, O(1)): ending sessions, signing in, deleting, location and
//! last-seen updates. New sessions need nothing: they are not in it yet.

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use store::SessionUser;

/// Past this many entries the cache starts over (a burst of one-off guests).
const MAX_ENTRIES: usize = 50_000;

#[derive(Default)]
pub struct SessionCache {
    generation: AtomicU64,
    entries: Mutex<Entries>,
}

/// What was read during one generation. An entry of an older generation can never be
/// given out again, so the table holds only the current one's: a write starts it over,
/// and a long run of writes and one-off guests cannot fill it with dead entries (the
/// soak's RSS grew 33 MB in 8 minutes while it did: issue 30).
#[derive(Default)]
struct Entries {
    generation: u64,
    by_id: HashMap<i64, Entry>,
}

struct Entry {
    verifier_hash: String,
    session: SessionUser,
}

impl SessionCache {
    pub fn get(&self, id: i64, verifier_hash: &str) -> Option<SessionUser> {
        let generation = self.generation.load(Ordering::Acquire);
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.generation != generation {
            return None;
        }
        entries
            .by_id
            .get(&id)
            .filter(|e| e.verifier_hash == verifier_hash)
            .map(|e| e.session.clone())
    }

    /// Keep what was read, unless a write happened since `generation` (read before the
    /// lookup started).
    pub fn put(&self, generation: u64, id: i64, verifier_hash: &str, session: &SessionUser) {
        if generation != self.generation.load(Ordering::Acquire) {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if entries.generation != generation || entries.by_id.len() >= MAX_ENTRIES {
            // A new table, not `clear()`: a cleared one keeps its largest size for ever.
            *entries = Entries {
                generation,
                by_id: HashMap::new(),
            };
        }
        entries.by_id.insert(
            id,
            Entry {
                verifier_hash: verifier_hash.to_string(),
                session: session.clone(),
            },
        );
    }

    /// Entries held now (tests).
    #[cfg(test)]
    fn held(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).by_id.len()
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Forget everything once the write about to happen is over (when the guard drops,
    /// after its commit, whether it succeeded or not): a lookup that read the old row and
    /// puts it afterwards carries the old generation and is refused.
    pub fn forget_after(&self) -> ForgetOnDrop<'_> {
        ForgetOnDrop(self)
    }
}

pub struct ForgetOnDrop<'a>(&'a SessionCache);

impl Drop for ForgetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.generation.fetch_add(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::contract::guest;

    fn session() -> SessionUser {
        let g = guest("en");
        SessionUser {
            user: domain::user::UserServer {
                id: 1,
                name: String::new(),
                photo: String::new(),
                email: String::new(),
                is_new_user: 0,
                account_type: Some(0),
                join_time: 0,
                last_time: 0,
                app_lang: g.app_lang,
                postal_code: g.postal_code,
                country: g.country,
                admin_code: g.admin_code,
                city: g.city,
                city_show: g.city_show,
                city_id: g.city_id,
                lat: g.lat,
                lon: g.lon,
                user_type: 0,
            },
            device_id: "d".into(),
            expires_at_ms: 10,
        }
    }

    #[test]
    fn a_write_forgets_what_was_read_before_it() {
        let cache = SessionCache::default();
        let g = cache.generation();
        cache.put(g, 7, "h", &session());
        assert!(cache.get(7, "h").is_some());
        assert!(cache.get(7, "other").is_none(), "the verifier must match");
        drop(cache.forget_after());
        assert!(cache.get(7, "h").is_none(), "forgotten after a write");
        // Read before the write, put after it: refused.
        let before = cache.generation();
        drop(cache.forget_after());
        cache.put(before, 7, "h", &session());
        assert!(cache.get(7, "h").is_none());
    }

    #[test]
    fn d406_a_write_lets_go_of_the_entries_read_before_it() {
        let cache = SessionCache::default();
        for id in 0..100 {
            cache.put(cache.generation(), id, "h", &session());
        }
        assert_eq!(cache.held(), 100);
        drop(cache.forget_after());
        cache.put(cache.generation(), 500, "h", &session());
        assert_eq!(cache.held(), 1, "only the current generation's entries are held");
        assert!(cache.get(500, "h").is_some());
        for id in 0..(MAX_ENTRIES as i64 + 10) {
            cache.put(cache.generation(), id, "h", &session());
        }
        assert!(cache.held() <= MAX_ENTRIES, "{} held", cache.held());
    }
}
