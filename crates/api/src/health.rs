//! `/healthz` and the health part of `/metrics` (issue 30, D397): whether the database
//! answers, how far behind ingestion is across every server sharing the database, and
//! whether this process's background loops (ingestion, the push notifier) still finish
//! their rounds.
//!
//! The answer is 503 only when the database does not answer: that is the one fault a
//! load balancer should route around. A lagging or stalled loop makes it "degraded" with
//! 200: the node still serves readers, and an operator's alert reads the field.

use domain::heartbeat::{Heartbeat, Pulse};
use serde::Serialize;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};
use store::Store;
use store::content::FeedHealth;

/// Ingestion is "lagging" when a feed has been due this long without a fetch.
pub const LAG_DEGRADED_SECS: i64 = 15 * 60;
/// A loop is "stalled" when its last good round is older than this (or than three of its
/// intervals, for a slower one).
pub const STALLED_AFTER_SECS: i64 = 10 * 60;
/// The database check gives up after this long and counts as down.
const DATABASE_TIMEOUT: Duration = Duration::from_secs(3);

/// The background loops this process runs, set once at start (`localwire serve`); a
/// loop never set is "off" (tests, or the notifier switched off).
#[derive(Default)]
pub struct Loops {
    pub ingestion: OnceLock<Arc<Heartbeat>>,
    pub notifier: OnceLock<(Arc<Heartbeat>, Duration)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Ok,
    Degraded,
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LoopStatus {
    /// Not run by this process.
    Off,
    /// Running, no round finished yet.
    Starting,
    Ok,
    /// The latest round failed (the next one tries again).
    Failing,
    /// No good round for longer than it should take.
    Stalled,
    /// Ingestion only: feeds are overdue across the servers.
    Lagging,
}

#[derive(Debug, Serialize)]
pub struct Health {
    pub status: Status,
    /// The engine's name (`sqlite`, `postgres`), as before issue 30.
    pub database: &'static str,
    pub checks: Checks,
}

#[derive(Debug, Serialize)]
pub struct Checks {
    pub database: DatabaseCheck,
    pub ingestion: IngestionCheck,
    pub notifier: LoopCheck,
}

#[derive(Debug, Serialize)]
pub struct DatabaseCheck {
    pub status: Status,
    pub millis: u64,
}

#[derive(Debug, Serialize)]
pub struct IngestionCheck {
    pub status: LoopStatus,
    pub feeds: i64,
    pub failing_feeds: i64,
    /// How long the most overdue feed has waited (0: none is overdue).
    pub lag_seconds: i64,
    /// This process's loop: seconds since its last good round.
    pub last_round_seconds_ago: Option<i64>,
    pub in_flight: i64,
}

#[derive(Debug, Serialize)]
pub struct LoopCheck {
    pub status: LoopStatus,
    pub last_round_seconds_ago: Option<i64>,
}

fn loop_status(pulse: Pulse, stalled_after_secs: i64) -> LoopStatus {
    match pulse.ok_secs_ago {
        Some(ago) if ago > stalled_after_secs => LoopStatus::Stalled,
        _ if pulse.failing => LoopStatus::Failing,
        Some(_) => LoopStatus::Ok,
        // A first round that never ends is stalled too, not starting for ever.
        None if pulse.started_secs_ago.is_some_and(|s| s > stalled_after_secs) => LoopStatus::Stalled,
        None => LoopStatus::Starting,
    }
}

/// Everything `/healthz` says, at `now_ms`.
pub async fn check(store: &dyn Store, loops: &Loops, now_ms: i64) -> Health {
    let started = Instant::now();
    let database_up = matches!(tokio::time::timeout(DATABASE_TIMEOUT, store.health()).await, Ok(Ok(())));
    let millis = started.elapsed().as_millis() as u64;
    let feeds = if database_up {
        match tokio::time::timeout(DATABASE_TIMEOUT, store.feed_health()).await {
            Ok(Ok(f)) => Some(f),
            _ => None,
        }
    } else {
        None
    };
    let mut ingestion = ingestion_check(feeds, loops.ingestion.get().map(|b| b.pulse(now_ms)), now_ms);
    if database_up && feeds.is_none() && ingestion.status != LoopStatus::Off {
        // The feeds could not be read: the lag is unknown, which is no "ok".
        ingestion.status = LoopStatus::Failing;
    }
    let notifier = match loops.notifier.get() {
        None => LoopCheck {
            status: LoopStatus::Off,
            last_round_seconds_ago: None,
        },
        Some((beat, interval)) => {
            let pulse = beat.pulse(now_ms);
            let stalled_after = STALLED_AFTER_SECS.max(3 * interval.as_secs() as i64);
            LoopCheck {
                status: loop_status(pulse, stalled_after),
                last_round_seconds_ago: pulse.ok_secs_ago,
            }
        }
    };
    let status = if !database_up {
        Status::Error
    } else if [ingestion.status, notifier.status]
        .iter()
        .any(|s| matches!(s, LoopStatus::Failing | LoopStatus::Stalled | LoopStatus::Lagging))
    {
        Status::Degraded
    } else {
        Status::Ok
    };
    Health {
        status,
        database: store.engine().name(),
        checks: Checks {
            database: DatabaseCheck {
                status: if database_up { Status::Ok } else { Status::Error },
                millis,
            },
            ingestion,
            notifier,
        },
    }
}

fn ingestion_check(feeds: Option<FeedHealth>, pulse: Option<Pulse>, now_ms: i64) -> IngestionCheck {
    let f = feeds.unwrap_or_default();
    let lag_seconds = f.oldest_due_ms.map_or(0, |due| (now_ms - due).max(0) / 1000);
    let status = match pulse {
        None => LoopStatus::Off,
        Some(p) => match loop_status(p, STALLED_AFTER_SECS) {
            LoopStatus::Ok if lag_seconds > LAG_DEGRADED_SECS => LoopStatus::Lagging,
            other => other,
        },
    };
    IngestionCheck {
        status,
        feeds: f.feeds,
        failing_feeds: f.failing,
        lag_seconds,
        last_round_seconds_ago: pulse.and_then(|p| p.ok_secs_ago),
        in_flight: pulse.map_or(0, |p| p.in_flight),
    }
}

/// The same, as Prometheus gauges for `/metrics`.
pub fn render(health: &Health) -> String {
    let i = &health.checks.ingestion;
    let mut out = String::with_capacity(1024);
    let mut gauge = |name: &str, help: &str, value: i64| {
        out.push_str(&format!("# HELP {name} {help}\n# TYPE {name} gauge\n{name} {value}\n"));
    };
    gauge(
        "localwire_database_up",
        "1 when the database answered the health check.",
        i64::from(health.checks.database.status == Status::Ok),
    );
    gauge(
        "localwire_ingestion_lag_seconds",
        "How long the most overdue feed has waited for its fetch, across every server.",
        i.lag_seconds,
    );
    gauge("localwire_feeds", "Feeds, paused ones included.", i.feeds);
    gauge(
        "localwire_feeds_failing",
        "Feeds not paused whose last fetch failed.",
        i.failing_feeds,
    );
    gauge(
        "localwire_ingestion_in_flight",
        "Feeds this process is fetching or processing now.",
        i.in_flight,
    );
    gauge(
        "localwire_ingestion_last_round_age_seconds",
        "Seconds since this process's last good ingestion round (-1: none yet or off).",
        i.last_round_seconds_ago.unwrap_or(-1),
    );
    gauge(
        "localwire_notifier_last_round_age_seconds",
        "Seconds since this process's last good push round (-1: none yet or off).",
        health.checks.notifier.last_round_seconds_ago.unwrap_or(-1),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pulse(ok_secs_ago: Option<i64>, failing: bool) -> Option<Pulse> {
        Some(Pulse {
            ok_secs_ago,
            started_secs_ago: Some(60),
            failing,
            in_flight: 0,
        })
    }

    #[test]
    fn d397_ingestion_lags_when_a_feed_is_overdue_past_15_minutes_and_stalls_without_a_round_for_10() {
        let now = 10_000_000_000;
        let feeds = |overdue_secs: i64| {
            Some(FeedHealth {
                feeds: 3,
                oldest_due_ms: Some(now - overdue_secs * 1000),
                failing: 1,
            })
        };
        assert_eq!(
            ingestion_check(feeds(60), pulse(Some(5), false), now).status,
            LoopStatus::Ok
        );
        let lagging = ingestion_check(feeds(LAG_DEGRADED_SECS + 1), pulse(Some(5), false), now);
        assert_eq!((lagging.status, lagging.lag_seconds), (LoopStatus::Lagging, 901));
        assert_eq!(
            ingestion_check(feeds(0), pulse(Some(STALLED_AFTER_SECS + 1), false), now).status,
            LoopStatus::Stalled
        );
        assert_eq!(
            ingestion_check(feeds(0), pulse(Some(5), true), now).status,
            LoopStatus::Failing
        );
        assert_eq!(
            ingestion_check(feeds(0), pulse(None, false), now).status,
            LoopStatus::Starting
        );
        let never_ended = Some(Pulse {
            ok_secs_ago: None,
            started_secs_ago: Some(STALLED_AFTER_SECS + 1),
            failing: false,
            in_flight: 4,
        });
        assert_eq!(ingestion_check(feeds(0), never_ended, now).status, LoopStatus::Stalled);
        assert_eq!(ingestion_check(feeds(0), None, now).status, LoopStatus::Off);
        // A feed due in the future is no lag.
        assert_eq!(ingestion_check(feeds(-600), pulse(Some(5), false), now).lag_seconds, 0);
    }
}
