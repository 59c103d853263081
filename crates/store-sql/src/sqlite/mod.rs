//! SQLite implementation of [`Store`]: two files in the data directory, WAL mode
//! (D157). `localwire.sqlite` holds people: users, devices, sessions, settings, in
//! 1 KB pages for the small random writes of guest sessions. `localwire-content.sqlite`
//! holds what ingestion writes: publishers, feeds, items, stories and the full-text
//! index, in 8 KB pages for its bulk writes. Each file has its own write lock, so a bulk
//! ingest never holds up a first visit. (A data directory made before the split keeps
//! everything in its one file.)
//!
//! SQLite allows one writer at a time per file. Rather than let many connections fight
//! over the write lock (and sleep in the busy handler), each file's writes go through
//! one connection, which queues fairly; reads use their own pools and never wait for
//! writes in WAL mode. Guest sessions, the hot write, are group-committed
//! ([`guest_writer`]); so are ingestion's writes ([`content_write`]). The guest writer
//! hands out user and session ids itself (so a first visit need not wait for a slow
//! disk): every insert into `users` or `sessions` goes through it, and every read or
//! write by such an id first waits for that id's write (`GuestWriter::*_settled`).

use async_trait::async_trait;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};

pub mod backup;
mod content;
mod content_read;
mod content_write;
pub(crate) mod guest_writer;
mod report_writer;
mod search_merge;
mod search_tags;
mod session_cache;
mod things_writer;
mod top_walk;

use guest_writer::GuestWriter;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::{Result, StoreError};

pub struct SqliteStore {
    pub(crate) reader: SqlitePool,
    pub(crate) writer: SqlitePool,
    pub(crate) guests: GuestWriter,
    pub(crate) things: things_writer::ThingsWriter,
    reports: report_writer::ReportWriter,
    pub(crate) sessions: session_cache::SessionCache,
    /// Every read of the content file (D416).
    content_read: content_read::ContentReader,
    content: content_write::ContentWriter,
    generation: Arc<store::content::Generation>,
    /// Searches' whole words counted common lately (D435).
    common_words: crate::common_words::CommonWords,
}

/// Page sizes of new files. Guest sessions insert into a random-keyed device index:
/// 1 KB pages halve what each of their commits writes to the WAL. Ingestion appends rows
/// of several KB (content, full-text segments): 8 KB pages took a quarter off a bulk
/// ingest (fewer overflow pages and WAL frames; bench/RESULTS.md), while the init bench
/// on 8 KB pages had p99 stalls of ~200 ms.
const IDENTITY_PAGE_SIZE: u32 = 1024;
const CONTENT_PAGE_SIZE: u32 = 8192;

/// The content file beside the identity file: `localwire.sqlite` → `localwire-content.sqlite`.
pub fn content_file(identity: &Path) -> PathBuf {
    let stem = identity.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
    let name = match identity.extension() {
        Some(ext) => format!("{stem}-content.{}", ext.to_string_lossy()),
        None => format!("{stem}-content"),
    };
    identity.with_file_name(name)
}

/// The rows the areas' shared bodies read ([`crate::engine`]).
pub(crate) type DbRow = SqliteRow;

/// Ids as a JSON array for `json_each`.
pub(crate) fn id_list(ids: impl Iterator<Item = i64>) -> String {
    let mut out = String::from("[");
    for (i, id) in ids.enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&id.to_string());
    }
    out.push(']');
    out
}

pub(crate) fn db(e: sqlx::Error) -> StoreError {
    let code = match &e {
        sqlx::Error::Database(d) => d.code().and_then(|c| c.parse().ok()),
        _ => None,
    };
    classify(code, e.to_string())
}

/// The same for the writer threads' own connections.
pub(crate) fn rusqlite_db(e: rusqlite::Error) -> StoreError {
    rusqlite_db_ref(&e)
}

pub(crate) fn rusqlite_db_ref(e: &rusqlite::Error) -> StoreError {
    classify(e.sqlite_error().map(|f| f.extended_code), e.to_string())
}

/// SQLITE_BUSY past the busy timeout, SQLITE_IOERR (any of its extended codes) and
/// SQLITE_FULL say the file cannot be written now, not that the statement is wrong: the
/// API answers 503 and the call may be tried again (issue 30).
fn classify(code: Option<i32>, message: String) -> StoreError {
    const BUSY: i32 = 5;
    const IOERR: i32 = 10;
    const FULL: i32 = 13;
    match code.map(|c| c & 0xff) {
        Some(BUSY | IOERR | FULL) => StoreError::Unavailable(message),
        _ => StoreError::Database(message),
    }
}

impl SqliteStore {
    /// The bytes of the pages the reports file uses (issue 29's amplification tests).
    pub async fn report_file_bytes(&self) -> Result<i64> {
        self.reports.file_bytes().await
    }

    /// Open (creating if missing) the database file and run the migrations.
    pub async fn open_file(path: &Path) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::new().filename(path);
        Self::open(options).await
    }

    /// Open from a `sqlite:` URL (e.g. `sqlite:///var/lib/localwire/db.sqlite`).
    pub async fn open_url(url: &str) -> Result<SqliteStore> {
        let options = SqliteConnectOptions::from_str(url).map_err(db)?;
        Self::open(options).await
    }

    async fn open(options: SqliteConnectOptions) -> Result<SqliteStore> {
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5))
            .pragma("temp_store", "memory");
        let identity = options.clone().page_size(IDENTITY_PAGE_SIZE);
        // The writer never checkpoints: copying the WAL into the database (and its
        // fsync) would stall every write queued behind it. A separate connection
        // checkpoints in the background instead.
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(10))
            .connect_with(identity.clone().pragma("wal_autocheckpoint", "0"))
            .await
            .map_err(db)?;
        migrate(sqlx::migrate!("./migrations/sqlite-identity"), &writer).await?;
        let reader = read_pool(&identity).await?;
        tokio::spawn(checkpoint_periodically(
            one_connection(&identity).await?,
            IDENTITY_CHECKPOINT_EVERY,
            EMPTY_WAL_AFTER,
        ));
        let guests = GuestWriter::spawn(
            identity.get_filename(),
            guest_writer::ANSWER_WITHIN,
            guest_writer::RESTART_WAL_PAST,
        )?;
        let things = things_writer::ThingsWriter::spawn(identity.get_filename())?;
        let reports = report_writer::ReportWriter::spawn(&report_writer::reports_file(identity.get_filename()))?;

        // A data directory from before the split keeps its content in the one file.
        let single_file: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = 'news_items')")
                .fetch_one(&writer)
                .await
                .map_err(db)?;
        let content = if single_file {
            identity.clone()
        } else {
            let file = content_file(identity.get_filename());
            options.filename(file).page_size(CONTENT_PAGE_SIZE)
        };
        let content_checkpointer = one_connection(&content).await?;
        migrate(sqlx::migrate!("./migrations/sqlite-content"), &content_checkpointer).await?;
        if single_file {
            content_checkpointer.close().await;
        } else {
            tokio::spawn(checkpoint_periodically(
                content_checkpointer,
                CONTENT_CHECKPOINT_EVERY,
                EMPTY_WAL_AFTER,
            ));
        }
        let content_read = content_read::ContentReader::open(content.get_filename())?;
        let generation = Arc::new(store::content::Generation::default());
        let content_writer = content_write::ContentWriter::spawn(
            content.get_filename(),
            generation.clone(),
            content_write::COMMIT_AFTER,
        )?;
        Ok(SqliteStore {
            reader,
            writer,
            guests,
            things,
            reports,
            sessions: Default::default(),
            content_read,
            content: content_writer,
            generation,
            common_words: Default::default(),
        })
    }
}

/// Run one file's migrations. The engines number a change alike (`migrations/README.md`);
/// SQLite's two files share that numbering and, in a single-file data directory, one table
/// of applied migrations, so each file's set ignores the other's.
async fn migrate(mut migrator: sqlx::migrate::Migrator, pool: &SqlitePool) -> Result<()> {
    renumber_applied(pool).await?;
    migrator.set_ignore_missing(true);
    migrator
        .run(pool)
        .await
        .map_err(|e| StoreError::Migration(e.to_string()))
}

/// Until D422 SQLite numbered five of its migrations its own way. A database migrated
/// then records them under the old numbers; they are renamed here before the migrator
/// reads them, so it neither runs them again nor finds them missing. Each pair names the
/// migration (sqlx's description, from the file name) as well as its old number, so a
/// renamed row is never renamed twice. The order matters in a single-file data directory,
/// which holds both sets: 5 and 6 are freed before accounts and reader things take them.
const RENUMBERED: [(i64, &str, i64); 5] = [
    (5, "contentless fts", 8),
    (6, "fts automerge", 9),
    (100, "accounts", 5),
    (101, "reader things", 6),
    (119, "push", 19),
];

async fn renumber_applied(pool: &SqlitePool) -> Result<()> {
    let mut tx = pool.begin().await.map_err(db)?;
    let recorded: bool =
        sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = '_sqlx_migrations')")
            .fetch_one(&mut *tx)
            .await
            .map_err(db)?;
    if recorded {
        for (old, description, new) in RENUMBERED {
            sqlx::query("UPDATE _sqlx_migrations SET version = $1 WHERE version = $2 AND description = $3")
                .bind(new)
                .bind(old)
                .bind(description)
                .execute(&mut *tx)
                .await
                .map_err(db)?;
        }
    }
    tx.commit().await.map_err(db)
}

async fn read_pool(options: &SqliteConnectOptions) -> Result<SqlitePool> {
    SqlitePoolOptions::new()
        .max_connections(4)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options.clone().read_only(true))
        .await
        .map_err(db)
}

async fn one_connection(options: &SqliteConnectOptions) -> Result<SqlitePool> {
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options.clone())
        .await
        .map_err(db)
}

/// How often each file's WAL is copied into it. The identity file: five times a second,
/// small steps, so no burst of copying competes with guest sessions. The content file:
/// once a second, so a page that several ingestion groups rewrote in that second is
/// copied once (`ingest --once` over the 100k corpus wrote 1.23–1.31 GB instead of
/// 1.48–1.57 GB, in 11.0–12.4 s against 11.9–13.6 s; D158).
const IDENTITY_CHECKPOINT_EVERY: Duration = Duration::from_millis(200);
const CONTENT_CHECKPOINT_EVERY: Duration = Duration::from_secs(1);
/// A WAL left idle this long after everything in it was copied is emptied.
const EMPTY_WAL_AFTER: Duration = Duration::from_secs(60);

/// Copy the WAL into the database every `every`, without blocking the writer (PASSIVE).
///
/// A WAL that stays idle and fully copied for `empty_after` is emptied (TRUNCATE), so a
/// burst does not leave its disk space behind. Never sooner: the truncate's freed blocks
/// (discarded on this kind of disk) slowed the next fsync by 100 ms and more. The guest
/// writer no longer shrinks the WAL itself: that truncate, when it started a copied WAL
/// over, stalled guest sessions for 160–240 ms (D163).
async fn checkpoint_periodically(pool: SqlitePool, every: Duration, empty_after: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut quiet = QuietWal::default();
    loop {
        tick.tick().await;
        match checkpoint_once(&pool).await {
            Ok((done, frames, copied, version)) => {
                let quiet_for = quiet.after_checkpoint(done, frames, copied, version, Instant::now());
                if quiet_for >= Some(empty_after) {
                    match sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&pool).await {
                        Ok(_) => quiet = QuietWal::default(),
                        Err(e) => tracing::warn!(error = %e, "emptying the SQLite WAL failed; will retry"),
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "SQLite checkpoint failed; will retry"),
        }
        if pool.is_closed() {
            return;
        }
    }
}

/// One PASSIVE checkpoint: whether it finished, the WAL's frames and how many are copied,
/// and this connection's data version (it changes when any other connection commits).
async fn checkpoint_once(pool: &SqlitePool) -> std::result::Result<(bool, i64, i64, i64), sqlx::Error> {
    let (busy, frames, copied): (i64, i64, i64) =
        sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)").fetch_one(pool).await?;
    let version: i64 = sqlx::query_scalar("PRAGMA data_version").fetch_one(pool).await?;
    Ok((busy == 0, frames, copied, version))
}

/// How long a WAL has been idle (nobody committed) with every frame copied. Idle is
/// told by the data version, not the frame count: at a low write rate the writers start
/// a copied WAL over and it can show the same count tick after tick.
#[derive(Default)]
struct QuietWal {
    version_before: Option<i64>,
    since: Option<Instant>,
}

impl QuietWal {
    /// Note one checkpoint's result; the time the WAL has been quiet, if it is.
    fn after_checkpoint(
        &mut self,
        done: bool,
        frames: i64,
        copied: i64,
        version: i64,
        now: Instant,
    ) -> Option<Duration> {
        let quiet = done && frames > 0 && copied == frames && self.version_before == Some(version);
        self.version_before = Some(version);
        if !quiet {
            self.since = None;
            return None;
        }
        Some(now.duration_since(*self.since.get_or_insert(now)))
    }
}

#[async_trait]
impl store::ReportStore for SqliteStore {
    async fn append_report_call(&self, call: store::reports::ReportCall) -> Result<()> {
        self.reports.append(call).await
    }

    async fn delete_report_events_before(&self, before_ms: i64) -> Result<u64> {
        self.reports.delete_before(before_ms).await
    }

    async fn report_events(
        &self,
        from_ms: i64,
        to_ms: i64,
        after_id: i64,
        limit: i64,
    ) -> Result<Vec<store::reports::ReportEvent>> {
        self.reports.events(from_ms, to_ms, after_id, limit).await
    }

    async fn usage(&self, from_ms: i64, to_ms: i64) -> Result<store::reports::Usage> {
        self.reports.usage(from_ms, to_ms).await
    }

    async fn report_stored_bytes(&self) -> Result<i64> {
        self.reports.stored_bytes().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(base: Instant, ms: u64) -> Instant {
        base + Duration::from_millis(ms)
    }

    #[test]
    fn a_wal_is_quiet_only_while_idle_and_fully_copied() {
        let t = Instant::now();
        let mut q = QuietWal::default();
        // (finished, frames, copied, data version, at ms) → quiet for ms, and why.
        let steps = [
            (true, 10, 10, 1, 0, None, "first sight: not yet known idle"),
            (true, 10, 10, 1, 200, Some(0), "idle since the last tick"),
            (true, 10, 10, 1, 700, Some(500), "still idle"),
            (true, 10, 10, 2, 900, None, "a commit, same frame count"),
            (true, 12, 12, 2, 1_100, Some(0), "the clock starts again"),
            (true, 12, 11, 2, 1_300, None, "not all copied"),
            (false, 12, 12, 2, 1_500, None, "checkpoint was busy"),
            (true, 0, 0, 2, 1_700, None, "empty WAL"),
            (true, 0, 0, 2, 1_900, None, "still empty: nothing to do"),
        ];
        for (done, frames, copied, version, ms, quiet_ms, why) in steps {
            let quiet = q.after_checkpoint(done, frames, copied, version, at(t, ms));
            assert_eq!(quiet, quiet_ms.map(Duration::from_millis), "{why}");
        }
    }

    #[tokio::test]
    async fn an_idle_wal_is_emptied_once_quiet_long_enough_and_not_while_written() {
        let dir = std::env::temp_dir().join(format!("lw-quiet-wal-{}-{:?}", std::process::id(), Instant::now()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("quiet.sqlite");
        let options = SqliteConnectOptions::new()
            .filename(&file)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .pragma("wal_autocheckpoint", "0");
        let writer = one_connection(&options).await.unwrap();
        sqlx::query("CREATE TABLE t (x)").execute(&writer).await.unwrap();
        let wal = dir.join("quiet.sqlite-wal");
        let wal_len = || std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
        tokio::spawn(checkpoint_periodically(
            one_connection(&options).await.unwrap(),
            Duration::from_millis(20),
            Duration::from_secs(1),
        ));
        // Written every 10 ms for 1.5 s: never quiet, so never emptied.
        for i in 0..150 {
            sqlx::query("INSERT INTO t VALUES (?)")
                .bind(i)
                .execute(&writer)
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(10)).await;
            assert!(wal_len() > 0, "emptied while being written (after {i} writes)");
        }
        // Then idle: emptied after a second of quiet.
        let deadline = Instant::now() + Duration::from_secs(5);
        while wal_len() > 0 && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        assert_eq!(wal_len(), 0, "an idle, copied WAL is emptied");
        let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM t")
            .fetch_one(&writer)
            .await
            .unwrap();
        assert_eq!(rows, 150, "nothing lost");
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[cfg(test)]
mod error_tests {
    use super::*;

    #[test]
    fn busy_io_and_full_disk_are_unavailable_other_errors_are_database_errors() {
        for code in [5, 10, 13, 10 | (3 << 8), 5 | (1 << 8)] {
            assert!(
                matches!(classify(Some(code), "x".into()), StoreError::Unavailable(_)),
                "{code}"
            );
        }
        for code in [None, Some(1), Some(19), Some(2067), Some(11)] {
            assert!(
                matches!(classify(code, "x".into()), StoreError::Database(_)),
                "{code:?}"
            );
        }
    }
}
