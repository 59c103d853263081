//! [`ContentStore`] on PostgreSQL. Feed leases use `FOR UPDATE SKIP LOCKED`, so several
//! `localwire serve` processes share ingestion without fetching a feed twice.

use crate::postgres::{PgStore, db};
use crate::rows::{media_row, news_row, special_row};
use crate::search_tokens;
use async_trait::async_trait;
use sqlx::postgres::PgRow;
use sqlx::{Postgres, Row, Transaction};
use std::collections::{BTreeSet, HashMap, HashSet};
use store::content::{
    After, ClaimedFeed, ClusterCandidate, ClusterChoice, ClusterId, FeedHealth, FeedId, FeedStatus, FetchRecord,
    ImportReport, ListFilter, Listing, MediaId, MediaSource, Near, NewFeed, NewsId, NewsRecord, NewsRow, PlaceKey,
    PublisherFeeds, SEARCH_RANKED_MAX, SearchQuery, Special, Tier, Upserted, WHOLE_WORD_ENOUGH, news_in_order,
    search_page,
};
use store::{ContentStore, Result, StoreError};

/// The text search configurations a search's words are read in: every language's, and
/// every word unstemmed.
const SEARCH_CONFIGS: &str = "{simple,english,spanish,french}";

/// A search tier walks at most this many of the newest stories testing each, then lists the older matches from the full-text index and sorts them (D431): a
/// page of words and filters in more than one story in fifty is found in the walk, as
/// before; sparser ones cost the walk (about 16 µs a story: each test reads the story's
/// whole vector) and the listing, where the walk alone read up to every story.
const WALK_MAX: i64 = 1_000;

/// Binds $1 (lang or NULL) and $2 (country or NULL).
macro_rules! filters {
    () => {
        " ($1::text IS NULL OR n.lang = $1) AND ($2::text IS NULL OR n.country = $2) "
    };
}

/// Binds $3 (publish time) and $4 (news id) of the last row seen.
macro_rules! before {
    ($t:literal, $id:literal) => {
        concat!(" (", $t, ", ", $id, ") < ($3, $4) ")
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
            " ORDER BY n.publish_time DESC, n.news_id DESC LIMIT $5"
        )
    };
}

fn rows<T>(rows: Vec<PgRow>, map: fn(&PgRow) -> std::result::Result<T, sqlx::Error>) -> Result<Vec<T>> {
    rows.iter().map(map).collect::<std::result::Result<_, _>>().map_err(db)
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".into())
}

/// The text search configuration for an item's language.
fn ts_config(lang: &str) -> &'static str {
    match lang {
        "es" => "spanish",
        "fr" => "french",
        "en" => "english",
        _ => "simple",
    }
}

/// A `tsquery` of every word, the last as a prefix when `last_as_prefix`; with `weights`
/// (e.g. `A`, the title's) each word matches only there.
fn ts_query(words: &[String], last_as_prefix: bool, weights: &str) -> String {
    let n = words.len();
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let prefix = if last_as_prefix && i + 1 == n { "*" } else { "" };
            if prefix.is_empty() && weights.is_empty() {
                w.clone()
            } else {
                format!("{w}:{prefix}{weights}")
            }
        })
        .collect::<Vec<_>>()
        .join(" & ")
}

/// Recount stories' stats, in three statements however many stories (D428). Writers of
/// one story in several processes take its row first (creating it if needed), in story
/// order so two writers never wait for each other crosswise, so they recount one after
/// the other and the last sees every item the others committed (D210): a plain delete
/// and insert lost one side's items, or failed on `story_clusters_pkey` when two recreated
/// the row at once. A story with no items left is dropped.
async fn refresh_clusters(
    tx: &mut Transaction<'_, Postgres>,
    clusters: &BTreeSet<i64>,
) -> std::result::Result<(), sqlx::Error> {
    if clusters.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = clusters.iter().copied().collect();
    sqlx::query(
        "INSERT INTO story_clusters (cluster_id, lead_id, size, media_count, newest) \
         SELECT c, 0, 0, 0, 0 FROM unnest($1::bigint[]) AS c ORDER BY c \
         ON CONFLICT (cluster_id) DO UPDATE SET size = story_clusters.size",
    )
    .bind(&ids)
    .execute(&mut **tx)
    .await?;
    // A new statement: it sees what the writers this one waited for committed. The
    // stories' items are read once, on `news_cluster`: as a subquery, the prepared
    // (generic) plan found a story's newest item by walking `news_latest` from the top
    // until one of it turned up, i.e. most of the table for an older story (bulk
    // ingestion at 180k items fell to a few items a second).
    sqlx::query(
        "WITH c AS MATERIALIZED (SELECT cluster_id, news_id, media_id, publish_time, lang, country FROM news_items \
                                 WHERE cluster_id = ANY($1)), \
         s AS (SELECT cluster_id, count(*) AS size, count(DISTINCT media_id) AS media_count, \
                      max(publish_time) AS newest FROM c GROUP BY cluster_id), \
         l AS (SELECT DISTINCT ON (cluster_id) cluster_id, news_id, lang, country FROM c \
               ORDER BY cluster_id, publish_time DESC, news_id DESC) \
         UPDATE story_clusters SET lead_id = l.news_id, size = s.size, media_count = s.media_count, \
         newest = s.newest, lang = l.lang, country = l.country \
         FROM s JOIN l USING (cluster_id) WHERE story_clusters.cluster_id = s.cluster_id",
    )
    .bind(&ids)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "DELETE FROM story_clusters s WHERE s.cluster_id = ANY($1) \
         AND NOT EXISTS (SELECT 1 FROM news_items n WHERE n.cluster_id = s.cluster_id)",
    )
    .bind(&ids)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Errors another process's concurrent transaction can cause (D210): a deadlock, a
/// serialization failure, or a unique key it took first (an item whose identity changed).
/// The transaction is run again; it then finds the other's rows.
pub(crate) fn worth_retrying(e: &sqlx::Error) -> bool {
    e.as_database_error()
        .and_then(|d| d.code())
        .is_some_and(|code| matches!(code.as_ref(), "40P01" | "40001" | "23505"))
}

/// Times a transaction runs before its error is returned.
const TX_ATTEMPTS: usize = 3;

/// The full-text vector of an item, written in the statement that stores the item (one
/// round trip less per item, issue 33): `$ts` the language's configuration, then title,
/// summary and body text, weighted A, B and C, every word unstemmed, and `$tags` the
/// story's filter lexemes ([`story_lexemes`], D431).
macro_rules! search_vector {
    ($ts:literal, $title:literal, $summary:literal, $body:literal, $tags:literal) => {
        concat!(
            "setweight(to_tsvector(",
            $ts,
            "::regconfig, unaccent(",
            $title,
            "::text)), 'A') || ",
            "setweight(to_tsvector(",
            $ts,
            "::regconfig, unaccent(",
            $summary,
            "::text)), 'B') || ",
            "setweight(to_tsvector(",
            $ts,
            "::regconfig, unaccent(",
            $body,
            "::text)), 'C') || ",
            "to_tsvector('simple', unaccent(",
            $title,
            "::text || ' ' || ",
            $summary,
            "::text || ' ' || ",
            $body,
            "::text)) || array_to_tsvector(string_to_array(",
            $tags,
            "::text, ' '))"
        )
    };
}

/// A story's filter tokens as lexemes of its `search` vector (D431), space-separated.
/// Each starts with `=`, which PostgreSQL's parser never leaves in a word, so no word a
/// reader types matches one (the bare tokens do: `les`, Spanish's, is a French word).
fn story_lexemes(lang: &str, country: &str, places: &[PlaceKey]) -> String {
    let tokens = search_tokens::story_tokens(lang, country, places);
    tokens.iter().map(|t| format!("={t}")).collect::<Vec<_>>().join(" ")
}

/// The `tsquery` of a search's filters ([`story_lexemes`]), or None without filters.
fn filter_query(q: &SearchQuery) -> Option<String> {
    let place = q.place.as_ref().map(PlaceKey::key);
    let tokens = search_tokens::filter_tokens(place.as_deref(), q.filter.lang.as_deref(), q.filter.country.as_deref());
    let lexemes: Vec<String> = tokens.iter().map(|t| format!("'={t}'")).collect();
    (!lexemes.is_empty()).then(|| lexemes.join(" & "))
}

/// The places of the items a batch stored, written in one statement at its end (places
/// replaced for an updated item are deleted first, in one statement too).
#[derive(Default)]
struct BatchPlaces {
    /// Per stored item: its publish time and place keys (a later record of the same item
    /// in the batch replaces an earlier one's).
    items: std::collections::BTreeMap<i64, (i64, Vec<String>)>,
    /// Items stored before this batch whose places it replaces.
    replaced: Vec<i64>,
}

impl BatchPlaces {
    fn put(&mut self, id: i64, item: &NewsRecord) {
        let keys = item.places.iter().map(PlaceKey::key).collect();
        self.items.insert(id, (item.publish_time_ms, keys));
    }

    async fn write(self, tx: &mut Transaction<'_, Postgres>) -> std::result::Result<(), sqlx::Error> {
        if !self.replaced.is_empty() {
            sqlx::query("DELETE FROM news_places WHERE news_id = ANY($1)")
                .bind(&self.replaced)
                .execute(&mut **tx)
                .await?;
        }
        let (mut keys, mut times, mut ids) = (Vec::new(), Vec::new(), Vec::new());
        for (id, (time, places)) in self.items {
            for key in places {
                keys.push(key);
                times.push(time);
                ids.push(id);
            }
        }
        if keys.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO news_places (place, publish_time, news_id) \
             SELECT DISTINCT * FROM unnest($1::text[], $2::bigint[], $3::bigint[]) ON CONFLICT DO NOTHING",
        )
        .bind(&keys)
        .bind(&times)
        .bind(&ids)
        .execute(&mut **tx)
        .await?;
        Ok(())
    }
}

/// The stored item a record is: same identity, or else same canonical URL.
async fn find_item(
    tx: &mut Transaction<'_, Postgres>,
    media_id: i64,
    item: &NewsRecord,
) -> std::result::Result<Option<(i64, String, i64)>, sqlx::Error> {
    sqlx::query_as(
        "(SELECT news_id, content_hash, cluster_id FROM news_items WHERE media_id = $1 AND identity = $2) \
         UNION ALL (SELECT news_id, content_hash, cluster_id FROM news_items \
         WHERE media_id = $1 AND canonical_url = $3 AND $3 <> '' LIMIT 1) LIMIT 1",
    )
    .bind(media_id)
    .bind(&item.identity)
    .bind(&item.canonical_url)
    .fetch_optional(&mut **tx)
    .await
}

/// What storing one record did.
struct Stored {
    outcome: Upserted,
    /// The story the item is in.
    cluster: i64,
    /// Inserted or updated (its story needs recounting, its places writing).
    changed: bool,
    /// Inserted as the first item of a new story of its own.
    new_story: bool,
}

/// The stored items a batch's records are, looked up in one statement (what [`find_item`]
/// finds for each), in the records' order.
async fn find_items(
    tx: &mut Transaction<'_, Postgres>,
    media_id: i64,
    items: &[NewsRecord],
) -> std::result::Result<Vec<Option<(i64, String, i64)>>, sqlx::Error> {
    let identities: Vec<&str> = items.iter().map(|i| i.identity.as_str()).collect();
    let urls: Vec<&str> = items.iter().map(|i| i.canonical_url.as_str()).collect();
    let rows: Vec<(i64, i64, String, i64)> = sqlx::query_as(
        "SELECT k.i, f.news_id, f.content_hash, f.cluster_id \
         FROM unnest($2::text[], $3::text[]) WITH ORDINALITY AS k(identity, url, i) \
         CROSS JOIN LATERAL ( \
           (SELECT news_id, content_hash, cluster_id FROM news_items WHERE media_id = $1 AND identity = k.identity) \
           UNION ALL (SELECT news_id, content_hash, cluster_id FROM news_items \
                      WHERE media_id = $1 AND canonical_url = k.url AND k.url <> '' LIMIT 1) \
           LIMIT 1) f",
    )
    .bind(media_id)
    .bind(&identities)
    .bind(&urls)
    .fetch_all(&mut **tx)
    .await?;
    let mut found = vec![None; items.len()];
    for (i, id, hash, cluster) in rows {
        if let Some(slot) = usize::try_from(i - 1).ok().and_then(|i| found.get_mut(i)) {
            *slot = Some((id, hash, cluster));
        }
    }
    Ok(found)
}

/// Store one record: insert it, or update the item it already is (`found`, looked up by
/// the caller). Another process may
/// insert the same identity between the lookup and the insert: the insert then waits
/// for its commit and does nothing (`ON CONFLICT`), and the record updates that row. A
/// new item that starts its own story gets its own id as its story (`join` 0; the
/// `news_items_own_cluster` trigger). Its places are the caller's ([`BatchPlaces`]).
#[allow(clippy::too_many_arguments)]
async fn upsert_one(
    tx: &mut Transaction<'_, Postgres>,
    feed_id: i64,
    media_id: i64,
    country: &str,
    item: &NewsRecord,
    found: Option<(i64, String, i64)>,
    join: i64,
    now_ms: i64,
) -> std::result::Result<Stored, sqlx::Error> {
    let tags = json(&item.tags);
    let city_ids = json(&item.city_ids);
    let found = match found {
        Some(found) => found,
        None => {
            let inserted: Option<(i64, i64)> = sqlx::query_as(concat!(
                "INSERT INTO news_items (feed_id, media_id, identity, canonical_url, content_hash, title, org_img_url, \
                 img_url, thumbnail_url, video_url, voice_url, content, content_type, content_total_length, \
                 description, summary, news_type, publish_time, link_url, author, category_id, tags, city_ids, \
                 lang, country, cluster_id, signature, created_at, updated_at, search) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \
                 $21, $22, $23, $24, $25, $26, $27, $28, $28, ",
                search_vector!("$29", "$6", "$16", "$30", "$31"),
                ") ON CONFLICT (media_id, identity) DO NOTHING RETURNING news_id, cluster_id"
            ))
            .bind(feed_id)
            .bind(media_id)
            .bind(&item.identity)
            .bind(&item.canonical_url)
            .bind(&item.content_hash)
            .bind(&item.title)
            .bind(&item.org_img_url)
            .bind(&item.img_url)
            .bind(&item.thumbnail_url)
            .bind(&item.video_url)
            .bind(&item.voice_url)
            .bind(&item.content)
            .bind(&item.content_type)
            .bind(item.content_total_length)
            .bind(&item.description)
            .bind(&item.summary)
            .bind(item.news_type)
            .bind(item.publish_time_ms)
            .bind(&item.link_url)
            .bind(&item.author)
            .bind(&item.category_id)
            .bind(&tags)
            .bind(&city_ids)
            .bind(&item.lang)
            .bind(country)
            .bind(join)
            .bind(&item.signature)
            .bind(now_ms)
            .bind(ts_config(&item.lang))
            .bind(&item.body_text)
            .bind(story_lexemes(&item.lang, country, &item.places))
            .fetch_optional(&mut **tx)
            .await?;
            if let Some((id, cluster)) = inserted {
                return Ok(Stored {
                    outcome: Upserted::Inserted(NewsId(id)),
                    cluster,
                    changed: true,
                    new_story: join == 0,
                });
            }
            // Another process's row, committed by now: this statement sees it.
            find_item(tx, media_id, item).await?.ok_or(sqlx::Error::RowNotFound)?
        }
    };
    let (id, hash, cluster) = found;
    if hash == item.content_hash {
        return Ok(Stored {
            outcome: Upserted::Unchanged(NewsId(id)),
            cluster,
            changed: false,
            new_story: false,
        });
    }
    sqlx::query(concat!(
        "UPDATE news_items SET feed_id = $1, identity = $2, canonical_url = $3, content_hash = $4, title = $5, \
         org_img_url = $6, img_url = $7, thumbnail_url = $8, video_url = $9, voice_url = $10, content = $11, \
         content_type = $12, content_total_length = $13, description = $14, summary = $15, news_type = $16, \
         publish_time = $17, link_url = $18, author = $19, category_id = $20, tags = $21, city_ids = $22, \
         lang = $23, signature = $24, updated_at = $25, search = ",
        search_vector!("$27", "$5", "$15", "$28", "$29"),
        " WHERE news_id = $26"
    ))
    .bind(feed_id)
    .bind(&item.identity)
    .bind(&item.canonical_url)
    .bind(&item.content_hash)
    .bind(&item.title)
    .bind(&item.org_img_url)
    .bind(&item.img_url)
    .bind(&item.thumbnail_url)
    .bind(&item.video_url)
    .bind(&item.voice_url)
    .bind(&item.content)
    .bind(&item.content_type)
    .bind(item.content_total_length)
    .bind(&item.description)
    .bind(&item.summary)
    .bind(item.news_type)
    .bind(item.publish_time_ms)
    .bind(&item.link_url)
    .bind(&item.author)
    .bind(&item.category_id)
    .bind(&tags)
    .bind(&city_ids)
    .bind(&item.lang)
    .bind(&item.signature)
    .bind(now_ms)
    .bind(id)
    .bind(ts_config(&item.lang))
    .bind(&item.body_text)
    .bind(story_lexemes(&item.lang, country, &item.places))
    .execute(&mut **tx)
    .await?;
    Ok(Stored {
        outcome: Upserted::Updated(NewsId(id)),
        cluster,
        changed: true,
        new_story: false,
    })
}

/// A batch's records as they are stored. New items wait and go in together, in one
/// INSERT ([`BatchWrite::insert_waiting`]): each was found neither before the batch nor
/// by an earlier record of it, so none of them conflicts with another (D428). One
/// statement per item was most of PostgreSQL's bulk ingestion.
struct BatchWrite<'a> {
    feed_id: i64,
    media_id: i64,
    /// The publisher's.
    country: &'a str,
    items: &'a [NewsRecord],
    now_ms: i64,
    /// Per record, once stored.
    stored: Vec<Option<Stored>>,
    /// Per record, the story it is in, once stored.
    cluster_of: Vec<Option<i64>>,
    /// New records not yet inserted, and the story each joins (0: its own).
    waiting: Vec<(usize, i64)>,
}

impl<'a> BatchWrite<'a> {
    fn new(feed_id: i64, media_id: i64, country: &'a str, items: &'a [NewsRecord], now_ms: i64) -> Self {
        BatchWrite {
            feed_id,
            media_id,
            country,
            items,
            now_ms,
            stored: (0..items.len()).map(|_| None).collect(),
            cluster_of: vec![None; items.len()],
            waiting: Vec::new(),
        }
    }

    /// Stores record `i` now ([`upsert_one`]).
    async fn upsert(
        &mut self,
        tx: &mut Transaction<'_, Postgres>,
        i: usize,
        found: Option<(i64, String, i64)>,
        join: i64,
    ) -> std::result::Result<(), sqlx::Error> {
        let (feed, media, country, item) = (self.feed_id, self.media_id, self.country, &self.items[i]);
        let done = upsert_one(tx, feed, media, country, item, found, join, self.now_ms).await?;
        self.cluster_of[i] = Some(done.cluster);
        self.stored[i] = Some(done);
        Ok(())
    }

    /// Inserts the waiting records in their order (their ids ascend as the records do),
    /// or, for one another process inserted meanwhile, updates that row as
    /// [`upsert_one`] does.
    async fn insert_waiting(&mut self, tx: &mut Transaction<'_, Postgres>) -> std::result::Result<(), sqlx::Error> {
        if self.waiting.is_empty() {
            return Ok(());
        }
        let (feed_id, media_id, country, items, now_ms) =
            (self.feed_id, self.media_id, self.country, self.items, self.now_ms);
        let waiting = std::mem::take(&mut self.waiting);
        let records: Vec<&NewsRecord> = waiting.iter().map(|&(i, _)| &items[i]).collect();
        let text = |f: fn(&NewsRecord) -> &str| records.iter().map(|r| f(r)).collect::<Vec<&str>>();
        let tags: Vec<String> = records.iter().map(|r| json(&r.tags)).collect();
        let city_ids: Vec<String> = records.iter().map(|r| json(&r.city_ids)).collect();
        let configs: Vec<&str> = records.iter().map(|r| ts_config(&r.lang)).collect();
        let lengths: Vec<i64> = records.iter().map(|r| r.content_total_length).collect();
        let types: Vec<i32> = records.iter().map(|r| r.news_type).collect();
        let times: Vec<i64> = records.iter().map(|r| r.publish_time_ms).collect();
        let joins: Vec<i64> = waiting.iter().map(|&(_, join)| join).collect();
        let signatures: Vec<&[u8]> = records.iter().map(|r| r.signature.as_slice()).collect();
        let lexemes: Vec<String> = records
            .iter()
            .map(|r| story_lexemes(&r.lang, country, &r.places))
            .collect();
        let inserted: Vec<(i64, i64, String)> = sqlx::query_as(concat!(
            "INSERT INTO news_items (feed_id, media_id, identity, canonical_url, content_hash, title, org_img_url, \
             img_url, thumbnail_url, video_url, voice_url, content, content_type, content_total_length, \
             description, summary, news_type, publish_time, link_url, author, category_id, tags, city_ids, \
             lang, country, cluster_id, signature, created_at, updated_at, search) \
             SELECT $1, $2, u.identity, u.canonical_url, u.content_hash, u.title, u.org_img_url, u.img_url, \
             u.thumbnail_url, u.video_url, u.voice_url, u.content, u.content_type, u.content_total_length, \
             u.description, u.summary, u.news_type, u.publish_time, u.link_url, u.author, u.category_id, u.tags, \
             u.city_ids, u.lang, $3, u.cluster_id, u.signature, $4, $4, ",
            search_vector!("u.config", "u.title", "u.summary", "u.body", "u.lexemes"),
            " FROM unnest($5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], \
             $12::text[], $13::text[], $14::text[], $15::text[], $16::bigint[], $17::text[], $18::text[], \
             $19::integer[], $20::bigint[], $21::text[], $22::text[], $23::text[], $24::text[], $25::text[], \
             $26::text[], $27::bigint[], $28::bytea[], $29::text[], $30::text[], $31::text[]) WITH ORDINALITY \
             AS u(identity, canonical_url, content_hash, title, org_img_url, img_url, thumbnail_url, video_url, \
             voice_url, content, content_type, content_total_length, description, summary, news_type, \
             publish_time, link_url, author, category_id, tags, city_ids, lang, cluster_id, signature, config, \
             body, lexemes, position) \
             ORDER BY u.position ON CONFLICT (media_id, identity) DO NOTHING RETURNING news_id, cluster_id, identity"
        ))
        .bind(feed_id)
        .bind(media_id)
        .bind(country)
        .bind(now_ms)
        .bind(text(|r| &r.identity))
        .bind(text(|r| &r.canonical_url))
        .bind(text(|r| &r.content_hash))
        .bind(text(|r| &r.title))
        .bind(text(|r| &r.org_img_url))
        .bind(text(|r| &r.img_url))
        .bind(text(|r| &r.thumbnail_url))
        .bind(text(|r| &r.video_url))
        .bind(text(|r| &r.voice_url))
        .bind(text(|r| &r.content))
        .bind(text(|r| &r.content_type))
        .bind(&lengths)
        .bind(text(|r| &r.description))
        .bind(text(|r| &r.summary))
        .bind(&types)
        .bind(&times)
        .bind(text(|r| &r.link_url))
        .bind(text(|r| &r.author))
        .bind(text(|r| &r.category_id))
        .bind(&tags)
        .bind(&city_ids)
        .bind(text(|r| &r.lang))
        .bind(&joins)
        .bind(&signatures)
        .bind(&configs)
        .bind(text(|r| &r.body_text))
        .bind(&lexemes)
        .fetch_all(&mut **tx)
        .await?;
        let mut by_identity: HashMap<String, (i64, i64)> = inserted
            .into_iter()
            .map(|(id, cluster, identity)| (identity, (id, cluster)))
            .collect();
        for (i, join) in waiting {
            let item = &items[i];
            match by_identity.remove(&item.identity) {
                Some((id, cluster)) => {
                    self.cluster_of[i] = Some(cluster);
                    self.stored[i] = Some(Stored {
                        outcome: Upserted::Inserted(NewsId(id)),
                        cluster,
                        changed: true,
                        new_story: join == 0,
                    });
                }
                // Another process's row, committed by now: this statement sees it.
                None => {
                    let found = find_item(tx, media_id, item).await?.ok_or(sqlx::Error::RowNotFound)?;
                    self.upsert(tx, i, Some(found), join).await?;
                }
            }
        }
        Ok(())
    }
}

/// Run a transaction again when another process's transaction got in its way
/// ([`worth_retrying`]), up to [`TX_ATTEMPTS`] times.
async fn retried<T, F, Fut>(mut run: F) -> std::result::Result<T, sqlx::Error>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = std::result::Result<T, sqlx::Error>>,
{
    let mut attempt = 1;
    loop {
        match run().await {
            Err(e) if attempt < TX_ATTEMPTS && worth_retrying(&e) => {
                tracing::debug!(error = %e, attempt, "a concurrent writer got in the way; running the transaction again");
                attempt += 1;
            }
            done => return done,
        }
    }
}

impl PgStore {
    /// Publishers are matched by slug: one another process inserts meanwhile makes the
    /// insert wait for its commit and do nothing, and the select then finds it.
    async fn import_publishers_once(
        &self,
        publishers: &[PublisherFeeds],
        now_ms: i64,
    ) -> std::result::Result<ImportReport, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let mut report = ImportReport::default();
        for p in publishers {
            let m = &p.media;
            let inserted: Option<i64> = sqlx::query_scalar(
                "INSERT INTO media_sources (slug, name, name_fold, icon_url, home_url, about, contact, \
                 category_id, category_top_id, country, admin_code, city, city_id, lang, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
                 ON CONFLICT (slug) DO NOTHING RETURNING media_id",
            )
            .bind(&m.slug)
            .bind(&m.name)
            .bind(domain::text::fold(&m.name))
            .bind(&m.icon_url)
            .bind(&m.home_url)
            .bind(&m.about)
            .bind(&m.contact)
            .bind(&m.category_id)
            .bind(&m.category_top_id)
            .bind(&m.country)
            .bind(&m.admin_code)
            .bind(&m.city)
            .bind(m.city_id.0)
            .bind(&m.lang)
            .bind(now_ms)
            .fetch_optional(&mut *tx)
            .await?;
            let media_id = match inserted {
                Some(id) => {
                    report.media_added += 1;
                    id
                }
                None => {
                    sqlx::query_scalar("SELECT media_id FROM media_sources WHERE slug = $1")
                        .bind(&m.slug)
                        .fetch_one(&mut *tx)
                        .await?
                }
            };
            for f in &p.feeds {
                let added = sqlx::query(
                    "INSERT INTO feeds (media_id, url, lang, next_due, created_at) VALUES ($1, $2, $3, $4, $4) \
                     ON CONFLICT (url) DO NOTHING",
                )
                .bind(media_id)
                .bind(&f.url)
                .bind(&f.lang)
                .bind(now_ms)
                .execute(&mut *tx)
                .await?;
                if added.rows_affected() == 0 {
                    report
                        .skipped
                        .push((f.url.clone(), "the feed is already registered".into()));
                } else {
                    report.feeds_added += 1;
                }
            }
        }
        tx.commit().await?;
        Ok(report)
    }

    async fn upsert_items_once(
        &self,
        feed_id: i64,
        media_id: i64,
        items: &[NewsRecord],
        clusters: &[ClusterChoice],
        now_ms: i64,
    ) -> std::result::Result<Vec<Upserted>, sqlx::Error> {
        let mut tx = self.pool.begin().await?;
        let country: String = sqlx::query_scalar("SELECT country FROM media_sources WHERE media_id = $1")
            .bind(media_id)
            .fetch_one(&mut *tx)
            .await?;
        // Stories whose counts this batch changed, to recount; and stories this batch
        // started with one item no other record joined: written whole, no recount needed
        // (no other process can see or join them before this commits).
        let mut touched = BTreeSet::new();
        let mut started: std::collections::BTreeMap<i64, (i64, String)> = Default::default();
        let mut places = BatchPlaces::default();
        // Each record's item as the batch began; a record whose identity or address an
        // earlier record of this batch stored is looked up again, after that write.
        let found_before = find_items(&mut tx, media_id, items).await?;
        let (mut identities, mut urls) = (HashSet::new(), HashSet::new());
        let mut batch = BatchWrite::new(feed_id, media_id, &country, items, now_ms);
        for (i, item) in items.iter().enumerate() {
            let choice = clusters.get(i).copied().unwrap_or(ClusterChoice::New);
            let again = identities.contains(item.identity.as_str())
                || (!item.canonical_url.is_empty() && urls.contains(item.canonical_url.as_str()));
            // A record that needs an earlier record's row or story id: the waiting new
            // items go in first.
            let needs_earlier =
                again || matches!(choice, ClusterChoice::SameAs(j) if j < i && batch.cluster_of[j].is_none());
            if needs_earlier {
                batch.insert_waiting(&mut tx).await?;
            }
            let join = match choice {
                ClusterChoice::New => 0,
                ClusterChoice::Join(c) => c.0,
                ClusterChoice::SameAs(j) if j < i => batch.cluster_of[j].unwrap_or(0),
                ClusterChoice::SameAs(_) => 0,
            };
            let found = if again {
                find_item(&mut tx, media_id, item).await?
            } else {
                found_before.get(i).cloned().flatten()
            };
            identities.insert(item.identity.as_str());
            urls.insert(item.canonical_url.as_str());
            if found.is_none() && !again {
                batch.waiting.push((i, join));
            } else {
                batch.upsert(&mut tx, i, found, join).await?;
            }
        }
        batch.insert_waiting(&mut tx).await?;
        let mut out = Vec::with_capacity(items.len());
        for (item, stored) in items.iter().zip(batch.stored) {
            let stored = stored.ok_or(sqlx::Error::RowNotFound)?;
            let id = stored.outcome.news_id().0;
            if stored.changed {
                if matches!(stored.outcome, Upserted::Updated(_)) {
                    places.replaced.push(id);
                }
                places.put(id, item);
                if stored.new_story {
                    started.insert(stored.cluster, (item.publish_time_ms, item.lang.clone()));
                } else {
                    // Joining a story this batch started makes it one to recount.
                    started.remove(&stored.cluster);
                    touched.insert(stored.cluster);
                }
            }
            out.push(stored.outcome);
        }
        places.write(&mut tx).await?;
        if !started.is_empty() {
            let (mut ids, mut newest, mut langs) = (Vec::new(), Vec::new(), Vec::new());
            for (id, (time, lang)) in started {
                ids.push(id);
                newest.push(time);
                langs.push(lang);
            }
            sqlx::query(
                "INSERT INTO story_clusters (cluster_id, lead_id, size, media_count, newest, lang, country) \
                 SELECT id, id, 1, 1, t, l, $4 FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS s(id, t, l)",
            )
            .bind(&ids)
            .bind(&newest)
            .bind(&langs)
            .bind(&country)
            .execute(&mut *tx)
            .await?;
        }
        refresh_clusters(&mut tx, &touched).await?;
        tx.commit().await?;
        Ok(out)
    }
}

/// How a reader's-place tier (D426) finds the words' newest [`SEARCH_RANKED_MAX`] matches
/// (D431). Other tiers walk the newest [`WALK_MAX`] stories, then list the older matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NearReading {
    /// Walked newest first, each story tested, until found: the words are common.
    Walked,
    /// Every match listed from the full-text index (`search_matches`, migration 0026)
    /// and sorted: the words are rare.
    Listed,
}

/// Where a search tier's stories `n` come from: those matching $3 (the words and filters
/// as a `tsquery`) with an id above $9, walked newest first; or those with an id up to
/// $9, listed from the full-text index.
macro_rules! search_from {
    (walked) => {
        "news_items n WHERE n.search @@ $3::tsquery AND n.news_id > $9 "
    };
    (listed) => {
        "search_matches($3::tsquery, NULL) AS s(id) JOIN news_items n ON n.news_id = s.id WHERE n.news_id <= $9 "
    };
}

/// A search tier's statement. Binds as [`filters`], then $3 the `tsquery`, $4 category,
/// $5 since, $6 place filter, $7 limit, $8 words that must not match (a `tsquery` or
/// NULL), $9 the id between the walk and the listing ([`search_from`]).
macro_rules! search_tier {
    ($reading:ident) => {
        concat!(
            "SELECT n.news_id FROM ",
            search_from!($reading),
            "AND ($8::tsquery IS NULL OR NOT n.search @@ $8::tsquery) AND",
            filters!(),
            "AND ($4::text IS NULL OR n.category_id = $4) AND ($5::bigint IS NULL OR n.publish_time >= $5) \
             AND ($6::text IS NULL OR EXISTS (SELECT 1 FROM news_places p WHERE p.place = $6 AND p.news_id = n.news_id)) \
             ORDER BY n.news_id DESC LIMIT $7"
        )
    };
}

/// As [`search_tier`], among the tier's newest [`SEARCH_RANKED_MAX`] ($10) matches of the
/// words alone, those placed in $11 (D426). $6 (a place filter) is never set here: it
/// makes the reader's place moot.
macro_rules! search_tier_near {
    ($reading:ident) => {
        concat!(
            "SELECT n.news_id FROM news_items n WHERE n.news_id IN (SELECT n.news_id FROM ",
            search_from!($reading),
            "AND ($8::tsquery IS NULL OR NOT n.search @@ $8::tsquery) ORDER BY n.news_id DESC LIMIT $10) \
             AND EXISTS (SELECT 1 FROM news_places p WHERE p.place = $11 AND p.news_id = n.news_id) AND",
            filters!(),
            "AND ($4::text IS NULL OR n.category_id = $4) AND ($5::bigint IS NULL OR n.publish_time >= $5) \
             AND $6::text IS NULL ORDER BY n.news_id DESC LIMIT $7"
        )
    };
}

/// A search's words as `tsquery`s (D431), each the union of its readings in
/// [`SEARCH_CONFIGS`] without repeats: one lexeme for a word every configuration reads
/// alike, where four ORed copies made PostgreSQL estimate four times the matches.
struct SearchWords {
    /// Every word anywhere.
    matched: String,
    /// Every word in the title (the vector's weight A).
    in_title: String,
}

/// How a search's tiers ask for their stories (D431).
struct SearchPlan {
    words: SearchWords,
    /// The search's filters as lexemes ([`filter_query`]), asked with the words.
    filters: Option<String>,
    /// How the reader's-place tiers read the words' matches (D426: the filters apply after).
    near_reading: NearReading,
    /// The id at and below which a walked tier lists its matches ([`PgStore::walk_floor`]).
    floor: i64,
}

impl SearchPlan {
    /// A tier's `tsquery`: its words and the search's filters.
    fn with_filters(&self, words: &str) -> String {
        match &self.filters {
            Some(filters) => format!("({words}) & {filters}"),
            None => words.to_string(),
        }
    }
}

impl PgStore {
    /// Each query text (`to_tsquery` syntax) read in every configuration of
    /// [`SEARCH_CONFIGS`], the distinct readings ORed, as `tsquery` text; None where no
    /// configuration reads a word (stop words only).
    async fn tsqueries(&self, texts: &[String]) -> Result<Vec<Option<String>>> {
        sqlx::query_scalar(
            "SELECT (SELECT string_agg(DISTINCT '(' || r.q::text || ')', ' | ') \
               FROM (SELECT to_tsquery(c, u.t) AS q FROM unnest($2::regconfig[]) AS c) r WHERE numnode(r.q) > 0) \
             FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i) ORDER BY u.i",
        )
        .bind(texts)
        .bind(SEARCH_CONFIGS)
        .fetch_all(&self.pool)
        .await
        .map_err(db)
    }

    /// How many stories the words `tsquery` matches, counted to [`WHOLE_WORD_ENOUGH`]:
    /// PostgreSQL reads an uncommon word's few matches from the full-text index, and finds
    /// a common word's first ones by reading a few stories.
    async fn count_words(&self, tsquery: &str) -> Result<i64> {
        sqlx::query_scalar("SELECT count(*) FROM (SELECT 1 FROM news_items n WHERE n.search @@ $1::tsquery LIMIT $2) f")
            .bind(tsquery)
            .bind(WHOLE_WORD_ENOUGH)
            .fetch_one(&self.pool)
            .await
            .map_err(db)
    }

    /// The id at and below which a search lists its matches rather than walking: the
    /// newest [`WALK_MAX`] stories' are walked.
    async fn walk_floor(&self) -> Result<i64> {
        sqlx::query_scalar("SELECT coalesce(max(news_id), 0) - $1 FROM news_items")
            .bind(WALK_MAX)
            .fetch_one(&self.pool)
            .await
            .map_err(db)
    }

    /// The words of a search, the last read as a prefix when `last_as_prefix`; None when
    /// no configuration reads any of them.
    async fn search_words(&self, words: &[String], last_as_prefix: bool) -> Result<Option<SearchWords>> {
        let texts = [
            ts_query(words, last_as_prefix, ""),
            ts_query(words, last_as_prefix, "A"),
        ];
        let mut read = self.tsqueries(&texts).await?.into_iter();
        Ok(match (read.next().flatten(), read.next().flatten()) {
            (Some(matched), Some(in_title)) => Some(SearchWords { matched, in_title }),
            _ => None,
        })
    }

    /// The newest `n` stories matching `words` (and not `but_not`) and the search's
    /// filters; with [`Near::Inside`], only those among the newest [`SEARCH_RANKED_MAX`]
    /// matches of the words that are placed in the reader's place (D426).
    async fn search_ids(
        &self,
        q: &SearchQuery,
        words: (&str, Option<&str>),
        plan: &SearchPlan,
        near: Near,
        n: i64,
    ) -> Result<Vec<NewsId>> {
        let tier = |sql, asked, floor, n| self.tier_ids(q, sql, (asked, words.1), floor, n);
        if let (Near::Inside, Some(place)) = (near, q.near_place()) {
            // The reader's place ranks the words' newest matches, all walked or all listed
            // (a walk's floor would need the 1,000th match found first); the filters apply
            // after.
            let (sql, floor) = match plan.near_reading {
                NearReading::Walked => (search_tier_near!(walked), i64::MIN),
                NearReading::Listed => (search_tier_near!(listed), i64::MAX),
            };
            let query = self.tier_query(q, sql, (words.0.to_string(), words.1), floor, n);
            let ids: Vec<i64> = query
                .bind(SEARCH_RANKED_MAX)
                .bind(place.key())
                .fetch_all(&self.pool)
                .await
                .map_err(db)?;
            return Ok(ids.into_iter().map(NewsId).collect());
        }
        // The newest stories walked, then the older matches listed (D431).
        let asked = plan.with_filters(words.0);
        let mut ids = tier(search_tier!(walked), asked.clone(), plan.floor, n).await?;
        let rest = n - ids.len() as i64;
        if rest > 0 {
            ids.extend(tier(search_tier!(listed), asked, plan.floor, rest).await?);
        }
        Ok(ids)
    }

    /// One statement of a search tier ([`search_tier`]): `asked` its `tsquery`, `floor`
    /// where its walk ends or its listing starts.
    async fn tier_ids(
        &self,
        q: &SearchQuery,
        sql: &'static str,
        words: (String, Option<&str>),
        floor: i64,
        n: i64,
    ) -> Result<Vec<NewsId>> {
        let query = self.tier_query(q, sql, words, floor, n);
        let ids: Vec<i64> = query.fetch_all(&self.pool).await.map_err(db)?;
        Ok(ids.into_iter().map(NewsId).collect())
    }

    /// A search tier's statement with its binds up to $9 ([`search_tier`]).
    fn tier_query<'q>(
        &self,
        q: &'q SearchQuery,
        sql: &'static str,
        (asked, but_not): (String, Option<&'q str>),
        floor: i64,
        n: i64,
    ) -> sqlx::query::QueryScalar<'q, Postgres, i64, sqlx::postgres::PgArguments> {
        sqlx::query_scalar(sql)
            .bind(q.filter.lang.as_deref())
            .bind(q.filter.country.as_deref())
            .bind(asked)
            .bind(q.category.as_deref())
            .bind(q.since_ms)
            .bind(q.place.as_ref().map(PlaceKey::key))
            .bind(n)
            .bind(but_not)
            .bind(floor)
    }
}

#[async_trait]
impl ContentStore for PgStore {
    async fn import_publishers(&self, publishers: &[PublisherFeeds], now_ms: i64) -> Result<ImportReport> {
        let done = retried(|| self.import_publishers_once(publishers, now_ms)).await;
        self.generation.after(done.map_err(db))
    }

    async fn export_publishers(&self) -> Result<Vec<(MediaSource, Vec<NewFeed>)>> {
        let media = sqlx::query(concat!(
            "SELECT ",
            media_columns!(),
            " FROM media_sources m ORDER BY m.media_id"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        let mut out: Vec<(MediaSource, Vec<NewFeed>)> =
            rows(media, media_row)?.into_iter().map(|m| (m, Vec::new())).collect();
        let feeds: Vec<(i64, String, String)> =
            sqlx::query_as("SELECT media_id, url, lang FROM feeds ORDER BY feed_id")
                .fetch_all(&self.pool)
                .await
                .map_err(db)?;
        for (media_id, url, lang) in feeds {
            if let Some((_, list)) = out.iter_mut().find(|(m, _)| m.media_id.0 == media_id) {
                list.push(NewFeed { url, lang });
            }
        }
        Ok(out)
    }

    async fn remove_feed(&self, url_or_id: &str) -> Result<bool> {
        let done = async {
            let mut tx = self.pool.begin().await.map_err(db)?;
            let found: Option<(i64, i64)> =
                sqlx::query_as("SELECT feed_id, media_id FROM feeds WHERE url = $1 OR feed_id::text = $1")
                    .bind(url_or_id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db)?;
            let Some((feed_id, media_id)) = found else {
                return Ok(false);
            };
            let clusters: Vec<i64> = sqlx::query_scalar("SELECT DISTINCT cluster_id FROM news_items WHERE feed_id = $1")
                .bind(feed_id)
                .fetch_all(&mut *tx)
                .await
                .map_err(db)?;
            sqlx::query("DELETE FROM feeds WHERE feed_id = $1")
                .bind(feed_id)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
            refresh_clusters(&mut tx, &clusters.into_iter().collect()).await.map_err(db)?;
            sqlx::query(
                "DELETE FROM media_sources WHERE media_id = $1 AND NOT EXISTS (SELECT 1 FROM feeds WHERE media_id = $1)",
            )
            .bind(media_id)
            .execute(&mut *tx)
            .await
            .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(true)
        }
        .await;
        self.generation.after(done)
    }

    async fn set_like_counts(&self, counts: &[(NewsId, i64)]) -> Result<()> {
        if counts.is_empty() {
            return Ok(());
        }
        sqlx::query(
            "UPDATE news_items n SET like_count = c.n FROM UNNEST($1::bigint[], $2::bigint[]) AS c(id, n) \
             WHERE n.news_id = c.id AND n.like_count <> c.n",
        )
        .bind(counts.iter().map(|(id, _)| id.0).collect::<Vec<i64>>())
        .bind(counts.iter().map(|(_, n)| *n).collect::<Vec<i64>>())
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn set_feed_paused(&self, feed_id: FeedId, paused: bool, now_ms: i64) -> Result<bool> {
        // A resumed feed is due at once; pausing keeps its schedule for when it resumes.
        let done = sqlx::query(
            "UPDATE feeds SET paused = $2, next_due = CASE WHEN $2 THEN next_due ELSE LEAST(next_due, $3) END \
             WHERE feed_id = $1",
        )
        .bind(feed_id.0)
        .bind(paused)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn feed_health(&self) -> Result<FeedHealth> {
        let (feeds, oldest_due_ms, failing): (i64, Option<i64>, i64) = sqlx::query_as(
            "SELECT count(*), min(next_due) FILTER (WHERE NOT paused), \
             count(*) FILTER (WHERE consecutive_errors > 0 AND NOT paused) FROM feeds",
        )
        .fetch_one(&self.pool)
        .await
        .map_err(db)?;
        Ok(FeedHealth {
            feeds,
            oldest_due_ms,
            failing,
        })
    }

    async fn feeds(&self) -> Result<Vec<FeedStatus>> {
        let list = sqlx::query(
            "SELECT f.feed_id, f.media_id, m.name AS media_name, f.url, f.lang, f.last_fetch, f.last_status, \
             f.last_items, f.last_error, f.next_due, f.consecutive_errors, f.interval_secs, f.paused, \
             (SELECT count(*) FROM news_items i WHERE i.feed_id = f.feed_id) AS item_count \
             FROM feeds f JOIN media_sources m ON m.media_id = f.media_id ORDER BY f.feed_id",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        list.iter()
            .map(|r| {
                Ok(FeedStatus {
                    feed_id: FeedId(r.try_get("feed_id")?),
                    media_id: MediaId(r.try_get("media_id")?),
                    media_name: r.try_get("media_name")?,
                    url: r.try_get("url")?,
                    lang: r.try_get("lang")?,
                    last_fetch_ms: r.try_get("last_fetch")?,
                    last_status: r.try_get("last_status")?,
                    last_items: r.try_get("last_items")?,
                    last_error: r.try_get("last_error")?,
                    next_due_ms: r.try_get("next_due")?,
                    consecutive_errors: r.try_get("consecutive_errors")?,
                    interval_secs: r.try_get("interval_secs")?,
                    item_count: r.try_get("item_count")?,
                    paused: r.try_get("paused")?,
                })
            })
            .collect::<std::result::Result<_, sqlx::Error>>()
            .map_err(db)
    }

    async fn claim_due_feeds(&self, now_ms: i64, lease_until_ms: i64, limit: i64) -> Result<Vec<ClaimedFeed>> {
        let claimed: Vec<(i64, String, String, Option<String>, Option<String>, i32, i64, i64)> = sqlx::query_as(
            "UPDATE feeds SET lease_until = $1 WHERE feed_id IN \
             (SELECT feed_id FROM feeds WHERE next_due <= $2 AND lease_until <= $2 AND NOT paused ORDER BY next_due, feed_id \
              LIMIT $3 FOR UPDATE SKIP LOCKED) \
             RETURNING feed_id, url, lang, etag, last_modified, consecutive_errors, interval_secs, media_id",
        )
        .bind(lease_until_ms)
        .bind(now_ms)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        let mut out = Vec::with_capacity(claimed.len());
        for (feed_id, url, lang, etag, last_modified, consecutive_errors, interval_secs, media_id) in claimed {
            let media = self
                .media(MediaId(media_id))
                .await?
                .ok_or_else(|| StoreError::Database("feed without publisher".into()))?;
            out.push(ClaimedFeed {
                feed_id: FeedId(feed_id),
                url,
                lang,
                etag,
                last_modified,
                consecutive_errors,
                interval_secs,
                media,
            });
        }
        out.sort_by_key(|f| f.feed_id);
        Ok(out)
    }

    async fn record_fetch(&self, feed_id: FeedId, r: &FetchRecord) -> Result<()> {
        sqlx::query(
            "UPDATE feeds SET last_fetch = $1, last_status = $2, etag = COALESCE($3, etag), \
             last_modified = COALESCE($4, last_modified), last_items = $5, last_error = $6, next_due = $7, \
             consecutive_errors = $8, interval_secs = $9, lease_until = 0 WHERE feed_id = $10",
        )
        .bind(r.fetched_at_ms)
        .bind(r.status)
        .bind(&r.etag)
        .bind(&r.last_modified)
        .bind(r.items)
        .bind(&r.error)
        .bind(r.next_due_ms)
        .bind(r.consecutive_errors)
        .bind(r.interval_secs)
        .bind(feed_id.0)
        .execute(&self.pool)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn upsert_items(
        &self,
        feed_id: FeedId,
        media_id: MediaId,
        items: &[NewsRecord],
        clusters: &[ClusterChoice],
        now_ms: i64,
    ) -> Result<Vec<Upserted>> {
        let done = retried(|| self.upsert_items_once(feed_id.0, media_id.0, items, clusters, now_ms)).await;
        self.generation.after(done.map_err(db))
    }

    async fn cluster_candidates(&self, from_ms: i64, to_ms: i64) -> Result<Vec<ClusterCandidate>> {
        self.cluster_candidates_since(from_ms, to_ms, i64::MIN).await
    }

    async fn cluster_candidates_since(&self, from_ms: i64, to_ms: i64, since_ms: i64) -> Result<Vec<ClusterCandidate>> {
        let list: Vec<(i64, i64, i64, i64, Vec<u8>, String)> = sqlx::query_as(
            "SELECT n.news_id, n.cluster_id, n.media_id, n.publish_time, n.signature, \
             CASE WHEN n.city_ids = '[]' AND m.city_id <> 0 THEN '[' || m.city_id || ']' ELSE n.city_ids END AS city_ids \
             FROM news_items n JOIN media_sources m ON m.media_id = n.media_id \
             WHERE n.publish_time BETWEEN $1 AND $2 AND n.signature IS NOT NULL AND n.updated_at >= $3 \
             ORDER BY n.publish_time, n.news_id",
        )
        .bind(from_ms)
        .bind(to_ms)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(list
            .into_iter()
            .map(
                |(news_id, cluster_id, media_id, publish_time_ms, signature, city_ids)| ClusterCandidate {
                    news_id: NewsId(news_id),
                    cluster_id: ClusterId(cluster_id),
                    media_id: MediaId(media_id),
                    publish_time_ms,
                    signature,
                    city_ids: serde_json::from_str(&city_ids).unwrap_or_default(),
                },
            )
            .collect())
    }

    async fn known_hashes(&self, media_id: MediaId, identities: &[String]) -> Result<Vec<(String, String)>> {
        sqlx::query_as("SELECT identity, content_hash FROM news_items WHERE media_id = $1 AND identity = ANY($2)")
            .bind(media_id.0)
            .bind(identities)
            .fetch_all(&self.pool)
            .await
            .map_err(db)
    }

    async fn media(&self, media_id: MediaId) -> Result<Option<MediaSource>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            media_columns!(),
            " FROM media_sources m WHERE m.media_id = $1"
        ))
        .bind(media_id.0)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        row.as_ref().map(media_row).transpose().map_err(db)
    }

    async fn search_media(&self, folded: &str, offset: i64, limit: i64) -> Result<Vec<MediaSource>> {
        let list = sqlx::query(concat!(
            "SELECT ",
            media_columns!(),
            " FROM media_sources m WHERE strpos(m.name_fold, $1) > 0 ORDER BY m.name_fold, m.media_id LIMIT $2 OFFSET $3"
        ))
        .bind(folded)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows(list, media_row)
    }

    async fn news(&self, news_id: NewsId) -> Result<Option<NewsRow>> {
        let row = sqlx::query(concat!(
            "SELECT ",
            news_columns!("n.content"),
            news_from!(),
            "WHERE n.news_id = $1"
        ))
        .bind(news_id.0)
        .fetch_optional(&self.pool)
        .await
        .map_err(db)?;
        row.as_ref().map(news_row).transpose().map_err(db)
    }

    async fn list_news(
        &self,
        listing: &Listing,
        filter: &ListFilter,
        after: Option<After>,
        limit: i64,
    ) -> Result<Vec<NewsRow>> {
        let (t, id) = after.map_or((i64::MAX, i64::MAX), |a| (a.publish_time_ms, a.news_id.0));
        let query = match listing {
            Listing::Latest => sqlx::query(newest_items!("")),
            Listing::Category(_) => sqlx::query(newest_items!(" AND n.category_id = $6")),
            Listing::Media(_) => sqlx::query(newest_items!(" AND n.media_id = $6")),
            Listing::Publishers(_) => sqlx::query(newest_items!(" AND n.media_id = ANY($6)")),
            Listing::Ids(_) => sqlx::query(newest_items!(" AND n.news_id = ANY($6)")),
            // Each place's newest rows by its own index order, then the newest of those: the
            // same rows as one scan over `place = ANY($6)`, which PostgreSQL ran as a bitmap
            // scan reading and sorting every row of every place (134 ms for a city and its
            // state at 20,000 stories; D405).
            Listing::Places(_) => sqlx::query(concat!(
                "SELECT ",
                news_columns!("''"),
                " FROM (SELECT q.publish_time, q.news_id FROM unnest($6::text[]) AS k(place) \
                  CROSS JOIN LATERAL (SELECT p.publish_time, p.news_id FROM news_places p \
                    JOIN news_items n ON n.news_id = p.news_id \
                    WHERE p.place = k.place AND",
                filters!(),
                "AND",
                before!("p.publish_time", "p.news_id"),
                "ORDER BY p.publish_time DESC, p.news_id DESC LIMIT $5) q \
                  ORDER BY q.publish_time DESC, q.news_id DESC LIMIT $5) p \
                  JOIN news_items n ON n.news_id = p.news_id \
                  JOIN media_sources m ON m.media_id = n.media_id \
                  LEFT JOIN story_clusters c ON c.cluster_id = n.cluster_id \
                  ORDER BY p.publish_time DESC, p.news_id DESC"
            )),
        };
        let query = query
            .bind(filter.lang.as_deref())
            .bind(filter.country.as_deref())
            .bind(t)
            .bind(id)
            .bind(limit);
        let query = match listing {
            Listing::Latest => query,
            Listing::Category(c) => query.bind(c.clone()),
            Listing::Media(m) => query.bind(m.0),
            Listing::Publishers(ids) => query.bind(ids.iter().map(|id| id.0).collect::<Vec<i64>>()),
            Listing::Ids(ids) => query.bind(ids.iter().map(|id| id.0).collect::<Vec<i64>>()),
            Listing::Places(places) => query.bind(places.iter().map(PlaceKey::key).collect::<Vec<_>>()),
        };
        rows(query.fetch_all(&self.pool).await.map_err(db)?, news_row)
    }

    async fn top_news(&self, filter: &ListFilter, since_ms: i64, offset: i64, limit: i64) -> Result<Vec<NewsRow>> {
        // D410: each six-hour bucket of the window (from the start of its first one) in rank
        // order on `story_clusters_top`, at most a page (with its offset) from each, then
        // the best of those.
        let list = sqlx::query(concat!(
            "SELECT ",
            news_columns!("''"),
            " FROM (SELECT k.* FROM generate_series((SELECT max(newest) FROM story_clusters \
                  WHERE newest >= $3 / 21600000 * 21600000) / 21600000, $3 / 21600000, -1) AS b(b) \
              CROSS JOIN LATERAL (SELECT x.cluster_id, x.lead_id, x.media_count, x.size, x.newest \
                FROM story_clusters x WHERE x.newest / 21600000 = b.b \
                AND ($1::text IS NULL OR x.lang = $1) AND ($2::text IS NULL OR x.country = $2) \
                ORDER BY x.newest / 21600000 DESC, x.media_count DESC, x.size DESC, x.newest DESC, x.cluster_id DESC \
                LIMIT $4 + $5) k \
              ORDER BY k.media_count DESC, k.size DESC, k.newest DESC, k.cluster_id DESC LIMIT $4 OFFSET $5) k \
              JOIN story_clusters c ON c.cluster_id = k.cluster_id JOIN news_items n ON n.news_id = k.lead_id \
              JOIN media_sources m ON m.media_id = n.media_id \
              ORDER BY k.media_count DESC, k.size DESC, k.newest DESC, k.cluster_id DESC"
        ))
        .bind(filter.lang.as_deref())
        .bind(filter.country.as_deref())
        .bind(since_ms)
        .bind(limit)
        .bind(offset)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows(list, news_row)
    }

    async fn cluster_items(&self, cluster_id: ClusterId, limit: i64) -> Result<Vec<NewsRow>> {
        let list = sqlx::query(concat!(
            "SELECT ",
            news_columns!("''"),
            news_from!(),
            "WHERE n.cluster_id = $1 ORDER BY n.publish_time DESC, n.news_id DESC LIMIT $2"
        ))
        .bind(cluster_id.0)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        rows(list, news_row)
    }

    async fn search_news(&self, q: &SearchQuery, offset: i64, limit: i64) -> Result<Vec<NewsRow>> {
        let words = q.words();
        if words.is_empty() {
            return Ok(Vec::new());
        }
        // Whole words first: how many stories they match decides whether the last word is
        // a prefix (D411), and a prefix how the reader's-place tiers read (D431).
        let Some(whole) = self.search_words(&words, false).await? else {
            return Ok(Vec::new());
        };
        let whole_count = self
            .common_words
            .count(&whole.matched, self.count_words(&whole.matched))
            .await?;
        let prefixed = whole_count < WHOLE_WORD_ENOUGH;
        let words = if prefixed {
            match self.search_words(&words, true).await? {
                Some(words) => words,
                None => return Ok(Vec::new()),
            }
        } else {
            whole
        };
        let plan = SearchPlan {
            words,
            filters: filter_query(q),
            // A prefix's matches are not counted: PostgreSQL reads every story to count a
            // prefix no word of its statistics begins (9 s at a million stories). A prefix
            // follows a rare whole word, most often a rare or misspelt word itself, so the
            // reader's-place tiers list its matches; a prefix of a common word (a word
            // typed in part) costs listing that word's matches.
            near_reading: if prefixed {
                NearReading::Listed
            } else {
                NearReading::Walked
            },
            // A category or a time is tested on the story's row, not asked of the index: with
            // either, a walk that ends would leave the listing every match of the words to
            // test (a common word's half million), so the walk goes on as before D431.
            floor: if q.category.is_some() || q.since_ms.is_some() {
                i64::MIN
            } else {
                self.walk_floor().await?
            },
        };
        let page = search_page(
            q,
            offset,
            limit,
            async |_| Ok(whole_count),
            // `search_page` reads the last word as a prefix exactly when `prefixed` does.
            |tier: Tier, _prefix, n| {
                let plan = &plan;
                async move {
                    let words = &plan.words;
                    let (wanted, but_not) = if tier.in_title {
                        (&words.in_title, None)
                    } else {
                        (&words.matched, Some(words.in_title.as_str()))
                    };
                    self.search_ids(q, (wanted, but_not), plan, tier.near, n).await
                }
            },
        )
        .await?;
        news_in_order(self, page).await
    }

    async fn published_before(&self, before_ms: i64, after: Option<After>, limit: i64) -> Result<Vec<After>> {
        let (at, id) = after.map_or((i64::MIN, i64::MIN), |a| (a.publish_time_ms, a.news_id.0));
        let keys: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT publish_time, news_id FROM news_items WHERE publish_time < $1 AND (publish_time, news_id) > ($2, $3) \
             ORDER BY publish_time, news_id LIMIT $4",
        )
        .bind(before_ms)
        .bind(at)
        .bind(id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db)?;
        Ok(keys.into_iter().map(After::from).collect())
    }

    async fn delete_news(&self, ids: &[NewsId]) -> Result<u64> {
        let ids: Vec<i64> = ids.iter().map(|n| n.0).collect();
        let done = async {
            let mut tx = self.pool.begin().await.map_err(db)?;
            let clusters: Vec<i64> =
                sqlx::query_scalar("SELECT DISTINCT cluster_id FROM news_items WHERE news_id = ANY($1)")
                    .bind(&ids)
                    .fetch_all(&mut *tx)
                    .await
                    .map_err(db)?;
            // Places go by cascade; the full-text vector is a column of the row.
            let deleted = sqlx::query("DELETE FROM news_items WHERE news_id = ANY($1)")
                .bind(&ids)
                .execute(&mut *tx)
                .await
                .map_err(db)?
                .rows_affected();
            refresh_clusters(&mut tx, &clusters.into_iter().collect())
                .await
                .map_err(db)?;
            tx.commit().await.map_err(db)?;
            Ok(deleted)
        }
        .await;
        self.generation.after(done)
    }

    async fn put_special(&self, sp: &Special, now_ms: i64) -> Result<()> {
        let done = async {
            sqlx::query(
                "INSERT INTO specials (slug, title, description, query, news_ids, updated_at) VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (slug) DO UPDATE SET title = excluded.title, description = excluded.description, \
                 query = excluded.query, news_ids = excluded.news_ids, updated_at = excluded.updated_at",
            )
            .bind(&sp.slug)
            .bind(&sp.title)
            .bind(&sp.description)
            .bind(&sp.query)
            .bind(json(&sp.news_ids))
            .bind(now_ms)
            .execute(&self.pool)
            .await
            .map_err(db)?;
            Ok(())
        }
        .await;
        self.generation.after(done)
    }

    async fn special(&self, slug: &str) -> Result<Option<Special>> {
        let row = sqlx::query("SELECT slug, title, description, query, news_ids FROM specials WHERE slug = $1")
            .bind(slug)
            .fetch_optional(&self.pool)
            .await
            .map_err(db)?;
        row.as_ref().map(special_row).transpose().map_err(db)
    }

    async fn specials(&self) -> Result<Vec<Special>> {
        let list = sqlx::query("SELECT slug, title, description, query, news_ids FROM specials ORDER BY slug")
            .fetch_all(&self.pool)
            .await
            .map_err(db)?;
        rows(list, special_row)
    }

    fn content_generation(&self) -> u64 {
        self.generation.get()
    }

    async fn remove_special(&self, slug: &str) -> Result<bool> {
        let done = async {
            let done = sqlx::query("DELETE FROM specials WHERE slug = $1")
                .bind(slug)
                .execute(&self.pool)
                .await
                .map_err(db)?;
            Ok(done.rows_affected() > 0)
        }
        .await;
        self.generation.after(done)
    }
}

#[cfg(test)]
mod search_lexeme_tests {
    use super::*;

    /// A filter's value reaches the `tsquery` as letters and digits inside one quoted
    /// lexeme: quotes, operators and weights a caller sends never become query syntax.
    #[test]
    fn a_hostile_filter_value_is_one_lexeme_never_query_syntax() {
        let q = SearchQuery {
            terms: vec!["ferry".into()],
            place: Some(PlaceKey::State {
                country: "US".into(),
                admin_code: "CO' | 'x':* & !'y".into(),
            }),
            filter: ListFilter {
                lang: Some("en' | '=len".into()),
                country: Some("CA".into()),
            },
            ..SearchQuery::default()
        };
        assert_eq!(filter_query(&q).as_deref(), Some("'=psUSCOxy' & '=xenlenCA'"));
        assert_eq!(filter_query(&SearchQuery::default()), None);
        assert_eq!(
            story_lexemes("fr", "CA", &[PlaceKey::City(store::content::CityId(6_325_494))]),
            "=lfr =kCA =xfrCA =pc6325494"
        );
    }
}
