//! The trends of each scope (country and language, or a state of it), kept in memory and
//! brought up to date incrementally (D301).
//!
//! A scope keeps the stories of the engine's whole window (baseline and recent, 78 hours)
//! with their phrases made once. When its trends are older than [`FRESH_MS`] and the
//! store has changed, the next ask reads only the items newer than the newest it holds
//! (newest first, stopping there), forgets those older than the window, and runs the
//! engine again over what it holds; every [`FULL_RELOAD_MS`] it reads the window whole
//! (an item stored late with an older publish time is then counted). The update runs in
//! the background, one per scope; asks meanwhile are given the trends already made. Only
//! the very first ask of a scope waits (for the one that makes them).

use crate::engine::{self, BASELINE_MS, RECENT_MS, Story, Trend};
use crate::phrases::phrases;
use domain::ids::NewsId;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use store::Store;
use store::content::{After, ListFilter, Listing, NewsRow};
use tokio::sync::Mutex;

/// Trends are made again at most this often (and only when the store changed).
pub const FRESH_MS: i64 = 60_000;
/// The window is read whole again this often.
pub const FULL_RELOAD_MS: i64 = 15 * 60_000;
/// Items read per page, and at most per scope (the newest).
const PAGE: i64 = 500;
pub const MAX_STORIES_PER_SCOPE: usize = 200_000;

/// Which stories a scope holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ScopeKey {
    pub filter_lang: String,
    pub country: String,
    /// A state's admin code, or empty for the whole country.
    pub state: String,
}

/// A scope's trends as made at `made_ms`, with the rows of their items (for a reader's
/// mutes and for the cards).
#[derive(Debug, Default)]
pub struct Made {
    pub made_ms: i64,
    pub trends: Vec<Trend>,
    pub rows: HashMap<NewsId, NewsRow>,
    /// Stories begun in the recent window (whether a state has enough news).
    pub recent_stories: usize,
}

#[derive(Default)]
struct Scope {
    stories: Vec<Story>,
    newest: Option<After>,
    full_ms: i64,
    generation: u64,
    made: Arc<Made>,
}

/// A scope's work (what it holds, updated under the lock) and its latest trends (read
/// without waiting for an update).
#[derive(Default)]
struct Cell {
    work: Mutex<Scope>,
    made: std::sync::Mutex<Arc<Made>>,
    updating: AtomicBool,
}

impl Cell {
    fn made(&self) -> Arc<Made> {
        self.made.lock().map(|m| m.clone()).unwrap_or_default()
    }

    /// Bring the scope up to date (or, `first`, make it if no one has yet).
    async fn update(&self, store: &dyn Store, key: &ScopeKey, now_ms: i64, first: bool) -> store::Result<()> {
        let mut scope = self.work.lock().await;
        if first && scope.made.made_ms > 0 {
            return Ok(());
        }
        let generation = store.content_generation();
        let full = now_ms - scope.full_ms >= FULL_RELOAD_MS;
        update(&mut scope, store, key, now_ms, full).await?;
        scope.generation = generation;
        if let Ok(mut made) = self.made.lock() {
            *made = scope.made.clone();
        }
        Ok(())
    }
}

#[derive(Default)]
pub struct KeptTrends(Mutex<HashMap<ScopeKey, Arc<Cell>>>);

impl KeptTrends {
    /// The scope's trends. The first ask makes them; later, stale ones are answered while
    /// one update runs in the background (stale-while-revalidate).
    pub async fn get(&self, store: &Arc<dyn Store>, key: &ScopeKey, now_ms: i64) -> store::Result<Arc<Made>> {
        let cell = {
            let mut map = self.0.lock().await;
            map.entry(key.clone()).or_default().clone()
        };
        let made = cell.made();
        if made.made_ms == 0 {
            // Never made: the asks wait for the one that makes them.
            cell.update(store.as_ref(), key, now_ms, true).await?;
            return Ok(cell.made());
        }
        let (generation, full_ms) = {
            let scope = cell.work.try_lock();
            match scope {
                Ok(s) => (s.generation, s.full_ms),
                // An update is running: what is made is the freshest there is.
                Err(_) => return Ok(made),
            }
        };
        let stale = (now_ms - made.made_ms >= FRESH_MS && store.content_generation() != generation)
            || now_ms - full_ms >= FULL_RELOAD_MS;
        if stale && !cell.updating.swap(true, Ordering::AcqRel) {
            let (cell, store, key) = (cell.clone(), store.clone(), key.clone());
            tokio::spawn(async move {
                if let Err(e) = cell.update(store.as_ref(), &key, now_ms, false).await {
                    tracing::warn!(error = %e, "could not bring trends up to date");
                }
                cell.updating.store(false, Ordering::Release);
            });
        }
        Ok(made)
    }
}

fn listing(key: &ScopeKey) -> Listing {
    if key.state.is_empty() {
        Listing::Latest
    } else {
        Listing::Places(vec![store::content::PlaceKey::State {
            country: key.country.clone(),
            admin_code: key.state.clone(),
        }])
    }
}

async fn update(scope: &mut Scope, store: &dyn Store, key: &ScopeKey, now_ms: i64, full: bool) -> store::Result<()> {
    let window_start = now_ms - RECENT_MS - BASELINE_MS;
    let filter = ListFilter {
        lang: Some(key.filter_lang.clone()),
        country: Some(key.country.clone()),
    };
    let listing = listing(key);
    let stop_at = if full { None } else { scope.newest };
    let mut fresh: Vec<Story> = Vec::new();
    let mut seen: HashSet<NewsId> = HashSet::new();
    let mut after = None;
    'pages: loop {
        let rows = store.list_news(&listing, &filter, after, PAGE).await?;
        let n = rows.len();
        for r in rows {
            let at = After {
                publish_time_ms: r.publish_time_ms,
                news_id: r.news_id,
            };
            after = Some(at);
            if r.publish_time_ms < window_start
                || stop_at.is_some_and(|s| (at.publish_time_ms, at.news_id) <= (s.publish_time_ms, s.news_id))
                || fresh.len() >= MAX_STORIES_PER_SCOPE
            {
                break 'pages;
            }
            if r.publish_time_ms > now_ms || !seen.insert(r.news_id) {
                continue;
            }
            fresh.push(Story {
                news_id: r.news_id,
                media_id: r.media_id,
                cluster_id: r.cluster_id,
                published_ms: r.publish_time_ms,
                phrases: phrases(&r.title, &r.lang).into(),
            });
        }
        if n < PAGE as usize {
            break;
        }
    }
    if let Some(first) = fresh.first() {
        scope.newest = Some(After {
            publish_time_ms: first.published_ms,
            news_id: first.news_id,
        });
    }
    if full {
        scope.stories = fresh;
        scope.full_ms = now_ms;
    } else {
        scope.stories.retain(|s| s.published_ms >= window_start);
        scope.stories.extend(fresh);
    }
    let trends = engine::trends(&scope.stories, now_ms);
    let recent_stories = scope
        .stories
        .iter()
        .filter(|s| s.published_ms >= now_ms - RECENT_MS)
        .map(|s| s.cluster_id)
        .collect::<HashSet<_>>()
        .len();
    let ids: Vec<NewsId> = trends
        .iter()
        .flat_map(|t| t.members.iter().map(|m| m.news_id))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut rows = HashMap::with_capacity(ids.len());
    for chunk in ids.chunks(PAGE as usize) {
        let listed = store
            .list_news(
                &Listing::Ids(chunk.to_vec()),
                &ListFilter::default(),
                None,
                chunk.len() as i64,
            )
            .await?;
        for mut r in listed {
            r.content.clear();
            rows.insert(r.news_id, r);
        }
    }
    scope.made = Arc::new(Made {
        made_ms: now_ms,
        trends,
        rows,
        recent_stories,
    });
    Ok(())
}
