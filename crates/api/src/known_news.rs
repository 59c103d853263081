//! Stories known to exist, for the reader's writes (D275).

use domain::ids::NewsId;

/// Stories found to exist, so that saving, reacting and reading the same stories again
/// does not ask the store each time (D275: half of a save's time was this check). Only
/// what was found is kept: a story stored a moment ago is looked up, never refused from
/// memory. A story removed later stays "known" until the set starts over, which only lets
/// a reader save it: their lists leave out stories that are gone.
#[derive(Default)]
pub struct KnownNews(std::sync::Mutex<std::collections::HashSet<NewsId>>);

/// Past this many stories the set starts over.
pub const KNOWN_NEWS_MAX: usize = 100_000;

impl KnownNews {
    pub fn contains(&self, id: NewsId) -> bool {
        self.0.lock().is_ok_and(|set| set.contains(&id))
    }

    pub fn insert(&self, id: NewsId) {
        if let Ok(mut set) = self.0.lock() {
            if set.len() >= KNOWN_NEWS_MAX {
                set.clear();
            }
            set.insert(id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_news_keeps_what_was_found_and_starts_over_when_full() {
        let known = KnownNews::default();
        assert!(!known.contains(NewsId(1)));
        known.insert(NewsId(1));
        assert!(known.contains(NewsId(1)));
        for i in 2..=KNOWN_NEWS_MAX as i64 {
            known.insert(NewsId(i));
        }
        assert!(known.contains(NewsId(1)), "full, not past it");
        known.insert(NewsId(0));
        assert!(!known.contains(NewsId(1)) && known.contains(NewsId(0)), "started over");
    }
}
