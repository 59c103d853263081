//! [`ContentStore`] on SQLite: reads on plain connections of their own
//! ([`ContentReader`](crate::sqlite::content_read::ContentReader), D416), writes through
//! [`ContentWriter`](crate::sqlite::content_write::ContentWriter).

use crate::rows::{media_row, news_row, special_row};
use crate::sqlite::SqliteStore;
use crate::sqlite::content_write::{self as w, Change};
use crate::sqlite::{search_tags, top_walk};
use async_trait::async_trait;
use rusqlite::OptionalExtension;
use rusqlite::types::Value;
use store::content::{
    After, ClaimedFeed, ClusterCandidate, ClusterChoice, ClusterId, FeedHealth, FeedId, FeedStatus, FetchRecord,
    ImportReport, ListFilter, Listing, MediaId, MediaSource, Near, NewFeed, NewsId, NewsRecord, NewsRow, PlaceKey,
    PublisherFeeds, SEARCH_RANKED_MAX, SearchQuery, Special, StoryRows, Tier, Upserted, news_in_order, search_page,
};
use store::{ContentStore, Result, StoreError};

/// Limits and offsets are written `LIMIT +?n`: SQLite (3.45 and later) reads a bare
/// `LIMIT ?n` as a constant for planning, so each new bind expires the statement and
/// every call prepared it again (10–17% of a read's CPU under load); the unary plus
/// keeps the value a run-time one (same rows).
///
/// Language and country filters: binds ?1 (lang or NULL) and ?2 (country or NULL).
macro_rules! filters {
    () => {
        " (?1 IS NULL OR n.lang = ?1) AND (?2 IS NULL OR n.country = ?2) "
    };
}

/// Newest-first keyset: binds ?3 (publish time) and ?4 (news id) of the last row seen.
macro_rules! before {
    ($t:literal, $id:literal) => {
        concat!(" (", $t, " < ?3 OR (", $t, " = ?3 AND ", $id, " < ?4)) ")
    };
}

/// A newest-first list over items with one extra condition (binds as [`filters`] and
/// [`before`], the limit as 5, the condition's value as 6).
macro_rules! newest_items {
    ($condition:literal) => {
        concat!(
            "SELECT ",
            news_columns!("''"),
            news_from!(),
            "WHERE",
            filters!(),
            "AND",
            before!("n.publish_time", "n.news_id"),
            $condition,
            " ORDER BY n.publish_time DESC, n.news_id DESC LIMIT +?5"
        )
    };
}

/// A newest-first page over `news_places` rows matching `$place` (binds as
/// [`newest_items`], the place or places as 6): the page's keys from the index first,
/// then its items with their publisher and cluster. Items are only read for the keys
/// when a language or country filter needs them (every place row has its item: the
/// foreign keys cascade).
macro_rules! places_page {
    ($place:literal) => {
        concat!(
            "SELECT ",
            news_columns!("''"),
            " FROM (SELECT p.publish_time AS k_time, p.news_id AS k_id FROM news_places p WHERE ",
            $place,
            " AND",
            before!("p.publish_time", "p.news_id"),
            "AND ((?1 IS NULL AND ?2 IS NULL) OR EXISTS (SELECT 1 FROM news_items n WHERE n.news_id = p.news_id AND",
            filters!(),
            ")) ORDER BY p.publish_time DESC, p.news_id DESC LIMIT +?5) k \
              JOIN news_items n ON n.news_id = k.k_id JOIN media_sources m ON m.media_id = n.media_id \
              LEFT JOIN story_clusters c ON c.cluster_id = n.cluster_id \
              ORDER BY k.k_time DESC, k.k_id DESC"
        )
    };
}

/// The news rows `sql` selects with `params` (bound in order, ?1 on).
fn news_rows(conn: &rusqlite::Connection, sql: &str, params: &[Value]) -> rusqlite::Result<Vec<NewsRow>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map(rusqlite::params_from_iter(params), |r| news_row(r))?;
    rows.collect()
}

/// One item with its content.
fn news_on(conn: &rusqlite::Connection, news_id: NewsId) -> rusqlite::Result<Option<NewsRow>> {
    let rows = news_rows(
        conn,
        concat!(
            "SELECT ",
            news_columns!("n.content"),
            news_from!(),
            "WHERE n.news_id = ?1"
        ),
        &[Value::Integer(news_id.0)],
    )?;
    Ok(rows.into_iter().next())
}

fn media_on(conn: &rusqlite::Connection, media_id: MediaId) -> rusqlite::Result<Option<MediaSource>> {
    conn.prepare_cached(concat!(
        "SELECT ",
        media_columns!(),
        " FROM media_sources m WHERE m.media_id = ?1"
    ))?
    .query_row([media_id.0], |r| media_row(r))
    .optional()
}

/// A story's items, newest first.
fn cluster_items_on(conn: &rusqlite::Connection, cluster_id: ClusterId, limit: i64) -> rusqlite::Result<Vec<NewsRow>> {
    news_rows(
        conn,
        concat!(
            "SELECT ",
            news_columns!("''"),
            news_from!(),
            "WHERE n.cluster_id = ?1 ORDER BY n.publish_time DESC, n.news_id DESC LIMIT +?2"
        ),
        &[Value::Integer(cluster_id.0), Value::Integer(limit)],
    )
}

/// An optional text parameter.
fn text(v: Option<&str>) -> Value {
    v.map_or(Value::Null, |s| Value::Text(s.to_string()))
}

fn keys_json(places: &[PlaceKey]) -> String {
    serde_json::to_string(&places.iter().map(PlaceKey::key).collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into())
}

/// An FTS5 query: every word (quoted), the last as a prefix when `last_as_prefix`.
fn fts_query(words: &[String], last_as_prefix: bool) -> String {
    let n = words.len();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if last_as_prefix && i + 1 == n {
                format!("\"{w}\"*")
            } else {
                format!("\"{w}\"")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The lead items of the given clusters (a JSON array of ids), in no order (D439).
const TOP_LEADS_SQL: &str = concat!(
    "SELECT ",
    news_columns!("''"),
    news_from!(),
    "WHERE n.news_id IN (SELECT lead_id FROM story_clusters WHERE cluster_id IN (SELECT value FROM json_each(?1)))"
);

impl SqliteStore {
    /// The newest `n` stories matching the FTS5 query `matched` and the search's filters;
    /// with [`Near::Inside`], only those among its newest [`SEARCH_RANKED_MAX`] matches
    /// that are placed in the reader's place (D426), each checked on the places index (at
    /// most that many: cheaper than walking a big place's list, measured). Otherwise a
    /// place, a language or a country is asked of the search tags' index and walked
    /// together with the words' matches (D430). A story's row is read only for a filter
    /// neither index holds (a row is several pages: five times the cost, measured).
    async fn search_ids(&self, q: &SearchQuery, matched: String, near: Near, n: i64) -> Result<Vec<NewsId>> {
        let lang = q.filter.lang.clone();
        let country = q.filter.country.clone();
        let category = q.category.clone();
        let since = q.since_ms;
        if let (Near::Inside, Some(near_place)) = (near, q.near_place()) {
            // A place key always makes a token; were it ever empty, the tier holds nothing
            // rather than every match.
            let Some(place) = search_tags::tags_query(Some(&near_place.key()), None, None) else {
                return Ok(Vec::new());
            };
            return self
                .content_read
                .read(move |conn| {
                    // The newest matches, then which of them are placed there: the place's
                    // rows of the search tags from the oldest of them on, one read (D443;
                    // before, a look in the places index for each of the thousand).
                    let newest: Vec<i64> = conn
                        .prepare_cached(
                            "SELECT rowid FROM news_fts WHERE news_fts MATCH ?1 ORDER BY rowid DESC LIMIT +?2",
                        )?
                        .query_map(rusqlite::params![matched, SEARCH_RANKED_MAX], |r| r.get(0))?
                        .collect::<rusqlite::Result<_>>()?;
                    let Some(&oldest) = newest.last() else {
                        return Ok(Vec::new());
                    };
                    let placed: std::collections::HashSet<i64> = conn
                        .prepare_cached("SELECT rowid FROM news_tags WHERE news_tags MATCH ?1 AND rowid >= ?2")?
                        .query_map(rusqlite::params![place, oldest], |r| r.get(0))?
                        .collect::<rusqlite::Result<_>>()?;
                    let mut row = conn.prepare_cached(
                        "SELECT EXISTS (SELECT 1 FROM news_items n WHERE n.news_id = ?1 \
                         AND (?2 IS NULL OR n.lang = ?2) AND (?3 IS NULL OR n.country = ?3) \
                         AND (?4 IS NULL OR n.category_id = ?4) AND (?5 IS NULL OR n.publish_time >= ?5))",
                    )?;
                    let unfiltered = lang.is_none() && country.is_none() && category.is_none() && since.is_none();
                    let mut ids = Vec::new();
                    for id in newest.into_iter().filter(|id| placed.contains(id)) {
                        if ids.len() as i64 >= n {
                            break;
                        }
                        if unfiltered
                            || row.query_row(rusqlite::params![id, lang, country, category, since], |r| r.get(0))?
                        {
                            ids.push(NewsId(id));
                        }
                    }
                    Ok(ids)
                })
                .await;
        }
        let place = q.place.as_ref().map(PlaceKey::key);
        let Some(tags) = search_tags::tags_query(place.as_deref(), lang.as_deref(), country.as_deref()) else {
            return self
                .content_read
                .read(move |conn| {
                    let mut stmt = conn.prepare_cached(
                        "SELECT f.rowid FROM news_fts f WHERE news_fts MATCH ?1 \
                         AND ((?2 IS NULL AND ?3 IS NULL) OR EXISTS (SELECT 1 FROM news_items n \
                           WHERE n.news_id = f.rowid AND (?2 IS NULL OR n.category_id = ?2) \
                           AND (?3 IS NULL OR n.publish_time >= ?3))) \
                         ORDER BY f.rowid DESC LIMIT +?4",
                    )?;
                    let ids =
                        stmt.query_map(rusqlite::params![matched, category, since, n], |r| r.get(0).map(NewsId))?;
                    ids.collect()
                })
                .await;
        };
        let n = usize::try_from(n).unwrap_or(0);
        self.content_read
            .read(move |conn| {
                let mut row = conn.prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM news_items WHERE news_id = ?1 \
                     AND (?2 IS NULL OR category_id = ?2) AND (?3 IS NULL OR publish_time >= ?3))",
                )?;
                let keep = |id: i64| -> rusqlite::Result<bool> {
                    if category.is_none() && since.is_none() {
                        return Ok(true);
                    }
                    row.query_row(rusqlite::params![id, category, since], |r| r.get(0))
                };
                let ids = search_tags::intersect(conn, matched, tags, n, keep)?;
                Ok(ids.into_iter().map(NewsId).collect())
            })
            .await
    }
}

#[async_trait]
impl ContentStore for SqliteStore {
    async fn import_publishers(&self, publishers: &[PublisherFeeds], now_ms: i64) -> Result<ImportReport> {
        let publishers = publishers.to_vec();
        self.content
            .write(Change::Content, move |tx, _| {
                w::import_publishers(tx, &publishers, now_ms)
            })
            .await
    }

    async fn export_publishers(&self) -> Result<Vec<(MediaSource, Vec<NewFeed>)>> {
        self.content_read
            .read(|conn| {
                let media = conn
                    .prepare_cached(concat!(
                        "SELECT ",
                        media_columns!(),
                        " FROM media_sources m ORDER BY m.media_id"
                    ))?
                    .query_map([], |r| media_row(r))?
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                let mut out: Vec<(MediaSource, Vec<NewFeed>)> = media.into_iter().map(|m| (m, Vec::new())).collect();
                let mut feeds = conn.prepare_cached("SELECT media_id, url, lang FROM feeds ORDER BY feed_id")?;
                let mut rows = feeds.query([])?;
                while let Some(f) = rows.next()? {
                    let media_id = MediaId(f.get(0)?);
                    if let Some((_, list)) = out.iter_mut().find(|(m, _)| m.media_id == media_id) {
                        list.push(NewFeed {
                            url: f.get(1)?,
                            lang: f.get(2)?,
                        });
                    }
                }
                Ok(out)
            })
            .await
    }

    async fn remove_feed(&self, url_or_id: &str) -> Result<bool> {
        let key = url_or_id.to_string();
        self.content
            .write(Change::Content, move |tx, _| w::remove_feed(tx, &key))
            .await
    }

    async fn set_like_counts(&self, counts: &[(NewsId, i64)]) -> Result<()> {
        let counts = counts.to_vec();
        self.content
            .write(Change::Bookkeeping, move |tx, _| w::set_like_counts(tx, &counts))
            .await
    }

    async fn set_feed_paused(&self, feed_id: FeedId, paused: bool, now_ms: i64) -> Result<bool> {
        self.content
            .write(Change::Content, move |tx, _| {
                w::set_feed_paused(tx, feed_id, paused, now_ms)
            })
            .await
    }

    async fn feed_health(&self) -> Result<FeedHealth> {
        self.content_read
            .read(|conn| {
                conn.prepare_cached(
                    "SELECT count(*), (SELECT min(next_due) FROM feeds WHERE paused = 0), \
                     coalesce(sum(CASE WHEN consecutive_errors > 0 AND paused = 0 THEN 1 ELSE 0 END), 0) FROM feeds",
                )?
                .query_row([], |r| {
                    Ok(FeedHealth {
                        feeds: r.get(0)?,
                        oldest_due_ms: r.get(1)?,
                        failing: r.get(2)?,
                    })
                })
            })
            .await
    }

    async fn feeds(&self) -> Result<Vec<FeedStatus>> {
        self.content_read
            .read(|conn| {
                conn.prepare_cached(
                    "SELECT f.feed_id, f.media_id, m.name, f.url, f.lang, f.last_fetch, f.last_status, \
                     f.last_items, f.last_error, f.next_due, f.consecutive_errors, f.interval_secs, f.paused, \
                     (SELECT count(*) FROM news_items i WHERE i.feed_id = f.feed_id) \
                     FROM feeds f JOIN media_sources m ON m.media_id = f.media_id ORDER BY f.feed_id",
                )?
                .query_map([], |r| {
                    Ok(FeedStatus {
                        feed_id: FeedId(r.get(0)?),
                        media_id: MediaId(r.get(1)?),
                        media_name: r.get(2)?,
                        url: r.get(3)?,
                        lang: r.get(4)?,
                        last_fetch_ms: r.get(5)?,
                        last_status: r.get(6)?,
                        last_items: r.get(7)?,
                        last_error: r.get(8)?,
                        next_due_ms: r.get(9)?,
                        consecutive_errors: r.get(10)?,
                        interval_secs: r.get(11)?,
                        paused: r.get::<_, i64>(12)? != 0,
                        item_count: r.get(13)?,
                    })
                })?
                .collect()
            })
            .await
    }

    async fn claim_due_feeds(&self, now_ms: i64, lease_until_ms: i64, limit: i64) -> Result<Vec<ClaimedFeed>> {
        self.content
            .write(Change::Bookkeeping, move |tx, _| {
                w::claim_due_feeds(tx, now_ms, lease_until_ms, limit)
            })
            .await
    }

    async fn record_fetch(&self, feed_id: FeedId, record: &FetchRecord) -> Result<()> {
        let record = record.clone();
        self.content
            .write(Change::Bookkeeping, move |tx, _| {
                w::record_fetch(tx, feed_id.0, &record)
            })
            .await
    }

    async fn record_fetch_grouped(&self, feed_id: FeedId, record: &FetchRecord) -> Result<()> {
        let record = record.clone();
        self.content
            .grouped(Change::Bookkeeping, move |tx, _| {
                w::record_fetch(tx, feed_id.0, &record)
            })
            .await
    }

    async fn commit_grouped(&self) -> Result<()> {
        self.content.commit().await
    }

    async fn merge_search_index(&self) -> Result<()> {
        self.content.merge_search().await
    }

    async fn upsert_items(
        &self,
        feed_id: FeedId,
        media_id: MediaId,
        items: &[NewsRecord],
        clusters: &[ClusterChoice],
        now_ms: i64,
    ) -> Result<Vec<Upserted>> {
        let (items, clusters) = (items.to_vec(), clusters.to_vec());
        self.content
            .write(Change::Content, move |tx, text| {
                // Its full-text rows go in at its commit.
                w::upsert_items(tx, feed_id.0, media_id.0, items, &clusters, now_ms, text)
            })
            .await
    }

    async fn upsert_items_grouped(
        &self,
        feed_id: FeedId,
        media_id: MediaId,
        items: Vec<NewsRecord>,
        clusters: Vec<ClusterChoice>,
        now_ms: i64,
    ) -> Result<Vec<Upserted>> {
        self.content
            .grouped(Change::Content, move |tx, text| {
                w::upsert_items(tx, feed_id.0, media_id.0, items, &clusters, now_ms, text)
            })
            .await
    }

    async fn cluster_candidates(&self, from_ms: i64, to_ms: i64) -> Result<Vec<ClusterCandidate>> {
        self.cluster_candidates_since(from_ms, to_ms, i64::MIN).await
    }

    async fn cluster_candidates_since(&self, from_ms: i64, to_ms: i64, since_ms: i64) -> Result<Vec<ClusterCandidate>> {
        self.content_read
            .read(move |conn| {
                conn.prepare_cached(
                    "SELECT n.news_id, n.cluster_id, n.media_id, n.publish_time, n.signature, \
                     CASE WHEN n.city_ids = '[]' AND m.city_id <> 0 THEN '[' || m.city_id || ']' ELSE n.city_ids END \
                     FROM news_items n JOIN media_sources m ON m.media_id = n.media_id \
                     WHERE n.publish_time BETWEEN ?1 AND ?2 AND n.signature IS NOT NULL AND n.updated_at >= ?3 \
                     ORDER BY n.publish_time, n.news_id",
                )?
                .query_map([from_ms, to_ms, since_ms], |r| {
                    let city_ids: String = r.get(5)?;
                    Ok(ClusterCandidate {
                        news_id: NewsId(r.get(0)?),
                        cluster_id: ClusterId(r.get(1)?),
                        media_id: MediaId(r.get(2)?),
                        publish_time_ms: r.get(3)?,
                        signature: r.get(4)?,
                        city_ids: serde_json::from_str(&city_ids).unwrap_or_default(),
                    })
                })?
                .collect()
            })
            .await
    }

    async fn known_hashes(&self, media_id: MediaId, identities: &[String]) -> Result<Vec<(String, String)>> {
        let ids = serde_json::to_string(identities).map_err(|e| StoreError::Database(e.to_string()))?;
        self.content_read
            .read(move |conn| {
                conn.prepare_cached(
                    "SELECT identity, content_hash FROM news_items WHERE media_id = ?1 \
                     AND identity IN (SELECT value FROM json_each(?2))",
                )?
                .query_map(rusqlite::params![media_id.0, ids], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect()
            })
            .await
    }

    async fn media(&self, media_id: MediaId) -> Result<Option<MediaSource>> {
        self.content_read.read_short(move |conn| media_on(conn, media_id)).await
    }

    async fn search_media(&self, folded: &str, offset: i64, limit: i64) -> Result<Vec<MediaSource>> {
        let folded = folded.to_string();
        self.content_read
            .read(move |conn| {
                conn.prepare_cached(concat!(
                    "SELECT ",
                    media_columns!(),
                    " FROM media_sources m WHERE instr(m.name_fold, ?1) > 0 ORDER BY m.name_fold, m.media_id \
                     LIMIT +?2 OFFSET +?3"
                ))?
                .query_map(rusqlite::params![folded, limit, offset], |r| media_row(r))?
                .collect()
            })
            .await
    }

    async fn news(&self, news_id: NewsId) -> Result<Option<NewsRow>> {
        self.content_read.read_short(move |conn| news_on(conn, news_id)).await
    }

    /// The three reads on one reader, in one trip to a blocking thread (D437): each trip
    /// is a thread woken and waited for, a quarter of a story page's time at a million.
    async fn story(&self, news_id: NewsId, cluster_limit: i64) -> Result<Option<StoryRows>> {
        self.content_read
            .read_short(move |conn| {
                let Some(news) = news_on(conn, news_id)? else {
                    return Ok(None);
                };
                let media = media_on(conn, news.media_id)?;
                let cluster = if news.in_a_story() {
                    cluster_items_on(conn, news.cluster_id, cluster_limit)?
                } else {
                    Vec::new()
                };
                Ok(Some(StoryRows { news, media, cluster }))
            })
            .await
    }

    async fn list_news(
        &self,
        listing: &Listing,
        filter: &ListFilter,
        after: Option<After>,
        limit: i64,
    ) -> Result<Vec<NewsRow>> {
        let (t, id) = after.map_or((i64::MAX, i64::MAX), |a| (a.publish_time_ms, a.news_id.0));
        let sql: &'static str = match listing {
            Listing::Latest => newest_items!(""),
            Listing::Category(_) => newest_items!(" AND n.category_id = ?6"),
            Listing::Media(_) => newest_items!(" AND n.media_id = ?6"),
            Listing::Publishers(_) => newest_items!(" AND n.media_id IN (SELECT value FROM json_each(?6))"),
            Listing::Ids(_) => newest_items!(" AND n.news_id IN (SELECT value FROM json_each(?6))"),
            // One index range per place; an item in two of the places appears twice
            // (the caller drops repeats, keyset paging stays exact). The page's keys are
            // found first (narrow rows: index only unless a filter asks for the item), and
            // only the page's items are read whole: a wide sort over every item of a busy
            // place read each row's overflow pages (D60's 1 KB pages) before the LIMIT.
            // A single place is one index range in order (no sort, stops at the LIMIT).
            Listing::Places(places) if places.len() == 1 => places_page!("p.place = ?6"),
            Listing::Places(_) => places_page!("p.place IN (SELECT value FROM json_each(?6))"),
        };
        let mut params = vec![
            text(filter.lang.as_deref()),
            text(filter.country.as_deref()),
            Value::Integer(t),
            Value::Integer(id),
            Value::Integer(limit),
        ];
        match listing {
            Listing::Latest => {}
            Listing::Category(c) => params.push(Value::Text(c.clone())),
            Listing::Media(m) => params.push(Value::Integer(m.0)),
            Listing::Publishers(ids) => {
                params.push(Value::Text(serde_json::to_string(ids).unwrap_or_else(|_| "[]".into())))
            }
            Listing::Ids(ids) => params.push(Value::Text(serde_json::to_string(ids).unwrap_or_else(|_| "[]".into()))),
            Listing::Places(places) if places.len() == 1 => params.push(Value::Text(places[0].key())),
            Listing::Places(places) => params.push(Value::Text(keys_json(places))),
        }
        self.content_read
            .read_short(move |conn| news_rows(conn, sql, &params))
            .await
    }

    async fn top_news(&self, filter: &ListFilter, since_ms: i64, offset: i64, limit: i64) -> Result<Vec<NewsRow>> {
        let filter = filter.clone();
        let (offset, limit) = (
            usize::try_from(offset).unwrap_or(0),
            usize::try_from(limit).unwrap_or(0),
        );
        self.content_read
            .read_short(move |conn| {
                let ranked = top_walk::ranked_clusters(
                    conn,
                    filter.lang.as_deref(),
                    filter.country.as_deref(),
                    since_ms,
                    offset,
                    limit,
                )?;
                let ids = Value::Text(serde_json::to_string(&ranked).unwrap_or_else(|_| "[]".into()));
                let mut rows = news_rows(conn, TOP_LEADS_SQL, &[ids])?;
                let at = |r: &NewsRow| ranked.iter().position(|&c| c == r.cluster_id.0);
                rows.sort_by_key(at);
                Ok(rows)
            })
            .await
    }

    async fn cluster_items(&self, cluster_id: ClusterId, limit: i64) -> Result<Vec<NewsRow>> {
        self.content_read
            .read_short(move |conn| cluster_items_on(conn, cluster_id, limit))
            .await
    }

    async fn search_news(&self, q: &SearchQuery, offset: i64, limit: i64) -> Result<Vec<NewsRow>> {
        let words = q.words();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        // Each tier in FTS5's own rowid order (newest first), stopping at what it is asked.
        let page = search_page(
            q,
            offset,
            limit,
            async |at_most| {
                let whole = fts_query(&words, false);
                let counting = whole.clone();
                self.common_words
                    .count(
                        &whole,
                        self.content_read.read(move |conn| {
                            conn.prepare_cached(
                                "SELECT count(*) FROM (SELECT 1 FROM news_fts WHERE news_fts MATCH ?1 LIMIT +?2)",
                            )?
                            .query_row(rusqlite::params![counting, at_most], |r| r.get(0))
                        }),
                    )
                    .await
            },
            |tier: Tier, prefix, n| {
                let m = fts_query(&words, prefix);
                let matched = if tier.in_title {
                    format!("{{title}} : ({m})")
                } else {
                    format!("({m}) NOT {{title}} : ({m})")
                };
                self.search_ids(q, matched, tier.near, n)
            },
        )
        .await?;
        news_in_order(self, page).await
    }

    async fn published_before(&self, before_ms: i64, after: Option<After>, limit: i64) -> Result<Vec<After>> {
        let (at, id) = after.map_or((i64::MIN, i64::MIN), |a| (a.publish_time_ms, a.news_id.0));
        self.content_read
            .read(move |conn| {
                conn.prepare_cached(
                    "SELECT publish_time, news_id FROM news_items \
                     WHERE publish_time < ?1 AND (publish_time, news_id) > (?2, ?3) \
                     ORDER BY publish_time, news_id LIMIT ?4",
                )?
                .query_map([before_ms, at, id, limit], |r| Ok(After::from((r.get(0)?, r.get(1)?))))?
                .collect()
            })
            .await
    }

    async fn delete_news(&self, ids: &[NewsId]) -> Result<u64> {
        let ids: Vec<i64> = ids.iter().map(|n| n.0).collect();
        self.content
            .write(Change::Content, move |tx, _| w::delete_news(tx, &ids))
            .await
    }

    async fn put_special(&self, special: &Special, now_ms: i64) -> Result<()> {
        let special = special.clone();
        self.content
            .write(Change::Content, move |tx, _| w::put_special(tx, &special, now_ms))
            .await
    }

    async fn special(&self, slug: &str) -> Result<Option<Special>> {
        let slug = slug.to_string();
        self.content_read
            .read(move |conn| {
                conn.prepare_cached("SELECT slug, title, description, query, news_ids FROM specials WHERE slug = ?1")?
                    .query_row([slug], |r| special_row(r))
                    .optional()
            })
            .await
    }

    async fn specials(&self) -> Result<Vec<Special>> {
        self.content_read
            .read(|conn| {
                conn.prepare_cached("SELECT slug, title, description, query, news_ids FROM specials ORDER BY slug")?
                    .query_map([], |r| special_row(r))?
                    .collect()
            })
            .await
    }

    async fn remove_special(&self, slug: &str) -> Result<bool> {
        let slug = slug.to_string();
        self.content
            .write(Change::Content, move |tx, _| w::remove_special(tx, &slug))
            .await
    }

    fn content_generation(&self) -> u64 {
        self.generation.get()
    }
}
