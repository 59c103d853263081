//! Where the days come from: Wikipedia's feed, fetched once per language and local date
//! and kept in memory, or the built-in demo days (D290). A reader never waits for the
//! upstream longer than [`HistoryConfig::wait`]: the fetch goes on without them.

use super::wiki::{self, FeedDay};
use chrono::{Datelike, NaiveDate};
use domain::locale::Locale;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::watch;

/// The default `--onthisday-url`; `{lang}` becomes en, es or fr and `/all/{MM}/{DD}` is
/// appended.
pub const DEFAULT_ONTHISDAY_URL: &str = "https://{lang}.wikipedia.org/api/rest_v1/feed/onthisday";

/// Settings of the history source (flags `--onthisday-url`, `--demo`).
#[derive(Debug, Clone)]
pub struct HistoryConfig {
    /// The feed's base address, `{lang}` standing for the language.
    pub base_url: String,
    /// Serve the built-in demo days and never call the upstream.
    pub demo: bool,
    /// Sent with every upstream call: name, version and a contact address (Wikimedia's
    /// User-Agent policy).
    pub user_agent: String,
    /// How long one upstream call may take in all.
    pub fetch_timeout: Duration,
    /// How long a reader waits for a day being fetched before being told "unavailable".
    pub wait: Duration,
    /// After a failed call, the same day is not asked again for this long.
    pub retry_after: Duration,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig {
            base_url: DEFAULT_ONTHISDAY_URL.into(),
            demo: false,
            user_agent: user_agent(None),
            fetch_timeout: Duration::from_secs(10),
            wait: Duration::from_millis(800),
            retry_after: Duration::from_secs(300),
        }
    }
}

/// `Localwire/0.1.0 (+https://news.example.org; on-this-day for a self-hosted news reader)`:
/// the operator's public address is the contact when set.
pub fn user_agent(public_url: Option<&str>) -> String {
    crate::upstream::user_agent(public_url, "on-this-day for a self-hosted news reader")
}

/// One language's day.
#[derive(Debug)]
pub struct Day {
    pub feed: FeedDay,
    pub fetched_at_ms: i64,
    /// Built-in demo entries, not today's.
    pub demo: bool,
}

/// Why there is no day to give.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum Unavailable {
    #[error("Wikipedia did not answer in time")]
    Slow,
    #[error("Wikipedia could not be reached or answered with an error")]
    Failed,
}

type Key = (Locale, NaiveDate);

#[derive(Default)]
struct Slot {
    day: Option<Arc<Day>>,
    fetching: Option<watch::Receiver<bool>>,
    failed_at: Option<std::time::Instant>,
}

pub struct HistorySource {
    config: HistoryConfig,
    client: reqwest::Client,
    slots: Mutex<HashMap<Key, Slot>>,
    upstream_calls: AtomicU64,
}

/// Days further back than this from the newest asked are dropped.
const KEEP_DAYS: i64 = 2;

impl HistorySource {
    pub fn new(config: HistoryConfig) -> HistorySource {
        let client = crate::upstream::client(&config.user_agent, config.fetch_timeout);
        HistorySource {
            config,
            client,
            slots: Mutex::default(),
            upstream_calls: AtomicU64::new(0),
        }
    }

    pub fn is_demo(&self) -> bool {
        self.config.demo
    }

    /// Upstream calls made so far (for tests and `/metrics`).
    pub fn upstream_calls(&self) -> u64 {
        self.upstream_calls.load(Ordering::Relaxed)
    }

    /// The day `date` in `lang`: kept, fetched now (waiting at most `wait`), or unavailable.
    pub async fn day(self: &Arc<Self>, lang: Locale, date: NaiveDate) -> Result<Arc<Day>, Unavailable> {
        if self.config.demo {
            return Ok(demo_day(lang));
        }
        let key = (lang, date);
        let mut rx = {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            slots.retain(|(_, d), _| (date - *d).num_days() <= KEEP_DAYS);
            let slot = slots.entry(key).or_default();
            if let Some(day) = &slot.day {
                return Ok(day.clone());
            }
            match &slot.fetching {
                Some(rx) => rx.clone(),
                None => {
                    if slot.failed_at.is_some_and(|t| t.elapsed() < self.config.retry_after) {
                        return Err(Unavailable::Failed);
                    }
                    let (tx, rx) = watch::channel(false);
                    slot.fetching = Some(rx.clone());
                    let this = self.clone();
                    tokio::spawn(async move { this.fetch(key, tx).await });
                    rx
                }
            }
        };
        let done = tokio::time::timeout(self.config.wait, rx.wait_for(|done| *done)).await;
        let slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
        match slots.get(&key).and_then(|s| s.day.clone()) {
            Some(day) => Ok(day),
            None if done.is_err() => Err(Unavailable::Slow),
            None => Err(Unavailable::Failed),
        }
    }

    async fn fetch(&self, key: Key, done: watch::Sender<bool>) {
        let (lang, date) = key;
        let url = format!(
            "{}/all/{:02}/{:02}",
            self.config
                .base_url
                .replace("{lang}", lang.code())
                .trim_end_matches('/'),
            date.month(),
            date.day()
        );
        self.upstream_calls.fetch_add(1, Ordering::Relaxed);
        let result = self.get(&url).await;
        if let Err(why) = &result {
            tracing::warn!(%url, error = %why, "on-this-day feed unavailable");
        }
        {
            let mut slots = self.slots.lock().unwrap_or_else(PoisonError::into_inner);
            let slot = slots.entry(key).or_default();
            slot.fetching = None;
            match result {
                Ok(feed) => {
                    slot.day = Some(Arc::new(Day {
                        feed,
                        fetched_at_ms: domain::clock::now_ms(),
                        demo: false,
                    }))
                }
                Err(_) => slot.failed_at = Some(std::time::Instant::now()),
            }
        }
        let _ = done.send(true);
    }

    async fn get(&self, url: &str) -> Result<FeedDay, String> {
        let body = crate::upstream::get(&self.client, url, None, self.config.fetch_timeout)
            .await
            .map_err(|e| e.to_string())?;
        let feed = wiki::parse(&body).map_err(|e| format!("not the feed's format: {e}"))?;
        if feed.is_empty() {
            return Err("an empty day".into());
        }
        Ok(feed)
    }
}

/// The built-in demo days (`data/demo/onthisday/`, July 1), labelled as demo.
fn demo_day(lang: Locale) -> Arc<Day> {
    use std::sync::LazyLock;
    fn load(bytes: &[u8]) -> Arc<Day> {
        Arc::new(Day {
            // Checked by `wiki::tests` and the demo test.
            feed: wiki::parse(bytes).unwrap_or_default(),
            fetched_at_ms: 0,
            demo: true,
        })
    }
    static EN: LazyLock<Arc<Day>> = LazyLock::new(|| {
        load(include_bytes!(
            "../../../../data/demo/onthisday/onthisday-en-07-01.json"
        ))
    });
    static ES: LazyLock<Arc<Day>> = LazyLock::new(|| {
        load(include_bytes!(
            "../../../../data/demo/onthisday/onthisday-es-07-01.json"
        ))
    });
    static FR: LazyLock<Arc<Day>> = LazyLock::new(|| {
        load(include_bytes!(
            "../../../../data/demo/onthisday/onthisday-fr-07-01.json"
        ))
    });
    match lang {
        Locale::En => EN.clone(),
        Locale::Es => ES.clone(),
        Locale::Fr => FR.clone(),
    }
}
