//! The reader's small, frequent writes (save, unsave, read, react), committed in groups
//! (D275).
//!
//! Readers save and react at will; each such call was one transaction through the
//! identity file's one sqlx writer connection, so 64 readers at once queued behind each
//! other's commits and sqlx's hop to its worker thread (collect at p99 16–18 ms, budget
//! 10 ms). As for guest sessions (D165) and content (D158), a thread of its own owns a
//! plain SQLite connection with cached statements and writes every request waiting in its
//! queue in one transaction; each is answered once its group is committed, so an answer
//! still means "written". Rarer writes with limits (follows, blocks, topics, channels,
//! mutes) stay on the sqlx writer.

use rusqlite::{Connection, TransactionBehavior};
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;
use store::{Result, StoreError};
use tokio::sync::oneshot;

use crate::thing_writes::{ThingWrite, Value};

/// At most this many writes share a commit.
const MAX_BATCH: usize = 256;

fn db(e: rusqlite::Error) -> StoreError {
    crate::sqlite::rusqlite_db(e)
}

struct Request {
    write: ThingWrite,
    done: oneshot::Sender<Result<bool>>,
}

pub struct ThingsWriter {
    requests: mpsc::Sender<Request>,
}

impl ThingsWriter {
    /// Open the (already migrated) identity file and start the writer thread.
    pub fn spawn(path: &Path) -> Result<ThingsWriter> {
        let conn = Connection::open(path).map_err(db)?;
        conn.busy_timeout(Duration::from_secs(5)).map_err(db)?;
        // Checkpoints run elsewhere (`checkpoint_periodically`), as for the other writers.
        conn.execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; \
             PRAGMA wal_autocheckpoint = 0;",
        )
        .map_err(db)?;
        let (requests, incoming) = mpsc::channel();
        std::thread::Builder::new()
            .name("lw-things-writer".into())
            .spawn(move || write_all(conn, &incoming))
            .map_err(|e| StoreError::Database(format!("cannot start the things writer thread: {e}")))?;
        Ok(ThingsWriter { requests })
    }

    /// Write, and answer once committed: whether a row changed.
    pub async fn submit(&self, write: ThingWrite) -> Result<bool> {
        let (done, answer) = oneshot::channel();
        self.requests
            .send(Request { write, done })
            .map_err(|_| StoreError::Database("the things writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the things writer dropped a write".into()))?
    }
}

fn write_all(mut conn: Connection, incoming: &mpsc::Receiver<Request>) {
    while let Ok(first) = incoming.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match incoming.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        match write_batch(&mut conn, &batch) {
            Ok(changed) => {
                for (request, result) in batch.into_iter().zip(changed) {
                    let _ = request.done.send(result);
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, writes = batch.len(), "a group of reader writes failed");
                for request in batch {
                    let _ = request.done.send(Err(e.clone()));
                }
            }
        }
    }
}

/// One transaction for the group; a write that fails alone (its own error) does not undo
/// the others. An error starting or committing the transaction fails them all.
fn write_batch(conn: &mut Connection, batch: &[Request]) -> Result<Vec<Result<bool>>> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(db)?;
    let results = batch
        .iter()
        .map(|r| execute(&tx, &r.write).map(|n| n > 0).map_err(db))
        .collect();
    tx.commit().map_err(db)?;
    Ok(results)
}

fn execute(conn: &Connection, write: &ThingWrite) -> rusqlite::Result<usize> {
    conn.prepare_cached(write.sql())?
        .execute(rusqlite::params_from_iter(write.values()))
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        match self {
            Value::Int(n) => n.to_sql(),
            Value::Text(s) => s.to_sql(),
        }
    }
}
