//! Content writes (publishers, feeds, items, clusters). Ingestion writes thousands of
//! rows per minute, so these run on one plain rusqlite connection with cached prepared
//! statements on a blocking thread, in one transaction per call: sqlx's per-statement
//! hop to its worker thread cost more than SQLite itself (the same finding as the guest
//! writer, D60). Reads stay on the sqlx reader pool.

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::content::{
    ClaimedFeed, ClusterChoice, FetchRecord, ImportReport, MediaSource, NewsRecord, PublisherFeeds, Special, Upserted,
};
use store::{Result, StoreError};

fn db(e: rusqlite::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

fn json(e: serde_json::Error) -> StoreError {
    StoreError::Database(format!("bad JSON column: {e}"))
}

/// The content writer's connection, opened on first use.
#[derive(Clone)]
pub struct ContentWriter {
    path: PathBuf,
    conn: Arc<Mutex<Option<Connection>>>,
}

impl ContentWriter {
    pub fn new(path: &Path) -> ContentWriter {
        ContentWriter {
            path: path.to_path_buf(),
            conn: Arc::new(Mutex::new(None)),
        }
    }

    /// Run `work` in one immediate transaction on a blocking thread.
    pub async fn write<T, F>(&self, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Transaction<'_>) -> Result<T> + Send + 'static,
    {
        let this = self.clone();
        tokio::task::spawn_blocking(move || {
            let mut guard = this.conn.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
            if guard.is_none() {
                *guard = Some(open(&this.path)?);
            }
            let conn = guard.as_mut().expect("opened above");
            let tx = conn
                .transaction_with_behavior(TransactionBehavior::Immediate)
                .map_err(db)?;
            let out = work(&tx)?;
            tx.commit().map_err(db)?;
            settle_wal_if_large(conn, &this.path);
            Ok(out)
        })
        .await
        .map_err(|e| StoreError::Database(format!("content writer stopped: {e}")))?
    }
}

/// WAL size past which the content writer checkpoints between its own batches.
const WAL_SETTLE_BYTES: u64 = 256 << 20;

/// A bulk ingest writes batch after batch, so the background checkpointer never finds
/// the WAL fully copied at the moment a write begins, which is when SQLite starts the
/// log over: it grew past 1.3 GB (and its index in shared memory, which counts as
/// resident, past 10 MB) over 100k items. Past [`WAL_SETTLE_BYTES`] this writer copies
/// the rest itself between two batches (the frames since the last background pass),
/// so its next write starts the log over and `journal_size_limit` shrinks the file
/// (D155). Only ingestion waits; request writers never run this.
fn settle_wal_if_large(conn: &Connection, path: &Path) {
    settle_wal_past(conn, path, WAL_SETTLE_BYTES);
}

fn settle_wal_past(conn: &Connection, path: &Path, limit: u64) {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let large = std::fs::metadata(&wal).is_ok_and(|m| m.len() > limit);
    if large && let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
        tracing::warn!(error = %e, "SQLite checkpoint by the content writer failed; the background one goes on");
    }
}

fn open(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path).map_err(db)?;
    conn.busy_timeout(Duration::from_secs(10)).map_err(db)?;
    conn.set_prepared_statement_cache_capacity(64);
    conn.execute_batch(
        "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = memory; \
         PRAGMA journal_size_limit = 67108864;",
    )
    .map_err(db)?;
    Ok(conn)
}

pub fn import_publishers(tx: &Transaction<'_>, publishers: &[PublisherFeeds], now_ms: i64) -> Result<ImportReport> {
    let mut report = ImportReport::default();
    for p in publishers {
        let m = &p.media;
        let existing: Option<i64> = tx
            .prepare_cached("SELECT media_id FROM media_sources WHERE slug = ?")
            .and_then(|mut s| s.query_row([&m.slug], |r| r.get(0)).optional())
            .map_err(db)?;
        let media_id = match existing {
            Some(id) => id,
            None => {
                tx.prepare_cached(
                    "INSERT INTO media_sources (slug, name, name_fold, icon_url, home_url, about, contact, category_id, \
                     category_top_id, country, admin_code, city, city_id, lang, created_at) \
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        m.slug,
                        m.name,
                        domain::text::fold(&m.name),
                        m.icon_url,
                        m.home_url,
                        m.about,
                        m.contact,
                        m.category_id,
                        m.category_top_id,
                        m.country,
                        m.admin_code,
                        m.city,
                        m.city_id,
                        m.lang,
                        now_ms
                    ])
                })
                .map_err(db)?;
                report.media_added += 1;
                tx.last_insert_rowid()
            }
        };
        for f in &p.feeds {
            let taken: bool = tx
                .prepare_cached("SELECT EXISTS (SELECT 1 FROM feeds WHERE url = ?)")
                .and_then(|mut s| s.query_row([&f.url], |r| r.get(0)))
                .map_err(db)?;
            if taken {
                report
                    .skipped
                    .push((f.url.clone(), "the feed is already registered".into()));
                continue;
            }
            tx.prepare_cached("INSERT INTO feeds (media_id, url, lang, next_due, created_at) VALUES (?, ?, ?, ?, ?)")
                .and_then(|mut s| s.execute(params![media_id, f.url, f.lang, now_ms, now_ms]))
                .map_err(db)?;
            report.feeds_added += 1;
        }
    }
    Ok(report)
}

pub fn remove_feed(tx: &Transaction<'_>, url_or_id: &str) -> Result<bool> {
    let id: Option<(i64, i64)> = tx
        .prepare_cached("SELECT feed_id, media_id FROM feeds WHERE url = ?1 OR CAST(feed_id AS TEXT) = ?1")
        .and_then(|mut s| s.query_row([url_or_id], |r| Ok((r.get(0)?, r.get(1)?))).optional())
        .map_err(db)?;
    let Some((feed_id, media_id)) = id else {
        return Ok(false);
    };
    tx.execute(
        "DELETE FROM news_fts WHERE rowid IN (SELECT news_id FROM news_items WHERE feed_id = ?)",
        [feed_id],
    )
    .map_err(db)?;
    let clusters: Vec<i64> = tx
        .prepare("SELECT DISTINCT cluster_id FROM news_items WHERE feed_id = ?")
        .and_then(|mut s| s.query_map([feed_id], |r| r.get(0))?.collect())
        .map_err(db)?;
    tx.execute("DELETE FROM feeds WHERE feed_id = ?", [feed_id])
        .map_err(db)?;
    for c in clusters {
        refresh_cluster(tx, c)?;
    }
    tx.execute(
        "DELETE FROM media_sources WHERE media_id = ? AND NOT EXISTS (SELECT 1 FROM feeds WHERE media_id = ?)",
        [media_id, media_id],
    )
    .map_err(db)?;
    Ok(true)
}

pub fn claim_due_feeds(tx: &Transaction<'_>, now_ms: i64, lease_until_ms: i64, limit: i64) -> Result<Vec<ClaimedFeed>> {
    let mut stmt = tx
        .prepare_cached(
            "UPDATE feeds SET lease_until = ?1 WHERE feed_id IN \
             (SELECT feed_id FROM feeds WHERE next_due <= ?2 AND lease_until <= ?2 ORDER BY next_due, feed_id LIMIT ?3) \
             RETURNING feed_id, url, lang, etag, last_modified, consecutive_errors, interval_secs, media_id",
        )
        .map_err(db)?;
    let rows: Vec<(ClaimedFeed, i64)> = stmt
        .query_map(params![lease_until_ms, now_ms, limit], |r| {
            Ok((
                ClaimedFeed {
                    feed_id: r.get(0)?,
                    url: r.get(1)?,
                    lang: r.get(2)?,
                    etag: r.get(3)?,
                    last_modified: r.get(4)?,
                    consecutive_errors: r.get(5)?,
                    interval_secs: r.get(6)?,
                    media: empty_media(),
                },
                r.get(7)?,
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(db)?;
    let mut out = Vec::with_capacity(rows.len());
    for (mut feed, media_id) in rows {
        feed.media = media_by_id(tx, media_id)?.ok_or_else(|| StoreError::Database("feed without publisher".into()))?;
        out.push(feed);
    }
    out.sort_by_key(|f| f.feed_id);
    Ok(out)
}

fn empty_media() -> MediaSource {
    MediaSource {
        media_id: 0,
        slug: String::new(),
        name: String::new(),
        icon_url: String::new(),
        home_url: String::new(),
        about: String::new(),
        contact: String::new(),
        category_id: String::new(),
        category_top_id: String::new(),
        country: String::new(),
        admin_code: String::new(),
        city: String::new(),
        city_id: 0,
        lang: String::new(),
        item_count: 0,
    }
}

fn media_by_id(tx: &Transaction<'_>, media_id: i64) -> Result<Option<MediaSource>> {
    tx.prepare_cached(
        "SELECT media_id, slug, name, icon_url, home_url, about, contact, category_id, category_top_id, country, \
         admin_code, city, city_id, lang FROM media_sources WHERE media_id = ?",
    )
    .and_then(|mut s| {
        s.query_row([media_id], |r| {
            Ok(MediaSource {
                media_id: r.get(0)?,
                slug: r.get(1)?,
                name: r.get(2)?,
                icon_url: r.get(3)?,
                home_url: r.get(4)?,
                about: r.get(5)?,
                contact: r.get(6)?,
                category_id: r.get(7)?,
                category_top_id: r.get(8)?,
                country: r.get(9)?,
                admin_code: r.get(10)?,
                city: r.get(11)?,
                city_id: r.get(12)?,
                lang: r.get(13)?,
                item_count: 0,
            })
        })
        .optional()
    })
    .map_err(db)
}

pub fn record_fetch(tx: &Transaction<'_>, feed_id: i64, r: &FetchRecord) -> Result<()> {
    tx.prepare_cached(
        "UPDATE feeds SET last_fetch = ?, last_status = ?, etag = COALESCE(?, etag), \
         last_modified = COALESCE(?, last_modified), last_items = ?, last_error = ?, next_due = ?, \
         consecutive_errors = ?, interval_secs = ?, lease_until = 0 WHERE feed_id = ?",
    )
    .and_then(|mut s| {
        s.execute(params![
            r.fetched_at_ms,
            r.status,
            r.etag,
            r.last_modified,
            r.items,
            r.error,
            r.next_due_ms,
            r.consecutive_errors,
            r.interval_secs,
            feed_id
        ])
    })
    .map_err(db)?;
    Ok(())
}

pub fn upsert_items(
    tx: &Transaction<'_>,
    feed_id: i64,
    media_id: i64,
    items: &[NewsRecord],
    clusters: &[ClusterChoice],
    now_ms: i64,
) -> Result<Vec<Upserted>> {
    let country: String = tx
        .prepare_cached("SELECT country FROM media_sources WHERE media_id = ?")
        .and_then(|mut s| s.query_row([media_id], |r| r.get(0)))
        .map_err(db)?;
    let mut out: Vec<Upserted> = Vec::with_capacity(items.len());
    let mut cluster_of: Vec<i64> = Vec::with_capacity(items.len());
    let mut touched = BTreeSet::new();
    // Full-text rows are written together at the end (see `write_text`).
    let mut text_gone: Vec<i64> = Vec::new();
    let mut text_new: Vec<(i64, &NewsRecord)> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let found: Option<(i64, String, i64)> = tx
            .prepare_cached(
                "SELECT news_id, content_hash, cluster_id FROM news_items WHERE media_id = ?1 AND identity = ?2 \
                 UNION ALL SELECT news_id, content_hash, cluster_id FROM news_items \
                 WHERE media_id = ?1 AND canonical_url = ?3 AND ?3 <> '' LIMIT 1",
            )
            .and_then(|mut s| {
                s.query_row(params![media_id, item.identity, item.canonical_url], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()
            })
            .map_err(db)?;
        let tags = serde_json::to_string(&item.tags).map_err(json)?;
        let city_ids = serde_json::to_string(&item.city_ids).map_err(json)?;
        let outcome = match found {
            Some((id, hash, cluster)) if hash == item.content_hash => {
                cluster_of.push(cluster);
                Upserted::Unchanged(id)
            }
            Some((id, _, cluster)) => {
                tx.prepare_cached(
                    "UPDATE news_items SET feed_id = ?, identity = ?, canonical_url = ?, content_hash = ?, title = ?, \
                     org_img_url = ?, img_url = ?, thumbnail_url = ?, video_url = ?, voice_url = ?, content = ?, \
                     content_type = ?, content_total_length = ?, description = ?, summary = ?, news_type = ?, \
                     publish_time = ?, link_url = ?, author = ?, category_id = ?, tags = ?, city_ids = ?, lang = ?, \
                     signature = ?, updated_at = ? WHERE news_id = ?",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        feed_id,
                        item.identity,
                        item.canonical_url,
                        item.content_hash,
                        item.title,
                        item.org_img_url,
                        item.img_url,
                        item.thumbnail_url,
                        item.video_url,
                        item.voice_url,
                        item.content,
                        item.content_type,
                        item.content_total_length,
                        item.description,
                        item.summary,
                        item.news_type,
                        item.publish_time_ms,
                        item.link_url,
                        item.author,
                        item.category_id,
                        tags,
                        city_ids,
                        item.lang,
                        item.signature,
                        now_ms,
                        id
                    ])
                })
                .map_err(db)?;
                tx.prepare_cached("DELETE FROM news_places WHERE news_id = ?")
                    .and_then(|mut s| s.execute([id]))
                    .map_err(db)?;
                text_gone.push(id);
                write_places(tx, id, item)?;
                // An item seen twice in one feed: its text is written once, the last.
                text_new.retain(|(other, _)| *other != id);
                text_new.push((id, item));
                cluster_of.push(cluster);
                touched.insert(cluster);
                Upserted::Updated(id)
            }
            None => {
                let cluster = match clusters.get(i).copied().unwrap_or(ClusterChoice::New) {
                    ClusterChoice::New => 0,
                    ClusterChoice::Join(c) => c,
                    ClusterChoice::SameAs(j) if j < i => cluster_of[j],
                    ClusterChoice::SameAs(_) => 0,
                };
                tx.prepare_cached(
                    "INSERT INTO news_items (feed_id, media_id, identity, canonical_url, content_hash, title, org_img_url, \
                     img_url, thumbnail_url, video_url, voice_url, content, content_type, content_total_length, \
                     description, summary, news_type, publish_time, link_url, author, category_id, tags, city_ids, \
                     lang, country, cluster_id, signature, created_at, updated_at) \
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        feed_id,
                        media_id,
                        item.identity,
                        item.canonical_url,
                        item.content_hash,
                        item.title,
                        item.org_img_url,
                        item.img_url,
                        item.thumbnail_url,
                        item.video_url,
                        item.voice_url,
                        item.content,
                        item.content_type,
                        item.content_total_length,
                        item.description,
                        item.summary,
                        item.news_type,
                        item.publish_time_ms,
                        item.link_url,
                        item.author,
                        item.category_id,
                        tags,
                        city_ids,
                        item.lang,
                        country,
                        cluster,
                        item.signature,
                        now_ms,
                        now_ms
                    ])
                })
                .map_err(db)?;
                let id = tx.last_insert_rowid();
                let cluster = if cluster == 0 {
                    tx.prepare_cached("UPDATE news_items SET cluster_id = news_id WHERE news_id = ?")
                        .and_then(|mut s| s.execute([id]))
                        .map_err(db)?;
                    id
                } else {
                    cluster
                };
                write_places(tx, id, item)?;
                text_new.push((id, item));
                cluster_of.push(cluster);
                touched.insert(cluster);
                Upserted::Inserted(id)
            }
        };
        out.push(outcome);
    }
    for cluster in touched {
        refresh_cluster(tx, cluster)?;
    }
    write_text(tx, &text_gone, &text_new)?;
    Ok(out)
}

fn write_places(tx: &Transaction<'_>, id: i64, item: &NewsRecord) -> Result<()> {
    let mut insert = tx
        .prepare_cached("INSERT OR IGNORE INTO news_places (place, publish_time, news_id) VALUES (?, ?, ?)")
        .map_err(db)?;
    for place in &item.places {
        insert
            .execute(params![place.key(), item.publish_time_ms, id])
            .map_err(db)?;
    }
    Ok(())
}

/// Rows per full-text statement in [`write_text`].
const TEXT_ROWS: usize = 64;

/// The batch's full-text changes, last in the transaction and many rows a statement.
/// FTS5 writes its pending terms to disk at every statement savepoint once it is part of
/// a transaction: one insert per item, among the other statements, made a tiny index
/// segment per item and merging them took a fifth of ingestion's store time (perf,
/// 100k bench corpus).
fn write_text(tx: &Transaction<'_>, gone: &[i64], new: &[(i64, &NewsRecord)]) -> Result<()> {
    let mut delete = tx.prepare_cached("DELETE FROM news_fts WHERE rowid = ?").map_err(db)?;
    for id in gone {
        delete.execute([id]).map_err(db)?;
    }
    for chunk in new.chunks(TEXT_ROWS) {
        let values = vec!["(?, ?, ?, ?)"; chunk.len()].join(", ");
        let mut insert = tx
            .prepare_cached(&format!(
                "INSERT INTO news_fts (rowid, title, summary, body) VALUES {values}"
            ))
            .map_err(db)?;
        let mut params: Vec<&dyn rusqlite::ToSql> = Vec::with_capacity(4 * chunk.len());
        for (id, item) in chunk {
            params.extend([id as &dyn rusqlite::ToSql, &item.title, &item.summary, &item.body_text]);
        }
        insert.execute(params.as_slice()).map_err(db)?;
    }
    Ok(())
}

/// Recount a cluster from its items (or drop it when none is left).
fn refresh_cluster(tx: &Transaction<'_>, cluster: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM story_clusters WHERE cluster_id = ?")
        .and_then(|mut s| s.execute([cluster]))
        .map_err(db)?;
    tx.prepare_cached(
        "INSERT INTO story_clusters (cluster_id, lead_id, size, media_count, newest) \
         SELECT ?1, (SELECT news_id FROM news_items WHERE cluster_id = ?1 ORDER BY publish_time DESC, news_id DESC LIMIT 1), \
         count(*), count(DISTINCT media_id), max(publish_time) FROM news_items WHERE cluster_id = ?1 HAVING count(*) > 0",
    )
    .and_then(|mut s| s.execute([cluster]))
    .map_err(db)?;
    Ok(())
}

pub fn put_special(tx: &Transaction<'_>, sp: &Special, now_ms: i64) -> Result<()> {
    let ids = serde_json::to_string(&sp.news_ids).map_err(json)?;
    tx.execute(
        "INSERT INTO specials (slug, title, description, query, news_ids, updated_at) VALUES (?, ?, ?, ?, ?, ?) \
         ON CONFLICT (slug) DO UPDATE SET title = excluded.title, description = excluded.description, \
         query = excluded.query, news_ids = excluded.news_ids, updated_at = excluded.updated_at",
        params![sp.slug, sp.title, sp.description, sp.query, ids, now_ms],
    )
    .map_err(db)?;
    Ok(())
}

pub fn remove_special(tx: &Transaction<'_>, slug: &str) -> Result<bool> {
    Ok(tx.execute("DELETE FROM specials WHERE slug = ?", [slug]).map_err(db)? > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wal_len(db: &Path) -> u64 {
        let mut wal = db.as_os_str().to_owned();
        wal.push("-wal");
        std::fs::metadata(wal).map_or(0, |m| m.len())
    }

    /// D155: a writer that never pauses keeps the WAL growing; past the limit the writer's
    /// own checkpoint lets its next write start the log over and shrink the file.
    #[test]
    fn a_large_wal_starts_over_after_the_writers_checkpoint() {
        let dir = std::env::temp_dir().join(format!("lw-wal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("db.sqlite");
        let conn = Connection::open(&db).unwrap();
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; PRAGMA journal_size_limit = 65536; \
             CREATE TABLE t (x BLOB);",
        )
        .unwrap();
        let write = |conn: &Connection| {
            conn.execute("INSERT INTO t VALUES (zeroblob(200000))", []).unwrap();
        };
        for _ in 0..10 {
            write(&conn);
        }
        let grown = wal_len(&db);
        assert!(grown > 1_000_000, "no checkpoint yet: {grown} bytes");
        settle_wal_past(&conn, &db, u64::MAX);
        write(&conn);
        assert!(wal_len(&db) > grown, "under the limit nothing happens");
        settle_wal_past(&conn, &db, 1_000_000);
        write(&conn);
        assert!(wal_len(&db) < grown / 2, "started over: {} bytes", wal_len(&db));
        drop(conn);
        std::fs::remove_dir_all(&dir).ok();
    }
}
