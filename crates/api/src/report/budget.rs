//! What reports may store (issue 29): a daily byte budget per address (D366) and a cap on
//! everything stored (D367). Bytes are counted as the store counts them
//! (`ReportCall::stored_bytes`: the text kept plus a fixed cost per row).
//!
//! Both counts are in memory, per process: several servers on one database each give an
//! address its own daily budget, and each adds only its own calls to the total it last
//! measured from the store (at most a minute old), so the cap may be passed by what the
//! other servers store in that minute.

use crate::rate_limit::address_key;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use store::reports::DAY_MS;

/// Past this many addresses, those of earlier days are dropped before adding one; if
/// today's alone fill it, the count starts over (the total cap still holds).
const MAX_TRACKED: usize = 100_000;

/// How old the measured total may be before a call measures it again.
pub const MEASURE_EVERY_MS: i64 = 60_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// This address's bytes for today are used up; seconds until midnight UTC.
    AddressDay { retry_after_secs: u64 },
    /// The store holds its cap.
    Full,
}

#[derive(Default)]
struct Total {
    /// What the store said, and when; `None` before the first measure.
    measured: Option<(i64, i64)>,
    /// Bytes this process stored since.
    added: i64,
    /// When a full store was last logged.
    warned_at_ms: i64,
}

pub struct ReportBudget {
    per_address_per_day: u64,
    max_total: u64,
    addresses: Mutex<HashMap<IpAddr, (i64, u64)>>,
    total: Mutex<Total>,
    measuring: AtomicBool,
}

impl ReportBudget {
    /// `0` turns a cap off.
    pub fn new(per_address_per_day: u64, max_total: u64) -> ReportBudget {
        ReportBudget {
            per_address_per_day,
            max_total,
            addresses: Mutex::default(),
            total: Mutex::default(),
            measuring: AtomicBool::new(false),
        }
    }

    pub fn per_address_per_day(&self) -> u64 {
        self.per_address_per_day
    }

    pub fn max_total(&self) -> u64 {
        self.max_total
    }

    /// Whether the caller should measure the store's total now (and then call
    /// [`ReportBudget::measured`]): it is unknown or older than [`MEASURE_EVERY_MS`], and
    /// no other call is measuring it.
    pub fn should_measure(&self, now_ms: i64) -> bool {
        if self.max_total == 0 {
            return false;
        }
        let stale = match self.lock_total().measured {
            None => true,
            Some((_, at)) => now_ms - at >= MEASURE_EVERY_MS,
        };
        stale
            && self
                .measuring
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
    }

    /// The store's total as measured at `now_ms` (`None`: measuring failed; try later).
    pub fn measured(&self, bytes: Option<i64>, now_ms: i64) {
        if let Some(bytes) = bytes {
            let mut total = self.lock_total();
            total.measured = Some((bytes, now_ms));
            total.added = 0;
        }
        self.measuring.store(false, Ordering::Release);
    }

    /// Count a call of `bytes` from `ip` received at `now_ms`, or say why it may not be
    /// stored. Nothing is counted when it is refused.
    pub fn take(&self, ip: Option<IpAddr>, bytes: u64, now_ms: i64) -> Result<(), Refusal> {
        let mut total = self.lock_total();
        let stored = total.measured.map_or(0, |(b, _)| b) + total.added;
        if self.max_total > 0 && stored.max(0) as u64 + bytes > self.max_total {
            if now_ms - total.warned_at_ms >= MEASURE_EVERY_MS {
                total.warned_at_ms = now_ms;
                tracing::warn!(
                    stored,
                    cap = self.max_total,
                    "the report store is at its cap (--report-max-bytes); new reports are refused"
                );
            }
            return Err(Refusal::Full);
        }
        if self.per_address_per_day > 0
            && let Some(ip) = ip
        {
            let day = now_ms.div_euclid(DAY_MS);
            let mut addresses = self.addresses.lock().unwrap_or_else(|p| p.into_inner());
            let key = address_key(ip);
            if addresses.len() >= MAX_TRACKED && !addresses.contains_key(&key) {
                addresses.retain(|_, (d, _)| *d == day);
                if addresses.len() >= MAX_TRACKED {
                    addresses.clear();
                }
            }
            let used = addresses.entry(key).or_insert((day, 0));
            if used.0 != day {
                *used = (day, 0);
            }
            if used.1 + bytes > self.per_address_per_day {
                let left_ms = DAY_MS - now_ms.rem_euclid(DAY_MS);
                return Err(Refusal::AddressDay {
                    retry_after_secs: (left_ms as u64).div_ceil(1000).max(1),
                });
            }
            used.1 += bytes;
        }
        total.added += bytes as i64;
        Ok(())
    }

    fn lock_total(&self) -> std::sync::MutexGuard<'_, Total> {
        self.total.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2025-10-09T08:53:20Z.
    const NOW: i64 = 1_760_000_000_000;

    fn ip(s: &str) -> Option<IpAddr> {
        Some(s.parse().unwrap())
    }

    #[test]
    fn d366_an_address_has_a_daily_budget_that_starts_over_at_midnight_utc() {
        let budget = ReportBudget::new(1000, 0);
        assert_eq!(budget.take(ip("192.0.2.1"), 600, NOW), Ok(()));
        let midnight = NOW - NOW.rem_euclid(DAY_MS) + DAY_MS;
        assert_eq!(
            budget.take(ip("192.0.2.1"), 600, NOW),
            Err(Refusal::AddressDay {
                retry_after_secs: ((midnight - NOW) as u64).div_ceil(1000)
            })
        );
        assert_eq!(
            budget.take(ip("192.0.2.1"), 400, NOW),
            Ok(()),
            "what is left may be used"
        );
        assert_eq!(budget.take(ip("192.0.2.2"), 600, NOW), Ok(()), "another address");
        assert_eq!(budget.take(ip("192.0.2.1"), 600, midnight), Ok(()), "a new day");
        assert_eq!(
            budget.take(None, 5000, NOW),
            Ok(()),
            "no address known: only the total counts"
        );
    }

    #[test]
    fn d366_an_ipv6_network_shares_one_budget_by_its_64() {
        let budget = ReportBudget::new(1000, 0);
        assert_eq!(budget.take(ip("2001:db8:1:2::1"), 600, NOW), Ok(()));
        assert!(budget.take(ip("2001:db8:1:2:ffff::9"), 600, NOW).is_err());
        assert_eq!(budget.take(ip("2001:db8:1:3::1"), 600, NOW), Ok(()));
    }

    #[test]
    fn d367_the_total_is_the_measure_plus_what_was_stored_since() {
        let budget = ReportBudget::new(0, 1000);
        assert!(budget.should_measure(NOW));
        assert!(!budget.should_measure(NOW), "one call measures at a time");
        budget.measured(Some(700), NOW);
        assert!(!budget.should_measure(NOW + 1));
        assert_eq!(budget.take(ip("192.0.2.1"), 200, NOW), Ok(()));
        assert_eq!(budget.take(ip("192.0.2.2"), 200, NOW), Err(Refusal::Full));
        assert!(budget.should_measure(NOW + MEASURE_EVERY_MS));
        budget.measured(Some(100), NOW + MEASURE_EVERY_MS);
        assert_eq!(
            budget.take(ip("192.0.2.2"), 200, NOW + MEASURE_EVERY_MS),
            Ok(()),
            "retention freed room"
        );
        let off = ReportBudget::new(0, 0);
        assert!(!off.should_measure(NOW));
        assert_eq!(off.take(ip("192.0.2.1"), u64::MAX / 2, NOW), Ok(()));
    }
}
