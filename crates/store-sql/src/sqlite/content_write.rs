//! Content writes (publishers, feeds, items, clusters). Ingestion writes thousands of
//! rows a second, so they run on one plain rusqlite connection with cached prepared
//! statements on a thread of its own: sqlx's per-statement hop to its worker thread cost
//! more than SQLite itself (the same finding as the guest writer, D60). Reads stay on the
//! sqlx reader pool.
//!
//! Group commit (D158): ingestion's writes ([`ContentWriter::grouped`]) share one open
//! transaction, committed every [`COMMIT_AFTER`] or every [`GROUP_ITEMS`] items, and
//! their full-text rows are written in one statement just before the commit. One commit
//! per feed had rewritten the same index pages into the WAL again and again (3 GB
//! written for a 400 MB database) and made a small full-text segment per feed, whose
//! merging was most of the store's time. Every other write ([`ContentWriter::write`])
//! commits the open group with it and answers once it is durable.

use super::{search_merge, search_tags};
use rusqlite::{Connection, OptionalExtension, params};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use store::content::{
    CityId, ClaimedFeed, ClusterChoice, FeedId, FetchRecord, Generation, ImportReport, MediaId, MediaSource, NewsId,
    NewsRecord, PublisherFeeds, Special, Upserted,
};
use store::{Result, StoreError};
use tokio::sync::oneshot;

fn db(e: rusqlite::Error) -> StoreError {
    crate::sqlite::rusqlite_db(e)
}

fn json(e: serde_json::Error) -> StoreError {
    StoreError::Database(format!("bad JSON column: {e}"))
}

/// A group is committed at the latest this long after its first write (in `serve`):
/// how long ingested items may wait before readers see them.
pub const COMMIT_AFTER: Duration = Duration::from_millis(250);
/// ... or once it holds this many items' full-text rows.
const GROUP_ITEMS: usize = 8_192;

/// Whether a write changes what readers see (items, publishers, feeds, specials) or is
/// fetch bookkeeping: read caches are told about the first kind only.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Change {
    Content,
    Bookkeeping,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum When {
    /// Answer once committed (with the open group).
    Now,
    /// Answer once done inside the open group; committed with it later.
    Grouped,
}

/// A full-text row waiting for its group's commit.
struct TextRow {
    id: i64,
    title: String,
    summary: String,
    body: String,
    /// Its row in `news_tags` (D430): places, language, country.
    tags: String,
}

/// The full-text rows of the open group, one per item (a later version replaces an
/// earlier one).
#[derive(Default)]
struct TextRows {
    rows: Vec<TextRow>,
    at: HashMap<i64, usize>,
}

impl TextRows {
    fn put(&mut self, row: TextRow) {
        match self.at.get(&row.id) {
            Some(&i) => self.rows[i] = row,
            None => {
                self.at.insert(row.id, self.rows.len());
                self.rows.push(row);
            }
        }
    }
}

/// What a write job sees of the group's full-text rows: which are waiting, and the ones
/// it adds (kept only when the job succeeds).
pub struct Text<'a> {
    waiting: &'a TextRows,
    added: Vec<TextRow>,
}

impl Text<'_> {
    /// The item's text is not in the index yet, only waiting for the commit.
    fn is_waiting(&self, id: i64) -> bool {
        self.waiting.at.contains_key(&id) || self.added.iter().any(|r| r.id == id)
    }

    /// The item's text and search tags wait for the commit (taken from the record, which
    /// is done with); `country` is its publisher's.
    fn add(&mut self, id: i64, item: &mut NewsRecord, country: &str) {
        self.added.push(TextRow {
            id,
            tags: search_tags::story_tags(&item.lang, country, &item.places),
            title: std::mem::take(&mut item.title),
            summary: std::mem::take(&mut item.summary),
            body: std::mem::take(&mut item.body_text),
        });
    }
}

/// Runs a job inside the open group (in a savepoint of its own), or learns why it could
/// not run, and says whether it failed; what it returns answers its caller once the
/// transaction is over.
type Work = Box<dyn FnOnce(Result<(&Connection, &mut Text<'_>)>) -> (bool, Answer) + Send>;
/// Answers a job's caller: with its result, or with the commit's error.
type Answer = Box<dyn FnOnce(std::result::Result<(), &StoreError>) + Send>;

struct Job {
    work: Work,
    when: When,
    change: Change,
}

enum Message {
    Job(Job),
    Commit(oneshot::Sender<Result<()>>),
    /// Merge the full-text indexes into one segment each (D438), after the open group.
    MergeSearch(oneshot::Sender<Result<()>>),
}

/// The content writer: a thread that owns the connection, and its queue.
#[derive(Clone)]
pub struct ContentWriter {
    jobs: mpsc::Sender<Message>,
}

impl ContentWriter {
    /// Open the (already migrated) content database and start the writer thread.
    /// A group commits at the latest `commit_after` after its first write.
    pub fn spawn(path: &Path, generation: Arc<Generation>, commit_after: Duration) -> Result<ContentWriter> {
        let conn = open(path)?;
        let (jobs, rx) = mpsc::channel();
        let path = path.to_path_buf();
        std::thread::Builder::new()
            .name("lw-content-writer".into())
            .spawn(move || run(conn, &path, &rx, &generation, commit_after))
            .map_err(|e| StoreError::Database(format!("cannot start the content writer: {e}")))?;
        Ok(ContentWriter { jobs })
    }

    /// Run `work` in a transaction of its own (after the open group commits) and answer
    /// once it has committed.
    pub async fn write<T, F>(&self, change: Change, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection, &mut Text<'_>) -> Result<T> + Send + 'static,
    {
        self.submit(When::Now, change, work).await
    }

    /// Run `work` in the open group and answer at once; the group commits within the
    /// writer's interval or at [`ContentWriter::commit`].
    pub async fn grouped<T, F>(&self, change: Change, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection, &mut Text<'_>) -> Result<T> + Send + 'static,
    {
        self.submit(When::Grouped, change, work).await
    }

    /// Commit the open group, if any.
    pub async fn commit(&self) -> Result<()> {
        let (reply, answer) = oneshot::channel();
        self.jobs.send(Message::Commit(reply)).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    /// Merge the full-text indexes into one segment each (D438): what a bulk load ends
    /// with; the writer does it on its own when idle, at most hourly.
    pub async fn merge_search(&self) -> Result<()> {
        let (reply, answer) = oneshot::channel();
        self.jobs.send(Message::MergeSearch(reply)).map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }

    async fn submit<T, F>(&self, when: When, change: Change, work: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection, &mut Text<'_>) -> Result<T> + Send + 'static,
    {
        let (reply, answer) = oneshot::channel::<Result<T>>();
        let work: Work = Box::new(move |ready| {
            let out = ready.and_then(|(conn, text)| work(conn, text));
            let failed = out.is_err();
            let answer: Answer = Box::new(move |committed| {
                let _ = reply.send(match committed {
                    Ok(()) => out,
                    // Kept as it was classified: a full disk at commit is a 503, not a 500.
                    Err(e) => out.and_then(|_| Err(e.clone())),
                });
            });
            (failed, answer)
        });
        self.jobs
            .send(Message::Job(Job { work, when, change }))
            .map_err(|_| stopped())?;
        answer.await.map_err(|_| stopped())?
    }
}

fn stopped() -> StoreError {
    StoreError::Database("the content writer has stopped".into())
}

/// The open transaction and what waits for its commit.
#[derive(Default)]
struct Group {
    opened: Option<Instant>,
    text: TextRows,
    /// Whether readers' caches must hear of the commit.
    content: bool,
    /// Callers of [`When::Now`] jobs, answered after the commit.
    answers: Vec<Answer>,
    /// Full-text rows were committed (for [`search_merge::Schedule`]).
    texts_committed: bool,
}

fn run(conn: Connection, path: &Path, rx: &mpsc::Receiver<Message>, generation: &Generation, commit_after: Duration) {
    let mut group = Group::default();
    let mut merging = search_merge::Schedule::new();
    loop {
        if std::mem::take(&mut group.texts_committed) {
            merging.written();
        }
        let message = match group.opened {
            // Idle: a step of merging the full-text indexes, when one is due (D438).
            None if merging.due() => match rx.recv_timeout(search_merge::IDLE) {
                Ok(message) => Some(message),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    merge_step(&conn, path, &mut merging);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
            },
            None => rx.recv().ok(),
            Some(opened) => match rx.recv_timeout(commit_after.saturating_sub(opened.elapsed())) {
                Ok(message) => Some(message),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = commit(&conn, path, &mut group, generation);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => None,
            },
        };
        match message {
            None => {
                let _ = commit(&conn, path, &mut group, generation);
                return;
            }
            Some(Message::Commit(reply)) => {
                let _ = reply.send(commit(&conn, path, &mut group, generation));
            }
            Some(Message::MergeSearch(reply)) => {
                let merged = commit(&conn, path, &mut group, generation).and_then(|()| {
                    search_merge::all(&conn).map_err(db)?;
                    merging.stepped(true);
                    settle_wal_if_large(&conn, path);
                    Ok(())
                });
                let _ = reply.send(merged);
            }
            Some(Message::Job(job)) => {
                // Other writes run alone, after the group: e.g. removing a feed must
                // not leave its items' waiting full-text rows to be written after it.
                if job.when == When::Now {
                    let _ = commit(&conn, path, &mut group, generation);
                }
                run_job(&conn, &mut group, job);
                let due = group.opened.is_some_and(|t| t.elapsed() >= commit_after)
                    || group.text.rows.len() >= GROUP_ITEMS
                    || !group.answers.is_empty();
                if due {
                    let _ = commit(&conn, path, &mut group, generation);
                }
            }
        }
    }
}

/// One step of the idle merge; a failed one is logged and the merge tried again within the
/// hour (the indexes stay as they were: each step is a transaction).
fn merge_step(conn: &Connection, path: &Path, merging: &mut search_merge::Schedule) {
    match search_merge::step(conn) {
        Ok(done) => merging.stepped(done),
        Err(e) => {
            tracing::warn!(error = %e, "merging the full-text index failed; tried again within the hour");
            merging.stepped(true);
        }
    }
    settle_wal_if_large(conn, path);
}

/// Run one job in the open group (opening one if needed), in a savepoint of its own so
/// a failed job leaves nothing behind and the group goes on.
fn run_job(conn: &Connection, group: &mut Group, job: Job) {
    if group.opened.is_none() {
        if let Err(e) = conn.execute_batch("BEGIN IMMEDIATE") {
            let (_, answer) = (job.work)(Err(db(e)));
            answer(Ok(()));
            return;
        }
        group.opened = Some(Instant::now());
    }
    let started = conn.execute_batch("SAVEPOINT job");
    let mut text = Text {
        waiting: &group.text,
        added: Vec::new(),
    };
    let (failed, answer) = match started {
        Ok(()) => (job.work)(Ok((conn, &mut text))),
        Err(ref e) => (job.work)(Err(crate::sqlite::rusqlite_db_ref(e))),
    };
    let added = text.added;
    // A job that did its work but whose savepoint could not be released is undone, and
    // its caller hears why.
    let released = match (&started, failed) {
        (Ok(()), false) => conn.execute_batch("RELEASE job").map_err(db),
        _ => Ok(()),
    };
    if started.is_ok() && !failed && released.is_ok() {
        added.into_iter().for_each(|row| group.text.put(row));
        group.content |= job.change == Change::Content;
    } else if started.is_ok() {
        let _ = conn.execute_batch("ROLLBACK TO job; RELEASE job");
    }
    match (released, job.when) {
        (Err(e), _) => answer(Err(&e)),
        (Ok(()), When::Grouped) => answer(Ok(())),
        (Ok(()), When::Now) => group.answers.push(answer),
    }
}

/// Write the group's full-text rows and commit it; then answer whoever waits for it.
/// A failed commit loses the group's grouped writes: their feeds' fetch records went with
/// them, so those feeds are fetched again when due (their leases lapse).
fn commit(conn: &Connection, path: &Path, group: &mut Group, generation: &Generation) -> Result<()> {
    if group.opened.take().is_none() {
        return Ok(());
    }
    let text = std::mem::take(&mut group.text);
    let done = write_text(conn, &text.rows).and_then(|()| conn.execute_batch("COMMIT").map_err(db));
    if let Err(e) = &done {
        tracing::error!(error = %e, items = text.rows.len(), "a group of content writes could not be committed");
        let _ = conn.execute_batch("ROLLBACK");
    } else {
        group.texts_committed |= !text.rows.is_empty();
        if group.content {
            generation.bump();
        }
    }
    group.content = false;
    for answer in group.answers.drain(..) {
        answer(done.as_ref().map(|_| ()));
    }
    settle_wal_if_large(conn, path);
    done
}

/// WAL size past which the content writer checkpoints between its own groups.
const WAL_SETTLE_BYTES: u64 = 256 << 20;

/// A bulk ingest writes group after group, so the background checkpointer never finds
/// the WAL fully copied at the moment a write begins, which is when SQLite starts the
/// log over: it grew past 1.3 GB (and its index in shared memory, which counts as
/// resident, past 10 MB) over 100k items. Past [`WAL_SETTLE_BYTES`] this writer copies
/// the rest itself between two groups (the frames since the last background pass),
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

/// The content writer's page cache, in KiB (given to SQLite negated, which it reads as
/// KiB rather than pages). It fills with every page the writer touches, so it grows with the
/// database until it is full: 16 MB keeps the server's memory flat once the stories fill
/// it, and ingestion reads the rest from the OS's file cache (D408).
const WRITER_CACHE_KIB: i64 = 16 * 1024;

fn open(path: &Path) -> Result<Connection> {
    let conn = Connection::open(path).map_err(db)?;
    conn.busy_timeout(Duration::from_secs(10)).map_err(db)?;
    conn.set_prepared_statement_cache_capacity(64);
    conn.execute_batch(
        "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA wal_autocheckpoint = 0; PRAGMA temp_store = memory; \
         PRAGMA journal_size_limit = 67108864;",
    )
    .map_err(db)?;
    conn.pragma_update(None, "cache_size", -WRITER_CACHE_KIB).map_err(db)?;
    Ok(conn)
}

pub fn import_publishers(tx: &Connection, publishers: &[PublisherFeeds], now_ms: i64) -> Result<ImportReport> {
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
                        m.city_id.0,
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

pub fn remove_feed(tx: &Connection, url_or_id: &str) -> Result<bool> {
    let id: Option<(i64, i64)> = tx
        .prepare_cached("SELECT feed_id, media_id FROM feeds WHERE url = ?1 OR CAST(feed_id AS TEXT) = ?1")
        .and_then(|mut s| s.query_row([url_or_id], |r| Ok((r.get(0)?, r.get(1)?))).optional())
        .map_err(db)?;
    let Some((feed_id, media_id)) = id else {
        return Ok(false);
    };
    for sql in [
        "DELETE FROM news_fts WHERE rowid IN (SELECT news_id FROM news_items WHERE feed_id = ?)",
        "DELETE FROM news_tags WHERE rowid IN (SELECT news_id FROM news_items WHERE feed_id = ?)",
    ] {
        tx.execute(sql, [feed_id]).map_err(db)?;
    }
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

/// Delete stories (retention, D414): full-text rows first (the index keeps no text to
/// find them by), places by cascade, then their clusters counted again.
pub fn delete_news(tx: &Connection, ids: &[i64]) -> Result<u64> {
    let list = serde_json::to_string(ids).map_err(json)?;
    let clusters: Vec<i64> = tx
        .prepare_cached("SELECT DISTINCT cluster_id FROM news_items WHERE news_id IN (SELECT value FROM json_each(?))")
        .and_then(|mut s| s.query_map([&list], |r| r.get(0))?.collect())
        .map_err(db)?;
    for sql in [
        "DELETE FROM news_fts WHERE rowid IN (SELECT value FROM json_each(?))",
        "DELETE FROM news_tags WHERE rowid IN (SELECT value FROM json_each(?))",
    ] {
        tx.prepare_cached(sql)
            .and_then(|mut s| s.execute([&list]))
            .map_err(db)?;
    }
    let deleted = tx
        .prepare_cached("DELETE FROM news_items WHERE news_id IN (SELECT value FROM json_each(?))")
        .and_then(|mut s| s.execute([&list]))
        .map_err(db)?;
    for c in clusters {
        refresh_cluster(tx, c)?;
    }
    Ok(deleted as u64)
}

pub fn set_like_counts(tx: &Connection, counts: &[(NewsId, i64)]) -> Result<()> {
    let mut stmt = tx
        .prepare_cached("UPDATE news_items SET like_count = ?2 WHERE news_id = ?1 AND like_count <> ?2")
        .map_err(db)?;
    for (news, count) in counts {
        stmt.execute(params![news.0, count]).map_err(db)?;
    }
    Ok(())
}

/// A resumed feed is due at once; pausing keeps its schedule for when it resumes.
pub fn set_feed_paused(tx: &Connection, feed_id: FeedId, paused: bool, now_ms: i64) -> Result<bool> {
    let changed = if paused {
        tx.execute("UPDATE feeds SET paused = 1 WHERE feed_id = ?1", params![feed_id.0])
    } else {
        tx.execute(
            "UPDATE feeds SET paused = 0, next_due = min(next_due, ?2) WHERE feed_id = ?1",
            params![feed_id.0, now_ms],
        )
    }
    .map_err(db)?;
    Ok(changed > 0)
}

pub fn claim_due_feeds(tx: &Connection, now_ms: i64, lease_until_ms: i64, limit: i64) -> Result<Vec<ClaimedFeed>> {
    let mut stmt = tx
        .prepare_cached(
            "UPDATE feeds SET lease_until = ?1 WHERE feed_id IN \
             (SELECT feed_id FROM feeds WHERE next_due <= ?2 AND lease_until <= ?2 AND paused = 0 ORDER BY next_due, feed_id LIMIT ?3) \
             RETURNING feed_id, url, lang, etag, last_modified, consecutive_errors, interval_secs, media_id",
        )
        .map_err(db)?;
    let rows: Vec<(ClaimedFeed, i64)> = stmt
        .query_map(params![lease_until_ms, now_ms, limit], |r| {
            Ok((
                ClaimedFeed {
                    feed_id: FeedId(r.get(0)?),
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
        media_id: MediaId(0),
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
        city_id: CityId(0),
        lang: String::new(),
        item_count: 0,
    }
}

fn media_by_id(tx: &Connection, media_id: i64) -> Result<Option<MediaSource>> {
    tx.prepare_cached(
        "SELECT media_id, slug, name, icon_url, home_url, about, contact, category_id, category_top_id, country, \
         admin_code, city, city_id, lang, 0 FROM media_sources WHERE media_id = ?",
    )
    .and_then(|mut s| s.query_row([media_id], |r| crate::rows::media_row(r)).optional())
    .map_err(db)
}

pub fn record_fetch(tx: &Connection, feed_id: i64, r: &FetchRecord) -> Result<()> {
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
    tx: &Connection,
    feed_id: i64,
    media_id: i64,
    items: Vec<NewsRecord>,
    clusters: &[ClusterChoice],
    now_ms: i64,
    text: &mut Text<'_>,
) -> Result<Vec<Upserted>> {
    let country: String = tx
        .prepare_cached("SELECT country FROM media_sources WHERE media_id = ?")
        .and_then(|mut s| s.query_row([media_id], |r| r.get(0)))
        .map_err(db)?;
    let mut out: Vec<Upserted> = Vec::with_capacity(items.len());
    let mut cluster_of: Vec<i64> = Vec::with_capacity(items.len());
    let mut touched = BTreeSet::new();
    for (i, mut item) in items.into_iter().enumerate() {
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
                Upserted::Unchanged(NewsId(id))
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
                // Its text in the index goes now; the new text waits for the commit
                // (`write_text`), where a later version replaces an earlier one.
                if !text.is_waiting(id) {
                    for sql in [
                        "DELETE FROM news_fts WHERE rowid = ?",
                        "DELETE FROM news_tags WHERE rowid = ?",
                    ] {
                        tx.prepare_cached(sql).and_then(|mut s| s.execute([id])).map_err(db)?;
                    }
                }
                write_places(tx, id, &item)?;
                text.add(id, &mut item, &country);
                cluster_of.push(cluster);
                touched.insert(cluster);
                Upserted::Updated(NewsId(id))
            }
            None => {
                let joins = match clusters.get(i).copied().unwrap_or(ClusterChoice::New) {
                    ClusterChoice::New => None,
                    ClusterChoice::Join(c) => Some(c.0),
                    ClusterChoice::SameAs(j) if j < i => Some(cluster_of[j]),
                    ClusterChoice::SameAs(_) => None,
                };
                // The id SQLite would give it, taken first so a new story's cluster id
                // (its first item's id) goes into the same insert. Only this writer
                // inserts items, inside its write lock.
                let id: i64 = tx
                    .prepare_cached("SELECT coalesce(max(news_id), 0) + 1 FROM news_items")
                    .and_then(|mut s| s.query_row([], |r| r.get(0)))
                    .map_err(db)?;
                let cluster = joins.unwrap_or(id);
                tx.prepare_cached(
                    "INSERT INTO news_items (news_id, feed_id, media_id, identity, canonical_url, content_hash, title, org_img_url, \
                     img_url, thumbnail_url, video_url, voice_url, content, content_type, content_total_length, \
                     description, summary, news_type, publish_time, link_url, author, category_id, tags, city_ids, \
                     lang, country, cluster_id, signature, created_at, updated_at) \
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .and_then(|mut s| {
                    s.execute(params![
                        id,
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
                match joins {
                    // A story of its own: its stats need no counting (unless a later
                    // item of this batch joins it, which recounts it below).
                    None => {
                        tx.prepare_cached(
                            "INSERT INTO story_clusters (cluster_id, lead_id, size, media_count, newest, lang, country) \
                             VALUES (?1, ?1, 1, 1, ?2, ?3, ?4)",
                        )
                        .and_then(|mut s| s.execute(params![id, item.publish_time_ms, item.lang, country]))
                        .map_err(db)?;
                    }
                    Some(c) => {
                        touched.insert(c);
                    }
                }
                write_places(tx, id, &item)?;
                text.add(id, &mut item, &country);
                cluster_of.push(cluster);
                Upserted::Inserted(NewsId(id))
            }
        };
        out.push(outcome);
    }
    for cluster in touched {
        refresh_cluster(tx, cluster)?;
    }
    Ok(out)
}

fn write_places(tx: &Connection, id: i64, item: &NewsRecord) -> Result<()> {
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

/// A group's full-text rows in one statement (and its search tags in one more, D430), last
/// before its commit. FTS5 writes its pending terms to disk as a new index segment at
/// every statement savepoint: one insert per item made a segment per item, and one per
/// feed still made merging those segments most of ingestion's store time (perf, 100k
/// bench corpus; D158).
fn write_text(conn: &Connection, rows: &[TextRow]) -> Result<()> {
    if rows.is_empty() {
        return Ok(());
    }
    let rows: Vec<(i64, &str, &str, &str, &str)> = rows
        .iter()
        .map(|r| {
            (
                r.id,
                r.title.as_str(),
                r.summary.as_str(),
                r.body.as_str(),
                r.tags.as_str(),
            )
        })
        .collect();
    let rows = serde_json::to_string(&rows).map_err(json)?;
    for sql in [
        "INSERT INTO news_fts (rowid, title, summary, body) \
         SELECT value ->> 0, value ->> 1, value ->> 2, value ->> 3 FROM json_each(?)",
        "INSERT INTO news_tags (rowid, tags) SELECT value ->> 0, value ->> 4 FROM json_each(?)",
    ] {
        conn.prepare_cached(sql)
            .and_then(|mut s| s.execute([&rows]))
            .map_err(db)?;
    }
    Ok(())
}

/// Recount a cluster from its items (or drop it when none is left).
fn refresh_cluster(tx: &Connection, cluster: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM story_clusters WHERE cluster_id = ?")
        .and_then(|mut s| s.execute([cluster]))
        .map_err(db)?;
    tx.prepare_cached(
        "INSERT INTO story_clusters (cluster_id, lead_id, size, media_count, newest, lang, country) \
         SELECT ?1, l.news_id, s.size, s.media_count, s.newest, l.lang, l.country \
         FROM (SELECT count(*) AS size, count(DISTINCT media_id) AS media_count, max(publish_time) AS newest \
               FROM news_items WHERE cluster_id = ?1 HAVING count(*) > 0) s \
         JOIN (SELECT news_id, lang, country FROM news_items WHERE cluster_id = ?1 \
               ORDER BY publish_time DESC, news_id DESC LIMIT 1) l",
    )
    .and_then(|mut s| s.execute([cluster]))
    .map_err(db)?;
    Ok(())
}

pub fn put_special(tx: &Connection, sp: &Special, now_ms: i64) -> Result<()> {
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

pub fn remove_special(tx: &Connection, slug: &str) -> Result<bool> {
    Ok(tx.execute("DELETE FROM specials WHERE slug = ?", [slug]).map_err(db)? > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::path::PathBuf;

    /// A migrated content database in a fresh directory (removed on drop).
    struct Content {
        dir: PathBuf,
        file: PathBuf,
    }

    impl Content {
        async fn new(name: &str) -> Content {
            let dir = std::env::temp_dir().join(format!("lw-group-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            drop(
                crate::sqlite::SqliteStore::open_file(&dir.join("localwire.sqlite"))
                    .await
                    .unwrap(),
            );
            let file = crate::sqlite::content_file(&dir.join("localwire.sqlite"));
            Content { dir, file }
        }

        fn writer(&self, commit_after: Duration) -> (ContentWriter, Arc<Generation>) {
            let generation = Arc::new(Generation::default());
            let writer = ContentWriter::spawn(&self.file, generation.clone(), commit_after).unwrap();
            (writer, generation)
        }

        fn count(&self, sql: &str) -> i64 {
            Connection::open(&self.file)
                .unwrap()
                .query_row(sql, [], |r| r.get(0))
                .unwrap()
        }
    }

    impl Drop for Content {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    fn add_special(conn: &Connection, slug: &str) -> Result<()> {
        conn.execute(
            "INSERT INTO specials (slug, title, updated_at) VALUES (?, 'A collection', 0)",
            [slug],
        )
        .map_err(db)?;
        Ok(())
    }

    const LONG: Duration = Duration::from_secs(3600);

    /// D158: grouped writes answer at once and are seen (and the generation moves) only
    /// when the group commits.
    #[tokio::test]
    async fn grouped_writes_are_seen_only_once_the_group_commits() {
        let db = Content::new("seen").await;
        let (writer, generation) = db.writer(LONG);
        writer
            .grouped(Change::Content, |conn, _| add_special(conn, "a"))
            .await
            .unwrap();
        writer
            .grouped(Change::Content, |conn, _| add_special(conn, "b"))
            .await
            .unwrap();
        assert_eq!(db.count("SELECT count(*) FROM specials"), 0, "not committed yet");
        assert_eq!(generation.get(), 0);
        writer.commit().await.unwrap();
        assert_eq!(db.count("SELECT count(*) FROM specials"), 2);
        assert_eq!(generation.get(), 1, "one commit, one change for readers");
    }

    /// D158: a grouped write that fails leaves nothing behind and fails alone; the rest of
    /// its group is committed.
    #[tokio::test]
    async fn a_failed_grouped_write_leaves_nothing_and_its_group_goes_on() {
        let db = Content::new("failed").await;
        let (writer, _) = db.writer(LONG);
        writer
            .grouped(Change::Content, |conn, _| add_special(conn, "kept"))
            .await
            .unwrap();
        let failed = writer
            .grouped(Change::Content, |conn, _| {
                add_special(conn, "half")?;
                add_special(conn, "kept")
            })
            .await;
        assert!(failed.is_err(), "a repeated slug fails");
        writer
            .grouped(Change::Content, |conn, _| add_special(conn, "after"))
            .await
            .unwrap();
        writer.commit().await.unwrap();
        let slugs: Vec<String> = Connection::open(&db.file)
            .unwrap()
            .prepare("SELECT slug FROM specials ORDER BY slug")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(slugs, ["after", "kept"]);
    }

    /// D158: a group commits on its own after the writer's interval, with no further
    /// write or explicit commit.
    #[tokio::test]
    async fn a_group_commits_on_its_own_after_the_interval() {
        let db = Content::new("interval").await;
        let (writer, generation) = db.writer(Duration::from_millis(50));
        writer
            .grouped(Change::Content, |conn, _| add_special(conn, "a"))
            .await
            .unwrap();
        let started = Instant::now();
        while generation.get() == 0 && started.elapsed() < Duration::from_secs(10) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        assert_eq!(db.count("SELECT count(*) FROM specials"), 1);
    }

    /// D158: a write that must be durable commits the open group and itself before it
    /// answers; bookkeeping alone does not tell readers' caches.
    #[tokio::test]
    async fn a_write_now_commits_the_open_group_first() {
        let db = Content::new("now").await;
        let (writer, generation) = db.writer(LONG);
        writer
            .grouped(Change::Bookkeeping, |conn, _| add_special(conn, "grouped"))
            .await
            .unwrap();
        assert_eq!(db.count("SELECT count(*) FROM specials"), 0);
        writer
            .write(Change::Bookkeeping, |conn, _| add_special(conn, "now"))
            .await
            .unwrap();
        assert_eq!(db.count("SELECT count(*) FROM specials"), 2);
        assert_eq!(generation.get(), 0, "bookkeeping only");
    }

    /// D157: a new data directory keeps people and content in two files, in 1 KB and
    /// 8 KB pages; the people file has no content tables.
    #[tokio::test]
    async fn a_new_data_dir_has_an_identity_file_and_a_content_file() {
        let db = Content::new("split").await;
        let identity = db.dir.join("localwire.sqlite");
        assert_eq!(db.file, db.dir.join("localwire-content.sqlite"));
        let page = |file: &Path| -> i64 {
            Connection::open(file)
                .unwrap()
                .query_row("PRAGMA page_size", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!((page(&identity), page(&db.file)), (1024, 8192));
        let has = |file: &Path, table: &str| -> bool {
            Connection::open(file)
                .unwrap()
                .query_row(
                    "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)",
                    [table],
                    |r| r.get(0),
                )
                .unwrap()
        };
        assert!(has(&identity, "users") && !has(&identity, "news_items"));
        assert!(has(&db.file, "news_items") && !has(&db.file, "users"));
    }

    /// D161: the full-text index merges its segments eight at a time.
    #[tokio::test]
    async fn the_full_text_index_merges_eight_segments_at_a_time() {
        let db = Content::new("automerge").await;
        let automerge: i64 = Connection::open(&db.file)
            .unwrap()
            .query_row("SELECT v FROM news_fts_config WHERE k = 'automerge'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(automerge, 8);
    }

    /// Segments of `news_fts` and `news_tags` after `n` transactions wrote a row each.
    fn write_segments(db: &Content, n: i64) -> Connection {
        let conn = Connection::open(&db.file).unwrap();
        for id in 1..=n {
            conn.execute(
                "INSERT INTO news_fts (rowid, title, summary, body) VALUES (?1, 'council', '', '')",
                [id],
            )
            .unwrap();
            conn.execute("INSERT INTO news_tags (rowid, tags) VALUES (?1, 'len')", [id])
                .unwrap();
        }
        conn
    }

    /// D438: a bulk load's merge leaves each full-text index in one segment, every story found.
    #[tokio::test]
    async fn d438_merge_search_leaves_each_index_in_one_segment() {
        let db = Content::new("merge-all").await;
        let conn = write_segments(&db, 30);
        assert!(search_merge::segments(&conn, "news_fts").unwrap() > 1);
        let (writer, _) = db.writer(Duration::from_secs(60));
        writer.merge_search().await.unwrap();
        assert_eq!(search_merge::segments(&conn, "news_fts").unwrap(), 1);
        assert_eq!(search_merge::segments(&conn, "news_tags").unwrap(), 1);
        assert_eq!(
            db.count("SELECT count(*) FROM news_fts WHERE news_fts MATCH 'council'"),
            30
        );
    }

    /// D438: a writer with nothing to do merges the indexes on its own.
    #[tokio::test]
    async fn d438_an_idle_writer_merges_the_search_index() {
        let db = Content::new("merge-idle").await;
        let conn = write_segments(&db, 30);
        let (_writer, _) = db.writer(Duration::from_secs(60));
        let merged = async {
            while search_merge::segments(&conn, "news_fts").unwrap() > 1 {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        };
        tokio::time::timeout(search_merge::IDLE * 10, merged)
            .await
            .expect("merged within a few idle seconds");
        assert_eq!(
            db.count("SELECT count(*) FROM news_fts WHERE news_fts MATCH 'council'"),
            30
        );
    }

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
