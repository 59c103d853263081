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
use domain::user::{UserServer, timestamp_millis};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{Row, Sqlite, Transaction};

/// The user columns, as a macro so every query stays a static string (sqlx 0.9 refuses
/// dynamic SQL). Defined before the modules so the guest writer reads the same list.
macro_rules! user_columns {
    () => {
        "u.id, u.name, u.photo, u.email, u.account_type, u.user_type, u.join_time, u.last_time, \
         u.app_lang, u.country, u.postal_code, u.admin_code, u.city, u.city_show, u.city_id, u.lat, u.lon"
    };
}

mod accounts;
pub mod backup;
mod content;
mod content_read;
mod content_write;
mod guest_writer;
mod purge;
mod push;
mod report_writer;
mod session_cache;
mod things;
mod things_writer;

use guest_writer::GuestWriter;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use store::{AccountSessionRequest, IdentityInfo, SessionInfo, SignIn, SignInFlow, SignInOutcome, UserExport};
use store::{
    CityId, Engine, GuestSession, GuestSessionRequest, LocationUpdate, Result, SessionKey, SessionUser, Store,
    StoreError, UserId,
};

pub struct SqliteStore {
    reader: SqlitePool,
    writer: SqlitePool,
    guests: GuestWriter,
    things: things_writer::ThingsWriter,
    reports: report_writer::ReportWriter,
    sessions: session_cache::SessionCache,
    /// Every read of the content file (D416).
    content_read: content_read::ContentReader,
    content: content_write::ContentWriter,
    generation: Arc<store::content::Generation>,
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
        migrate(sqlx::migrate!("./migrations"), &writer).await?;
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
        migrate(sqlx::migrate!("./migrations-content"), &content_checkpointer).await?;
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
        })
    }
}

/// Run one file's migrations. Both files' migrations share one numbering and, in a
/// single-file data directory, one table of applied migrations: each set ignores the
/// other's (identity migrations are numbered 0001 and 0100 on, content 0002–0099).
async fn migrate(mut migrator: sqlx::migrate::Migrator, pool: &SqlitePool) -> Result<()> {
    migrator.set_ignore_missing(true);
    migrator
        .run(pool)
        .await
        .map_err(|e| StoreError::Migration(e.to_string()))
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

pub(crate) fn user_from_row(row: &SqliteRow) -> std::result::Result<UserServer, sqlx::Error> {
    Ok(UserServer {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        photo: row.try_get("photo")?,
        email: row.try_get("email")?,
        is_new_user: 0,
        account_type: Some(row.try_get("account_type")?),
        join_time: timestamp_millis(row.try_get("join_time")?),
        last_time: timestamp_millis(row.try_get("last_time")?),
        app_lang: row.try_get("app_lang")?,
        postal_code: row.try_get("postal_code")?,
        country: row.try_get("country")?,
        admin_code: row.try_get("admin_code")?,
        city: row.try_get("city")?,
        city_show: row.try_get("city_show")?,
        city_id: CityId(row.try_get("city_id")?),
        lat: row.try_get("lat")?,
        lon: row.try_get("lon")?,
        user_type: row.try_get("user_type")?,
    })
}

pub(crate) async fn user_in_tx(
    tx: &mut Transaction<'_, Sqlite>,
    id: i64,
) -> std::result::Result<Option<UserServer>, sqlx::Error> {
    let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = ?"))
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?;
    row.as_ref().map(user_from_row).transpose()
}

#[async_trait]
impl Store for SqliteStore {
    fn engine(&self) -> Engine {
        Engine::Sqlite
    }

    async fn health(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.reader).await.map_err(db)?;
        Ok(())
    }

    async fn start_guest_session(&self, req: &GuestSessionRequest) -> Result<GuestSession> {
        self.guests.submit(guest_writer::Work::Guest(req.clone())).await
    }

    async fn finish_writes(&self) {
        self.guests.finish_writes().await;
    }

    async fn session_user(&self, key: &SessionKey) -> Result<Option<SessionUser>> {
        if let Some(hit) = self.sessions.get(key.id, &key.verifier_hash) {
            return Ok(Some(hit));
        }
        let generation = self.sessions.generation();
        self.guests.session_settled(key.id).await;
        let sql = concat!(
            "SELECT ",
            user_columns!(),
            ", s.device_id, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.verifier_hash = ?"
        );
        let row = sqlx::query(sql)
            .bind(key.id)
            .bind(&key.verifier_hash)
            .fetch_optional(&self.reader)
            .await
            .map_err(db)?;
        let found = row
            .map(|row| {
                Ok(SessionUser {
                    user: user_from_row(&row)?,
                    device_id: row.try_get("device_id")?,
                    expires_at_ms: row.try_get("expires_at")?,
                })
            })
            .transpose()
            .map_err(db)?;
        if let Some(session) = &found {
            self.sessions.put(generation, key.id, &key.verifier_hash, session);
        }
        Ok(found)
    }

    async fn touch_user(&self, id: UserId, now_ms: i64) -> Result<()> {
        let _forget = self.sessions.forget_after();
        self.guests.user_settled(id.0).await;
        sqlx::query("UPDATE users SET last_time = ? WHERE id = ?")
            .bind(now_ms)
            .bind(id.0)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(())
    }

    async fn end_session(&self, key: &SessionKey) -> Result<bool> {
        let _forget = self.sessions.forget_after();
        self.guests.session_settled(key.id).await;
        let done = sqlx::query("DELETE FROM sessions WHERE id = ? AND verifier_hash = ?")
            .bind(key.id)
            .bind(&key.verifier_hash)
            .execute(&self.writer)
            .await
            .map_err(db)?;
        Ok(done.rows_affected() > 0)
    }

    async fn user(&self, id: UserId) -> Result<Option<UserServer>> {
        self.guests.user_settled(id.0).await;
        let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users u WHERE u.id = ?"))
            .bind(id.0)
            .fetch_optional(&self.reader)
            .await
            .map_err(db)?;
        row.as_ref().map(user_from_row).transpose().map_err(db)
    }

    async fn update_location(&self, id: UserId, u: &LocationUpdate, now_ms: i64) -> Result<Option<UserServer>> {
        let _forget = self.sessions.forget_after();
        self.guests.user_settled(id.0).await;
        let mut tx = self.writer.begin().await.map_err(db)?;
        let done = sqlx::query(
            "UPDATE users SET lat = ?, lon = ?, country = ?, city = ?, city_show = ?, city_id = ?, app_lang = ?, \
             admin_code = ?, postal_code = ?, last_time = ? WHERE id = ?",
        )
        .bind(u.lat)
        .bind(u.lon)
        .bind(&u.country)
        .bind(&u.city)
        .bind(&u.city_show)
        .bind(u.city_id.0)
        .bind(&u.app_lang)
        .bind(&u.admin_code)
        .bind(&u.postal_code)
        .bind(now_ms)
        .bind(id.0)
        .execute(&mut *tx)
        .await
        .map_err(db)?;
        if done.rows_affected() == 0 {
            return Ok(None);
        }
        let user = user_in_tx(&mut tx, id.0).await.map_err(db)?;
        tx.commit().await.map_err(db)?;
        Ok(user)
    }

    async fn setting(&self, key: &str) -> Result<Option<String>> {
        sqlx::query_scalar("SELECT value FROM app_settings WHERE key = ?")
            .bind(key)
            .fetch_optional(&self.reader)
            .await
            .map_err(db)
    }

    async fn put_setting(&self, key: &str, value: &str, now_ms: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO app_settings (key, value, updated_at) VALUES (?, ?, ?) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(key)
        .bind(value)
        .bind(now_ms)
        .execute(&self.writer)
        .await
        .map_err(db)?;
        Ok(())
    }

    async fn sign_in(&self, req: &SignIn) -> Result<SignInOutcome> {
        let _forget = self.sessions.forget_after();
        accounts::sign_in(self, req).await
    }

    async fn start_account_session(&self, req: &AccountSessionRequest) -> Result<i64> {
        accounts::start_account_session(self, req).await
    }

    async fn sessions_of(&self, user: UserId, now_ms: i64) -> Result<Vec<SessionInfo>> {
        accounts::sessions_of(self, user, now_ms).await
    }

    async fn end_session_of(&self, user: UserId, session_id: i64) -> Result<bool> {
        let _forget = self.sessions.forget_after();
        accounts::end_session_of(self, user, session_id).await
    }

    async fn end_other_sessions(&self, user: UserId, keep: i64) -> Result<u64> {
        let _forget = self.sessions.forget_after();
        accounts::end_other_sessions(self, user, keep).await
    }

    async fn identities_of(&self, user: UserId) -> Result<Vec<IdentityInfo>> {
        accounts::identities_of(self, user).await
    }

    async fn export_user(&self, user: UserId) -> Result<Option<UserExport>> {
        accounts::export_user(self, user).await
    }

    async fn delete_user(&self, user: UserId) -> Result<bool> {
        let _forget = self.sessions.forget_after();
        accounts::delete_user(self, user).await
    }

    async fn purge_idle(&self, guests_idle_before_ms: Option<i64>, now_ms: i64) -> Result<store::Purged> {
        // Every answer a purged guest or session gave is forgotten.
        let _forget = self.sessions.forget_after();
        purge::purge_idle(self, guests_idle_before_ms, now_ms).await
    }

    async fn user_id_tables(&self) -> Result<Vec<String>> {
        accounts::user_id_tables(self).await
    }

    async fn put_sign_in_flow(&self, flow: &SignInFlow) -> Result<()> {
        accounts::put_sign_in_flow(self, flow).await
    }

    async fn take_sign_in_flow(&self, state_hash: &str, now_ms: i64) -> Result<Option<SignInFlow>> {
        accounts::take_sign_in_flow(self, state_hash, now_ms).await
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
