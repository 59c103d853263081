//! One upstream answer per city, kept and served while it is renewed: the shape the forecast
//! (D281) and the official alerts (D286) share. A kept answer is fresh for `fresh_for`, then
//! served while one call renews it until `keep_for`; a failed call is not repeated for
//! `retry_after`; a reader waits at most `wait` for a city nothing is kept for. However many
//! readers ask, a city has at most one call to its upstream at a time.

use geo::CityId;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long answers stay fresh and kept, and how long readers and retries wait.
#[derive(Debug, Clone, Copy)]
pub struct Timing {
    /// An answer younger than this is served as is.
    pub fresh_for: Duration,
    /// An older answer, up to this age, is still served while one call renews it.
    pub keep_for: Duration,
    /// After a failed call, no new call for the same city before this.
    pub retry_after: Duration,
    /// The longest a reader waits for the upstream when nothing is kept.
    pub wait: Duration,
}

/// Both weather calls' shared waits: a failed call is not repeated for a minute, and a
/// reader waits at most 800 ms for an upstream when nothing is kept (D283). Each call
/// sets its own freshness.
impl Default for Timing {
    fn default() -> Self {
        Timing {
            fresh_for: Duration::from_secs(5 * 60),
            keep_for: Duration::from_secs(3600),
            retry_after: Duration::from_secs(60),
            wait: Duration::from_millis(800),
        }
    }
}

struct Entry<T> {
    /// The last answer and when it arrived.
    kept: Option<(Instant, Arc<T>)>,
    /// Set while one call to the upstream runs; true once it has ended.
    fetching: Option<watch::Receiver<bool>>,
    failed_at: Option<Instant>,
}

impl<T> Default for Entry<T> {
    fn default() -> Self {
        Entry {
            kept: None,
            fetching: None,
            failed_at: None,
        }
    }
}

/// The kept answers per city id.
pub struct KeptPerCity<T>(Arc<Mutex<HashMap<CityId, Entry<T>>>>);

impl<T> Clone for KeptPerCity<T> {
    fn clone(&self) -> Self {
        KeptPerCity(self.0.clone())
    }
}

impl<T> Default for KeptPerCity<T> {
    fn default() -> Self {
        KeptPerCity(Arc::default())
    }
}

impl<T: Send + Sync + 'static> KeptPerCity<T> {
    fn entries(&self) -> MutexGuard<'_, HashMap<CityId, Entry<T>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept answer for `city_id`, starting `call` when the answer is due for renewal;
    /// `None` when there is none to give within `timing.wait`. `call` gives `None` when the
    /// upstream failed (it logs why).
    pub async fn get<C, Fut>(&self, city_id: CityId, timing: Timing, call: C) -> Option<Arc<T>>
    where
        C: FnOnce() -> Fut,
        Fut: Future<Output = Option<T>> + Send + 'static,
    {
        let mut rx = {
            let mut entries = self.entries();
            let e = entries.entry(city_id).or_default();
            let now = Instant::now();
            let may_call = e.fetching.is_none() && e.failed_at.is_none_or(|t| now - t >= timing.retry_after);
            if may_call && e.kept.as_ref().is_none_or(|(at, _)| now - *at >= timing.fresh_for) {
                e.fetching = Some(self.spawn(city_id, call()));
            }
            if let Some((at, k)) = &e.kept
                && now - *at < timing.keep_for
            {
                return Some(k.clone());
            }
            e.fetching.clone()?
        };
        let _ = tokio::time::timeout(timing.wait, rx.wait_for(|done| *done)).await;
        self.entries()
            .get(&city_id)
            .and_then(|e| e.kept.clone())
            .filter(|(at, _)| at.elapsed() < timing.keep_for)
            .map(|(_, k)| k)
    }

    /// Runs the one call for `city_id`; the receiver turns true when it has ended.
    fn spawn(&self, city_id: CityId, call: impl Future<Output = Option<T>> + Send + 'static) -> watch::Receiver<bool> {
        let (tx, rx) = watch::channel(false);
        let this = self.clone();
        tokio::spawn(async move {
            let answer = call.await;
            {
                let mut entries = this.entries();
                let e = entries.entry(city_id).or_default();
                match answer {
                    Some(k) => {
                        e.kept = Some((Instant::now(), Arc::new(k)));
                        e.failed_at = None;
                    }
                    None => e.failed_at = Some(Instant::now()),
                }
                e.fetching = None;
            }
            let _ = tx.send(true);
        });
        rx
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const TIMING: Timing = Timing {
        fresh_for: Duration::from_millis(200),
        keep_for: Duration::from_secs(5),
        retry_after: Duration::from_millis(300),
        wait: Duration::from_millis(100),
    };

    #[tokio::test]
    async fn d281_one_call_for_many_readers_then_served_while_renewed() {
        let kept = KeptPerCity::<u32>::default();
        let calls = Arc::new(AtomicUsize::new(0));
        let ask = |kept: KeptPerCity<u32>, calls: Arc<AtomicUsize>| async move {
            kept.get(CityId(1), TIMING, || async move {
                Some(calls.fetch_add(1, Ordering::SeqCst) as u32)
            })
            .await
        };
        let answers = futures_util::future::join_all((0..20).map(|_| ask(kept.clone(), calls.clone()))).await;
        assert!(answers.iter().all(|a| a.as_deref() == Some(&0)));
        assert_eq!(calls.load(Ordering::SeqCst), 1, "one call however many readers ask");
        tokio::time::sleep(TIMING.fresh_for).await;
        // Stale: the kept answer at once, and one renewal behind it.
        assert_eq!(ask(kept.clone(), calls.clone()).await.as_deref(), Some(&0));
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(ask(kept.clone(), calls.clone()).await.as_deref(), Some(&1));
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn d281_a_hung_upstream_gives_none_within_wait_and_a_failure_is_not_repeated_at_once() {
        let kept = KeptPerCity::<u32>::default();
        let asked = Instant::now();
        let hung = kept
            .get(CityId(2), TIMING, || async {
                tokio::time::sleep(Duration::from_secs(30)).await;
                Some(1)
            })
            .await;
        assert!(hung.is_none());
        assert!(asked.elapsed() < Duration::from_millis(500));

        let calls = Arc::new(AtomicUsize::new(0));
        for _ in 0..3 {
            let c = calls.clone();
            let failed = kept
                .get(CityId(3), TIMING, || async move {
                    c.fetch_add(1, Ordering::SeqCst);
                    None
                })
                .await;
            assert!(failed.is_none());
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1, "a failed call waits retry_after");
    }
}
