//! Recent images in memory, bounded by bytes, least recently used out first (D383).
//! Failures are kept too, for a minute, so a broken image on a busy page costs its
//! publisher one request a minute, not one per reader.

use axum::body::Bytes;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

/// Most entries kept, whatever their size (failures are small).
const MAX_ENTRIES: usize = 10_000;

/// What one address gave.
#[derive(Debug)]
pub enum Kept {
    Image(Image),
    /// The error's status and the sentence a reader (or operator) sees.
    Failed {
        status: u16,
        message: String,
    },
}

#[derive(Debug)]
pub struct Image {
    pub body: Bytes,
    /// `image/…`, parameters dropped.
    pub content_type: String,
    /// A strong validator: the same bytes give the same tag on every node.
    pub etag: String,
}

impl Kept {
    fn size(&self) -> usize {
        match self {
            Kept::Image(i) => i.body.len() + i.content_type.len() + i.etag.len() + 64,
            Kept::Failed { message, .. } => message.len() + 64,
        }
    }
}

struct Slot {
    kept: Arc<Kept>,
    until: Instant,
    used: u64,
}

#[derive(Default)]
struct Inner {
    slots: HashMap<String, Slot>,
    bytes: usize,
    tick: u64,
}

pub struct ImageCache {
    max_bytes: usize,
    inner: Mutex<Inner>,
}

impl ImageCache {
    pub fn new(max_bytes: usize) -> ImageCache {
        ImageCache {
            max_bytes,
            inner: Mutex::default(),
        }
    }

    pub fn get(&self, url: &str, now: Instant) -> Option<Arc<Kept>> {
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        inner.tick += 1;
        let tick = inner.tick;
        let slot = inner.slots.get_mut(url)?;
        if slot.until <= now {
            let size = slot.kept.size() + url.len();
            inner.slots.remove(url);
            inner.bytes -= size;
            return None;
        }
        slot.used = tick;
        Some(slot.kept.clone())
    }

    /// Keeps `kept` until `until`, dropping the least recently used entries to make room.
    /// Something larger than the whole cache is not kept.
    pub fn put(&self, url: &str, kept: Arc<Kept>, until: Instant) {
        let size = kept.size() + url.len();
        if size > self.max_bytes {
            return;
        }
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(old) = inner.slots.remove(url) {
            inner.bytes -= old.kept.size() + url.len();
        }
        while inner.bytes + size > self.max_bytes || inner.slots.len() >= MAX_ENTRIES {
            let Some(oldest) = inner
                .slots
                .iter()
                .min_by_key(|(_, slot)| slot.used)
                .map(|(url, _)| url.clone())
            else {
                break;
            };
            if let Some(slot) = inner.slots.remove(&oldest) {
                inner.bytes -= slot.kept.size() + oldest.len();
            }
        }
        inner.tick += 1;
        let used = inner.tick;
        inner.bytes += size;
        inner.slots.insert(url.to_string(), Slot { kept, until, used });
    }

    /// Bytes held (for tests and metrics).
    pub fn bytes(&self) -> usize {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner).bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn image(len: usize) -> Arc<Kept> {
        Arc::new(Kept::Image(Image {
            body: Bytes::from(vec![0u8; len]),
            content_type: "image/png".into(),
            etag: "\"e\"".into(),
        }))
    }

    #[test]
    fn d383_the_cache_keeps_its_byte_bound_dropping_the_least_recently_used() {
        let cache = ImageCache::new(1000);
        let now = Instant::now();
        let later = now + Duration::from_secs(60);
        cache.put("a", image(300), later);
        cache.put("b", image(300), later);
        assert!(cache.get("a", now).is_some(), "a is now the most recent");
        cache.put("c", image(300), later);
        assert!(cache.get("b", now).is_none(), "b was least recently used");
        assert!(cache.get("a", now).is_some() && cache.get("c", now).is_some());
        assert!(cache.bytes() <= 1000);
        cache.put("huge", image(5000), later);
        assert!(cache.get("huge", now).is_none(), "larger than the cache: not kept");
        assert!(cache.get("a", later).is_none(), "expired");
        assert!(cache.bytes() <= 1000);
    }
}
