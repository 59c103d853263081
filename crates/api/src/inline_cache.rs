//! The data of the pages' inline calls, kept briefly (D143). Its own module so the app
//! state can own the cache without depending on the pages that fill it (D225).

use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The data of the pages' inline calls, kept like the API's read answers (D140, D143):
/// while the store's content generation is unchanged and for at most
/// [`read_cache::TTL_MS`](crate::read_cache::TTL_MS). Every home page view asks the
/// same few calls; without this each view queried the store several times.
#[derive(Default)]
pub struct InlineCache(Mutex<HashMap<String, Kept>>);

/// A kept value: the content generation and time it was made at.
type Kept = (u64, i64, Arc<Value>);

impl InlineCache {
    pub fn get(&self, key: &str, generation: u64, now: i64) -> Option<Arc<Value>> {
        let map = self.0.lock().ok()?;
        let (g, made, value) = map.get(key)?;
        crate::read_cache::is_fresh(*g, *made, generation, now).then(|| value.clone())
    }

    pub fn put(&self, key: String, generation: u64, now: i64, value: Arc<Value>) {
        let Ok(mut map) = self.0.lock() else { return };
        if map.len() >= crate::read_cache::MAX_ENTRIES {
            map.clear();
        }
        map.insert(key, (generation, now, value));
    }
}
