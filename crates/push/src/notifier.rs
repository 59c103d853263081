//! The notifier (issue 19, D311–D313): a background task of `serve` that, every round,
//! picks each subscribed city's breaking stories and pushes them to its readers within
//! the budget each one set. What is breaking and what a reader may get are the pure rules
//! of `domain::notify`; this module reads, claims and sends.
//!
//! A story goes to a reader at most once: it is claimed in the sent log (an insert that
//! does nothing on a clash) before anything is sent, so several `serve` processes on one
//! PostgreSQL database never both send it (D312). A claim whose push reached none of the
//! reader's browsers is given back, so a later round may try again while the story is
//! still breaking. Deliveries run a bounded number at a time, each with a timeout: a
//! push service that hangs holds one slot, never the round.

use crate::crypto::VapidKey;
use crate::service::{Delivery, Push};
use domain::ids::{CityId, ClusterId, NewsId};
use domain::locale::Locale;
use domain::notify::{self, Allowance, Budget, StorySignals};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use store::content::{ListFilter, Listing, NewsRow, PlaceKey};
use store::push::{NotificationSettings, PushSubscription, PushTarget};
use store::reader_view::ReaderView;
use store::{Store, UserId};
use tokio::sync::Semaphore;

/// Recent items read per city per round.
const CITY_ITEMS: i64 = 300;
/// Stories considered per city per round (best first).
const CITY_STORIES: usize = 20;
/// Subscriptions read per page.
const TARGET_PAGE: u32 = 2_000;
/// Failed rounds in a row after which a subscription is dropped.
const MAX_FAILURES: i32 = 20;
/// Items dated up to this far ahead of the round still count (feeds' clocks drift).
const FUTURE_SLACK_MS: i64 = 5 * 60_000;
/// How long a push service keeps an undelivered notification.
const TTL_S: u32 = 6 * 3600;

/// A story the notifier may push.
#[derive(Debug, Clone)]
pub struct Story {
    /// The story's first stored item: the id the sent log keeps it by, the same however
    /// many items its cluster gains.
    pub news_id: NewsId,
    /// Its items placed in the city, newest first: a reader gets the newest one in their
    /// language from a publisher they see.
    pub rows: Vec<NewsRow>,
    pub score: f64,
}

/// What one round did (logged, and read by tests and the benchmark).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct RoundReport {
    pub stories: usize,
    pub claimed: usize,
    pub delivered: usize,
    pub gone: usize,
    pub failed: usize,
}

/// What a notification carries (the service worker shows it).
#[derive(Debug, Serialize, PartialEq)]
pub struct Payload {
    pub title: String,
    pub body: String,
    /// The article's path in the reader's language (`/es/article/12`).
    pub url: String,
    /// One notification per story (or per day's digest): a repeat replaces, not stacks.
    pub tag: String,
}

pub fn article_path(lang: Locale, news: NewsId) -> String {
    format!("{}/article/{}", lang.path_prefix(), news.0)
}

fn cut(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// The push for one story: `row` is the story's item in the reader's language; the tag names
/// the story (as the Topic header does), so a later item of the same story replaces it on the
/// device instead of stacking beside it (D311).
pub fn single_payload(lang: Locale, story: NewsId, row: &NewsRow) -> Payload {
    let body = if row.summary.trim().is_empty() {
        row.media_name.clone()
    } else {
        format!("{} · {}", row.media_name, cut(&row.summary, 140))
    };
    Payload {
        title: cut(&row.title, 120),
        body,
        url: article_path(lang, row.news_id),
        tag: format!("story-{}", story.0),
    }
}

pub fn digest_payload(lang: Locale, rows: &[&NewsRow], day_start_ms: i64) -> Payload {
    let first = rows.first().map(|r| r.news_id).unwrap_or(NewsId(0));
    let titles: Vec<String> = rows.iter().map(|r| format!("• {}", cut(&r.title, 80))).collect();
    let count = rows.len().to_string();
    Payload {
        title: domain::i18n::t_with(lang, "Push_Digest_Title", &[("count", &count)]),
        body: titles.join("\n"),
        url: article_path(lang, first),
        tag: format!("digest-{}", day_start_ms / 86_400_000),
    }
}

/// A city's stories at `now_ms`, best first: its recent items grouped by cluster, each
/// scored by size, publisher diversity and recency (D311), with only a score above zero.
pub async fn city_stories(store: &dyn Store, city_id: CityId, now_ms: i64) -> store::Result<Vec<Story>> {
    let rows = store
        .list_news(
            &Listing::Places(vec![PlaceKey::City(city_id)]),
            &ListFilter::default(),
            None,
            CITY_ITEMS,
        )
        .await?;
    let mut by_story: HashMap<ClusterId, (f64, Vec<NewsRow>)> = HashMap::new();
    for row in rows {
        // Past the window, or dated ahead of the round (a feed's clock, or a round run
        // for an earlier moment): not news now.
        if now_ms - row.publish_time_ms > notify::BREAKING_WINDOW_MS || row.publish_time_ms > now_ms + FUTURE_SLACK_MS {
            continue;
        }
        let signals = StorySignals {
            size: row.cluster.size,
            publishers: row.cluster.media_count,
            newest_ms: row.cluster.newest_ms.max(row.publish_time_ms),
        };
        let score = notify::story_score(signals, now_ms);
        if score <= 0.0 {
            continue;
        }
        let key = if row.cluster_id.0 > 0 {
            row.cluster_id
        } else {
            ClusterId(-row.news_id.0)
        };
        // Newest first, so each story's rows stay newest first.
        by_story.entry(key).or_insert((score, Vec::new())).1.push(row);
    }
    let mut stories: Vec<(f64, Vec<NewsRow>)> = by_story.into_values().collect();
    stories.sort_by(|a, b| b.0.total_cmp(&a.0).then(b.1[0].news_id.cmp(&a.1[0].news_id)));
    stories.truncate(CITY_STORIES);
    let mut out = Vec::with_capacity(stories.len());
    for (score, rows) in stories {
        let lead = &rows[0];
        let first = if lead.cluster_id.0 > 0 && lead.cluster.size > 1 {
            store
                .cluster_items(lead.cluster_id, 200)
                .await?
                .iter()
                .map(|r| r.news_id)
                .chain(rows.iter().map(|r| r.news_id))
                .min()
                .unwrap_or(lead.news_id)
        } else {
            rows.iter().map(|r| r.news_id).min().unwrap_or(lead.news_id)
        };
        out.push(Story {
            news_id: first,
            rows,
            score,
        });
    }
    Ok(out)
}

/// The item of `story` a reader would get, and whether the story is breaking for them:
/// `None` when every item is hidden (a blocked publisher, a mute), switched off (a
/// publisher, a topic) or in another language: such a story is never pushed to them.
fn item_for<'a>(
    story: &'a Story,
    lang: &str,
    view: &ReaderView,
    settings: &NotificationSettings,
    topics: &HashSet<String>,
) -> Option<(&'a NewsRow, bool)> {
    let topics_of = |row: &'a NewsRow| {
        row.tags
            .iter()
            .chain(std::iter::once(&row.category_id))
            .filter(|t| !t.is_empty())
    };
    let row = story.rows.iter().find(|row| {
        (row.lang.is_empty() || row.lang == lang)
            && !view.hides(row)
            && !settings.media_off.contains(&row.media_id)
            && !topics_of(row).any(|t| settings.topics_off.iter().any(|off| off.eq_ignore_ascii_case(t)))
    })?;
    let followed = story.rows.iter().any(|r| view.follows(r.media_id))
        || story
            .rows
            .iter()
            .any(|r| topics_of(r).any(|t| topics.contains(&t.to_lowercase())));
    Some((row, notify::is_breaking(notify::reader_score(story.score, followed))))
}

/// A reader of this round: their browsers (in this city), their settings and allowance.
struct Reader {
    user: UserId,
    subs: Vec<PushSubscription>,
    settings: NotificationSettings,
    allowance: Allowance,
    lang: Locale,
    view: Option<ReaderView>,
    topics: HashSet<String>,
}

/// One push to send: the browsers, the payload, and the claims it stands for.
struct Job {
    user: UserId,
    subs: Vec<PushSubscription>,
    payload: Vec<u8>,
    topic: String,
    claims: Vec<NewsId>,
}

/// The notifier: its store, its sender, and the clock it reads.
pub struct Notifier {
    pub store: Arc<dyn Store>,
    pub push: Arc<Push>,
    /// When rounds last worked or failed, for `/healthz` (issue 30).
    pub heartbeat: Arc<domain::heartbeat::Heartbeat>,
}

impl Notifier {
    pub fn new(store: Arc<dyn Store>, push: Arc<Push>) -> Notifier {
        Notifier {
            store,
            push,
            heartbeat: Arc::default(),
        }
    }

    /// Run rounds until `stop` resolves, one every configured interval.
    pub async fn run_forever(self, stop: impl std::future::Future<Output = ()>) {
        tokio::pin!(stop);
        self.heartbeat.started(domain::clock::now_ms());
        let mut tick = tokio::time::interval(self.push.config.interval);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = &mut stop => return,
                _ = tick.tick() => {}
            }
            let round = self.round(domain::clock::now_ms()).await;
            match &round {
                Ok(_) => self.heartbeat.round_ok(domain::clock::now_ms()),
                Err(_) => self.heartbeat.round_failed(domain::clock::now_ms()),
            }
            match round {
                Ok(r) if r.claimed > 0 || r.gone > 0 => tracing::info!(?r, "notifier round"),
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "notifier round failed"),
            }
        }
    }

    /// One round at `now_ms` (the clock is the caller's, so tests choose the time).
    pub async fn round(&self, now_ms: i64) -> Result<RoundReport, crate::service::PushError> {
        let key = self.push.key(&*self.store).await?;
        let mut report = RoundReport::default();
        for city_id in self.store.push_cities().await? {
            let r = self.city_round(&key, city_id, now_ms).await?;
            report.stories += r.stories;
            report.claimed += r.claimed;
            report.delivered += r.delivered;
            report.gone += r.gone;
            report.failed += r.failed;
        }
        Ok(report)
    }

    async fn city_round(
        &self,
        key: &Arc<VapidKey>,
        city_id: CityId,
        now_ms: i64,
    ) -> Result<RoundReport, crate::service::PushError> {
        let store = &*self.store;
        let tz = geo::by_id(city_id).map(|c| c.timezone).unwrap_or("America/New_York");
        let at = notify::local_time(now_ms, geo::zone::utc_offset_minutes(now_ms, tz));
        let stories = city_stories(store, city_id, now_ms).await?;
        let mut report = RoundReport {
            stories: stories.len(),
            ..RoundReport::default()
        };
        if stories.is_empty() {
            return Ok(report);
        }
        let mut after = 0;
        loop {
            let targets = store.push_targets(city_id, after, TARGET_PAGE).await?;
            let Some(last) = targets.last() else { break };
            after = last.subscription.id;
            let full = targets.len() as u32 == TARGET_PAGE;
            let r = self.page_round(key, &stories, targets, at, now_ms).await?;
            report.claimed += r.claimed;
            report.delivered += r.delivered;
            report.gone += r.gone;
            report.failed += r.failed;
            if !full {
                break;
            }
        }
        Ok(report)
    }

    async fn page_round(
        &self,
        key: &Arc<VapidKey>,
        stories: &[Story],
        targets: Vec<PushTarget>,
        at: notify::LocalTime,
        now_ms: i64,
    ) -> Result<RoundReport, crate::service::PushError> {
        let store = &*self.store;
        // A reader's browsers in this city, together (ids ascending, so a reader's come in order).
        let mut readers: Vec<Reader> = Vec::new();
        let mut index: HashMap<UserId, usize> = HashMap::new();
        for t in targets {
            let user = t.subscription.user;
            match index.get(&user) {
                Some(&i) => readers[i].subs.push(t.subscription),
                None => {
                    index.insert(user, readers.len());
                    readers.push(Reader {
                        user,
                        lang: Locale::from_code(&t.subscription.lang).unwrap_or(Locale::DEFAULT),
                        subs: vec![t.subscription],
                        settings: t.settings,
                        allowance: Allowance::Nothing(notify::Hold::Off),
                        view: None,
                        topics: HashSet::new(),
                    });
                }
            }
        }
        let users: Vec<UserId> = readers.iter().map(|r| r.user).collect();
        let counts = store.push_counts(&users, at.day_start_ms).await?;
        for r in &mut readers {
            let c = counts.get(&r.user).copied().unwrap_or_default();
            let b = Budget {
                enabled: r.settings.enabled,
                daily_budget: r.settings.daily_budget,
                quiet_start: r.settings.quiet_start,
                quiet_end: r.settings.quiet_end,
                digest_hour: r.settings.digest_hour,
            };
            r.allowance = notify::allowance(b, at, c.singles, c.digests);
            if !matches!(r.allowance, Allowance::Nothing(_)) {
                r.view = Some(store::reader_view::view_of(store, r.user).await?);
                r.topics = store
                    .followed_topics(r.user)
                    .await?
                    .into_iter()
                    .map(|t| t.value.to_lowercase())
                    .collect();
            }
        }
        let mut jobs: Vec<Job> = Vec::new();
        let mut report = RoundReport::default();
        // Single pushes: at most one a round per reader, the best story breaking for them
        // that they have not had (a story they had fails its claim; the next is tried).
        let mut open: Vec<usize> = (0..readers.len())
            .filter(|&i| matches!(readers[i].allowance, Allowance::Singles(_)))
            .collect();
        for story in stories {
            if open.is_empty() {
                break;
            }
            let mut asking: Vec<(usize, &NewsRow)> = Vec::new();
            for &i in &open {
                let r = &readers[i];
                if let Some(view) = r.view.as_ref()
                    && let Some((row, true)) = item_for(story, r.lang.code(), view, &r.settings, &r.topics)
                {
                    asking.push((i, row));
                }
            }
            if asking.is_empty() {
                continue;
            }
            let ask: Vec<(UserId, NewsId)> = asking.iter().map(|&(i, row)| (readers[i].user, row.news_id)).collect();
            let claimed: HashSet<UserId> = store
                .claim_pushes(story.news_id, &ask, now_ms, false)
                .await?
                .into_iter()
                .collect();
            report.claimed += claimed.len();
            for &(i, row) in &asking {
                let r = &readers[i];
                if !claimed.contains(&r.user) {
                    continue;
                }
                let payload = single_payload(r.lang, story.news_id, row);
                jobs.push(Job {
                    user: r.user,
                    subs: r.subs.clone(),
                    payload: serde_json::to_vec(&payload).unwrap_or_default(),
                    topic: format!("s{}", story.news_id.0),
                    claims: vec![story.news_id],
                });
            }
            open.retain(|i| !claimed.contains(&readers[*i].user));
        }
        // Digests: the day's best stories each reader has not had, up to DIGEST_MAX.
        let digest_readers: Vec<usize> = (0..readers.len())
            .filter(|&i| readers[i].allowance == Allowance::Digest)
            .collect();
        if !digest_readers.is_empty() {
            let mut picked: HashMap<usize, Vec<(NewsId, &NewsRow)>> = HashMap::new();
            for story in stories {
                let mut asking: Vec<(usize, &NewsRow)> = Vec::new();
                for &i in &digest_readers {
                    let r = &readers[i];
                    if picked.get(&i).map_or(0, Vec::len) >= notify::DIGEST_MAX {
                        continue;
                    }
                    if let Some(view) = r.view.as_ref()
                        && let Some((row, _)) = item_for(story, r.lang.code(), view, &r.settings, &r.topics)
                    {
                        asking.push((i, row));
                    }
                }
                if asking.is_empty() {
                    continue;
                }
                let ask: Vec<(UserId, NewsId)> =
                    asking.iter().map(|&(i, row)| (readers[i].user, row.news_id)).collect();
                let claimed: HashSet<UserId> = store
                    .claim_pushes(story.news_id, &ask, now_ms, true)
                    .await?
                    .into_iter()
                    .collect();
                report.claimed += claimed.len();
                for (i, row) in asking {
                    if claimed.contains(&readers[i].user) {
                        picked.entry(i).or_default().push((story.news_id, row));
                    }
                }
            }
            for (i, list) in picked {
                let r = &readers[i];
                let rows: Vec<&NewsRow> = list.iter().map(|(_, row)| *row).collect();
                let payload = digest_payload(r.lang, &rows, at.day_start_ms);
                jobs.push(Job {
                    user: r.user,
                    subs: r.subs.clone(),
                    payload: serde_json::to_vec(&payload).unwrap_or_default(),
                    topic: format!("d{}", at.day_start_ms / 86_400_000),
                    claims: list.iter().map(|(story, _)| *story).collect(),
                });
            }
        }
        let sent = self.send_all(key, jobs).await?;
        report.delivered += sent.delivered;
        report.gone += sent.gone;
        report.failed += sent.failed;
        Ok(report)
    }

    /// Send every job, [`super::service::PushConfig::concurrency`] deliveries at a time;
    /// then remove gone browsers, count failures, and give back claims nothing delivered.
    async fn send_all(&self, key: &Arc<VapidKey>, jobs: Vec<Job>) -> Result<RoundReport, crate::service::PushError> {
        let limit = Arc::new(Semaphore::new(self.push.config.concurrency.max(1)));
        let mut tasks = tokio::task::JoinSet::new();
        for (j, job) in jobs.iter().enumerate() {
            let payload = Arc::new(job.payload.clone());
            for sub in &job.subs {
                let (push, key, limit, payload, sub, topic) = (
                    self.push.clone(),
                    key.clone(),
                    limit.clone(),
                    payload.clone(),
                    sub.clone(),
                    job.topic.clone(),
                );
                tasks.spawn(async move {
                    let _slot = limit.acquire_owned().await;
                    let outcome = push.deliver(&key, &sub, &payload, TTL_S, Some(&topic)).await;
                    (j, sub, outcome)
                });
            }
        }
        let mut delivered_jobs: HashSet<usize> = HashSet::new();
        let mut report = RoundReport::default();
        let mut outcomes = Vec::new();
        while let Some(done) = tasks.join_next().await {
            if let Ok(x) = done {
                outcomes.push(x);
            }
        }
        for (j, sub, outcome) in outcomes {
            match outcome {
                Delivery::Accepted => {
                    report.delivered += 1;
                    delivered_jobs.insert(j);
                    if sub.failures > 0 {
                        self.store.record_push_delivery(&sub.endpoint, true).await?;
                    }
                }
                Delivery::Gone | Delivery::BadKeys | Delivery::Refused => {
                    report.gone += 1;
                    self.store.remove_push_endpoint(&sub.endpoint).await?;
                }
                Delivery::Failed(status) => {
                    report.failed += 1;
                    let failures = self.store.record_push_delivery(&sub.endpoint, false).await?;
                    tracing::debug!(status, failures, "a push service refused or did not answer");
                    if failures >= MAX_FAILURES {
                        self.store.remove_push_endpoint(&sub.endpoint).await?;
                    }
                }
            }
        }
        for (j, job) in jobs.iter().enumerate() {
            if !delivered_jobs.contains(&j) {
                for news in &job.claims {
                    self.store.release_push(job.user, *news).await?;
                }
            }
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d311_a_payload_opens_the_article_in_the_readers_language() {
        let row = NewsRow {
            news_id: NewsId(42),
            title: "Bridge closed".into(),
            summary: "The bridge is closed for repairs.".into(),
            media_name: "City Paper".into(),
            ..NewsRow::default()
        };
        // Item 42 of the story that began with item 40: the article opened is the item's,
        // the tag the story's.
        let p = single_payload(Locale::Es, NewsId(40), &row);
        assert_eq!(p.url, "/es/article/42");
        assert_eq!(p.tag, "story-40");
        assert_eq!(p.title, "Bridge closed");
        assert_eq!(p.body, "City Paper · The bridge is closed for repairs.");
        assert_eq!(single_payload(Locale::En, NewsId(42), &row).url, "/article/42");
        let d = digest_payload(Locale::Fr, &[&row, &row], 86_400_000 * 3);
        assert_eq!(d.tag, "digest-3");
        assert!(d.body.contains("• Bridge closed"));
        assert_eq!(cut("abcdef", 4), "abc…");
    }
}
