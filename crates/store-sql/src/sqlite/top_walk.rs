//! Top news: the window's six-hour buckets walked together, best first (D439).
//!
//! Each bucket's clusters are one range of `story_clusters_top`, in rank order (D410).
//! The page is the best `offset + limit` of all of them, so one cursor per bucket is
//! opened and the best head taken each time (a k-way merge): about `offset + limit +
//! buckets` index entries read, where reading each bucket's first `offset + limit` and
//! sorting them all read `buckets × (offset + limit)` (273 for a page of 20 over 72
//! hours) and looked each up in the table again.

use rusqlite::types::Value;
use rusqlite::{Connection, Rows};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A top bucket's length: six hours (D410; the expression of `story_clusters_top`).
const BUCKET_MS: i64 = 21_600_000;

/// A cluster's place in the ranking: more publishers, then more items, then newer, then
/// the larger id.
type Rank = (i64, i64, i64, i64);

/// One bucket's clusters in rank order. The text differs per bucket (its number is in a
/// comment) so each cursor is its own cached statement.
fn bucket_sql(arm: usize) -> String {
    format!(
        "SELECT x.media_count, x.size, x.newest, x.cluster_id FROM story_clusters x \
         WHERE x.newest / 21600000 = ?1 AND (?2 IS NULL OR x.lang = ?2) AND (?3 IS NULL OR x.country = ?3) \
         ORDER BY x.media_count DESC, x.size DESC, x.newest DESC, x.cluster_id DESC /* bucket {arm} */"
    )
}

/// The ids of the best `offset + limit` clusters seen since `since_ms` (from the start of
/// its bucket), best first, in the language and country when given; the first `offset`
/// left out.
pub fn ranked_clusters(
    conn: &Connection,
    lang: Option<&str>,
    country: Option<&str>,
    since_ms: i64,
    offset: usize,
    limit: usize,
) -> rusqlite::Result<Vec<i64>> {
    let first = since_ms.div_euclid(BUCKET_MS);
    let newest: Option<i64> = conn
        .prepare_cached("SELECT max(newest) FROM story_clusters WHERE newest >= ?1")?
        .query_row([first * BUCKET_MS], |r| r.get(0))?;
    let Some(newest) = newest else {
        return Ok(Vec::new());
    };
    let buckets: Vec<i64> = (first..=newest.div_euclid(BUCKET_MS)).rev().collect();
    let mut statements = buckets
        .iter()
        .enumerate()
        .map(|(arm, _)| conn.prepare_cached(&bucket_sql(arm)))
        .collect::<rusqlite::Result<Vec<_>>>()?;
    let (lang, country) = (text(lang), text(country));
    let mut cursors: Vec<Rows<'_>> = statements
        .iter_mut()
        .zip(&buckets)
        .map(|(s, &b)| s.query(rusqlite::params![b, lang, country]))
        .collect::<rusqlite::Result<_>>()?;
    let mut heads = BinaryHeap::with_capacity(cursors.len());
    for (arm, cursor) in cursors.iter_mut().enumerate() {
        if let Some(rank) = next(cursor)? {
            heads.push((rank, Reverse(arm)));
        }
    }
    let mut ids = Vec::with_capacity(limit);
    let mut skipped = 0;
    while ids.len() < limit {
        let Some((rank, Reverse(arm))) = heads.pop() else {
            break;
        };
        if skipped < offset {
            skipped += 1;
        } else {
            ids.push(rank.3);
        }
        if let Some(rank) = next(&mut cursors[arm])? {
            heads.push((rank, Reverse(arm)));
        }
    }
    Ok(ids)
}

fn next(cursor: &mut Rows<'_>) -> rusqlite::Result<Option<Rank>> {
    cursor
        .next()?
        .map(|r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .transpose()
}

fn text(v: Option<&str>) -> Value {
    v.map_or(Value::Null, |s| Value::Text(s.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// D439: a bucket's cursor reads `story_clusters_top` in its own order and nothing
    /// else: no sort, no table row.
    #[test]
    fn d439_a_bucket_is_read_in_index_order_from_the_index_alone() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE story_clusters (cluster_id INTEGER PRIMARY KEY, lead_id INTEGER, size INTEGER, \
               media_count INTEGER, newest INTEGER, lang TEXT, country TEXT);
             CREATE INDEX story_clusters_top ON story_clusters (
               newest / 21600000 DESC, media_count DESC, size DESC, newest DESC, cluster_id DESC, lang, country);",
        )
        .unwrap();
        let plan: Vec<String> = conn
            .prepare(&format!("EXPLAIN QUERY PLAN {}", bucket_sql(0)))
            .unwrap()
            .query_map(rusqlite::params![1, "fr", "CA"], |r| r.get::<_, String>(3))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            plan,
            ["SEARCH x USING COVERING INDEX story_clusters_top (<expr>=?)"],
            "{plan:#?}"
        );
    }

    /// D439: the merge takes the best head each time: the page is the ranking's, across
    /// buckets, after the offset; a bucket outside the window is not read.
    #[test]
    fn d439_the_buckets_merge_into_one_ranking() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE story_clusters (cluster_id INTEGER PRIMARY KEY, lead_id INTEGER, size INTEGER, \
               media_count INTEGER, newest INTEGER, lang TEXT, country TEXT);",
        )
        .unwrap();
        let b = BUCKET_MS;
        // (id, publishers, size, newest)
        let clusters = [
            (1, 3, 5, 10 * b + 1),
            (2, 1, 1, 10 * b + 2),
            (3, 5, 9, 11 * b + 3),
            (4, 3, 6, 12 * b + 4),
            (5, 3, 5, 12 * b + 5),
            (6, 9, 9, 9 * b + 6), // before the window
            (7, 2, 2, 11 * b + 7),
        ];
        for (id, media, size, newest) in clusters {
            conn.execute(
                "INSERT INTO story_clusters VALUES (?1, ?1, ?2, ?3, ?4, 'en', 'US')",
                [id, size, media, newest],
            )
            .unwrap();
        }
        let ranked = |offset, limit| ranked_clusters(&conn, None, None, 10 * b + b / 2, offset, limit).unwrap();
        assert_eq!(ranked(0, 10), [3, 4, 5, 1, 7, 2], "publishers, then size, then newer");
        assert_eq!(ranked(1, 2), [4, 5]);
        assert_eq!(ranked(6, 2), Vec::<i64>::new());
        let french = ranked_clusters(&conn, Some("fr"), None, 10 * b, 0, 10).unwrap();
        assert!(french.is_empty(), "the language is a filter");
        let nothing = ranked_clusters(&conn, None, None, 13 * b, 0, 10).unwrap();
        assert!(nothing.is_empty(), "an empty window");
    }
}
