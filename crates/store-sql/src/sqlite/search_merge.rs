//! The full-text indexes kept in one piece (D438).
//!
//! FTS5 writes each group commit's rows as a new segment and merges segments eight at a
//! time (D161), so a million stories' index is a score of segments, and every search opens
//! an iterator on each of them, for every word, in every tier. Merged into one, a search
//! for a common word at a million stories took a quarter less CPU, a word no story holds
//! and a search with a city filter nearly half less. A merge rewrites the whole index
//! (about ten seconds at a million stories), so the content writer does it in steps when it
//! has nothing else to do, at most once an hour, and a bulk load (`ingest --once`) ends
//! with one.

use rusqlite::Connection;
use std::time::{Duration, Instant};

/// The full-text indexes kept merged.
const INDEXES: [&str; 2] = ["news_fts", "news_tags"];
/// Pages (FTS5's, about 4 KB) a step writes per index: about 4 MB, a tenth of a second.
const STEP_PAGES: i64 = 1_000;
/// How long the writer waits for work before it takes a step.
pub const IDLE: Duration = Duration::from_secs(1);
/// The writer merges again at most this often (while stories keep coming).
pub const EVERY: Duration = Duration::from_secs(3600);

/// Take one step of merging every segment of each index into one: true once there was
/// nothing left to merge. Each step is a transaction of its own, so writes go on between
/// steps and readers never wait.
pub fn step(conn: &Connection) -> rusqlite::Result<bool> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let mut done = true;
    for index in INDEXES {
        let before = conn.total_changes();
        // A negative count merges segments of every level together (FTS5's 'merge').
        let merged = conn.execute(
            &format!("INSERT INTO {index} ({index}, rank) VALUES ('merge', ?1)"),
            [-STEP_PAGES],
        );
        if let Err(e) = merged {
            let _ = conn.execute_batch("ROLLBACK");
            return Err(e);
        }
        // FTS5 documents it: fewer than two changes means the step found nothing to do.
        done &= conn.total_changes() - before < 2;
    }
    conn.execute_batch("COMMIT")?;
    Ok(done)
}

/// Merge until each index is one segment.
pub fn all(conn: &Connection) -> rusqlite::Result<()> {
    while !step(conn)? {}
    Ok(())
}

/// When the writer merges: stories stored since the last merge, and an hour gone by
/// (or a writer just started, which does not know how the indexes were left).
pub struct Schedule {
    last: Option<Instant>,
    written: bool,
}

impl Schedule {
    pub fn new() -> Schedule {
        Schedule {
            last: None,
            written: true,
        }
    }

    /// Full-text rows were committed.
    pub fn written(&mut self) {
        self.written = true;
    }

    /// Whether the writer should merge while it has nothing else to do.
    pub fn due(&self) -> bool {
        self.written && self.last.is_none_or(|t| t.elapsed() >= EVERY)
    }

    /// A step was taken: `done` when nothing was left to merge.
    pub fn stepped(&mut self, done: bool) {
        if done {
            self.last = Some(Instant::now());
            self.written = false;
        }
    }
}

/// Segments of `index` (from FTS5's structure record: a 4-byte cookie, FTS5's 4-byte
/// version-2 marker when present, then the number of levels and of segments as varints).
#[cfg(test)]
pub fn segments(conn: &Connection, index: &str) -> rusqlite::Result<u64> {
    let block: Vec<u8> = conn.query_row(&format!("SELECT block FROM {index}_data WHERE id = 10"), [], |r| {
        r.get(0)
    })?;
    let mut at = if block.get(4..8) == Some(&[0xff, 0, 0, 1][..]) {
        8
    } else {
        4
    };
    let mut varint = || {
        let mut v = 0u64;
        while let Some(&b) = block.get(at) {
            at += 1;
            v = (v << 7) | u64::from(b & 0x7f);
            if b & 0x80 == 0 {
                break;
            }
        }
        v
    };
    let _levels = varint();
    Ok(varint())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index_of_many_segments() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE news_fts USING fts5 (title, summary, body, content = '', contentless_delete = 1);
             CREATE VIRTUAL TABLE news_tags USING fts5 (tags, content = '', contentless_delete = 1, detail = none);
             INSERT INTO news_fts (news_fts, rank) VALUES ('automerge', 8);",
        )
        .unwrap();
        // Each transaction writes a segment of its own, as each group commit does.
        for i in 0..40 {
            conn.execute(
                "INSERT INTO news_fts (rowid, title, summary, body) VALUES (?1, 'council meets', '', 'budget')",
                [i],
            )
            .unwrap();
            conn.execute("INSERT INTO news_tags (rowid, tags) VALUES (?1, 'len')", [i])
                .unwrap();
        }
        conn
    }

    /// D438: merging leaves one segment per index, and every story is still found.
    #[test]
    fn d438_a_merge_leaves_each_index_in_one_segment() {
        let conn = index_of_many_segments();
        assert!(
            segments(&conn, "news_fts").unwrap() > 4,
            "the test starts with many segments"
        );
        assert!(segments(&conn, "news_tags").unwrap() > 4);
        all(&conn).unwrap();
        assert_eq!(segments(&conn, "news_fts").unwrap(), 1);
        assert_eq!(segments(&conn, "news_tags").unwrap(), 1);
        let found: i64 = conn
            .query_row(
                "SELECT count(*) FROM news_fts WHERE news_fts MATCH 'council'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(found, 40);
        assert!(step(&conn).unwrap(), "a merged index has nothing left to merge");
    }

    /// D438: the writer merges when stories came since, at most once an hour; a new writer
    /// merges once, not knowing how the indexes were left.
    #[test]
    fn d438_the_writer_merges_at_most_hourly_and_only_after_new_stories() {
        let mut s = Schedule::new();
        assert!(s.due(), "a new writer merges once");
        s.stepped(false);
        assert!(s.due(), "an unfinished merge goes on");
        s.stepped(true);
        assert!(!s.due(), "nothing written since");
        s.written();
        assert!(!s.due(), "not again within the hour");
        s.last = Some(Instant::now() - EVERY);
        assert!(s.due(), "an hour on, with stories stored since");
    }
}
