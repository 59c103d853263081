//! The reader's own things (issue 18): saved stories, reactions, reading history,
//! followed and blocked publishers, followed topics, home channels and mutes. They live
//! in the identity database beside the user (on SQLite the people file; news items and
//! publishers are in the content file, so ids are plain numbers with no foreign key) and
//! every table is in [`crate::user_data::USER_TABLES`]: a guest's things follow them when
//! they sign in, and download and deletion cover them.
//!
//! Writes are idempotent: each table's primary key is the user and the thing, so saving
//! twice is one row and removing what is not there is fine. Lists that can grow without
//! end (saved, reactions, history, blocks) page by keyset, newest first ([`Page`]).

use std::collections::{HashMap, HashSet};

use async_trait::async_trait;
use domain::ids::{MediaId, NewsId, UserId};
pub use domain::reactions::Reaction;

use crate::Result;

/// Most publishers a reader may follow.
pub const MAX_FOLLOWS: usize = 1000;
/// Most publishers a reader may block.
pub const MAX_BLOCKS: usize = 1000;
/// Most tags and categories a reader may follow.
pub const MAX_TOPICS: usize = 200;
/// Most channel tabs on a reader's home.
pub const MAX_CHANNELS: usize = 30;
/// Most keywords, tags and authors a reader may mute.
pub const MAX_MUTES: usize = 1000;
/// Longest topic, mute or channel text, in characters.
pub const MAX_TEXT_CHARS: usize = 100;
/// Largest page a listing returns (a bigger `limit` is cut to this).
pub const MAX_PAGE: u32 = 100;

/// Milliseconds in a day: history keeps a story once per UTC day.
const DAY_MS: i64 = 86_400_000;

/// The UTC day of a time: whole days since 1970-01-01 (before 1970 counts down, so a
/// day is always 86 400 000 ms wide).
pub fn utc_day(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// What kind of topic a reader follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TopicKind {
    Tag,
    Category,
}

impl TopicKind {
    pub const ALL: [TopicKind; 2] = [TopicKind::Tag, TopicKind::Category];

    pub fn as_str(self) -> &'static str {
        match self {
            TopicKind::Tag => "tag",
            TopicKind::Category => "category",
        }
    }

    pub fn parse(name: &str) -> Option<TopicKind> {
        TopicKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// What a mute hides: stories containing a keyword, carrying a tag, or by an author.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MuteKind {
    Keyword,
    Tag,
    Author,
}

impl MuteKind {
    pub const ALL: [MuteKind; 3] = [MuteKind::Keyword, MuteKind::Tag, MuteKind::Author];

    pub fn as_str(self) -> &'static str {
        match self {
            MuteKind::Keyword => "keyword",
            MuteKind::Tag => "tag",
            MuteKind::Author => "author",
        }
    }

    pub fn parse(name: &str) -> Option<MuteKind> {
        MuteKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

/// Where a newest-first list goes on from: the time and id of the last row of the
/// previous page. The next page has only rows strictly older, by `(at_ms, id)`, so rows
/// added meanwhile (newer) never shift it: no gaps and no repeats.
///
/// `id` is the row's thing: the news id (saved, reactions, history) or the media id
/// (blocks). On the wire it is one opaque token, [`Cursor::token`] (SPEC §7.5
/// next_page_no, §7.7 next_max_id and §7.10 token are all this).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cursor {
    pub at_ms: i64,
    pub id: i64,
}

impl Cursor {
    /// `"<at_ms>_<id>"`.
    pub fn token(self) -> String {
        format!("{}_{}", self.at_ms, self.id)
    }

    /// A token from [`Cursor::token`]; `None` for anything else.
    pub fn parse_token(token: &str) -> Option<Cursor> {
        let (at, id) = token.split_once('_')?;
        Some(Cursor {
            at_ms: at.parse().ok()?,
            id: id.parse().ok()?,
        })
    }
}

/// Which page of a newest-first list: at most `limit` rows (at least 1, at most
/// [`MAX_PAGE`]), older than `before` (the first page when `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    pub limit: u32,
    pub before: Option<Cursor>,
}

impl Page {
    pub fn first(limit: u32) -> Page {
        Page { limit, before: None }
    }

    /// The limit the stores use: `limit` kept within 1..=[`MAX_PAGE`].
    pub fn size(&self) -> u32 {
        self.limit.clamp(1, MAX_PAGE)
    }

    /// Where the query starts: strictly before this `(at_ms, id)`.
    pub fn start(&self) -> Cursor {
        self.before.unwrap_or(Cursor {
            at_ms: i64::MAX,
            id: i64::MAX,
        })
    }
}

/// One page of a list and where the next starts (`None`: this was the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paged<T> {
    pub items: Vec<T>,
    pub next: Option<Cursor>,
}

impl<T> Paged<T> {
    /// A page from rows read with `size + 1` as the limit: the extra row, if any, only
    /// says there is more, and the next page starts after the last row kept.
    pub fn from_rows(mut rows: Vec<T>, size: u32, cursor_of: impl Fn(&T) -> Cursor) -> Paged<T> {
        let size = size as usize;
        let more = rows.len() > size;
        rows.truncate(size);
        let next = if more { rows.last().map(cursor_of) } else { None };
        Paged { items: rows, next }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SavedNews {
    pub news_id: NewsId,
    pub saved_at_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactionEntry {
    pub news_id: NewsId,
    pub reaction: Reaction,
    pub reacted_at_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadEntry {
    pub news_id: NewsId,
    /// [`utc_day`] of `read_at_ms`.
    pub day: i64,
    /// The first time the story was opened that day.
    pub read_at_ms: i64,
}

/// A followed publisher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FollowedMedia {
    pub media_id: MediaId,
    pub followed_at_ms: i64,
}

/// A blocked publisher; `blocked_at_ms` is SPEC §3 "Blocked media" update_time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockedMedia {
    pub media_id: MediaId,
    pub blocked_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowedTopic {
    pub kind: TopicKind,
    pub value: String,
    pub followed_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mute {
    pub kind: MuteKind,
    pub value: String,
    pub muted_at_ms: i64,
}

/// Whose reactions a story's public counts hold (D353): every signed-in reader's, a
/// guest's once the guest is old enough (a guest costs nothing to make, an account and a
/// day's wait do), and always the reader's own, so they see their reaction counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReactionCounting {
    /// Guests who joined before this time count.
    pub guests_joined_before_ms: i64,
    /// The reader asking, whose reaction counts whatever they are.
    pub viewer: Option<UserId>,
}

impl ReactionCounting {
    /// Every reader's reaction, for tests of what is stored.
    pub const EVERYONE: ReactionCounting = ReactionCounting {
        guests_joined_before_ms: i64::MAX,
        viewer: None,
    };
}

/// How many readers gave a story each reaction.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReactionCounts {
    counts: [u64; Reaction::ALL.len()],
}

impl ReactionCounts {
    pub fn get(&self, reaction: Reaction) -> u64 {
        self.counts[reaction.index()]
    }

    pub fn add(&mut self, reaction: Reaction, n: u64) {
        self.counts[reaction.index()] += n;
    }

    /// Every reaction (SPEC §3 like_count counts them all).
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The reactions given at least once, with their counts, in [`Reaction::ALL`] order.
    pub fn given(&self) -> impl Iterator<Item = (Reaction, u64)> + '_ {
        Reaction::ALL
            .into_iter()
            .map(|r| (r, self.get(r)))
            .filter(|(_, n)| *n > 0)
    }
}

/// Why a write was refused (the caller's input, never the database).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The reader already has the most allowed of this kind.
    TooMany { limit: usize },
    /// A text longer than [`MAX_TEXT_CHARS`].
    TooLong { max_chars: usize },
    /// An empty (or all-blank) text.
    Empty,
    /// The same channel twice in one home-channel list.
    Duplicate,
}

/// What a write that may be refused did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub enum Outcome {
    /// Stored.
    Changed,
    /// Already so (idempotent repeat): nothing written.
    Unchanged,
    Refused(Refusal),
}

impl Outcome {
    pub fn changed(self) -> bool {
        self == Outcome::Changed
    }

    /// `Changed` or `Unchanged` from whether a row was written.
    pub fn from_changed(changed: bool) -> Outcome {
        if changed { Outcome::Changed } else { Outcome::Unchanged }
    }
}

/// A text a reader typed for a topic, mute or channel: trimmed, not empty, at most
/// [`MAX_TEXT_CHARS`]. Both engines store what this returns.
pub fn clean_text(value: &str) -> std::result::Result<&str, Refusal> {
    let value = value.trim();
    if value.is_empty() {
        Err(Refusal::Empty)
    } else if value.chars().count() > MAX_TEXT_CHARS {
        Err(Refusal::TooLong {
            max_chars: MAX_TEXT_CHARS,
        })
    } else {
        Ok(value)
    }
}

/// Home channels as they will be stored: each cleaned, no repeats, at most
/// [`MAX_CHANNELS`]; their order is their position.
pub fn clean_channels(channels: &[String]) -> std::result::Result<Vec<&str>, Refusal> {
    if channels.len() > MAX_CHANNELS {
        return Err(Refusal::TooMany { limit: MAX_CHANNELS });
    }
    let mut out: Vec<&str> = Vec::with_capacity(channels.len());
    for c in channels {
        let c = clean_text(c)?;
        if out.contains(&c) {
            return Err(Refusal::Duplicate);
        }
        out.push(c);
    }
    Ok(out)
}

/// The reader's things. Every call takes the reader's [`UserId`]; a reader who does not
/// exist has nothing (reads) and writes fail as database errors (the API only calls with
/// a live session's user). Times are UTC milliseconds.
#[async_trait]
pub trait ReaderThings: Send + Sync {
    // Saved stories (SPEC §7.5 collect / unCollect / collectList).

    /// Save a story; `true` when it was not saved yet (saving again keeps the first time).
    async fn save_news(&self, user: UserId, news: NewsId, now_ms: i64) -> Result<bool>;
    /// `true` when it was saved.
    async fn unsave_news(&self, user: UserId, news: NewsId) -> Result<bool>;
    /// Saved stories, newest save first.
    async fn saved_news(&self, user: UserId, page: Page) -> Result<Paged<SavedNews>>;
    /// Which of these stories the reader saved.
    async fn is_saved(&self, user: UserId, news: &[NewsId]) -> Result<HashSet<NewsId>>;
    /// Every story some reader saved (story retention keeps them, D414).
    async fn saved_by_anyone(&self) -> Result<HashSet<NewsId>>;

    // Reactions (SPEC §7.7 reactionList): one per reader per story.

    /// Set (or with `None` remove) the reader's reaction to a story; a new reaction
    /// replaces the old one and its time. `true` when something changed.
    async fn set_reaction(&self, user: UserId, news: NewsId, reaction: Option<Reaction>, now_ms: i64) -> Result<bool>;
    /// The reader's reactions, newest first.
    async fn reactions_of(&self, user: UserId, page: Page) -> Result<Paged<ReactionEntry>>;
    /// The reader's own reactions to these stories.
    async fn my_reactions(&self, user: UserId, news: &[NewsId]) -> Result<HashMap<NewsId, Reaction>>;
    /// The stories someone reacted to, or changed their reaction on, at or after `since_ms`
    /// (the ones whose public count may have changed since: D394).
    async fn reacted_since(&self, since_ms: i64) -> Result<Vec<NewsId>>;
    /// The reactions to these stories that `counting` lets count, per story (stories with
    /// none are absent).
    async fn reaction_counts(
        &self,
        news: &[NewsId],
        counting: &ReactionCounting,
    ) -> Result<HashMap<NewsId, ReactionCounts>>;

    // Reading history: once per story per UTC day.

    /// Note that the reader opened a story; `true` when it was the first time that day.
    async fn record_read(&self, user: UserId, news: NewsId, now_ms: i64) -> Result<bool>;
    /// The history, newest first (a story read on several days is listed once per day).
    async fn read_history(&self, user: UserId, page: Page) -> Result<Paged<ReadEntry>>;
    /// Remove a story from the history (every day it was read); `true` when it was there.
    async fn remove_read(&self, user: UserId, news: NewsId) -> Result<bool>;
    /// Empty the history; how many rows went.
    async fn clear_history(&self, user: UserId) -> Result<u64>;

    // Followed publishers (SPEC §3 follow_status / media_follow).

    /// Refused past [`MAX_FOLLOWS`].
    async fn follow_media(&self, user: UserId, media: MediaId, now_ms: i64) -> Result<Outcome>;
    async fn unfollow_media(&self, user: UserId, media: MediaId) -> Result<bool>;
    /// Every followed publisher, newest first (at most [`MAX_FOLLOWS`]).
    async fn followed_media(&self, user: UserId) -> Result<Vec<FollowedMedia>>;
    /// Which of these publishers the reader follows.
    async fn follows(&self, user: UserId, media: &[MediaId]) -> Result<HashSet<MediaId>>;

    // Blocked publishers (SPEC §7.10 blockList, §3 Blocked media): hidden everywhere.

    /// Refused past [`MAX_BLOCKS`]. Blocking again keeps the first time.
    async fn block_media(&self, user: UserId, media: MediaId, now_ms: i64) -> Result<Outcome>;
    async fn unblock_media(&self, user: UserId, media: MediaId) -> Result<bool>;
    /// Blocked publishers, newest block first.
    async fn blocked_media(&self, user: UserId, page: Page) -> Result<Paged<BlockedMedia>>;
    /// Every blocked publisher's id: what feeds filter by, on every listing (one index
    /// range read).
    async fn blocked_media_ids(&self, user: UserId) -> Result<HashSet<MediaId>>;

    // Followed topics (tags and categories).

    /// `value` is cleaned by [`clean_text`]; refused past [`MAX_TOPICS`].
    async fn follow_topic(&self, user: UserId, kind: TopicKind, value: &str, now_ms: i64) -> Result<Outcome>;
    async fn unfollow_topic(&self, user: UserId, kind: TopicKind, value: &str) -> Result<bool>;
    /// Every followed topic, newest first.
    async fn followed_topics(&self, user: UserId) -> Result<Vec<FollowedTopic>>;

    // Home channels: which tabs home shows, in order.

    /// Replace the list (cleaned by [`clean_channels`]); an empty list clears it (home
    /// then shows the defaults).
    async fn set_home_channels(&self, user: UserId, channels: &[String]) -> Result<Outcome>;
    /// The reader's channels in their order; empty when never set.
    async fn home_channels(&self, user: UserId) -> Result<Vec<String>>;

    // Mutes: keywords, tags and authors whose stories are hidden.

    /// `value` is cleaned by [`clean_text`]; refused past [`MAX_MUTES`].
    async fn add_mute(&self, user: UserId, kind: MuteKind, value: &str, now_ms: i64) -> Result<Outcome>;
    async fn remove_mute(&self, user: UserId, kind: MuteKind, value: &str) -> Result<bool>;
    /// Every mute, newest first.
    async fn mutes(&self, user: UserId) -> Result<Vec<Mute>>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_days_are_utc_days_since_1970() {
        assert_eq!(utc_day(0), 0);
        assert_eq!(utc_day(DAY_MS - 1), 0);
        assert_eq!(utc_day(DAY_MS), 1);
        assert_eq!(utc_day(-1), -1);
        // 2025-11-25T23:59:59.999Z and the next millisecond.
        assert_eq!(utc_day(1_764_115_199_999) + 1, utc_day(1_764_115_200_000));
    }

    #[test]
    fn kinds_round_trip_by_name() {
        for k in TopicKind::ALL {
            assert_eq!(TopicKind::parse(k.as_str()), Some(k));
        }
        for k in MuteKind::ALL {
            assert_eq!(MuteKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(TopicKind::parse("author"), None);
        assert_eq!(MuteKind::parse("category"), None);
    }

    #[test]
    fn cursor_tokens_round_trip_and_junk_is_refused() {
        let c = Cursor {
            at_ms: 1_764_000_000_123,
            id: 42,
        };
        assert_eq!(Cursor::parse_token(&c.token()), Some(c));
        for bad in ["", "12", "a_b", "1_", "_1", "1_2_3"] {
            assert_eq!(Cursor::parse_token(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_page_keeps_its_size_and_says_where_the_next_starts() {
        let rows: Vec<i64> = (0..4).collect();
        let cursor = |n: &i64| Cursor { at_ms: *n, id: *n };
        let page = Paged::from_rows(rows.clone(), 3, cursor);
        assert_eq!(page.items, [0, 1, 2]);
        assert_eq!(page.next, Some(Cursor { at_ms: 2, id: 2 }));
        let last = Paged::from_rows(rows, 4, cursor);
        assert_eq!(last.next, None);
        assert_eq!(Page::first(0).size(), 1);
        assert_eq!(Page::first(10_000).size(), MAX_PAGE);
    }

    #[test]
    fn texts_are_trimmed_and_bounded_and_channels_unique() {
        assert_eq!(clean_text("  rust "), Ok("rust"));
        assert_eq!(clean_text(" \t"), Err(Refusal::Empty));
        let long = "é".repeat(MAX_TEXT_CHARS + 1);
        assert_eq!(
            clean_text(&long),
            Err(Refusal::TooLong {
                max_chars: MAX_TEXT_CHARS
            })
        );
        assert!(clean_text(&"é".repeat(MAX_TEXT_CHARS)).is_ok());
        let ch = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(clean_channels(&ch(&["local", " top "])), Ok(vec!["local", "top"]));
        assert_eq!(clean_channels(&ch(&["local", "local "])), Err(Refusal::Duplicate));
        let many: Vec<String> = (0..=MAX_CHANNELS).map(|i| format!("c{i}")).collect();
        assert_eq!(clean_channels(&many), Err(Refusal::TooMany { limit: MAX_CHANNELS }));
    }

    #[test]
    fn counts_total_every_reaction() {
        let mut c = ReactionCounts::default();
        c.add(Reaction::Like, 2);
        c.add(Reaction::Sad, 1);
        assert_eq!(c.total(), 3);
        assert_eq!(c.given().collect::<Vec<_>>(), [(Reaction::Like, 2), (Reaction::Sad, 1)]);
    }
}
