//! Readers' queries on the content file, on plain SQLite connections (issue 33, D416).
//!
//! A read through sqlx's SQLite driver crossed to its worker thread and back for every
//! row, copying each value on the way, and looked columns up by name: at a million
//! stories that plumbing, not SQLite, was most of an uncached list's CPU. Here a read is
//! one closure run on a blocking thread with a connection of our own, and rows are
//! mapped by position straight from SQLite's buffers.

use rusqlite::{Connection, ErrorCode, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::{Result, StoreError};
use tokio::sync::Semaphore;

/// Connections reading at once: as many as sqlx's read pool had. More only queue on
/// the same cores.
pub const READERS: usize = 4;

/// How much of the content file a reader maps: SQLite's own ceiling (`SQLITE_MAX_MMAP_SIZE`,
/// just under 2 GiB), which it applies to anything larger; past it pages are read as before.
/// The mapping is the OS's file cache, shared by the readers, not memory of ours.
pub const READER_MMAP_BYTES: i64 = 0x7fff_0000;

/// SQLite's virtual machine steps between two looks at a short read's budget.
const STEPS_PER_LOOK: i32 = 1_000;
/// A short read's budget, in looks: 100,000 steps, about a millisecond. A page of a list
/// takes a few thousand; a walk that filters on rows past a page's worth of them runs out.
pub const SHORT_READ_LOOKS: i32 = 100;
/// A budget never spent: reads on the blocking threads run to their end.
const UNBOUNDED: i32 = i32::MAX;

/// A connection with its budget: the looks left before SQLite interrupts what it runs.
struct Reader {
    conn: Connection,
    looks_left: Arc<AtomicI32>,
}

pub struct ContentReader {
    path: PathBuf,
    /// Connections not in use; a read takes one and puts it back.
    idle: Mutex<Vec<Reader>>,
    /// At most [`READERS`] reads at once.
    permits: Semaphore,
}

impl ContentReader {
    /// Readers of the (already migrated) file at `path`.
    pub fn open(path: &Path) -> Result<ContentReader> {
        let idle = (0..READERS).map(|_| connect(path)).collect::<Result<Vec<_>>>()?;
        Ok(ContentReader {
            path: path.to_path_buf(),
            idle: Mutex::new(idle),
            permits: Semaphore::new(READERS),
        })
    }

    /// Run `read` on a connection of its own, off the async threads.
    pub async fn read<T, F>(&self, read: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let _permit = self.permit().await?;
        let reader = self.take()?;
        self.finish(on_a_blocking_thread(reader, read).await?)
    }

    /// Run `read`, expected to be short (a page of a list, a story), right here on the
    /// async thread (D441): handing a read to a blocking thread and back woke two threads,
    /// a third of a list's time. Past [`SHORT_READ_LOOKS`] SQLite interrupts it and it runs
    /// again from the start on a blocking thread, so an unexpectedly long read (a filter
    /// few stories pass) holds the async thread about a millisecond at most.
    pub async fn read_short<T, F>(&self, read: F) -> Result<T>
    where
        T: Send + 'static,
        F: Fn(&Connection) -> rusqlite::Result<T> + Send + 'static,
    {
        let _permit = self.permit().await?;
        let reader = self.take()?;
        reader.looks_left.store(SHORT_READ_LOOKS, Ordering::Relaxed);
        let out = read(&reader.conn);
        reader.looks_left.store(UNBOUNDED, Ordering::Relaxed);
        match out {
            Err(e) if e.sqlite_error_code() == Some(ErrorCode::OperationInterrupted) => {
                self.finish(on_a_blocking_thread(reader, read).await?)
            }
            out => self.finish((reader, out)),
        }
    }

    async fn permit(&self) -> Result<tokio::sync::SemaphorePermit<'_>> {
        self.permits
            .acquire()
            .await
            .map_err(|_| StoreError::Unavailable("the content readers are closed".into()))
    }

    /// A connection is missing when a read was abandoned (its caller went away) or failed
    /// hard: a new one takes its place.
    fn take(&self) -> Result<Reader> {
        let taken = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        match taken {
            Some(r) => Ok(r),
            None => connect(&self.path),
        }
    }

    fn finish<T>(&self, (reader, out): (Reader, rusqlite::Result<T>)) -> Result<T> {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).push(reader);
        out.map_err(crate::sqlite::rusqlite_db)
    }
}

async fn on_a_blocking_thread<T, F>(reader: Reader, read: F) -> Result<(Reader, rusqlite::Result<T>)>
where
    T: Send + 'static,
    F: FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
{
    reader.looks_left.store(UNBOUNDED, Ordering::Relaxed);
    tokio::task::spawn_blocking(move || {
        let out = read(&reader.conn);
        (reader, out)
    })
    .await
    .map_err(|e| StoreError::Database(format!("a content read stopped: {e}")))
}

fn connect(path: &Path) -> Result<Reader> {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI,
    )
    .map_err(crate::sqlite::rusqlite_db)?;
    conn.busy_timeout(Duration::from_secs(5))
        .map_err(crate::sqlite::rusqlite_db)?;
    // Every query of the module and its variants stays prepared.
    conn.set_prepared_statement_cache_capacity(64);
    conn.execute_batch("PRAGMA temp_store = memory;")
        .map_err(crate::sqlite::rusqlite_db)?;
    // Pages straight from the OS's file cache (D434): each connection's own cache (2 MB)
    // held too little of a million stories' clusters and rows, and a miss copied a page
    // in through a read call.
    conn.pragma_update(None, "mmap_size", READER_MMAP_BYTES)
        .map_err(crate::sqlite::rusqlite_db)?;
    let looks_left = Arc::new(AtomicI32::new(UNBOUNDED));
    let budget = looks_left.clone();
    conn.progress_handler(
        STEPS_PER_LOOK,
        Some(move || budget.fetch_sub(1, Ordering::Relaxed) <= 1),
    )
    .map_err(crate::sqlite::rusqlite_db)?;
    Ok(Reader { conn, looks_left })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn readers(name: &str) -> (PathBuf, ContentReader) {
        let dir = std::env::temp_dir().join(format!("lw-readers-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let content = dir.join("content.sqlite");
        Connection::open(&content)
            .unwrap()
            .execute_batch("CREATE TABLE t (x INTEGER);")
            .unwrap();
        let readers = ContentReader::open(&content).unwrap();
        (dir, readers)
    }

    /// Far more than a short read's budget of SQLite steps.
    const LONG: &str = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) \
                        SELECT count(*) FROM c";

    /// `sql`'s number, read as a short read, and the threads each run of it ran on.
    async fn short_read_threads(readers: &ContentReader, sql: &'static str) -> (i64, Vec<std::thread::ThreadId>) {
        let ran = Arc::new(Mutex::new(Vec::new()));
        let seen = ran.clone();
        let n = readers
            .read_short(move |conn| {
                seen.lock().unwrap().push(std::thread::current().id());
                conn.query_row(sql, [], |r| r.get(0))
            })
            .await
            .unwrap();
        let ran = ran.lock().unwrap().clone();
        (n, ran)
    }

    /// D441: a short read runs where it is asked, on the async thread, once.
    #[tokio::test]
    async fn d441_a_short_read_runs_on_the_async_thread() {
        let (dir, readers) = readers("short");
        let (n, ran) = short_read_threads(&readers, "SELECT 41 + 1").await;
        assert_eq!(n, 42);
        assert_eq!(ran, [std::thread::current().id()]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// D441: a "short" read that is not is interrupted at its budget and run again on a
    /// blocking thread to its end, with the whole answer; the budget does not follow the
    /// connection into its next reads.
    #[tokio::test]
    async fn d441_a_long_short_read_is_finished_on_a_blocking_thread() {
        let (dir, readers) = readers("long");
        let here = std::thread::current().id();
        let (n, ran) = short_read_threads(&readers, LONG).await;
        assert_eq!(n, 100_000);
        assert_eq!(ran.len(), 2, "interrupted once, then run to its end");
        assert_eq!(ran[0], here);
        assert_ne!(ran[1], here, "the second run is on a blocking thread");
        for _ in 0..READERS {
            let n: i64 = readers
                .read(|conn| conn.query_row(LONG, [], |r| r.get(0)))
                .await
                .unwrap();
            assert_eq!(n, 100_000, "a read on the blocking threads has no budget");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// D434: a reader maps the file (a reader without it read each page through its own
    /// 2 MB cache: top at a million stories ran at two thirds the rate).
    #[tokio::test]
    async fn d434_a_reader_maps_the_content_file() {
        let dir = std::env::temp_dir().join(format!("lw-readers-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let identity = dir.join("localwire.sqlite");
        drop(crate::sqlite::SqliteStore::open_file(&identity).await.unwrap());
        let readers = ContentReader::open(&crate::sqlite::content_file(&identity)).unwrap();
        let mapped: i64 = readers
            .read(|conn| conn.query_row("PRAGMA mmap_size", [], |r| r.get(0)))
            .await
            .unwrap();
        assert_eq!(mapped, READER_MMAP_BYTES);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
