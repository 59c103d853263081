//! When to fetch each feed next, and how many fetches may run at once (DESIGN "Ingestion",
//! decisions D80–D83).
//!
//! Everything but [`HostLimiter`] is pure: time comes in as UTC milliseconds and
//! randomness as a seed, so the pipeline calls [`plan_next`] once per fetch and stores
//! the [`NextState`] it returns, and tests can state every rule exactly.
//!
//! - The polling interval follows how often the feed publishes ([`next_interval`]): half
//!   the median gap between its recent items, within [`MIN_INTERVAL`]..[`MAX_INTERVAL`];
//!   [`DEFAULT_INTERVAL`] while there is nothing to go on.
//! - Failures back off exponentially ([`backoff`]) from [`BACKOFF_BASE`] up to
//!   [`BACKOFF_CAP`], never sooner than the server's Retry-After (itself capped).
//! - Every delay gets ±[`JITTER_PERCENT`]% of deterministic jitter ([`with_jitter`]) so
//!   feeds added together do not stay in lock-step.
//! - [`HostLimiter`] bounds fetches per host and overall.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::fetch::FetchError;

/// The shortest polling interval, however busy the feed: 5 minutes.
pub const MIN_INTERVAL: Duration = Duration::from_secs(5 * 60);
/// The longest polling interval, however quiet the feed: 6 hours.
pub const MAX_INTERVAL: Duration = Duration::from_secs(6 * 60 * 60);
/// The interval for a new feed, or one whose items carry no usable dates: 30 minutes.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(30 * 60);
/// Only items published this recently say anything about the feed's current pace: 30 days.
pub const RECENT_WINDOW: Duration = Duration::from_secs(30 * 24 * 60 * 60);
/// At most this many of the newest publish events are considered.
pub const RECENT_EVENTS: usize = 32;
/// Items published this close together are one publish event (a batch), not a gap.
pub const BATCH_GAP: Duration = Duration::from_secs(60);
/// A publish time at most this far in the future is clock skew and counts as "now"; one
/// further ahead is ignored (a scheduled or mis-dated item says nothing about the pace).
pub const FUTURE_SKEW: Duration = Duration::from_secs(60 * 60);
/// Jitter applied to every delay, in percent either way.
pub const JITTER_PERCENT: u64 = 10;
/// The first back-off after a failure: 5 minutes, doubling with each further failure.
pub const BACKOFF_BASE: Duration = Duration::from_secs(5 * 60);
/// The longest back-off, and the most of a Retry-After that is honoured: 24 hours.
pub const BACKOFF_CAP: Duration = Duration::from_secs(24 * 60 * 60);
/// Fetches in flight to one host at once.
pub const DEFAULT_PER_HOST: usize = 2;
/// Fetches in flight at once overall.
pub const DEFAULT_GLOBAL: usize = 16;

/// How long to wait before polling a feed again, given the publish times (UTC ms) of its
/// recent items, in any order.
///
/// Publish times are grouped into events (items within [`BATCH_GAP`] of each other are one
/// event), and only events in the last [`RECENT_WINDOW`] count, newest [`RECENT_EVENTS`]
/// first. The gaps between those events, plus the quiet time since the newest one, give a
/// median gap; the interval is half of it, so a new item waits on average a quarter of the
/// feed's usual gap, bounded to [`MIN_INTERVAL`]..=[`MAX_INTERVAL`].
///
/// - No publish times at all: [`DEFAULT_INTERVAL`].
/// - Publish times, but none in the window: the feed has gone quiet, [`MAX_INTERVAL`].
/// - One event in the window: no pace yet, so the default, or half the quiet time since
///   that event when longer (one data point can only slow polling down).
pub fn next_interval(recent_publish_times_ms: &[i64], now_ms: i64) -> Duration {
    if recent_publish_times_ms.is_empty() {
        return DEFAULT_INTERVAL;
    }
    let window_start = now_ms.saturating_sub(millis(RECENT_WINDOW));
    let future_limit = now_ms.saturating_add(millis(FUTURE_SKEW));
    let mut times: Vec<i64> = recent_publish_times_ms
        .iter()
        .copied()
        .filter(|&t| t >= window_start && t <= future_limit)
        .map(|t| t.min(now_ms))
        .collect();
    if times.is_empty() {
        return MAX_INTERVAL;
    }
    times.sort_unstable_by(|a, b| b.cmp(a));
    // Newest first; an item joins the current event when it is within BATCH_GAP of the
    // event's newest item (no chaining, so a feed posting every 50 s is still busy).
    let mut events: Vec<i64> = Vec::with_capacity(RECENT_EVENTS);
    for t in times {
        match events.last() {
            Some(&newest) if newest - t < millis(BATCH_GAP) => {}
            _ if events.len() == RECENT_EVENTS => break,
            _ => events.push(t),
        }
    }
    let quiet_ms = now_ms - events[0];
    if events.len() < 2 {
        let half_quiet = Duration::from_millis(u64::try_from(quiet_ms / 2).unwrap_or(0));
        return half_quiet.clamp(DEFAULT_INTERVAL, MAX_INTERVAL);
    }
    let mut gaps: Vec<i64> = events.windows(2).map(|pair| pair[0] - pair[1]).collect();
    gaps.push(quiet_ms);
    gaps.sort_unstable();
    // Lower median: with an even count the smaller middle gap, erring towards freshness.
    let median = gaps[(gaps.len() - 1) / 2];
    Duration::from_millis(u64::try_from(median / 2).unwrap_or(0)).clamp(MIN_INTERVAL, MAX_INTERVAL)
}

/// `d` scaled by a factor in [1 − 10%, 1 + 10%] drawn from `seed`: the same seed always
/// gives the same delay (see [`jitter_seed`]).
pub fn with_jitter(d: Duration, seed: u64) -> Duration {
    let span = 2 * JITTER_PERCENT * 100 + 1; // basis points over [-10.00%, +10.00%]
    let factor_bp = 10_000 - JITTER_PERCENT * 100 + splitmix64(seed) % span;
    let scaled = d.as_millis().saturating_mul(u128::from(factor_bp)) / 10_000;
    Duration::from_millis(u64::try_from(scaled).unwrap_or(u64::MAX))
}

/// A jitter seed from a feed's id and a per-feed counter (e.g. its number of fetches), so
/// each feed and each attempt draws differently but reproducibly.
pub fn jitter_seed(feed_id: i64, attempt: u64) -> u64 {
    splitmix64((feed_id as u64).rotate_left(32) ^ attempt)
}

/// The wait after `consecutive_errors` failures in a row: [`BACKOFF_BASE`] · 2^(n−1),
/// at most [`BACKOFF_CAP`], and never shorter than `retry_after` (which is itself honoured
/// only up to the cap, so a server cannot park a feed for a month). Zero errors and no
/// Retry-After mean no wait.
pub fn backoff(consecutive_errors: u32, retry_after: Option<Duration>) -> Duration {
    let exponential = match consecutive_errors {
        0 => Duration::ZERO,
        n => {
            // 5 min · 2^9 already passes the cap; 16 doublings keep the multiply in range.
            let doublings = (n - 1).min(16);
            BACKOFF_BASE.saturating_mul(1 << doublings).min(BACKOFF_CAP)
        }
    };
    exponential.max(retry_after.unwrap_or(Duration::ZERO).min(BACKOFF_CAP))
}

/// What the scheduler keeps about a feed between fetches (stored with the feed).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeedState {
    /// The polling interval last computed from the feed's pace; `None` for a new feed.
    pub interval: Option<Duration>,
    /// Failed fetches since the last success.
    pub consecutive_errors: u32,
}

/// What a fetch came to, as far as scheduling is concerned. Not to be confused with
/// [`crate::fetch::FetchOutcome`], which carries the body: the pipeline builds this one
/// after parsing (a body that does not parse is a `Failed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchOutcome {
    /// The feed was fetched and parsed.
    Ok {
        /// Items not stored before (informational: the pace comes from `publish_times`).
        new_items: usize,
        /// The HTTP status (2xx), or 200 for a file feed.
        status: u16,
        /// Publish times (UTC ms) of the feed's recent items, old and new; the store's
        /// newest items of the feed serve as well as the ones just parsed.
        publish_times: Vec<i64>,
    },
    /// 304: nothing changed since the validators were issued.
    NotModified,
    /// The fetch or the parse failed.
    Failed {
        status: Option<u16>,
        error: String,
        retry_after: Option<Duration>,
    },
}

impl From<&FetchError> for FetchOutcome {
    fn from(err: &FetchError) -> Self {
        let (status, retry_after) = match err {
            FetchError::HttpStatus {
                status, retry_after, ..
            } => (Some(*status), *retry_after),
            _ => (None, None),
        };
        FetchOutcome::Failed {
            status,
            error: err.to_string(),
            retry_after,
        }
    }
}

/// What to store for the feed after a fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextState {
    /// When the feed is due again (UTC ms).
    pub next_due_ms: i64,
    pub consecutive_errors: u32,
    /// The polling interval to keep (without jitter); unchanged by failures.
    pub interval: Duration,
}

impl NextState {
    /// The state to keep in [`FeedState`] for the next call to [`plan_next`].
    pub fn feed_state(&self) -> FeedState {
        FeedState {
            interval: Some(self.interval),
            consecutive_errors: self.consecutive_errors,
        }
    }
}

/// The one call the pipeline makes after each fetch.
///
/// - `Ok`: errors reset; the interval is recomputed from the publish times; due after the
///   jittered interval.
/// - `NotModified`: errors reset; the interval is kept (the default for a new feed).
/// - `Failed`: errors count up; the interval is kept for when the feed recovers; due after
///   the jittered [`backoff`], never before Retry-After (capped) and never after the cap.
///
/// Jitter never takes a delay outside its bounds: intervals stay within
/// [`MIN_INTERVAL`]..=[`MAX_INTERVAL`], back-offs within Retry-After..=[`BACKOFF_CAP`].
pub fn plan_next(feed_state: &FeedState, outcome: &FetchOutcome, now_ms: i64, seed: u64) -> NextState {
    let kept_interval = feed_state.interval.unwrap_or(DEFAULT_INTERVAL);
    let (interval, consecutive_errors, delay) = match outcome {
        FetchOutcome::Ok { publish_times, .. } => {
            let interval = next_interval(publish_times, now_ms);
            (interval, 0, jittered_interval(interval, seed))
        }
        FetchOutcome::NotModified => (kept_interval, 0, jittered_interval(kept_interval, seed)),
        FetchOutcome::Failed { retry_after, .. } => {
            let errors = feed_state.consecutive_errors.saturating_add(1);
            let floor = retry_after.unwrap_or(Duration::ZERO).min(BACKOFF_CAP);
            let delay = with_jitter(backoff(errors, None), seed).clamp(floor, BACKOFF_CAP);
            (kept_interval, errors, delay)
        }
    };
    NextState {
        next_due_ms: now_ms.saturating_add(millis(delay)),
        consecutive_errors,
        interval,
    }
}

fn jittered_interval(interval: Duration, seed: u64) -> Duration {
    with_jitter(interval, seed).clamp(MIN_INTERVAL, MAX_INTERVAL)
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// SplitMix64 (Steele, Lea, Flood 2014): a cheap, well-mixed hash of a u64.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Bounds fetches in flight: at most `per_host` to one host and `global` overall.
///
/// A fetch first waits for its host's slot and only then for a global one, so fetches
/// queued behind a slow host hold no global slot and cannot starve other hosts. Cheap to
/// share: wrap it in an `Arc`.
#[derive(Debug)]
pub struct HostLimiter {
    global: Arc<Semaphore>,
    per_host: usize,
    hosts: Mutex<HostTable>,
}

#[derive(Debug)]
struct HostTable {
    semaphores: HashMap<String, Arc<Semaphore>>,
    /// Idle hosts are dropped when the table reaches this size (then it doubles), so the
    /// table tracks the hosts in use, not every host ever fetched.
    prune_at: usize,
}

const PRUNE_FLOOR: usize = 256;

/// A fetch's right to run; dropping it frees both slots.
#[derive(Debug)]
pub struct HostPermit {
    _host: OwnedSemaphorePermit,
    _global: OwnedSemaphorePermit,
}

/// [`HostLimiter::acquire`] after [`HostLimiter::close`]: the pipeline is shutting down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the fetch limiter is closed (shutting down)")]
pub struct LimiterClosed;

impl Default for HostLimiter {
    fn default() -> Self {
        Self::new(DEFAULT_PER_HOST, DEFAULT_GLOBAL)
    }
}

impl HostLimiter {
    /// A limiter for `per_host` fetches per host and `global` overall (each at least 1).
    pub fn new(per_host: usize, global: usize) -> Self {
        Self {
            global: Arc::new(Semaphore::new(global.max(1))),
            per_host: per_host.max(1),
            hosts: Mutex::new(HostTable {
                semaphores: HashMap::new(),
                prune_at: PRUNE_FLOOR,
            }),
        }
    }

    /// Waits until a fetch to `host` may run (host names compare case-insensitively,
    /// ignoring a trailing dot). Fails only once [`close`](Self::close) was called.
    pub async fn acquire(&self, host: &str) -> Result<HostPermit, LimiterClosed> {
        let host_semaphore = self.host_semaphore(host);
        let host_permit = host_semaphore.acquire_owned().await.map_err(|_| LimiterClosed)?;
        let global_permit = Arc::clone(&self.global)
            .acquire_owned()
            .await
            .map_err(|_| LimiterClosed)?;
        Ok(HostPermit {
            _host: host_permit,
            _global: global_permit,
        })
    }

    /// Stops handing out permits: waiting and later `acquire` calls fail with
    /// [`LimiterClosed`]; permits already held stay valid until dropped.
    pub fn close(&self) {
        self.global.close();
        let table = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        for semaphore in table.semaphores.values() {
            semaphore.close();
        }
    }

    /// Fetches that could start right now without waiting for the global limit.
    pub fn available_global(&self) -> usize {
        self.global.available_permits()
    }

    fn host_semaphore(&self, host: &str) -> Arc<Semaphore> {
        let key = host.trim_end_matches('.').to_ascii_lowercase();
        // A poisoned lock only means another task panicked mid-insert; the table is
        // still a valid map.
        let mut table = self.hosts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if table.semaphores.len() >= table.prune_at {
            // Only the table holds an idle host's semaphore (permits and waiters hold clones).
            table.semaphores.retain(|_, s| Arc::strong_count(s) > 1);
            table.prune_at = (table.semaphores.len() * 2).max(PRUNE_FLOOR);
        }
        let per_host = self.per_host;
        Arc::clone(
            table
                .semaphores
                .entry(key)
                .or_insert_with(|| Arc::new(Semaphore::new(per_host))),
        )
    }

    #[cfg(test)]
    fn tracked_hosts(&self) -> usize {
        self.hosts.lock().map(|t| t.semaphores.len()).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const MIN: i64 = 60_000;
    const HOUR: i64 = 60 * MIN;
    const DAY: i64 = 24 * HOUR;
    const NOW: i64 = 1_795_000_000_000;

    /// `count` items `gap_ms` apart, the newest `age_ms` before NOW.
    fn every(gap_ms: i64, count: usize, age_ms: i64) -> Vec<i64> {
        (0..count as i64).map(|i| NOW - age_ms - i * gap_ms).collect()
    }

    fn ok(publish_times: Vec<i64>) -> FetchOutcome {
        FetchOutcome::Ok {
            new_items: publish_times.len(),
            status: 200,
            publish_times,
        }
    }

    fn failed(retry_after: Option<Duration>) -> FetchOutcome {
        FetchOutcome::Failed {
            status: Some(503),
            error: "HTTP 503".into(),
            retry_after,
        }
    }

    fn minutes(m: u64) -> Duration {
        Duration::from_secs(m * 60)
    }

    // ---- next_interval -------------------------------------------------------------

    #[test]
    fn new_feed_gets_the_default_interval() {
        assert_eq!(next_interval(&[], NOW), DEFAULT_INTERVAL);
        assert_eq!(
            plan_next(&FeedState::default(), &ok(vec![]), NOW, 1).interval,
            DEFAULT_INTERVAL
        );
    }

    #[test]
    fn interval_is_half_the_median_gap() {
        // Every 2 hours, newest just now: half of 2 h.
        assert_eq!(next_interval(&every(2 * HOUR, 10, 0), NOW), minutes(60));
        // Order does not matter.
        let mut shuffled = every(2 * HOUR, 10, 0);
        shuffled.reverse();
        shuffled.swap(0, 4);
        assert_eq!(next_interval(&shuffled, NOW), minutes(60));
    }

    #[test]
    fn median_ignores_one_odd_gap() {
        // Hourly with one overnight gap of 10 h: still half an hour.
        let mut times = every(HOUR, 8, 0);
        times.extend(every(HOUR, 8, 17 * HOUR));
        assert_eq!(next_interval(&times, NOW), minutes(30));
    }

    #[test]
    fn busy_feed_is_bounded_by_the_minimum() {
        assert_eq!(next_interval(&every(2 * MIN, 30, 0), NOW), MIN_INTERVAL);
    }

    #[test]
    fn slow_feed_is_bounded_by_the_maximum() {
        assert_eq!(next_interval(&every(2 * DAY, 10, HOUR), NOW), MAX_INTERVAL);
    }

    #[test]
    fn feed_quiet_for_longer_than_the_window_gets_the_maximum() {
        assert_eq!(next_interval(&every(HOUR, 20, 31 * DAY), NOW), MAX_INTERVAL);
    }

    #[test]
    fn quiet_time_since_the_newest_item_counts_as_a_gap() {
        // Three items an hour apart, then 10 h of silence: gaps 1 h, 1 h, 10 h → 30 min.
        assert_eq!(next_interval(&every(HOUR, 3, 10 * HOUR), NOW), minutes(30));
        // Two items an hour apart, then 10 h: gaps 1 h, 10 h → lower median 1 h → 30 min.
        assert_eq!(next_interval(&every(HOUR, 2, 10 * HOUR), NOW), minutes(30));
        // One item an hour ago, older ones 10 h apart: the short silence is outvoted, 5 h.
        assert_eq!(next_interval(&every(10 * HOUR, 5, HOUR), NOW), minutes(300));
    }

    #[test]
    fn items_published_together_are_one_event() {
        // Ten items stamped within a minute every 3 hours: gaps are 3 h, not zero.
        let mut times = Vec::new();
        for batch in 0..5 {
            for i in 0..10 {
                times.push(NOW - batch * 3 * HOUR - i * 1_000);
            }
        }
        assert_eq!(next_interval(&times, NOW), minutes(90));
        // A feed whose items all carry the same time is one event: the default.
        assert_eq!(next_interval(&[NOW - MIN; 40], NOW), DEFAULT_INTERVAL);
    }

    #[test]
    fn one_event_can_only_slow_polling_down() {
        assert_eq!(next_interval(&[NOW - 10 * MIN], NOW), DEFAULT_INTERVAL);
        assert_eq!(next_interval(&[NOW - 4 * HOUR], NOW), minutes(120));
        assert_eq!(next_interval(&[NOW - 5 * DAY], NOW), MAX_INTERVAL);
    }

    #[test]
    fn only_the_newest_events_count() {
        // 32 recent events 10 min apart, then 100 older ones 6 h apart: the old pace is ignored.
        let mut times = every(10 * MIN, RECENT_EVENTS, 0);
        times.extend(every(6 * HOUR, 100, RECENT_EVENTS as i64 * 10 * MIN));
        assert_eq!(next_interval(&times, NOW), MIN_INTERVAL);
    }

    #[test]
    fn future_publish_times_are_skew_or_ignored() {
        // Slightly ahead: counts as now. Far ahead: ignored.
        let mut times = every(2 * HOUR, 6, 2 * HOUR);
        times.push(NOW + 10 * MIN);
        assert_eq!(next_interval(&times, NOW), minutes(60));
        let mut times = every(2 * HOUR, 6, 0);
        times.push(NOW + 30 * DAY);
        times.push(i64::MAX);
        assert_eq!(next_interval(&times, NOW), minutes(60));
        assert_eq!(next_interval(&[i64::MIN, 0, i64::MAX], NOW), MAX_INTERVAL);
    }

    // ---- jitter --------------------------------------------------------------------

    #[test]
    fn jitter_stays_within_ten_percent() {
        let d = minutes(60);
        let (lo, hi) = (minutes(54), minutes(66));
        let mut seen_below = false;
        let mut seen_above = false;
        for seed in 0..10_000 {
            let j = with_jitter(d, seed);
            assert!(j >= lo && j <= hi, "seed {seed}: {j:?}");
            seen_below |= j < Duration::from_secs(55 * 60);
            seen_above |= j > Duration::from_secs(65 * 60);
        }
        assert!(seen_below && seen_above, "jitter should use the whole ±10% range");
    }

    #[test]
    fn jitter_is_deterministic_per_seed() {
        let d = minutes(30);
        assert_eq!(with_jitter(d, 42), with_jitter(d, 42));
        assert_eq!(jitter_seed(7, 3), jitter_seed(7, 3));
        let distinct: std::collections::HashSet<_> = (0..100).map(|a| with_jitter(d, jitter_seed(7, a))).collect();
        assert!(distinct.len() > 50, "attempts should spread: {}", distinct.len());
        assert_ne!(jitter_seed(1, 2), jitter_seed(2, 1));
    }

    #[test]
    fn jitter_of_zero_is_zero_and_huge_does_not_overflow() {
        assert_eq!(with_jitter(Duration::ZERO, 9), Duration::ZERO);
        let _ = with_jitter(Duration::MAX, 9);
    }

    // ---- backoff -------------------------------------------------------------------

    #[test]
    fn backoff_starts_at_the_base_and_doubles() {
        assert_eq!(backoff(0, None), Duration::ZERO);
        assert_eq!(backoff(1, None), minutes(5));
        assert_eq!(backoff(2, None), minutes(10));
        assert_eq!(backoff(3, None), minutes(20));
        assert_eq!(backoff(4, None), minutes(40));
        for n in 1..9 {
            assert_eq!(backoff(n + 1, None), backoff(n, None) * 2);
        }
    }

    #[test]
    fn backoff_is_capped_at_a_day() {
        // 5 min · 2^9 = 42.7 h > 24 h.
        assert_eq!(backoff(10, None), BACKOFF_CAP);
        assert_eq!(backoff(u32::MAX, None), BACKOFF_CAP);
    }

    #[test]
    fn retry_after_is_honoured_when_longer() {
        assert_eq!(backoff(1, Some(minutes(90))), minutes(90));
        assert_eq!(backoff(0, Some(minutes(2))), minutes(2));
        // Shorter than our own back-off: ours wins.
        assert_eq!(backoff(3, Some(minutes(1))), minutes(20));
    }

    #[test]
    fn retry_after_is_capped_too() {
        assert_eq!(backoff(1, Some(Duration::from_secs(30 * 86_400))), BACKOFF_CAP);
        assert_eq!(backoff(1, Some(Duration::MAX)), BACKOFF_CAP);
    }

    // ---- plan_next -----------------------------------------------------------------

    #[test]
    fn success_resets_errors_and_adapts_the_interval() {
        let state = FeedState {
            interval: Some(minutes(30)),
            consecutive_errors: 4,
        };
        let next = plan_next(&state, &ok(every(2 * HOUR, 10, 0)), NOW, 5);
        assert_eq!(next.consecutive_errors, 0);
        assert_eq!(next.interval, minutes(60));
        assert_eq!(next.next_due_ms, NOW + millis(with_jitter(minutes(60), 5)));
    }

    #[test]
    fn not_modified_keeps_the_interval() {
        let state = FeedState {
            interval: Some(minutes(45)),
            consecutive_errors: 2,
        };
        let next = plan_next(&state, &FetchOutcome::NotModified, NOW, 11);
        assert_eq!(next.interval, minutes(45));
        assert_eq!(next.consecutive_errors, 0);
        assert_eq!(next.next_due_ms, NOW + millis(with_jitter(minutes(45), 11)));
        // A new feed answering 304 keeps the default.
        let next = plan_next(&FeedState::default(), &FetchOutcome::NotModified, NOW, 11);
        assert_eq!(next.interval, DEFAULT_INTERVAL);
    }

    #[test]
    fn failures_count_up_back_off_and_keep_the_interval() {
        let mut state = FeedState {
            interval: Some(minutes(20)),
            consecutive_errors: 0,
        };
        for n in 1..=12u32 {
            let next = plan_next(&state, &failed(None), NOW, u64::from(n));
            assert_eq!(next.consecutive_errors, n);
            assert_eq!(next.interval, minutes(20));
            let delay = Duration::from_millis((next.next_due_ms - NOW) as u64);
            let expected = backoff(n, None);
            assert!(delay >= expected * 9 / 10 && delay <= (expected * 11 / 10).min(BACKOFF_CAP));
            state = next.feed_state();
        }
    }

    #[test]
    fn jitter_never_brings_a_retry_before_retry_after() {
        let state = FeedState::default();
        for seed in 0..1_000 {
            let next = plan_next(&state, &failed(Some(minutes(5))), NOW, seed);
            assert!(next.next_due_ms >= NOW + 5 * MIN, "seed {seed}");
        }
    }

    #[test]
    fn jitter_never_passes_the_bounds() {
        for seed in 0..1_000 {
            let busy = plan_next(&FeedState::default(), &ok(every(MIN, 30, 0)), NOW, seed);
            assert!(busy.next_due_ms >= NOW + millis(MIN_INTERVAL));
            let quiet = plan_next(&FeedState::default(), &ok(every(3 * DAY, 5, 0)), NOW, seed);
            assert!(quiet.next_due_ms <= NOW + millis(MAX_INTERVAL));
            let broken = FeedState {
                interval: None,
                consecutive_errors: 40,
            };
            let broken = plan_next(&broken, &failed(Some(Duration::MAX)), NOW, seed);
            assert_eq!(broken.next_due_ms, NOW + millis(BACKOFF_CAP));
        }
    }

    #[test]
    fn fetch_errors_convert_with_status_and_retry_after() {
        let err = FetchError::HttpStatus {
            url: "https://example.org/feed".into(),
            status: 429,
            retry_after: Some(minutes(7)),
        };
        match FetchOutcome::from(&err) {
            FetchOutcome::Failed {
                status,
                retry_after,
                error,
            } => {
                assert_eq!(status, Some(429));
                assert_eq!(retry_after, Some(minutes(7)));
                assert!(error.contains("429"), "{error}");
            }
            other => panic!("{other:?}"),
        }
        let err = FetchError::Timeout {
            url: "https://example.org/feed".into(),
            after: Duration::from_secs(30),
        };
        assert!(matches!(
            FetchOutcome::from(&err),
            FetchOutcome::Failed {
                status: None,
                retry_after: None,
                ..
            }
        ));
    }

    // ---- HostLimiter ---------------------------------------------------------------

    async fn within<T>(f: impl std::future::Future<Output = T>) -> Option<T> {
        tokio::time::timeout(Duration::from_secs(2), f).await.ok()
    }

    #[tokio::test]
    async fn slow_host_never_blocks_other_hosts() {
        let limiter = Arc::new(HostLimiter::new(2, 4));
        // Two slow fetches hold slow.example's slots; ten more queue behind them.
        let held = [
            limiter.acquire("slow.example").await.unwrap(),
            limiter.acquire("slow.example").await.unwrap(),
        ];
        let queued: Vec<_> = (0..10)
            .map(|_| {
                let limiter = Arc::clone(&limiter);
                tokio::spawn(async move { limiter.acquire("slow.example").await.map(drop) })
            })
            .collect();
        tokio::task::yield_now().await;
        // The queued ones hold no global slot, so the two left serve other hosts.
        assert_eq!(limiter.available_global(), 2);
        let a = within(limiter.acquire("a.example"))
            .await
            .expect("a.example waited")
            .unwrap();
        let b = within(limiter.acquire("b.example"))
            .await
            .expect("b.example waited")
            .unwrap();
        assert!(queued.iter().all(|t| !t.is_finished()));
        drop((a, b, held));
        for task in queued {
            within(task).await.expect("queued fetch never ran").unwrap().unwrap();
        }
    }

    #[tokio::test]
    async fn per_host_limit_is_respected() {
        let limiter = Arc::new(HostLimiter::new(2, 16));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..12)
            .map(|i| {
                let (limiter, in_flight, peak) = (Arc::clone(&limiter), Arc::clone(&in_flight), Arc::clone(&peak));
                // Host names compare case-insensitively and without a trailing dot.
                let host = ["news.example", "NEWS.example", "news.example."][i % 3];
                tokio::spawn(async move {
                    let _permit = limiter.acquire(host).await.unwrap();
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 2);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn global_limit_is_respected() {
        let limiter = Arc::new(HostLimiter::new(2, 5));
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let tasks: Vec<_> = (0..60)
            .map(|i| {
                let (limiter, in_flight, peak) = (Arc::clone(&limiter), Arc::clone(&in_flight), Arc::clone(&peak));
                tokio::spawn(async move {
                    let _permit = limiter.acquire(&format!("host{}.example", i % 20)).await.unwrap();
                    let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                    peak.fetch_max(now, Ordering::SeqCst);
                    tokio::time::sleep(Duration::from_millis(5)).await;
                    in_flight.fetch_sub(1, Ordering::SeqCst);
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(peak.load(Ordering::SeqCst), 5, "the limit is reached and never passed");
        assert_eq!(limiter.available_global(), 5);
    }

    #[tokio::test]
    async fn close_fails_waiters_but_not_held_permits() {
        let limiter = Arc::new(HostLimiter::new(1, 1));
        let held = limiter.acquire("a.example").await.unwrap();
        // One waits for the global slot, one for a.example's own slot.
        let waiters: Vec<_> = ["b.example", "a.example"]
            .into_iter()
            .map(|host| {
                let limiter = Arc::clone(&limiter);
                tokio::spawn(async move { limiter.acquire(host).await.map(drop) })
            })
            .collect();
        tokio::task::yield_now().await;
        limiter.close();
        for waiter in waiters {
            assert_eq!(within(waiter).await.expect("waiter hung").unwrap(), Err(LimiterClosed));
        }
        assert_eq!(limiter.acquire("c.example").await.map(drop), Err(LimiterClosed));
        drop(held);
    }

    #[tokio::test]
    async fn idle_hosts_are_forgotten() {
        let limiter = HostLimiter::new(2, 16);
        let busy = limiter.acquire("busy.example").await.unwrap();
        for i in 0..(PRUNE_FLOOR * 3) {
            drop(limiter.acquire(&format!("h{i}.example")).await.unwrap());
        }
        assert!(
            limiter.tracked_hosts() <= PRUNE_FLOOR * 2,
            "{}",
            limiter.tracked_hosts()
        );
        // The busy host survived pruning: its second slot is free, its third is not.
        let second = limiter.acquire("busy.example").await.unwrap();
        let third = tokio::time::timeout(Duration::from_millis(50), limiter.acquire("BUSY.example")).await;
        assert!(
            third.is_err(),
            "busy.example lost its count when idle hosts were pruned"
        );
        drop((busy, second));
    }
}
