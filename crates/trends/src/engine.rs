//! Which phrases trend (D300): a pure function of stories and the time.
//!
//! A *story* is a cluster (our de-duplicated story): it carries a phrase when any of its
//! items' headlines does, and it is dated by the first such item. A phrase trends when
//! - at least [`MIN_RECENT_STORIES`] stories carrying it began in the last [`RECENT_MS`],
//! - those stories' items come from at least [`MIN_PUBLISHERS`] distinct publishers, and
//! - that count beats its own baseline: `recent ≥ RISE × expected + 1`, where `expected` is
//!   the phrase's rate over the [`BASELINE_MS`] before the recent window, scaled to the
//!   recent window's length.
//!
//! Trends are ranked by `(recent − expected) / √(expected + 1)`. Overlapping trends (sharing
//! a word, with at least half of the shorter one's recent stories in the longer one) merge
//! into the longer: the longest phrase that holds is kept.

use crate::phrases::Phrase;
use domain::ids::{ClusterId, MediaId, NewsId};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

pub const HOUR_MS: i64 = 3_600_000;
/// The recent window: what is trending now.
pub const RECENT_MS: i64 = 6 * HOUR_MS;
/// The baseline: the three days before the recent window.
pub const BASELINE_MS: i64 = 72 * HOUR_MS;
/// The sparkline: hourly counts over the last day.
pub const SPARK_HOURS: usize = 24;
pub const MIN_PUBLISHERS: usize = 3;
pub const MIN_RECENT_STORIES: usize = 2;
pub const RISE: f64 = 2.0;
/// Trends kept, best first (more than an answer shows, so a reader's view that drops
/// some still has enough), and stories listed per trend.
pub const MAX_TRENDS: usize = 40;
pub const MAX_STORIES: usize = 30;

/// One stored item as the engine sees it: its phrases made once (by [`super::phrases`]).
#[derive(Debug, Clone)]
pub struct Story {
    pub news_id: NewsId,
    pub media_id: MediaId,
    pub cluster_id: ClusterId,
    pub published_ms: i64,
    pub phrases: Arc<[Phrase]>,
}

/// An item carrying a trend's phrase in the last day, with its story's first time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Member {
    pub news_id: NewsId,
    pub media_id: MediaId,
    pub story: i64,
    pub published_ms: i64,
    pub story_first_ms: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Trend {
    /// Folded (what was counted).
    pub key: String,
    /// As most of its headlines write it.
    pub phrase: String,
    /// Stories begun in the recent window.
    pub recent: usize,
    /// The baseline's stories, scaled to the recent window.
    pub expected: f64,
    pub publishers: usize,
    pub score: f64,
    /// Stories begun in each of the last 24 hours, oldest first.
    pub sparkline: Vec<u32>,
    /// One item per story of the last day, newest first (at most [`MAX_STORIES`]).
    pub stories: Vec<NewsId>,
    pub members: Vec<Member>,
}

fn story_key(s: &Story) -> i64 {
    if s.cluster_id.0 == 0 {
        -s.news_id.0
    } else {
        s.cluster_id.0
    }
}

/// The trends among `stories` at `now_ms`, best first.
pub fn trends(stories: &[Story], now_ms: i64) -> Vec<Trend> {
    let recent_start = now_ms - RECENT_MS;
    let window_start = recent_start - BASELINE_MS;
    let in_window = |s: &Story| s.published_ms >= window_start && s.published_ms <= now_ms;

    // Phrases of the recent window carried by enough publishers and stories.
    let mut recent: HashMap<&str, Vec<u32>> = HashMap::new();
    for (i, s) in stories.iter().enumerate() {
        if s.published_ms >= recent_start && s.published_ms <= now_ms {
            for p in s.phrases.iter() {
                recent.entry(p.key.as_str()).or_default().push(i as u32);
            }
        }
    }
    let candidates: HashSet<&str> = recent
        .into_iter()
        .filter(|(_, idx)| {
            let media: HashSet<MediaId> = idx.iter().map(|&i| stories[i as usize].media_id).collect();
            let clusters: HashSet<i64> = idx.iter().map(|&i| story_key(&stories[i as usize])).collect();
            media.len() >= MIN_PUBLISHERS && clusters.len() >= MIN_RECENT_STORIES
        })
        .map(|(k, _)| k)
        .collect();

    // Every item of the window carrying a candidate.
    let mut carrying: HashMap<&str, Vec<u32>> = HashMap::new();
    for (i, s) in stories.iter().enumerate() {
        if in_window(s) {
            for p in s.phrases.iter() {
                if let Some(k) = candidates.get(p.key.as_str()) {
                    carrying.entry(k).or_default().push(i as u32);
                }
            }
        }
    }

    let mut found = Vec::new();
    for (key, idx) in carrying {
        let mut first: HashMap<i64, i64> = HashMap::new();
        for &i in &idx {
            let s = &stories[i as usize];
            let f = first.entry(story_key(s)).or_insert(s.published_ms);
            *f = (*f).min(s.published_ms);
        }
        let baseline = first.values().filter(|&&f| f < recent_start).count();
        let expected = baseline as f64 * RECENT_MS as f64 / BASELINE_MS as f64;
        let members: Vec<Member> = idx
            .iter()
            .map(|&i| &stories[i as usize])
            .filter(|s| s.published_ms >= now_ms - SPARK_HOURS as i64 * HOUR_MS)
            .map(|s| Member {
                news_id: s.news_id,
                media_id: s.media_id,
                story: story_key(s),
                published_ms: s.published_ms,
                story_first_ms: first[&story_key(s)],
            })
            .collect();
        if let Some(mut t) = evaluate(key, String::new(), members, expected, now_ms) {
            t.phrase = surface(key, &idx, stories);
            found.push(t);
        }
    }
    merge(found)
}

/// The way most of the items write the phrase.
fn surface(key: &str, idx: &[u32], stories: &[Story]) -> String {
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for &i in idx {
        if let Some(p) = stories[i as usize].phrases.iter().find(|p| p.key == key) {
            *counts.entry(p.surface.as_str()).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(a.0)))
        .map_or_else(|| key.to_string(), |(s, _)| s.to_string())
}

/// The trend of these members, if it holds.
pub fn evaluate(key: &str, phrase: String, members: Vec<Member>, expected: f64, now_ms: i64) -> Option<Trend> {
    let recent_start = now_ms - RECENT_MS;
    let spark_start = now_ms - SPARK_HOURS as i64 * HOUR_MS;
    let recent_members = || members.iter().filter(|m| m.story_first_ms >= recent_start);
    let recent: HashSet<i64> = recent_members().map(|m| m.story).collect();
    let publishers: HashSet<MediaId> = recent_members().map(|m| m.media_id).collect();
    let holds = recent.len() >= MIN_RECENT_STORIES
        && publishers.len() >= MIN_PUBLISHERS
        && recent.len() as f64 >= RISE * expected + 1.0;
    if !holds {
        return None;
    }
    let mut sparkline = vec![0u32; SPARK_HOURS];
    // The newest item of each story of the last day.
    let mut newest: HashMap<i64, (i64, NewsId, i64)> = HashMap::new();
    for m in &members {
        let e = newest
            .entry(m.story)
            .or_insert((m.published_ms, m.news_id, m.story_first_ms));
        if (m.published_ms, m.news_id) > (e.0, e.1) {
            *e = (m.published_ms, m.news_id, m.story_first_ms);
        }
    }
    for &(_, _, first) in newest.values() {
        if first >= spark_start && first <= now_ms {
            let hour = ((first - spark_start) / HOUR_MS).clamp(0, SPARK_HOURS as i64 - 1);
            sparkline[hour as usize] += 1;
        }
    }
    let mut stories: Vec<(i64, NewsId)> = newest.values().map(|&(at, id, _)| (at, id)).collect();
    stories.sort_unstable_by(|a, b| b.cmp(a));
    stories.truncate(MAX_STORIES);
    let score = (recent.len() as f64 - expected) / (expected + 1.0).sqrt();
    Some(Trend {
        key: key.to_string(),
        phrase,
        recent: recent.len(),
        expected,
        publishers: publishers.len(),
        score,
        sparkline,
        stories: stories.into_iter().map(|(_, id)| id).collect(),
        members,
    })
}

impl Trend {
    /// This trend without the items `hides` hides (a reader's blocks and mutes, D270),
    /// if it still holds.
    pub fn without(&self, hides: impl Fn(NewsId) -> bool, now_ms: i64) -> Option<Trend> {
        let members = self.members.iter().filter(|m| !hides(m.news_id)).copied().collect();
        evaluate(&self.key, self.phrase.clone(), members, self.expected, now_ms)
    }

    fn story_set(&self) -> HashSet<i64> {
        self.members.iter().map(|m| m.story).collect()
    }
}

/// Overlapping trends merge into the longest phrase that holds; best first after.
fn merge(mut found: Vec<Trend>) -> Vec<Trend> {
    let words = |t: &Trend| t.key.split(' ').count();
    found.sort_by(|a, b| {
        words(b)
            .cmp(&words(a))
            .then(b.score.total_cmp(&a.score))
            .then(a.key.cmp(&b.key))
    });
    let mut kept: Vec<(Trend, HashSet<i64>)> = Vec::new();
    for t in found {
        let own = t.story_set();
        let t_words: HashSet<&str> = t.key.split(' ').collect();
        let covered = kept.iter().any(|(k, stories)| {
            k.key.split(' ').any(|w| t_words.contains(w)) && own.intersection(stories).count() * 2 >= own.len()
        });
        if !covered {
            kept.push((t, own));
        }
    }
    let mut out: Vec<Trend> = kept.into_iter().map(|(t, _)| t).collect();
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.recent.cmp(&a.recent))
            .then(a.key.cmp(&b.key))
    });
    out.truncate(MAX_TRENDS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::phrases::phrases;

    const NOW: i64 = 1_800_000_000_000;

    struct Corpus(Vec<Story>);

    impl Corpus {
        fn new() -> Corpus {
            Corpus(Vec::new())
        }

        /// An item `hours_ago` from publisher `media` in story `cluster`.
        fn add(&mut self, title: &str, media: i64, cluster: i64, hours_ago: f64) -> &mut Corpus {
            let id = self.0.len() as i64 + 1;
            self.0.push(Story {
                news_id: NewsId(id),
                media_id: MediaId(media),
                cluster_id: ClusterId(cluster),
                published_ms: NOW - (hours_ago * HOUR_MS as f64) as i64,
                phrases: phrases(title, "en").into(),
            });
            self
        }

        fn keys(&self) -> Vec<String> {
            trends(&self.0, NOW).into_iter().map(|t| t.key).collect()
        }
    }

    #[test]
    fn d300_a_phrase_in_stories_of_three_publishers_trends() {
        let mut c = Corpus::new();
        c.add("Wildfire near Kamloops forces evacuations", 1, 10, 1.0)
            .add("Kamloops wildfire doubles overnight", 2, 11, 2.0)
            .add("Evacuation order widens as Kamloops fire grows", 3, 12, 3.0);
        let t = trends(&c.0, NOW);
        assert_eq!(t[0].key, "kamloops");
        assert_eq!(t[0].phrase, "Kamloops");
        assert_eq!((t[0].recent, t[0].publishers), (3, 3));
        assert_eq!(t[0].stories.len(), 3);
        assert_eq!(t[0].stories[0], NewsId(1), "newest first");
        assert_eq!(t[0].sparkline.len(), 24);
        assert_eq!(t[0].sparkline.iter().sum::<u32>(), 3);
        assert_eq!(t[0].sparkline[23], 1, "the story of an hour ago is in the last hour");
    }

    #[test]
    fn d300_two_publishers_are_not_enough() {
        let mut c = Corpus::new();
        c.add("Kamloops wildfire grows", 1, 10, 1.0)
            .add("Kamloops wildfire grows again", 2, 11, 2.0)
            .add("Kamloops wildfire, day two", 2, 12, 3.0);
        assert!(c.keys().is_empty(), "{:?}", c.keys());
    }

    #[test]
    fn d300_one_story_told_by_many_is_not_a_trend() {
        let mut c = Corpus::new();
        for m in 1..=5 {
            c.add("Kamloops wildfire grows", m, 10, 1.0);
        }
        assert!(c.keys().is_empty(), "one cluster is one story: {:?}", c.keys());
    }

    #[test]
    fn d300_a_phrase_must_beat_its_own_baseline() {
        let mut c = Corpus::new();
        // "council" every two hours for three days: 36 stories, 3 expected in 6 hours.
        for i in 0..36 {
            c.add("City council meets", 1 + i % 3, 100 + i, 6.5 + 2.0 * i as f64);
        }
        for i in 0..4 {
            c.add("City council meets", 1 + i % 3, 200 + i, 1.0 + i as f64);
        }
        assert!(c.keys().is_empty(), "4 < 2 × 3 + 1: {:?}", c.keys());
        for i in 4..8 {
            c.add("City council meets", 1 + i % 3, 200 + i, 0.5 + 0.1 * i as f64);
        }
        let t = trends(&c.0, NOW);
        let council = t.iter().find(|t| t.key.contains("council")).expect("8 ≥ 7 trends");
        assert_eq!(council.recent, 8);
        assert!((council.expected - 3.0).abs() < 1e-9);
    }

    #[test]
    fn d300_overlapping_phrases_merge_into_the_longest_that_holds() {
        let mut c = Corpus::new();
        c.add("Transit strike shuts buses", 1, 10, 1.0)
            .add("Transit strike enters day two", 2, 11, 2.0)
            .add("Transit strike talks resume", 3, 12, 3.0)
            .add("Strike at port ends", 4, 13, 1.5);
        let keys = c.keys();
        assert_eq!(
            keys,
            ["transit strike"],
            "\"strike\": 3 of its 4 stories are the longer's"
        );
        // A name is one unit: its own words never trend apart from it.
        let mut c = Corpus::new();
        c.add("Hurricane Milton makes landfall", 1, 10, 1.0)
            .add("Hurricane Milton: what we know", 2, 11, 2.0)
            .add("Power cuts as Hurricane Milton passes", 3, 12, 3.0);
        assert_eq!(c.keys(), ["hurricane milton"]);
    }

    #[test]
    fn d300_names_trend_whole() {
        let mut c = Corpus::new();
        c.add("Crowds greet Mark Carney in Halifax", 1, 10, 1.0)
            .add("Mark Carney visits port", 2, 11, 2.0)
            .add("Protest awaits Mark Carney", 3, 12, 3.0);
        let t = trends(&c.0, NOW);
        assert_eq!(t.len(), 1, "{:?}", t.iter().map(|t| &t.key).collect::<Vec<_>>());
        assert_eq!(t[0].phrase, "Mark Carney");
    }

    #[test]
    fn d300_old_stories_only_feed_the_baseline() {
        let mut c = Corpus::new();
        c.add("Kamloops wildfire grows", 1, 10, 8.0)
            .add("Kamloops wildfire grows", 2, 11, 9.0)
            .add("Kamloops wildfire grows", 3, 12, 10.0);
        assert!(c.keys().is_empty());
        // A story that began before the window and goes on now is not recent.
        c.add("Kamloops wildfire grows", 4, 10, 1.0);
        assert!(c.keys().is_empty());
    }

    #[test]
    fn d270_a_readers_hidden_items_drop_a_trend_below_three_publishers() {
        let mut c = Corpus::new();
        c.add("Kamloops wildfire grows", 1, 10, 1.0)
            .add("Kamloops wildfire grows", 2, 11, 2.0)
            .add("Kamloops wildfire grows", 3, 12, 3.0)
            .add("Kamloops wildfire grows", 3, 13, 3.5);
        let t = &trends(&c.0, NOW)[0];
        let hidden_publisher_3 = |id: NewsId| id == NewsId(3) || id == NewsId(4);
        assert!(t.without(hidden_publisher_3, NOW).is_none());
        let fewer = t.without(|id| id == NewsId(4), NOW).expect("still 3 publishers");
        assert!(!fewer.stories.contains(&NewsId(4)));
        assert!(
            t.without(|id| id == NewsId(1), NOW).is_none(),
            "a mute of one story leaves 2 publishers"
        );
    }
}
