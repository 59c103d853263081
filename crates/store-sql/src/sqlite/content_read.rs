//! Readers' queries on the content file, on plain SQLite connections (issue 33, D416).
//!
//! A read through sqlx's SQLite driver crossed to its worker thread and back for every
//! row, copying each value on the way, and looked columns up by name: at a million
//! stories that plumbing, not SQLite, was most of an uncached list's CPU. Here a read is
//! one closure run on a blocking thread with a connection of our own, and rows are
//! mapped by position straight from SQLite's buffers.

use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
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

pub struct ContentReader {
    path: PathBuf,
    /// Connections not in use; a read takes one and puts it back.
    idle: Mutex<Vec<Connection>>,
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
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| StoreError::Unavailable("the content readers are closed".into()))?;
        // A connection is missing when a read was abandoned (its caller went away) or
        // failed hard: a new one takes its place.
        let taken = self.idle.lock().unwrap_or_else(|p| p.into_inner()).pop();
        let conn = match taken {
            Some(c) => c,
            None => connect(&self.path)?,
        };
        let (conn, out) = tokio::task::spawn_blocking(move || {
            let out = read(&conn);
            (conn, out)
        })
        .await
        .map_err(|e| StoreError::Database(format!("a content read stopped: {e}")))?;
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).push(conn);
        out.map_err(crate::sqlite::rusqlite_db)
    }
}

fn connect(path: &Path) -> Result<Connection> {
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
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

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
