//! Content: publishers (media sources), their feeds, news items, places and story
//! clusters (SPEC §3 "Media source", "News item", "Area"), and full-text search.
//!
//! Places are stored as text keys so one index serves cities, states and countries:
//! `c:<GeoNames id>` for a city, `s:<ISO>-<admin code>` for a state or province
//! (`s:US-ME`), `n:<ISO>` for a country. See [`PlaceKey`].

use async_trait::async_trait;

use crate::Result;
pub use domain::ids::{CityId, ClusterId, FeedId, MediaId, NewsId};

/// A place an item is about, as stored in `news_places`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PlaceKey {
    City(CityId),
    State { country: String, admin_code: String },
    Country(String),
}

impl PlaceKey {
    pub fn key(&self) -> String {
        match self {
            PlaceKey::City(id) => format!("c:{id}"),
            PlaceKey::State { country, admin_code } => format!("s:{country}-{admin_code}"),
            PlaceKey::Country(iso) => format!("n:{iso}"),
        }
    }
}

/// A publisher to create (or find by its slug).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewMedia {
    /// Stable, unique key derived from the name (`the-capitol-ledger`).
    pub slug: String,
    pub name: String,
    pub icon_url: String,
    pub home_url: String,
    pub about: String,
    pub contact: String,
    pub category_id: String,
    pub category_top_id: String,
    /// area1: ISO country (US, CA).
    pub country: String,
    /// area2: state or province code.
    pub admin_code: String,
    /// area3: city name.
    pub city: String,
    /// The city's GeoNames id (0 when unknown).
    pub city_id: CityId,
    /// Default language of the publisher's feeds.
    pub lang: String,
}

/// A publisher as stored (SPEC §3 "Media source").
#[derive(Debug, Clone, PartialEq)]
pub struct MediaSource {
    pub media_id: MediaId,
    pub slug: String,
    pub name: String,
    pub icon_url: String,
    pub home_url: String,
    pub about: String,
    pub contact: String,
    pub category_id: String,
    pub category_top_id: String,
    pub country: String,
    pub admin_code: String,
    pub city: String,
    pub city_id: CityId,
    pub lang: String,
    pub item_count: i64,
}

/// A publisher with its feeds, as imported from or exported to OPML.
#[derive(Debug, Clone, PartialEq)]
pub struct PublisherFeeds {
    pub media: NewMedia,
    pub feeds: Vec<NewFeed>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct NewFeed {
    pub url: String,
    /// The feed's language (defaults to the publisher's).
    pub lang: String,
}

/// What an import did: feeds added, and those skipped with the reason.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ImportReport {
    pub media_added: usize,
    pub feeds_added: usize,
    pub skipped: Vec<(String, String)>,
}

/// A feed with its health, for `feeds list` and the scheduler.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedStatus {
    pub feed_id: FeedId,
    pub media_id: MediaId,
    pub media_name: String,
    pub url: String,
    pub lang: String,
    pub last_fetch_ms: Option<i64>,
    pub last_status: Option<i32>,
    pub last_items: i64,
    pub last_error: String,
    pub next_due_ms: i64,
    pub consecutive_errors: i32,
    pub interval_secs: i64,
    pub item_count: i64,
    /// Paused by an operator: kept with its stories, never claimed for fetching (D336).
    pub paused: bool,
}

/// Ingestion's state across every server sharing the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FeedHealth {
    /// Feeds, paused ones included.
    pub feeds: i64,
    /// The earliest next-due time of a feed that is not paused: how far behind ingestion
    /// is when it lies in the past.
    pub oldest_due_ms: Option<i64>,
    /// Feeds not paused whose last fetch failed.
    pub failing: i64,
}

/// A feed claimed for fetching: everything the fetcher and pipeline need.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimedFeed {
    pub feed_id: FeedId,
    pub url: String,
    pub lang: String,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    pub consecutive_errors: i32,
    pub interval_secs: i64,
    pub media: MediaSource,
}

/// The outcome of one fetch, recorded on the feed (and its lease released).
#[derive(Debug, Clone, PartialEq)]
pub struct FetchRecord {
    pub fetched_at_ms: i64,
    pub status: Option<i32>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// Items new or changed in this fetch.
    pub items: i64,
    /// "" when the fetch succeeded.
    pub error: String,
    pub next_due_ms: i64,
    pub consecutive_errors: i32,
    pub interval_secs: i64,
}

/// A clean news item ready to store (SPEC §3 "News item" fields plus what dedup,
/// clustering and search need).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewsRecord {
    /// Stable per-publisher identity (`guid:…`, `link:…` or `hash:…`).
    pub identity: String,
    /// Link without tracking parameters; the same URL from one publisher is one item.
    pub canonical_url: String,
    pub title: String,
    pub org_img_url: String,
    pub img_url: String,
    pub thumbnail_url: String,
    pub video_url: String,
    pub voice_url: String,
    pub content: String,
    /// Plain text of the content, for the search index (not returned).
    pub body_text: String,
    pub content_type: String,
    pub content_total_length: i64,
    pub description: String,
    pub summary: String,
    pub news_type: i32,
    pub publish_time_ms: i64,
    pub link_url: String,
    pub author: String,
    pub category_id: String,
    pub tags: Vec<String>,
    pub lang: String,
    /// GeoNames ids of the cities the item is about (area_list), first = main place.
    pub city_ids: Vec<CityId>,
    /// Every place key (cities, their states, the country) for place feeds.
    pub places: Vec<PlaceKey>,
    /// Clustering signature (opaque bytes from `ingest::cluster`).
    pub signature: Vec<u8>,
    /// Hash of the fields above: an unchanged item is not rewritten.
    pub content_hash: String,
}

/// What storing one record did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Upserted {
    Inserted(NewsId),
    Updated(NewsId),
    Unchanged(NewsId),
}

impl Upserted {
    pub fn news_id(self) -> NewsId {
        match self {
            Upserted::Inserted(id) | Upserted::Updated(id) | Upserted::Unchanged(id) => id,
        }
    }
}

/// Which story cluster a new item joins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClusterChoice {
    /// A story of its own.
    New,
    /// An existing cluster.
    Join(ClusterId),
    /// The cluster of an earlier item of the same batch (its index).
    SameAs(usize),
}

/// A recent item that a new one may join in a story cluster.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterCandidate {
    pub news_id: NewsId,
    pub cluster_id: ClusterId,
    pub media_id: MediaId,
    pub publish_time_ms: i64,
    pub signature: Vec<u8>,
    /// The cities the item is about (area_list), else its publisher's city: where the
    /// story happens, for telling look-alike stories from different places apart.
    pub city_ids: Vec<CityId>,
}

/// A story cluster's numbers, from which `is_hot` and the top ranking follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ClusterStats {
    pub size: i64,
    pub media_count: i64,
    pub newest_ms: i64,
}

/// A stored item as read, with its publisher's flat fields and its cluster.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NewsRow {
    pub news_id: NewsId,
    pub media_id: MediaId,
    pub title: String,
    pub org_img_url: String,
    pub img_url: String,
    pub thumbnail_url: String,
    pub video_url: String,
    pub voice_url: String,
    /// Empty in lists; filled by [`ContentStore::news`].
    pub content: String,
    pub content_type: String,
    pub content_total_length: i64,
    pub description: String,
    pub summary: String,
    pub news_type: i32,
    pub publish_time_ms: i64,
    pub link_url: String,
    pub author: String,
    pub category_id: String,
    pub tags: Vec<String>,
    pub lang: String,
    pub city_ids: Vec<CityId>,
    pub read_count: i64,
    pub like_count: i64,
    pub share_count: i64,
    pub comment_count: i64,
    pub media_name: String,
    pub media_icon: String,
    pub media_home_url: String,
    pub cluster_id: ClusterId,
    pub cluster: ClusterStats,
}

impl NewsRow {
    /// The item's story holds other items too.
    pub fn in_a_story(&self) -> bool {
        self.cluster_id != ClusterId(0) && self.cluster.size > 1
    }
}

/// [`ContentStore::story`]'s answer.
#[derive(Debug, Clone)]
pub struct StoryRows {
    /// With its content.
    pub news: NewsRow,
    /// `None` when the publisher is gone.
    pub media: Option<MediaSource>,
    /// The story's items, newest first, this one among them; empty when it is alone.
    pub cluster: Vec<NewsRow>,
}

/// Filters every list shares.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ListFilter {
    /// Only items in this language.
    pub lang: Option<String>,
    /// Only items from publishers in this country.
    pub country: Option<String>,
}

/// Which items a time-ordered list holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Listing {
    Latest,
    /// Items placed in any of these places (newest first, each item once).
    Places(Vec<PlaceKey>),
    Category(String),
    Media(MediaId),
    /// Items of any of these publishers (a reader's Following feed).
    Publishers(Vec<MediaId>),
    Ids(Vec<NewsId>),
}

/// Keyset position: the last item of the previous page (newest-first lists; oldest-first
/// for [`ContentStore::published_before`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct After {
    pub publish_time_ms: i64,
    pub news_id: NewsId,
}

impl From<(i64, i64)> for After {
    /// A (publish time, news id) row.
    fn from((publish_time_ms, id): (i64, i64)) -> After {
        After {
            publish_time_ms,
            news_id: NewsId(id),
        }
    }
}

/// Search ranks only this many of the newest matching items (by id, i.e. by when they
/// were stored), best match first (D141): a word found in half the corpus costs the same
/// as a rare one, and a news search wants recent stories anyway.
pub const SEARCH_RANKED_MAX: i64 = 1_000;

/// A search page's offset and size within the first [`SEARCH_RANKED_MAX`] results, or
/// None past them (negative values count as 0).
fn search_window(offset: i64, limit: i64) -> Option<(usize, usize)> {
    let offset = offset.max(0);
    let limit = limit.max(0).min(SEARCH_RANKED_MAX - offset);
    (limit > 0).then_some((offset as usize, limit as usize))
}

/// One tier of a search's matches (D412, D426): where the words are, and where the story
/// is placed relative to the reader's own city ([`SearchQuery::near`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tier {
    /// Every word is in the title (else: the words match, but not all in the title).
    pub in_title: bool,
    pub near: Near,
}

/// A tier's place condition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Near {
    /// No condition: the query has no reader's place, or a place filter.
    Anywhere,
    /// Among the tier's newest [`SEARCH_RANKED_MAX`] matches, those placed in the reader's
    /// place: a bounded read however common the words, and a news search wants recent
    /// stories anyway.
    Inside,
}

/// The ids of one page of a search, the same rules on every engine:
/// - the last word is a prefix only when the whole words match fewer than
///   [`WHOLE_WORD_ENOUGH`] stories (D411; `whole_matches(n)` counts them, stopping at n);
/// - with a reader's place (D426), the tiers in it first: stories placed there whose
///   title holds every word, then the other matches placed there ([`Near::Inside`]),
///   then every other story as below;
/// - stories whose title holds every word first, then the other matches, each newest
///   first (D412): `tier(tier, last_as_prefix, n)` gives at most n of a tier, and only
///   what the page needs is read;
/// - paging ends after [`SEARCH_RANKED_MAX`] results (D141).
pub async fn search_page<W, T, F>(
    query: &SearchQuery,
    offset: i64,
    limit: i64,
    whole_matches: W,
    tier: T,
) -> Result<Vec<NewsId>>
where
    W: AsyncFnOnce(i64) -> Result<i64>,
    // A plain closure returning its future (not `AsyncFn`), so the engines' futures stay
    // `Send` for `async_trait`.
    T: Fn(Tier, bool, i64) -> F,
    F: std::future::Future<Output = Result<Vec<NewsId>>>,
{
    let Some((offset, limit)) = search_window(offset, limit) else {
        return Ok(Vec::new());
    };
    let prefix = whole_matches(WHOLE_WORD_ENOUGH).await? < WHOLE_WORD_ENOUGH;
    let wanted = offset + limit;
    let mut ids: Vec<NewsId> = Vec::with_capacity(wanted);
    // The reader's-place tiers, each whole by the time the page goes past it (a tier that
    // gave fewer than asked has no more), so the tiers after them can leave them out.
    let mut near: [Vec<NewsId>; 2] = [Vec::new(), Vec::new()];
    if query.near_place().is_some() {
        for (i, in_title) in [true, false].into_iter().enumerate() {
            if ids.len() == wanted {
                break;
            }
            let n = wanted - ids.len();
            near[i] = tier(
                Tier {
                    in_title,
                    near: Near::Inside,
                },
                prefix,
                n as i64,
            )
            .await?;
            ids.extend_from_slice(&near[i]);
        }
    }
    for (i, in_title) in [true, false].into_iter().enumerate() {
        if ids.len() == wanted {
            break;
        }
        let seen: std::collections::HashSet<NewsId> = near[i].iter().copied().collect();
        let n = wanted - ids.len() + seen.len();
        let found = tier(
            Tier {
                in_title,
                near: Near::Anywhere,
            },
            prefix,
            n as i64,
        )
        .await?;
        let room = wanted - ids.len();
        ids.extend(found.into_iter().filter(|id| !seen.contains(id)).take(room));
    }
    Ok(ids.into_iter().skip(offset).take(limit).collect())
}

/// The stories of `ids` (a search's page), whole but for their content, in that order.
pub async fn news_in_order<S: ContentStore + ?Sized>(store: &S, ids: Vec<NewsId>) -> Result<Vec<NewsRow>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let limit = ids.len() as i64;
    let rows = store
        .list_news(&Listing::Ids(ids.clone()), &ListFilter::default(), None, limit)
        .await?;
    let mut by_id: std::collections::HashMap<NewsId, NewsRow> = rows.into_iter().map(|r| (r.news_id, r)).collect();
    Ok(ids.iter().filter_map(|id| by_id.remove(id)).collect())
}

/// The last word of a search is read as a prefix only when, as a whole word, it matches
/// fewer stories than this (D411): a common word's prefix joins the match lists of every
/// word it begins (all of them read to the end), a whole word's list is read newest first
/// and only as far as the page needs.
pub const WHOLE_WORD_ENOUGH: i64 = 50;

/// A full-text query.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SearchQuery {
    /// Folded words (accent- and case-insensitive), all of which must match
    /// (the last one as a prefix when it is rare as a whole word, [`WHOLE_WORD_ENOUGH`]).
    pub terms: Vec<String>,
    pub filter: ListFilter,
    pub place: Option<PlaceKey>,
    /// The reader's own place (D426): the matches placed there come first. It filters
    /// nothing, and a `place` filter makes it moot.
    pub near: Option<PlaceKey>,
    pub category: Option<String>,
    pub since_ms: Option<i64>,
}

impl SearchQuery {
    /// The place whose matches come first, unless a place filter makes every match one.
    pub fn near_place(&self) -> Option<&PlaceKey> {
        self.near.as_ref().filter(|_| self.place.is_none())
    }

    /// The words to match: letters and digits only, so no query syntax of either engine
    /// can come from a reader, whatever the caller passed.
    pub fn words(&self) -> Vec<String> {
        self.terms
            .iter()
            .flat_map(|t| t.split(|c: char| !c.is_alphanumeric()))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    }
}

/// An operator-defined collection (`/special/{slug}`): a query or a hand-picked list.
#[derive(Debug, Clone, PartialEq)]
pub struct Special {
    pub slug: String,
    pub title: String,
    pub description: String,
    /// Search words; empty when the collection is a list.
    pub query: String,
    pub news_ids: Vec<NewsId>,
}

#[async_trait]
pub trait ContentStore: Send + Sync {
    /// Add publishers and their feeds in one transaction (all or nothing). Publishers are
    /// matched by slug; feed URLs already present are skipped and reported.
    async fn import_publishers(&self, publishers: &[PublisherFeeds], now_ms: i64) -> Result<ImportReport>;

    /// Every publisher with its feeds, in id order (for OPML export).
    async fn export_publishers(&self) -> Result<Vec<(MediaSource, Vec<NewFeed>)>>;

    /// Remove a feed by URL or id, its items, and its publisher when no feed is left.
    async fn remove_feed(&self, url_or_id: &str) -> Result<bool>;

    async fn feeds(&self) -> Result<Vec<FeedStatus>>;

    /// Pause or resume a feed (D336). A paused feed keeps its stories and is never claimed;
    /// a resumed one is due at once. False when there is no such feed.
    async fn set_feed_paused(&self, feed_id: FeedId, paused: bool, now_ms: i64) -> Result<bool>;

    /// How ingestion keeps up, for `/healthz` and `/metrics` (issue 30): one cheap read.
    async fn feed_health(&self) -> Result<FeedHealth>;

    /// Lease up to `limit` feeds due at `now_ms` until `lease_until_ms`. Several servers
    /// can call this at once: a feed is leased to one of them only.
    async fn claim_due_feeds(&self, now_ms: i64, lease_until_ms: i64, limit: i64) -> Result<Vec<ClaimedFeed>>;

    /// Record a fetch and release the feed's lease.
    async fn record_fetch(&self, feed_id: FeedId, record: &FetchRecord) -> Result<()>;

    /// Store a feed's items in one transaction: new identities (or canonical URLs) are
    /// inserted, changed ones updated in place (keeping their cluster), unchanged ones left
    /// alone. `clusters[i]` says which story a new item `i` joins. Cluster stats are kept.
    async fn upsert_items(
        &self,
        feed_id: FeedId,
        media_id: MediaId,
        items: &[NewsRecord],
        clusters: &[ClusterChoice],
        now_ms: i64,
    ) -> Result<Vec<Upserted>>;

    /// [`ContentStore::upsert_items`] for ingestion: the store may run it in a group with
    /// other ingestion writes and commit them together (SQLite does, D158). The result
    /// is final, but readers see the items, and they survive a crash, only once the
    /// group commits: within a short interval, or at [`ContentStore::commit_grouped`].
    /// If that commit fails, the group's items and fetch records are lost together, so
    /// their feeds are fetched again when their leases lapse.
    /// It takes the records: ingestion is done with them, and a store that writes on
    /// another thread need not copy them.
    async fn upsert_items_grouped(
        &self,
        feed_id: FeedId,
        media_id: MediaId,
        items: Vec<NewsRecord>,
        clusters: Vec<ClusterChoice>,
        now_ms: i64,
    ) -> Result<Vec<Upserted>> {
        self.upsert_items(feed_id, media_id, &items, &clusters, now_ms).await
    }

    /// [`ContentStore::record_fetch`] in the group of [`ContentStore::upsert_items_grouped`].
    async fn record_fetch_grouped(&self, feed_id: FeedId, record: &FetchRecord) -> Result<()> {
        self.record_fetch(feed_id, record).await
    }

    /// Commit the grouped writes made so far; when it returns they are durable and seen.
    async fn commit_grouped(&self) -> Result<()> {
        Ok(())
    }

    /// Bring the full-text index into the shape searches read fastest, after a bulk load
    /// (D438: SQLite merges its index's segments into one). Nothing to do by default.
    async fn merge_search_index(&self) -> Result<()> {
        Ok(())
    }

    /// Items published between the two times (inclusive), for clustering.
    async fn cluster_candidates(&self, from_ms: i64, to_ms: i64) -> Result<Vec<ClusterCandidate>>;

    /// [`ContentStore::cluster_candidates`] written (inserted or updated) at `since_ms` or
    /// later: what other processes stored since a clustering window was last read.
    async fn cluster_candidates_since(&self, from_ms: i64, to_ms: i64, since_ms: i64) -> Result<Vec<ClusterCandidate>>;

    /// `(identity, content_hash)` of the given identities already stored for a publisher,
    /// so unchanged items are skipped before the expensive steps.
    async fn known_hashes(&self, media_id: MediaId, identities: &[String]) -> Result<Vec<(String, String)>>;

    async fn media(&self, media_id: MediaId) -> Result<Option<MediaSource>>;

    /// Publishers whose folded name contains `folded`, by name.
    async fn search_media(&self, folded: &str, offset: i64, limit: i64) -> Result<Vec<MediaSource>>;

    /// One item with its content.
    async fn news(&self, news_id: NewsId) -> Result<Option<NewsRow>>;

    /// One item with its content, its publisher and, when its story holds more than it, up
    /// to `cluster_limit` of the story's items newest first: what a story's page reads
    /// before its related stories. An engine reads them in one go where it can (D437).
    async fn story(&self, news_id: NewsId, cluster_limit: i64) -> Result<Option<StoryRows>> {
        let Some(news) = self.news(news_id).await? else {
            return Ok(None);
        };
        let media = self.media(news.media_id).await?;
        let cluster = if news.in_a_story() {
            self.cluster_items(news.cluster_id, cluster_limit).await?
        } else {
            Vec::new()
        };
        Ok(Some(StoryRows { news, media, cluster }))
    }
    /// Stories' public reaction counts (`like_count`, D394). Not a change readers wait for:
    /// the read caches show it within their age limit (D140), it does not empty them.
    async fn set_like_counts(&self, counts: &[(NewsId, i64)]) -> Result<()>;

    /// Newest first, after `after`, at most `limit`.
    async fn list_news(
        &self,
        listing: &Listing,
        filter: &ListFilter,
        after: Option<After>,
        limit: i64,
    ) -> Result<Vec<NewsRow>>;

    /// Lead items of clusters seen since `since_ms`, by publisher count, size, then recency.
    async fn top_news(&self, filter: &ListFilter, since_ms: i64, offset: i64, limit: i64) -> Result<Vec<NewsRow>>;

    /// The items of a cluster, newest first.
    async fn cluster_items(&self, cluster_id: ClusterId, limit: i64) -> Result<Vec<NewsRow>>;

    /// Full-text search: among the [`SEARCH_RANKED_MAX`] newest items that match and pass
    /// the filters, best match first.
    async fn search_news(&self, query: &SearchQuery, offset: i64, limit: i64) -> Result<Vec<NewsRow>>;

    /// Stories published before `before_ms`, oldest first (publish time, then id), after
    /// the keyset position `after`: at most `limit` (story retention, D414).
    async fn published_before(&self, before_ms: i64, after: Option<After>, limit: i64) -> Result<Vec<After>>;

    /// Delete these stories with their places and full-text rows; their stories
    /// (clusters) are counted again and go when empty. How many were deleted.
    async fn delete_news(&self, ids: &[NewsId]) -> Result<u64>;

    async fn put_special(&self, special: &Special, now_ms: i64) -> Result<()>;
    async fn special(&self, slug: &str) -> Result<Option<Special>>;
    async fn specials(&self) -> Result<Vec<Special>>;
    async fn remove_special(&self, slug: &str) -> Result<bool>;

    /// Goes up after every write in this process that can change what readers see
    /// (items, publishers, feeds, specials); fetch bookkeeping does not count. Caches of
    /// read answers compare it to know they are stale (another process's writes are not
    /// seen here: such caches also expire on time).
    fn content_generation(&self) -> u64;
}

/// The counter behind [`ContentStore::content_generation`].
#[derive(Debug, Default)]
pub struct Generation(std::sync::atomic::AtomicU64);

impl Generation {
    pub fn get(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Count a write that has committed.
    pub fn bump(&self) {
        self.0.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
    }

    /// Count a write that has committed; passes its result through.
    pub fn after<T>(&self, result: Result<T>) -> Result<T> {
        if result.is_ok() {
            self.0.fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        }
        result
    }
}
