//! When a background loop (ingestion, the push notifier) last finished a round, well or
//! badly: written by the loop, read by `/healthz` and `/metrics` (issue 30). Plain
//! atomics, so the loop never waits for a reader.

use std::sync::atomic::{AtomicI64, Ordering::Relaxed};

#[derive(Debug, Default)]
pub struct Heartbeat {
    /// Milliseconds since the epoch of the last round that worked; 0 before the first.
    last_ok_ms: AtomicI64,
    /// The same for the last round that failed.
    last_failed_ms: AtomicI64,
    /// Work the loop holds right now (feeds being fetched and processed).
    in_flight: AtomicI64,
    /// When the loop started; 0 before.
    started_ms: AtomicI64,
}

/// What a heartbeat says at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pulse {
    /// Seconds since the last round that worked; None before the first.
    pub ok_secs_ago: Option<i64>,
    /// Seconds since the loop started; None when it has not.
    pub started_secs_ago: Option<i64>,
    /// Whether the latest round failed.
    pub failing: bool,
    pub in_flight: i64,
}

impl Heartbeat {
    pub fn started(&self, now_ms: i64) {
        self.started_ms.store(now_ms, Relaxed);
    }

    pub fn round_ok(&self, now_ms: i64) {
        self.last_ok_ms.store(now_ms, Relaxed);
    }

    pub fn round_failed(&self, now_ms: i64) {
        self.last_failed_ms.store(now_ms, Relaxed);
    }

    pub fn set_in_flight(&self, n: i64) {
        self.in_flight.store(n, Relaxed);
    }

    pub fn pulse(&self, now_ms: i64) -> Pulse {
        let ok = self.last_ok_ms.load(Relaxed);
        let failed = self.last_failed_ms.load(Relaxed);
        let started = self.started_ms.load(Relaxed);
        Pulse {
            ok_secs_ago: (ok > 0).then(|| (now_ms - ok).max(0) / 1000),
            started_secs_ago: (started > 0).then(|| (now_ms - started).max(0) / 1000),
            failing: failed > ok,
            in_flight: self.in_flight.load(Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pulse_says_how_long_ago_the_last_good_round_was_and_whether_the_latest_failed() {
        let beat = Heartbeat::default();
        assert_eq!(beat.pulse(5_000).ok_secs_ago, None);
        assert_eq!(beat.pulse(5_000).started_secs_ago, None);
        beat.started(4_000);
        beat.round_ok(10_000);
        let pulse = beat.pulse(72_500);
        assert_eq!(
            (pulse.ok_secs_ago, pulse.started_secs_ago, pulse.failing),
            (Some(62), Some(68), false)
        );
        beat.round_failed(80_000);
        assert!(beat.pulse(80_000).failing);
        beat.round_ok(90_000);
        beat.set_in_flight(3);
        let pulse = beat.pulse(90_000);
        assert_eq!((pulse.ok_secs_ago, pulse.failing, pulse.in_flight), (Some(0), false, 3));
    }
}
