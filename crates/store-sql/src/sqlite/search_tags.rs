//! A search's filters as a full-text index of their own, `news_tags` (D430).
//!
//! Each story has one row there, its rowid the story's id: a token for each of its places,
//! one for its language and one for its publisher's country (migration 0025 writes the
//! same tokens for the stories stored before it). A search with a place, a language or a
//! country asks `news_tags` for the stories holding those tokens and walks that list and
//! the words' list together, both newest first ([`intersect`]), instead of checking each
//! word match on the places index or the story's row: a small place among a common word's
//! matches had the search read thousands of matches to fill a page.

use crate::search_tokens::{filter_tokens, story_tokens};
use rusqlite::{Connection, OptionalExtension, Result};
use std::collections::VecDeque;
use store::content::PlaceKey;

/// A story's row in `news_tags`.
pub fn story_tags(lang: &str, country: &str, places: &[PlaceKey]) -> String {
    story_tokens(lang, country, places).join(" ")
}

/// What a search asks of `news_tags`: every token given, or none when no filter is one.
pub fn tags_query(place: Option<&str>, lang: Option<&str>, country: Option<&str>) -> Option<String> {
    let tokens: Vec<String> = filter_tokens(place, lang, country)
        .into_iter()
        .map(|t| format!("\"{t}\""))
        .collect();
    (!tokens.is_empty()).then(|| tokens.join(" AND "))
}

/// Rows read from one list at first. A list is asked again from where the other one is
/// when it runs out or falls behind, so a sparse list is skipped over, not read through.
/// A read that follows on from the last one asks for twice as many rows, up to
/// [`BATCH_MAX`], so a dense list is read in few statements (each asks FTS5 to find its
/// terms again); one that skips over more rows than it would read starts small again.
const BATCH: i64 = 128;
const BATCH_MAX: i64 = 8_192;

/// How much denser one list must be than the other for the sparser to walk alone and
/// ask the denser for each of its rows (D442): past it, reading the denser list from
/// where the sparser one is read its rows from far below its last read, a batch for
/// every row of the sparser list (a common word in a small town: 935 µs a read at a
/// million stories, against 12–38 µs to ask FTS5 for one rowid).
const PROBE_RATIO: f64 = 128.0;

/// How many of a list's rows lie above a read for it to go newest first still: FTS5
/// walks back about 1.7 µs for each thousand ("council" at a million stories), and a
/// window may read up to a few hundred rows more than asked (~0.3 µs each).
const NEAR_ROWS: f64 = 16_384.0;

/// One list's statements. FTS5 finds a rowid cheaply going up its doclist index, but
/// going down it walks back from the newest row (D447: "council" at a million stories,
/// the newest 20 at or below the middle rowid 430 µs newest first, 25 µs for the rows
/// of a window there oldest first), so a list is read newest first only near its newest
/// rows ([`NEAR_ROWS`]); further down each read is a window below the last, oldest first.
struct Statements {
    /// The newest rows at or below ?2, at most ?3.
    newest: &'static str,
    /// Every row from ?2 to ?3, oldest first.
    window: &'static str,
    /// The oldest row.
    oldest: &'static str,
    /// Whether ?2 is a row.
    holds: &'static str,
}

const WORDS: Statements = Statements {
    newest: "SELECT rowid FROM news_fts WHERE news_fts MATCH ?1 AND rowid <= ?2 ORDER BY rowid DESC LIMIT +?3",
    window: "SELECT rowid FROM news_fts WHERE news_fts MATCH ?1 AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid",
    oldest: "SELECT rowid FROM news_fts WHERE news_fts MATCH ?1 ORDER BY rowid LIMIT 1",
    holds: "SELECT 1 FROM news_fts WHERE news_fts MATCH ?1 AND rowid = ?2",
};
const TAGS: Statements = Statements {
    newest: "SELECT rowid FROM news_tags WHERE news_tags MATCH ?1 AND rowid <= ?2 ORDER BY rowid DESC LIMIT +?3",
    window: "SELECT rowid FROM news_tags WHERE news_tags MATCH ?1 AND rowid BETWEEN ?2 AND ?3 ORDER BY rowid",
    oldest: "SELECT rowid FROM news_tags WHERE news_tags MATCH ?1 ORDER BY rowid LIMIT 1",
    holds: "SELECT 1 FROM news_tags WHERE news_tags MATCH ?1 AND rowid = ?2",
};

/// One of the two lists being walked: the rows read and not yet passed.
struct List {
    sql: &'static Statements,
    query: String,
    rows: VecDeque<i64>,
    /// Rows the next read asks for.
    batch: i64,
    /// The oldest rowid the last read reached, and its rows per rowid.
    last: Option<(i64, f64)>,
    /// Read newest first while fewer of its rows than this lie above ([`NEAR_ROWS`]).
    near_rows: f64,
    /// How many rowids the last read spanned.
    last_span: i64,
    /// The newest row the list's first read found.
    newest: i64,
    /// The list's oldest row once asked (`Some(None)`: the list is empty).
    oldest: Option<Option<i64>>,
    /// No row lies below the ones kept.
    ended: bool,
}

impl List {
    fn new(sql: &'static Statements, query: String, near_rows: f64) -> List {
        List {
            near_rows,
            sql,
            query,
            rows: VecDeque::new(),
            batch: BATCH,
            last: None,
            last_span: 0,
            newest: 0,
            oldest: None,
            ended: false,
        }
    }

    /// Its rows per rowid, by its last read.
    fn density(&self) -> Option<f64> {
        self.last.map(|(_, d)| d)
    }

    /// Whether it holds `id`.
    fn holds(&self, conn: &Connection, id: i64) -> Result<bool> {
        let mut stmt = conn.prepare_cached(self.sql.holds)?;
        stmt.exists(rusqlite::params![self.query, id])
    }

    /// Its newest row at or below `at`, reading on if needed.
    fn head(&mut self, conn: &Connection, at: i64) -> Result<Option<i64>> {
        loop {
            while self.rows.front().is_some_and(|&id| id > at) {
                self.rows.pop_front();
            }
            if let Some(&id) = self.rows.front() {
                return Ok(Some(id));
            }
            if self.ended {
                return Ok(None);
            }
            self.read_below(conn, at)?;
        }
    }

    /// Reads the next rows at or below `at`: about a batch of them, or learns there are
    /// none.
    fn read_below(&mut self, conn: &Connection, at: i64) -> Result<()> {
        let Some((reached, density)) = self.last else {
            return self.read_newest(conn, at);
        };
        // Every row from the last read's lowest rowid up was read, and those at or below
        // `at` are passed: go on below both.
        let Some(at) = reached.checked_sub(1).map(|below| below.min(at)) else {
            self.ended = true;
            return Ok(());
        };
        // How many of this list's rows lie between its last read and `at`, by the last
        // read's density: the rows a sequential read would have passed over.
        let passed = (reached - 1 - at) as f64 * density;
        self.batch = if passed > self.batch as f64 {
            BATCH
        } else {
            (self.batch * 2).min(BATCH_MAX)
        };
        // Near the list's newest rows, newest first costs little and reads no more rows
        // than asked; further down, a window.
        if (self.newest - at) as f64 * density < self.near_rows {
            return self.read_newest(conn, at);
        }
        // The list's oldest row, once asked (a window that finds nothing asks it).
        let first = self.oldest.flatten().unwrap_or(i64::MIN);
        if at < first {
            self.ended = true;
            return Ok(());
        }
        // A window below `at` that holds about a batch at the last read's density, at
        // most four times the last one's rowids (a list is denser in some weeks than in
        // others: a quiet stretch must not make the next window a month of a busy one).
        let span = (self.last_span as f64 * 4.0).min(at as f64 - first as f64 + 1.0);
        let width = (self.batch as f64 / density).min(span) as i64;
        let from = at.saturating_sub(width.max(self.batch) - 1).max(first);
        let mut stmt = conn.prepare_cached(self.sql.window)?;
        let mut read = stmt
            .query_map(rusqlite::params![self.query, from, at], |r| r.get::<_, i64>(0))?
            .collect::<Result<VecDeque<i64>>>()?;
        read.make_contiguous().reverse();
        self.ended = from <= first;
        if read.is_empty() && self.oldest.is_none() {
            // Nothing in the window: whether anything lies below it.
            let oldest: Option<i64> = conn
                .prepare_cached(self.sql.oldest)?
                .query_row([&self.query], |r| r.get(0))
                .optional()?;
            self.oldest = Some(oldest);
            self.ended = oldest.is_none_or(|oldest| oldest >= from);
        }
        self.last_span = at - from + 1;
        self.last = Some((from, read.len().max(1) as f64 / self.last_span as f64));
        self.rows = read;
        Ok(())
    }

    /// Reads the newest batch of rows at or below `at`, newest first.
    fn read_newest(&mut self, conn: &Connection, at: i64) -> Result<()> {
        let mut stmt = conn.prepare_cached(self.sql.newest)?;
        let read = stmt
            .query_map(rusqlite::params![self.query, at, self.batch], |r| r.get::<_, i64>(0))?
            .collect::<Result<VecDeque<i64>>>()?;
        self.ended = (read.len() as i64) < self.batch;
        if let (Some(&newest), Some(&oldest)) = (read.front(), read.back()) {
            if self.last.is_none() {
                self.newest = newest;
            }
            self.last_span = newest - oldest + 1;
            self.last = Some((oldest, read.len() as f64 / self.last_span as f64));
        }
        self.rows = read;
        Ok(())
    }
}

/// The newest `n` stories that match both `words` (a `news_fts` query) and `tags` (a
/// `news_tags` query) and that `keep` keeps, newest first.
pub fn intersect(
    conn: &Connection,
    words: String,
    tags: String,
    n: usize,
    keep: impl FnMut(i64) -> Result<bool>,
) -> Result<Vec<i64>> {
    intersect_reading(conn, words, tags, n, keep, NEAR_ROWS)
}

/// [`intersect`], reading newest first while fewer than `near_rows` of a list lie above.
fn intersect_reading(
    conn: &Connection,
    words: String,
    tags: String,
    n: usize,
    mut keep: impl FnMut(i64) -> Result<bool>,
    near_rows: f64,
) -> Result<Vec<i64>> {
    let mut found = Vec::new();
    let mut words = List::new(&WORDS, words, near_rows);
    let mut tags = List::new(&TAGS, tags, near_rows);
    // The newest rowid both lists may still hold.
    let mut at = i64::MAX;
    while found.len() < n {
        // One list far sparser than the other walks alone and asks the other for each of
        // its rows (D442); otherwise both are read in batches and stepped together.
        let ratio = words.density().zip(tags.density()).map(|(w, t)| w / t);
        let walker = match ratio {
            Some(r) if r > PROBE_RATIO => Some((&mut tags, &words)),
            Some(r) if r < 1.0 / PROBE_RATIO => Some((&mut words, &tags)),
            _ => None,
        };
        if let Some((walking, asked)) = walker {
            let Some(id) = walking.head(conn, at)? else { break };
            if asked.holds(conn, id)? && keep(id)? {
                found.push(id);
            }
            match id.checked_sub(1) {
                Some(below) => at = below,
                None => break,
            }
            continue;
        }
        let Some(word) = words.head(conn, at)? else { break };
        let Some(tag) = tags.head(conn, word)? else { break };
        if tag == word {
            if keep(word)? {
                found.push(word);
            }
            match word.checked_sub(1) {
                Some(below) => at = below,
                None => break,
            }
        } else {
            // The tags' next row is older: no word match between them holds the tags.
            at = tag;
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::content::CityId;

    #[test]
    fn a_storys_tags_are_letters_and_digits_the_migrations_way() {
        let places = [
            PlaceKey::City(CityId(4140963)),
            PlaceKey::State {
                country: "US".into(),
                admin_code: "DC".into(),
            },
            PlaceKey::Country("US".into()),
        ];
        assert_eq!(story_tags("en", "US", &places), "len kUS xenUS pc4140963 psUSDC pnUS");
        assert_eq!(story_tags("fr", "CA", &[]), "lfr kCA xfrCA");
    }

    #[test]
    fn a_search_asks_for_every_filter_it_has_and_nothing_without_one() {
        assert_eq!(tags_query(None, None, None), None);
        assert_eq!(
            tags_query(Some("c:1"), Some("fr"), Some("CA")).as_deref(),
            Some("\"pc1\" AND \"xfrCA\"")
        );
        assert_eq!(tags_query(None, Some("es"), None).as_deref(), Some("\"les\""));
        assert_eq!(tags_query(None, None, Some("US")).as_deref(), Some("\"kUS\""));
    }

    /// 3,000 stories: "council" in two of three, "quarry" in one of 500; the tag `pcbig` on
    /// every other story, `pcsmall` on one of 400.
    fn index() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE news_fts USING fts5 (title, summary, body, content = '', contentless_delete = 1);
             CREATE VIRTUAL TABLE news_tags USING fts5 (tags, content = '', contentless_delete = 1, detail = none);",
        )
        .unwrap();
        for id in 1..=3_000_i64 {
            let mut words = vec!["news"];
            if id % 3 != 0 {
                words.push("council");
            }
            if id % 500 == 7 {
                words.push("quarry");
            }
            let mut tags = vec!["len"];
            if id % 2 == 0 {
                tags.push("pcbig");
            }
            if id % 400 == 11 {
                tags.push("pcsmall");
            }
            conn.execute(
                "INSERT INTO news_fts (rowid, title, summary, body) VALUES (?1, ?2, '', '')",
                rusqlite::params![id, words.join(" ")],
            )
            .unwrap();
            conn.execute(
                "INSERT INTO news_tags (rowid, tags) VALUES (?1, ?2)",
                rusqlite::params![id, tags.join(" ")],
            )
            .unwrap();
        }
        conn
    }

    fn rowids(conn: &Connection, table: &str, query: &str) -> Vec<i64> {
        conn.prepare(&format!(
            "SELECT rowid FROM {table} WHERE {table} MATCH ?1 ORDER BY rowid DESC"
        ))
        .unwrap()
        .query_map([query], |r| r.get(0))
        .unwrap()
        .collect::<Result<_>>()
        .unwrap()
    }

    /// D430, D442: whichever way the lists are walked (both in batches, or the sparser
    /// alone asking the denser for each row, either way round), the answer is the newest
    /// stories both hold that `keep` keeps.
    #[test]
    fn d442_every_walk_finds_exactly_the_newest_stories_both_lists_hold() {
        let conn = index();
        for (word, tag) in [
            ("council", "pcsmall"),
            ("council", "pcbig"),
            ("quarry", "pcbig"),
            ("quarry", "pcsmall"),
        ] {
            let tagged = rowids(&conn, "news_tags", tag);
            let both: Vec<i64> = rowids(&conn, "news_fts", word)
                .into_iter()
                .filter(|id| tagged.contains(id) && id % 5 != 0)
                .collect();
            for n in [1, 3, 21, 5_000] {
                let found = intersect(&conn, format!("\"{word}\""), format!("\"{tag}\""), n, |id| {
                    Ok(id % 5 != 0)
                })
                .unwrap();
                let want: Vec<i64> = both.iter().copied().take(n).collect();
                assert_eq!(found, want, "{word} in {tag}, first {n}");
            }
        }
    }

    /// D447: lists whose density changes over time (a burst of a word, a town quiet for
    /// months, a list that starts late or ends early) are read in windows sized by the
    /// last read; whatever the windows, the answer is the newest stories both lists hold.
    #[test]
    fn d447_windows_below_a_lists_last_read_miss_no_row_whatever_its_density() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(447);
        for round in 0..8 {
            let conn = Connection::open_in_memory().unwrap();
            conn.execute_batch(
                "CREATE VIRTUAL TABLE news_fts USING fts5 (title, summary, body, content = '', contentless_delete = 1);
                 CREATE VIRTUAL TABLE news_tags USING fts5 (tags, content = '', contentless_delete = 1, detail = none);",
            )
            .unwrap();
            // Each list's chance per rowid changes every 500 rowids, from never to always.
            let stretch = |rng: &mut rand::rngs::StdRng| [0.0, 0.0005, 0.01, 0.2, 0.9, 1.0][rng.random_range(0..6)];
            let (mut word_p, mut tag_p) = (0.5, 0.5);
            for id in 1..=20_000_i64 {
                if id % 500 == 1 {
                    word_p = stretch(&mut rng);
                    tag_p = stretch(&mut rng);
                }
                let word = if rng.random_bool(word_p) { "council" } else { "news" };
                let tag = if rng.random_bool(tag_p) { "pcx" } else { "len" };
                conn.execute(
                    "INSERT INTO news_fts (rowid, title, summary, body) VALUES (?1, ?2, '', '')",
                    rusqlite::params![id, word],
                )
                .unwrap();
                conn.execute(
                    "INSERT INTO news_tags (rowid, tags) VALUES (?1, ?2)",
                    rusqlite::params![id, tag],
                )
                .unwrap();
            }
            let tagged: std::collections::HashSet<i64> = rowids(&conn, "news_tags", "pcx").into_iter().collect();
            let both: Vec<i64> = rowids(&conn, "news_fts", "council")
                .into_iter()
                .filter(|id| tagged.contains(id))
                .collect();
            for (n, near_rows) in [1, 20, 300, 30_000]
                .into_iter()
                .flat_map(|n| [(n, 0.0), (n, NEAR_ROWS)])
            {
                let found = intersect_reading(
                    &conn,
                    "\"council\"".into(),
                    "\"pcx\"".into(),
                    n,
                    |_| Ok(true),
                    near_rows,
                )
                .unwrap();
                let want: Vec<i64> = both.iter().copied().take(n).collect();
                assert_eq!(
                    found, want,
                    "round {round}, first {n}, newest first below {near_rows} rows"
                );
            }
        }
    }

    /// The filters reach FTS5's query language: whatever a value holds, it stays one
    /// quoted token of letters and digits, never an operator, a column or a prefix.
    #[test]
    fn a_hostile_filter_value_is_one_token_never_query_syntax() {
        let hostile = "c:1\" OR tags:* NEAR(\"x\" \"y\") -_é";
        assert_eq!(
            tags_query(Some(hostile), Some("en\" OR \"fr"), None).as_deref(),
            Some("\"pc1ORtagsNEARxy\" AND \"lenORfr\"")
        );
    }
}
