//! Searches' whole words already counted common (D435).
//!
//! A search first counts its whole words' matches up to [`WHOLE_WORD_ENOUGH`] to decide
//! whether the last word is read as a prefix (D411). The count opens the full-text index
//! as the search itself then does again: for a common word it was half of an uncached
//! search's index work. A word that matched that many stories goes on matching them (only
//! retention removes stories), so its count is remembered for a while; a rarer word is
//! counted every time, since news may make it common at any moment.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};
use store::Result;
use store::content::WHOLE_WORD_ENOUGH;

/// How long a count of "common" stands.
const KEPT: Duration = Duration::from_secs(600);
/// Queries remembered at most; past it the memo starts over.
const MAX_QUERIES: usize = 4_096;

#[derive(Default)]
pub(crate) struct CommonWords {
    /// The engine's query text of the whole words, and when they were counted common.
    known: Mutex<HashMap<String, Instant>>,
}

impl CommonWords {
    /// The whole words' matches counted up to [`WHOLE_WORD_ENOUGH`]: `count`'s answer, or
    /// [`WHOLE_WORD_ENOUGH`] without asking when `query` was counted common lately.
    pub(crate) async fn count(
        &self,
        query: &str,
        count: impl std::future::Future<Output = Result<i64>>,
    ) -> Result<i64> {
        let now = Instant::now();
        if self.memo().get(query).is_some_and(|at| now.duration_since(*at) < KEPT) {
            return Ok(WHOLE_WORD_ENOUGH);
        }
        let n = count.await?;
        if n >= WHOLE_WORD_ENOUGH {
            let mut known = self.memo();
            if known.len() >= MAX_QUERIES {
                known.clear();
            }
            known.insert(query.to_string(), now);
        }
        Ok(n)
    }

    fn memo(&self) -> std::sync::MutexGuard<'_, HashMap<String, Instant>> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[tokio::test]
    async fn d435_common_words_are_counted_once_rarer_ones_every_time() {
        let memo = CommonWords::default();
        let asked = AtomicUsize::new(0);
        let asked = &asked;
        // Counts when the count is asked for (awaited), not when it is made.
        let counted = |n: i64| async move {
            asked.fetch_add(1, Ordering::SeqCst);
            Ok(n)
        };
        assert_eq!(
            memo.count("council", counted(WHOLE_WORD_ENOUGH)).await.unwrap(),
            WHOLE_WORD_ENOUGH
        );
        assert_eq!(
            memo.count("council", counted(0)).await.unwrap(),
            WHOLE_WORD_ENOUGH,
            "remembered"
        );
        assert_eq!(asked.load(Ordering::SeqCst), 1);
        assert_eq!(memo.count("quokkas", counted(3)).await.unwrap(), 3);
        assert_eq!(
            memo.count("quokkas", counted(7)).await.unwrap(),
            7,
            "a rare word is counted again"
        );
        assert_eq!(asked.load(Ordering::SeqCst), 3);
        for i in 0..MAX_QUERIES + 5 {
            memo.count(&format!("w{i}"), counted(WHOLE_WORD_ENOUGH)).await.unwrap();
        }
        assert!(memo.memo().len() <= MAX_QUERIES, "bounded");
    }

    #[tokio::test]
    async fn d435_a_failed_count_is_not_remembered() {
        let memo = CommonWords::default();
        let failed = memo
            .count("council", async { Err(store::StoreError::Unavailable("down".into())) })
            .await;
        assert!(failed.is_err());
        assert_eq!(memo.count("council", async { Ok(2) }).await.unwrap(), 2);
    }
}
