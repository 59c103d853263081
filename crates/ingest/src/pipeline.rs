//! The ingestion pipeline: due feeds → fetch → parse → clean → place → categorise →
//! cluster → store, and each feed's next due time. Runs inside `serve` (forever) and
//! from `localwire ingest --once`. One broken or slow feed never holds up the others:
//! each feed is its own task, bounded per host and overall, and its failure is recorded
//! on the feed for the operator.

use crate::categorize::categorize;
use crate::clean::{CleanContext, CleanItem, clean_item_with_text};
use crate::cluster::{self, Signature, Window, WindowEntry};
use crate::cpu_pool::{CpuPool, Stage};
use crate::demo;
use crate::fetch::{FetchError, FetchOutcome as Fetched, Fetcher, Validators, read_file_feed};
use crate::parse::{RawItem, parse_feed};
use crate::place::{PublisherArea, places};
use crate::place_keys::place_keys;
use crate::schedule::{self, FeedState, FetchOutcome, HostLimiter};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use store::Store;
use store::content::{
    CityId, ClaimedFeed, ClusterChoice, ClusterId, FeedId, FetchRecord, MediaId, NewsId, NewsRecord, Upserted,
};
use store::retention::StoryRetention;
use tokio::task::JoinSet;
use url::Url;

/// How long a claimed feed stays leased to this process (longer than any fetch).
const LEASE: Duration = Duration::from_secs(5 * 60);
/// Feeds claimed per round.
const CLAIM_BATCH: i64 = 64;
/// How often `run_forever` looks for due feeds.
const POLL: Duration = Duration::from_secs(10);
/// Characters of plain text kept for the search index.
const INDEX_TEXT_CHARS: usize = 4_000;

/// What one feed's fetch did.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedReport {
    pub feed_id: FeedId,
    pub url: String,
    pub status: Option<u16>,
    pub inserted: usize,
    pub updated: usize,
    pub unchanged: usize,
    pub error: Option<String>,
}

/// Who watches a round go by (the operator's progress bar). Both calls come from the
/// round's own task.
pub trait RoundWatcher: Sync {
    /// The round took `feeds` more feeds.
    fn claimed(&self, _feeds: usize) {}
    /// One feed is done, fetched or failed.
    fn done(&self, _report: &FeedReport) {}
}

/// A round nobody watches.
pub struct Unwatched;

impl RoundWatcher for Unwatched {}

/// Totals over a round.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoundReport {
    pub feeds: usize,
    pub failed: usize,
    pub inserted: usize,
    pub updated: usize,
    pub unchanged: usize,
}

impl RoundReport {
    pub fn add(&mut self, r: &FeedReport) {
        self.feeds += 1;
        self.failed += usize::from(r.error.is_some());
        self.inserted += r.inserted;
        self.updated += r.updated;
        self.unchanged += r.unchanged;
    }
}

pub struct Pipeline {
    store: Arc<dyn Store>,
    fetcher: Fetcher,
    limiter: HostLimiter,
    /// Bounds how many feeds are being processed at once (memory): a round of thousands
    /// of local files holds only a few bodies in memory. (CPU is bounded by the pool.)
    in_flight: tokio::sync::Semaphore,
    /// Where parsing, cleaning and placing run: one thread per core, below the priority
    /// of requests and the store's writers (D159).
    cpu_pool: CpuPool,
    /// Clustering compares with recent items, then stores new ones: two feeds doing that
    /// at once would not see each other's stories, so this step runs one feed at a time
    /// per process, against the process's in-memory window (D120).
    clustering: tokio::sync::Mutex<Clustering>,
    /// Store writes of clustered batches, taken while still clustering, so batches are
    /// written in the order they were clustered while the next one is being clustered.
    writing: tokio::sync::Mutex<()>,
    /// What written batches' provisional entries became, for the window's next user.
    settled: std::sync::Mutex<Settled>,
    /// When `run_forever`'s rounds last worked or failed, for `/healthz` (issue 30).
    heartbeat: Arc<domain::heartbeat::Heartbeat>,
    /// Items published before the retention's cut are not stored (D414): retention
    /// would delete them again within the hour, and a feed would bring them back.
    retention: StoryRetention,
}

/// Outcomes of store writes not yet applied to the window.
#[derive(Default)]
struct Settled {
    /// Provisional news id → its stored news id and cluster; `None`: drop the entry.
    entries: Vec<(i64, Option<(NewsId, ClusterId)>)>,
    /// Provisional cluster id (a new story's first record) → the stored cluster id, for
    /// batches clustered against entries that were not written yet.
    clusters: rustc_hash::FxHashMap<i64, ClusterId>,
}

/// Items kept in the clustering window, by publish time before now: an item published up
/// to [`cluster::WINDOW_MS`] ago still needs candidates that much older again.
const RETAIN_MS: i64 = 2 * cluster::WINDOW_MS;
/// Most items the clustering window holds (about 1 KB each): past it, the oldest go and
/// items published before the newest kept ones are not clustered (D154). Bounds memory
/// however large a round is, e.g. a first fetch of thousands of feeds' archives.
const WINDOW_CAP: usize = 20_000;
/// Items other processes wrote this long before the last refresh are read again at the
/// next one: their `updated_at` is their feed's start time, up to a lease earlier than
/// their commit, and servers' clocks may differ a little.
const REFRESH_OVERLAP_MS: i64 = LEASE.as_millis() as i64 + 60_000;

/// The clustering window and the publish times it holds every stored item of.
struct Clustering {
    window: Window,
    /// Every stored item published in `[from, to]` is in the window (as of the last
    /// refresh, plus what this process stored since).
    range: Option<(i64, i64)>,
    /// When the last refresh from the store started.
    refreshed_ms: i64,
    /// The next provisional id (negative, counting down; reset each round).
    next_provisional: i64,
    /// Items published before this are not clustered (each is a story of its own) and
    /// never enter the window: `now - RETAIN_MS` at the last refresh, raised when the
    /// window reached [`WINDOW_CAP`]. It never goes down.
    floor_ms: i64,
}

/// A fetched feed body, or why there is none.
enum Body {
    Fresh {
        bytes: Vec<u8>,
        base: Url,
        validators: Validators,
        status: u16,
    },
    NotModified,
}

pub use domain::clock::now_ms;

impl Pipeline {
    pub fn new(store: Arc<dyn Store>, fetcher: Fetcher) -> Arc<Pipeline> {
        Pipeline::keeping(store, fetcher, StoryRetention::KeepAll)
    }

    /// A pipeline that stores only items within `retention` (D414).
    pub fn keeping(store: Arc<dyn Store>, fetcher: Fetcher, retention: StoryRetention) -> Arc<Pipeline> {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Arc::new(Pipeline {
            store,
            fetcher,
            limiter: HostLimiter::default(),
            // 24 per pool thread: feeds waiting for the pool or the writer hold a permit
            // too, and the pool and the writer should never wait for work: feeds vary in
            // size, and the queues between the stages even that out (D162; 48 against 16
            // in flight: 8.35–8.49 s against 8.60–8.72 s for the 100k bench corpus, for
            // 50–100 MB more at the peak).
            in_flight: tokio::sync::Semaphore::new(cores.saturating_mul(24)),
            cpu_pool: CpuPool::new(cores),
            clustering: tokio::sync::Mutex::new(Clustering {
                window: Window::default(),
                range: None,
                refreshed_ms: 0,
                next_provisional: -1,
                floor_ms: i64::MIN,
            }),
            writing: tokio::sync::Mutex::new(()),
            settled: std::sync::Mutex::new(Settled::default()),
            heartbeat: Arc::default(),
            retention,
        })
    }

    /// The continuous loop's heartbeat (`run_forever`).
    pub fn heartbeat(&self) -> Arc<domain::heartbeat::Heartbeat> {
        self.heartbeat.clone()
    }

    /// At the start of a round: forget items too old to matter and read what other
    /// processes (other servers on PostgreSQL, a CLI run) stored since the last round.
    async fn refresh_window(&self, now: i64) -> Result<(), store::StoreError> {
        let mut state = self.clustering.lock().await;
        // No batch is in flight between rounds: settle everything, forget the rest.
        self.apply_settled(&mut state);
        state.window.remove_provisional();
        state.next_provisional = -1;
        self.settled_lock().clusters.clear();
        state.floor_ms = state.floor_ms.max(now - RETAIN_MS);
        let cut = state.floor_ms;
        state.window.evict_before(cut);
        let Some((from, to)) = state.range else {
            state.refreshed_ms = now;
            return Ok(());
        };
        let from = from.max(cut);
        if from > to {
            state.range = None;
            state.refreshed_ms = now;
            return Ok(());
        }
        state.range = Some((from, to));
        let since = state.refreshed_ms.saturating_sub(REFRESH_OVERLAP_MS);
        let changed = self.store.cluster_candidates_since(from, to, since).await?;
        for c in changed {
            add_stored(&mut state.window, c);
        }
        state.refreshed_ms = now;
        Ok(())
    }

    /// Fetch every due feed once (all feeds when `all`), concurrently, and report.
    pub async fn run_round(self: &Arc<Self>, all: bool) -> Result<Vec<FeedReport>, store::StoreError> {
        self.run_round_watched(all, &Unwatched).await
    }

    /// [`Pipeline::run_round`], telling `watcher` of the feeds it takes and each one done.
    pub async fn run_round_watched(
        self: &Arc<Self>,
        all: bool,
        watcher: &dyn RoundWatcher,
    ) -> Result<Vec<FeedReport>, store::StoreError> {
        let now = now_ms();
        let due_at = if all { i64::MAX / 2 } else { now };
        let lease_until = now + LEASE.as_millis() as i64;
        let mut reports = Vec::new();
        // `all` takes every feed in one claim (claiming again would find the same feeds,
        // whose leases it cannot tell from its own); otherwise batches until none is due.
        let (batch, rounds) = if all { (i64::MAX, 1) } else { (CLAIM_BATCH, 16) };
        let mut refreshed = false;
        for _ in 0..rounds {
            let claimed = self.store.claim_due_feeds(due_at, lease_until, batch).await?;
            if claimed.is_empty() {
                break;
            }
            if !refreshed {
                self.refresh_window(now).await?;
                refreshed = true;
            }
            self.heartbeat.set_in_flight(claimed.len() as i64);
            watcher.claimed(claimed.len());
            let mut tasks = JoinSet::new();
            for feed in claimed {
                let this = Arc::clone(self);
                tasks.spawn(async move { this.ingest_feed(&feed).await });
            }
            while let Some(done) = tasks.join_next().await {
                match done {
                    Ok(report) => {
                        watcher.done(&report);
                        reports.push(report);
                    }
                    Err(e) => tracing::error!(error = %e, "a feed task panicked; its lease will expire"),
                }
                self.heartbeat.set_in_flight(tasks.len() as i64);
            }
        }
        // The round's items and fetch records are durable and seen once it returns.
        self.store.commit_grouped().await?;
        if !reports.is_empty() {
            let state = self.clustering.lock().await;
            tracing::debug!(items = state.window.len(), stats = ?state.window.stats(), "clustering window");
        }
        Ok(reports)
    }

    /// Ingest due feeds until `shutdown` resolves.
    pub async fn run_forever(self: Arc<Self>, shutdown: impl std::future::Future<Output = ()>) {
        tokio::pin!(shutdown);
        self.heartbeat.started(now_ms());
        loop {
            let round = self.run_round(false).await;
            match &round {
                Ok(_) => self.heartbeat.round_ok(now_ms()),
                Err(_) => self.heartbeat.round_failed(now_ms()),
            }
            match round {
                Ok(reports) if !reports.is_empty() => {
                    let mut total = RoundReport::default();
                    reports.iter().for_each(|r| total.add(r));
                    tracing::info!(
                        feeds = total.feeds,
                        failed = total.failed,
                        inserted = total.inserted,
                        updated = total.updated,
                        "ingestion round"
                    );
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "ingestion round failed; will retry"),
            }
            tokio::select! {
                _ = &mut shutdown => return,
                _ = tokio::time::sleep(POLL) => {}
            }
        }
    }

    /// Fetch, process and store one feed, and schedule its next fetch.
    pub async fn ingest_feed(&self, feed: &ClaimedFeed) -> FeedReport {
        let started = now_ms();
        let mut report = FeedReport {
            feed_id: feed.feed_id,
            url: feed.url.clone(),
            status: None,
            inserted: 0,
            updated: 0,
            unchanged: 0,
            error: None,
        };
        let mut validators = Validators::default();
        // Local files are read under the in-flight bound too; network fetches wait on
        // their host's limit instead and take a permit only to process the body.
        let network =
            (feed.url.starts_with("http://") || feed.url.starts_with("https://")) && !demo::is_demo_url(&feed.url);
        let local = !network;
        let mut permit = if local {
            self.in_flight.acquire().await.ok()
        } else {
            None
        };
        let fetched = self.fetch(feed).await;
        if permit.is_none() && fetched.is_ok() {
            permit = self.in_flight.acquire().await.ok();
        }
        let outcome = match fetched {
            Err(e) => FetchOutcome::from(&e),
            Ok(Body::NotModified) => {
                report.status = Some(304);
                FetchOutcome::NotModified
            }
            Ok(Body::Fresh {
                bytes,
                base,
                validators: v,
                status,
            }) => {
                report.status = Some(status);
                validators = v;
                match self.process(feed, bytes, &base, started).await {
                    Ok((upserted, skipped, publish_times)) => {
                        report.unchanged += skipped;
                        for u in &upserted {
                            match u {
                                Upserted::Inserted(_) => report.inserted += 1,
                                Upserted::Updated(_) => report.updated += 1,
                                Upserted::Unchanged(_) => report.unchanged += 1,
                            }
                        }
                        FetchOutcome::Ok {
                            new_items: report.inserted,
                            status,
                            publish_times,
                        }
                    }
                    Err(error) => FetchOutcome::Failed {
                        status: Some(status),
                        error,
                        retry_after: None,
                    },
                }
            }
        };
        drop(permit);
        if let FetchOutcome::Failed { error, status, .. } = &outcome {
            report.status = report.status.or(*status);
            tracing::warn!(feed = %feed.url, %error, "feed failed");
            report.error = Some(error.clone());
        }
        let state = FeedState {
            interval: u64::try_from(feed.interval_secs)
                .ok()
                .filter(|s| *s > 0)
                .map(Duration::from_secs),
            consecutive_errors: u32::try_from(feed.consecutive_errors).unwrap_or(0),
        };
        let seed = schedule::jitter_seed(feed.feed_id.0, u64::try_from(started).unwrap_or(0));
        let next = schedule::plan_next(&state, &outcome, now_ms(), seed);
        let record = FetchRecord {
            fetched_at_ms: started,
            status: report.status.map(i32::from),
            etag: validators.etag,
            last_modified: validators.last_modified,
            items: (report.inserted + report.updated) as i64,
            error: report.error.clone().unwrap_or_default(),
            next_due_ms: next.next_due_ms,
            consecutive_errors: i32::try_from(next.consecutive_errors).unwrap_or(i32::MAX),
            interval_secs: i64::try_from(next.interval.as_secs()).unwrap_or(i64::MAX),
        };
        if let Err(e) = self.store.record_fetch_grouped(feed.feed_id, &record).await {
            tracing::error!(feed = %feed.url, error = %e, "could not record a fetch");
        }
        report
    }

    async fn fetch(&self, feed: &ClaimedFeed) -> Result<Body, FetchError> {
        let invalid = |reason: String| FetchError::InvalidUrl {
            url: feed.url.clone(),
            reason,
        };
        let url = Url::parse(&feed.url).map_err(|e| invalid(e.to_string()))?;
        if demo::is_demo_url(&feed.url) {
            let bytes = demo::file_for_url(&feed.url)
                .ok_or_else(|| invalid("not a file of the built-in demo corpus".into()))?;
            return Ok(Body::Fresh {
                bytes: bytes.into_owned(),
                base: url,
                validators: Validators::default(),
                status: 200,
            });
        }
        if url.scheme() == "file" {
            let path = url
                .to_file_path()
                .map_err(|()| invalid("not a local file path".into()))?;
            let bytes = read_file_feed(&path, self.fetcher.policy().max_body_bytes).await?;
            return Ok(Body::Fresh {
                bytes,
                base: url,
                validators: Validators::default(),
                status: 200,
            });
        }
        let host = url.host_str().unwrap_or_default().to_string();
        let _permit = self
            .limiter
            .acquire(&host)
            .await
            .map_err(|e| invalid(format!("ingestion is shutting down ({e})")))?;
        let validators = Validators {
            etag: feed.etag.clone(),
            last_modified: feed.last_modified.clone(),
        };
        match self.fetcher.fetch(&url, &validators).await? {
            Fetched::NotModified { .. } => Ok(Body::NotModified),
            Fetched::Fetched {
                body,
                final_url,
                validators,
                status,
                ..
            } => Ok(Body::Fresh {
                bytes: body,
                base: final_url,
                validators,
                status,
            }),
        }
    }

    /// Parse, clean and store a feed body. Returns what was stored and the items'
    /// publish times (for the feed's next interval). CPU work runs off the async threads.
    async fn process(
        &self,
        feed: &ClaimedFeed,
        bytes: Vec<u8>,
        base: &Url,
        now: i64,
    ) -> Result<(Vec<Upserted>, usize, Vec<i64>), String> {
        let shift = if demo::is_demo_url(&feed.url) {
            demo_shift(now)
        } else {
            0
        };
        let (lang, base_url) = (feed.lang.clone(), base.clone());
        let (cleaned, publish_times): (Vec<Cleaned>, Vec<i64>) = self
            .cpu_pool
            .run(Stage::Starting, move || {
                let parsed = parse_feed(&bytes, Some(base_url.as_str())).map_err(|e| e.to_string())?;
                let publish_times = parsed
                    .items
                    .iter()
                    .filter_map(|i| i.published_ms.or(i.updated_ms))
                    .collect();
                // The content's relative references resolve as the feed's links did (D170).
                let content_base = parsed.base_url.as_deref().and_then(|b| Url::parse(b).ok());
                let ctx = CleanContext {
                    base_url: content_base.as_ref().or(Some(&base_url)),
                    language_hint: Some(&lang),
                    fetched_at_ms: now,
                };
                Ok::<_, String>((clean_all(&parsed.items, &ctx, shift), publish_times))
            })
            .await
            .map_err(|e| format!("parsing stopped: {e}"))??;
        let parsed_count = cleaned.len();
        let cleaned: Vec<Cleaned> = match self.retention.cut_ms(now) {
            Some(cut) => cleaned.into_iter().filter(|c| c.item.publish_time_ms >= cut).collect(),
            None => cleaned,
        };
        let too_old = parsed_count - cleaned.len();
        if cleaned.is_empty() {
            return Ok((Vec::new(), too_old, publish_times));
        }

        // Unchanged items stop here: no placing, categorising or clustering again.
        let identities: Vec<String> = cleaned.iter().map(|c| c.item.identity.clone()).collect();
        let known: HashMap<String, String> = self
            .store
            .known_hashes(feed.media.media_id, &identities)
            .await
            .map_err(|e| e.to_string())?
            .into_iter()
            .collect();
        let total = cleaned.len();
        let fresh: Vec<Cleaned> = cleaned
            .into_iter()
            .filter(|c| known.get(&c.item.identity) != Some(&c.hash))
            .collect();
        let skipped = too_old + total - fresh.len();
        let media = feed.media.clone();
        let records: Vec<NewsRecord> = self
            .cpu_pool
            .run(Stage::Finishing, move || {
                fresh.into_iter().map(|c| record(c, &media)).collect()
            })
            .await
            .map_err(|e| format!("placing stopped: {e}"))?;
        let mut state = self.clustering.lock().await;
        self.apply_settled(&mut state);
        let (mut choices, first) = self
            .cluster_choices(&mut state, &records, feed.media.media_id, feed.media.city_id)
            .await?;
        // Take the write turn before letting the next batch cluster: writes keep the
        // clustering order, and this batch's write overlaps the next one's clustering.
        let _turn = self.writing.lock().await;
        drop(state);
        {
            // Stories of earlier batches, written by now: their stored ids.
            let settled = self.settled_lock();
            for c in choices.iter_mut() {
                if let ClusterChoice::Join(ClusterId(id)) = *c
                    && id < 0
                {
                    *c = settled
                        .clusters
                        .get(&id)
                        .map_or(ClusterChoice::New, |&s| ClusterChoice::Join(s));
                }
            }
        }
        let count = records.len();
        let stored = self
            .store
            .upsert_items_grouped(feed.feed_id, feed.media.media_id, records, choices.clone(), now)
            .await;
        let outcome = settle(first, count, &choices, stored.as_deref().unwrap_or(&[]));
        {
            let mut settled = self.settled_lock();
            settled.entries.extend(outcome.entries);
            settled.clusters.extend(outcome.clusters);
        }
        let stored = stored.map_err(|e| e.to_string())?;
        Ok((stored, skipped, publish_times))
    }

    fn settled_lock(&self) -> std::sync::MutexGuard<'_, Settled> {
        self.settled.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Give written batches' provisional entries their stored ids (or drop them).
    fn apply_settled(&self, state: &mut Clustering) {
        let entries = std::mem::take(&mut self.settled_lock().entries);
        for (provisional, stored) in entries {
            match stored {
                Some((news_id, cluster)) => state.window.rename(provisional, news_id.0, cluster.0),
                None => {
                    state.window.remove(provisional);
                }
            }
        }
    }

    /// Make sure the window holds every stored item within reach of `[from, to]`.
    async fn cover(&self, state: &mut Clustering, from: i64, to: i64) -> Result<(), String> {
        let (from, to) = (
            from.saturating_sub(cluster::WINDOW_MS).max(state.floor_ms),
            to.saturating_add(cluster::WINDOW_MS),
        );
        if from > to {
            return Ok(());
        }
        let missing: Vec<(i64, i64)> = match state.range {
            None => vec![(from, to)],
            Some((lo, hi)) => {
                let mut m = Vec::new();
                if from < lo {
                    m.push((from, lo - 1));
                }
                if to > hi {
                    m.push((hi + 1, to));
                }
                m
            }
        };
        for (a, b) in missing {
            let stored = self.store.cluster_candidates(a, b).await.map_err(|e| e.to_string())?;
            for c in stored {
                if !state.window.contains(c.news_id.0) {
                    add_stored(&mut state.window, c);
                }
            }
        }
        state.range = Some(match state.range {
            None => (from, to),
            Some((lo, hi)) => (lo.min(from), hi.max(to)),
        });
        Ok(())
    }

    /// Which story each new record joins: a stored cluster, an earlier record of this
    /// batch, or a story of its own. Each record enters the window with a provisional
    /// news id (`first`, `first - 1`, …) until the write's outcome is applied; a choice
    /// `Join(c)` with `c < 0` names the story of an earlier batch not written yet.
    async fn cluster_choices(
        &self,
        state: &mut Clustering,
        records: &[NewsRecord],
        media_id: MediaId,
        media_city: CityId,
    ) -> Result<(Vec<ClusterChoice>, i64), String> {
        let first = state.next_provisional;
        let floor = state.floor_ms;
        // Records below the floor are never compared, so they need no candidates.
        if let Some((from, to)) = records
            .iter()
            .map(|r| r.publish_time_ms)
            .filter(|&t| t >= floor)
            .fold(None, |acc: Option<(i64, i64)>, t| {
                Some(acc.map_or((t, t), |(a, b)| (a.min(t), b.max(t))))
            })
        {
            self.cover(state, from, to).await?;
        }
        // Every record owns its provisional id, clustered or not: `settle` names them all,
        // and a later batch must not be handed the same ids.
        state.next_provisional = first - records.len() as i64;
        let mut choices = Vec::with_capacity(records.len());
        for (i, r) in records.iter().enumerate() {
            let signature = match Signature::from_bytes(&r.signature) {
                Ok(signature) if r.publish_time_ms >= floor => signature,
                // Too old to cluster (below the floor), or no signature: its own story.
                _ => {
                    choices.push(ClusterChoice::New);
                    continue;
                }
            };
            let provisional = first - i as i64;
            // Where the story happens: its places, else its publisher's city (as the
            // store answers for stored candidates).
            let media_only = [media_city];
            let where_: &[CityId] = if r.city_ids.is_empty() && media_city != CityId(0) {
                &media_only
            } else {
                &r.city_ids
            };
            let (choice, cluster_id) = match state.window.assign(&signature, media_id.0, r.publish_time_ms, where_) {
                // A story begun earlier in this batch.
                Some(c) if c <= first && c > provisional => (ClusterChoice::SameAs((first - c) as usize), c),
                Some(c) => (ClusterChoice::Join(ClusterId(c)), c),
                None => (ClusterChoice::New, provisional),
            };
            choices.push(choice);
            state.window.insert(WindowEntry {
                news_id: provisional,
                cluster_id,
                media_id: media_id.0,
                publish_time_ms: r.publish_time_ms,
                signature,
                cities: where_,
            });
        }
        state.bound(WINDOW_CAP);
        Ok((choices, first))
    }
}

impl Clustering {
    /// Past `cap` items, keep the newest three quarters and raise the floor to the oldest
    /// kept: the window no longer claims to hold what it let go (D154). (Dropping a
    /// quarter at a time keeps the rebuild that gives their memory back rare.)
    fn bound(&mut self, cap: usize) {
        if self.window.len() <= cap {
            return;
        }
        let Some(cut) = self.window.evict_oldest(cap * 3 / 4) else {
            return;
        };
        tracing::debug!(floor_ms = cut, "clustering window full: the oldest items left it");
        self.floor_ms = self.floor_ms.max(cut);
        self.range = self.range.and_then(|(lo, hi)| {
            let lo = lo.max(cut);
            (lo <= hi).then_some((lo, hi))
        });
    }
}

fn add_stored(window: &mut Window, c: store::content::ClusterCandidate) {
    let Ok(signature) = Signature::from_bytes(&c.signature) else {
        return;
    };
    window.insert(WindowEntry {
        news_id: c.news_id.0,
        cluster_id: c.cluster_id.0,
        media_id: c.media_id.0,
        publish_time_ms: c.publish_time_ms,
        signature,
        cities: &c.city_ids,
    });
}

/// What a batch's provisional entries become once written: the item's stored news id
/// and cluster (the one chosen, or for an item the store found already there, its own
/// one when the window knows it). An entry whose cluster cannot be known here is
/// dropped; the next round's refresh reads it back. A failed write drops them all.
fn settle(first: i64, records: usize, choices: &[ClusterChoice], stored: &[Upserted]) -> Settled {
    let mut out = Settled::default();
    let mut clusters: Vec<Option<ClusterId>> = Vec::with_capacity(stored.len());
    for (i, u) in stored.iter().enumerate() {
        let provisional = first - i as i64;
        let cluster = match (*u, choices.get(i).copied().unwrap_or(ClusterChoice::New)) {
            // A new story's cluster takes its first item's id.
            (Upserted::Inserted(id), ClusterChoice::New) => {
                out.clusters.insert(provisional, ClusterId(id.0));
                Some(ClusterId(id.0))
            }
            (Upserted::Inserted(_), ClusterChoice::Join(c)) if c.0 > 0 => Some(c),
            (Upserted::Inserted(_), ClusterChoice::SameAs(j)) => clusters.get(j).copied().flatten(),
            // Kept its stored cluster, which only the window may know: re-read later.
            _ => None,
        };
        clusters.push(cluster);
        out.entries.push((provisional, cluster.map(|c| (u.news_id(), c))));
    }
    for i in stored.len()..records {
        out.entries.push((first - i as i64, None));
    }
    out
}

/// The demo corpus's times are shifted by now − base (whole hours, so a restart within
/// the hour does not rewrite every item).
fn demo_shift(now: i64) -> i64 {
    let hour = 3_600_000;
    ((now - demo::BASE_DATE_MS) / hour) * hour
}

/// A clean item with what the later steps need: its plain text, its feed's own
/// categories, and a hash of what would be stored.
struct Cleaned {
    item: CleanItem,
    text: String,
    categories: Vec<String>,
    hash: String,
}

fn clean_all(items: &[RawItem], ctx: &CleanContext<'_>, demo_shift: i64) -> Vec<Cleaned> {
    let mut seen = std::collections::HashSet::new();
    items
        .iter()
        .filter_map(|raw| {
            let (mut item, text) = clean_item_with_text(raw, ctx)?;
            // The same identity twice in one feed: the first wins.
            if !seen.insert(item.identity.clone()) {
                return None;
            }
            if demo_shift != 0 {
                localize_demo(&mut item, demo_shift);
            }
            let hash = content_hash(&item);
            Some(Cleaned {
                item,
                text,
                categories: raw.categories.clone(),
                hash,
            })
        })
        .collect()
}

fn localize_demo(item: &mut CleanItem, shift: i64) {
    item.publish_time_ms += shift;
    item.content = demo::localize_media(&item.content);
    for url in [
        &mut item.org_img_url,
        &mut item.img_url,
        &mut item.thumbnail_url,
        &mut item.video_url,
        &mut item.voice_url,
    ]
    .into_iter()
    .flatten()
    {
        *url = demo::localize_media(url);
    }
}

/// FNV-1a (64-bit) over the stored fields: stable across builds, cheap, and only used
/// to tell "changed" from "unchanged", never for security.
fn content_hash(item: &CleanItem) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |s: &str| {
        for b in s.bytes().chain([0xff]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(&item.title);
    eat(item.link_url.as_deref().unwrap_or(""));
    eat(&item.author);
    eat(&item.content);
    eat(&item.description);
    for u in [
        &item.org_img_url,
        &item.img_url,
        &item.thumbnail_url,
        &item.video_url,
        &item.voice_url,
    ] {
        eat(u.as_deref().unwrap_or(""));
    }
    eat(&item.publish_time_ms.to_string());
    eat(&item.tags.join("\u{1f}"));
    eat(&item.lang);
    format!("{h:016x}")
}

/// A clean item placed, categorised and signed, ready to store.
fn record(cleaned: Cleaned, media: &store::content::MediaSource) -> NewsRecord {
    let Cleaned {
        item,
        text: body,
        categories: feed_categories,
        hash: content_hash,
    } = cleaned;
    let area = PublisherArea {
        city: &media.city,
        admin_code: &media.admin_code,
        country: &media.country,
    };
    let text = if item.summary.is_empty() {
        item.description.as_str()
    } else {
        item.summary.as_str()
    };
    let cities = places(&item.title, text, &area);
    let keys = place_keys(&cities, media);
    let category = categorize(&feed_categories, &item.title, &item.summary);
    let signature = cluster::signature(&item.title, &item.summary, &item.lang).to_bytes();
    let body_text: String = body.chars().take(INDEX_TEXT_CHARS).collect();
    let link = item.link_url.unwrap_or_default();
    NewsRecord {
        identity: item.identity,
        canonical_url: link.clone(),
        title: item.title,
        org_img_url: item.org_img_url.unwrap_or_default(),
        img_url: item.img_url.unwrap_or_default(),
        thumbnail_url: item.thumbnail_url.unwrap_or_default(),
        video_url: item.video_url.unwrap_or_default(),
        voice_url: item.voice_url.unwrap_or_default(),
        content: item.content,
        body_text,
        content_type: "html".into(),
        content_total_length: i64::try_from(item.content_total_length).unwrap_or(i64::MAX),
        description: item.description,
        summary: item.summary,
        news_type: item.news_type,
        publish_time_ms: item.publish_time_ms,
        link_url: link,
        author: item.author,
        category_id: category.to_string(),
        tags: item.tags,
        lang: item.lang,
        city_ids: cities.iter().map(|c| c.id).collect(),
        places: keys,
        signature,
        content_hash,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::signature;

    /// A batch whose items are all below the floor still takes its provisional ids and
    /// a choice per item: `settle` later renames `first - i` for each of them, which must
    /// not be the next batch's entries.
    #[tokio::test]
    async fn a_batch_below_the_floor_still_owns_its_provisional_ids() {
        let dir = std::env::temp_dir().join(format!("lw-floor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let store = store_sql::sqlite::SqliteStore::open_file(&dir.join("db.sqlite"))
            .await
            .unwrap();
        let pipeline = Pipeline::new(Arc::new(store), Fetcher::new(Default::default()).unwrap());
        let mut state = pipeline.clustering.lock().await;
        state.floor_ms = 1_000_000;
        let old = NewsRecord {
            publish_time_ms: 5,
            signature: signature("Council meets in Houston", "The council met.", "en").to_bytes(),
            ..NewsRecord::default()
        };
        let (choices, first) = pipeline
            .cluster_choices(&mut state, &[old.clone(), old], MediaId(1), CityId(0))
            .await
            .unwrap();
        assert_eq!((first, choices), (-1, vec![ClusterChoice::New, ClusterChoice::New]));
        assert_eq!(state.next_provisional, -3, "the next batch starts after these two");
        assert!(state.window.is_empty(), "below the floor: never in the window");
        drop(state);
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn a_full_window_keeps_its_newest_items_and_raises_the_floor() {
        let mut state = Clustering {
            window: Window::default(),
            range: Some((0, 100_000)),
            refreshed_ms: 0,
            next_provisional: -1,
            floor_ms: 5,
        };
        let s = signature("Council meets in Houston", "The council met.", "en");
        for i in 0..100 {
            state.window.insert(crate::cluster::numbered(i, &s));
        }
        state.bound(100);
        assert_eq!(
            (state.window.len(), state.floor_ms),
            (100, 5),
            "at the cap: nothing goes"
        );
        state.bound(50);
        // Three quarters of the cap stay: the 37 newest, published from 63 s on.
        assert_eq!(state.window.len(), 37);
        assert_eq!(state.floor_ms, 63_000);
        assert_eq!(
            state.range,
            Some((63_000, 100_000)),
            "the window holds only what it kept"
        );
    }
}
