//! What a reader has chosen that changes the public answers (D270): the publishers they
//! block and the keywords, tags and authors they mute (hidden from every list), and the
//! publishers they follow (`media_follow`, `follow_status`).
//!
//! Feeds, stories, search and pages are public answers kept by key (D140, D143, D145).
//! A reader with a view gets answers made for that view and kept under the request's key
//! plus the view's fingerprint, so readers who chose the same things share them, and a
//! reader who chose nothing shares everyone's. The API keeps views briefly by the token
//! they came with (`api::viewer`); the notifier reads them fresh ([`view_of`]).

use crate::content::{MediaId, NewsRow};
use crate::things::MuteKind;
use crate::{Store, UserId};
use domain::text::{fold, fold_into};
use rustc_hash::{FxHashMap, FxHashSet};
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, LazyLock};

/// A new view's guess of the share of stories it hides, in thousandths (D446).
const FIRST_HIDDEN_SHARE: u32 = 333;

/// One mute, folded once (accents and case): a keyword is a phrase of whole words of a
/// story's title or summary, a tag one of its tags, an author its author.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MuteRule {
    kind: MuteKind,
    folded: String,
}

impl MuteRule {
    pub fn new(kind: MuteKind, value: &str) -> MuteRule {
        MuteRule {
            kind,
            folded: fold(value.trim()),
        }
    }

    /// Whether this one mute hides the story (a mute about to be added counts what it
    /// would hide).
    pub fn hides(&self, row: &NewsRow) -> bool {
        Mutes::of(std::slice::from_ref(self)).hide(row)
    }
}

/// A view's mutes made ready to check many stories (D446): keyword phrases by their
/// first word, tags and authors in sets, so a story is folded and split into words once
/// however many mutes there are (checking each mute against the story's words in turn
/// was a quarter of a muting reader's list, perf).
#[derive(Debug, Default)]
struct Mutes {
    /// A phrase's first word → the words that must follow it, one list per phrase.
    phrases: FxHashMap<String, Vec<Vec<String>>>,
    tags: FxHashSet<String>,
    authors: FxHashSet<String>,
}

impl Mutes {
    fn of(rules: &[MuteRule]) -> Mutes {
        let mut mutes = Mutes::default();
        for rule in rules.iter().filter(|r| !r.folded.is_empty()) {
            match rule.kind {
                MuteKind::Keyword => {
                    let mut words = rule.folded.split_whitespace().map(str::to_string);
                    if let Some(first) = words.next() {
                        mutes.phrases.entry(first).or_default().push(words.collect());
                    }
                }
                MuteKind::Tag => {
                    mutes.tags.insert(rule.folded.clone());
                }
                MuteKind::Author => {
                    mutes.authors.insert(rule.folded.clone());
                }
            }
        }
        mutes
    }

    fn is_empty(&self) -> bool {
        self.phrases.is_empty() && self.tags.is_empty() && self.authors.is_empty()
    }

    fn hide(&self, row: &NewsRow) -> bool {
        if !self.authors.is_empty() && self.authors.contains(&fold(&row.author)) {
            return true;
        }
        if !self.tags.is_empty() && row.tags.iter().any(|t| self.tags.contains(&fold(t))) {
            return true;
        }
        if self.phrases.is_empty() {
            return false;
        }
        let text = StoryText::of(row);
        let words: Vec<&str> = text.words().collect();
        words.iter().enumerate().any(|(i, word)| {
            self.phrases.get(*word).is_some_and(|phrases| {
                let after = &words[i + 1..];
                phrases
                    .iter()
                    .any(|rest| after.len() >= rest.len() && after.iter().zip(rest).all(|(a, b)| *a == b))
            })
        })
    }
}

/// A story's title and summary folded once, in one string (a keyword mute checks every
/// story a reader's list reads: a `String` per word was a tenth of such a read, perf).
struct StoryText {
    folded: String,
}

impl StoryText {
    fn of(row: &NewsRow) -> StoryText {
        let mut folded = String::with_capacity(row.title.len() + row.summary.len() + 1);
        fold_into(&row.title, &mut folded);
        folded.push(' ');
        fold_into(&row.summary, &mut folded);
        StoryText { folded }
    }

    /// Its whole words: runs of letters and digits.
    fn words(&self) -> impl Iterator<Item = &str> {
        self.folded
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    }
}

/// A reader's view. [`ReaderView::none`] is everyone's who chose nothing.
#[derive(Debug, Default)]
pub struct ReaderView {
    blocked: HashSet<MediaId>,
    followed: HashSet<MediaId>,
    mutes: Vec<MuteRule>,
    /// `mutes`, ready to check stories against.
    muting: Mutes,
    /// Of the stories lists read for this view lately, the share it hid, in thousandths:
    /// how many spare rows its next page reads (D446). It sizes reads, never answers.
    hidden_share: AtomicU32,
    /// Empty for a view that changes nothing; else a digest of what it holds.
    fingerprint: String,
}

static NONE: LazyLock<Arc<ReaderView>> = LazyLock::new(|| Arc::new(ReaderView::default()));

impl ReaderView {
    pub fn none() -> Arc<ReaderView> {
        NONE.clone()
    }

    pub fn new(blocked: HashSet<MediaId>, followed: HashSet<MediaId>, mutes: Vec<MuteRule>) -> ReaderView {
        let mut view = ReaderView {
            blocked,
            followed,
            mutes,
            muting: Mutes::default(),
            hidden_share: AtomicU32::new(FIRST_HIDDEN_SHARE),
            fingerprint: String::new(),
        };
        view.mutes.sort();
        view.mutes.dedup();
        view.muting = Mutes::of(&view.mutes);
        if !view.blocked.is_empty() || !view.followed.is_empty() || !view.mutes.is_empty() {
            view.fingerprint = view.digest();
        }
        view
    }

    fn digest(&self) -> String {
        let sorted = |set: &HashSet<MediaId>| {
            let mut ids: Vec<i64> = set.iter().map(|m| m.0).collect();
            ids.sort_unstable();
            ids
        };
        let mut h = Sha256::new();
        for (label, ids) in [("b", sorted(&self.blocked)), ("f", sorted(&self.followed))] {
            h.update(label);
            for id in ids {
                h.update(id.to_le_bytes());
            }
        }
        for m in &self.mutes {
            h.update([b'm', m.kind as u8]);
            h.update(m.folded.len().to_le_bytes());
            h.update(&m.folded);
        }
        hex::encode(&h.finalize()[..16])
    }

    /// `""` when the view changes nothing, so such readers share the public answers.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// The share of stories this view hid in the lists read for it lately, in thousandths
    /// (a third until a list has been read for it).
    pub fn hidden_share(&self) -> u32 {
        self.hidden_share.load(Ordering::Relaxed)
    }

    /// A list read `read` stories for this view and it hid `hidden` of them: the share
    /// moves a quarter of the way there. (Two pages counted at once may lose one count;
    /// the share only sizes reads.)
    pub fn saw(&self, read: usize, hidden: usize) {
        if read == 0 || self.hides_nothing() {
            return;
        }
        let now = (hidden.min(read) * 1000 / read) as u32;
        let before = self.hidden_share();
        self.hidden_share
            .store((before * 3 + now).div_ceil(4), Ordering::Relaxed);
    }

    /// Does the view hide nothing (it may still mark follows)?
    pub fn hides_nothing(&self) -> bool {
        self.blocked.is_empty() && self.mutes.is_empty()
    }

    pub fn blocks(&self, media: MediaId) -> bool {
        self.blocked.contains(&media)
    }

    pub fn follows(&self, media: MediaId) -> bool {
        self.followed.contains(&media)
    }

    /// SPEC §3 `follow_status` (and an item's `media_follow`): 1 followed, 0 not.
    pub fn follow_status(&self, media: MediaId) -> i32 {
        i32::from(self.follows(media))
    }

    /// A story from a blocked publisher, or one a mute covers.
    pub fn hides(&self, row: &NewsRow) -> bool {
        if self.blocks(row.media_id) {
            return true;
        }
        !self.muting.is_empty() && self.muting.hide(row)
    }
}

/// A reader's view read from the store, unkept: for work with no request behind it (the
/// notifier, D311), which must see a block or mute the moment it is stored.
pub async fn view_of(store: &dyn Store, user: UserId) -> crate::Result<ReaderView> {
    let blocked = store.blocked_media_ids(user).await?;
    let followed = store
        .followed_media(user)
        .await?
        .into_iter()
        .map(|f| f.media_id)
        .collect();
    let mutes = store
        .mutes(user)
        .await?
        .into_iter()
        .map(|m| MuteRule::new(m.kind, &m.value))
        .collect();
    Ok(ReaderView::new(blocked, followed, mutes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row() -> NewsRow {
        NewsRow {
            media_id: MediaId(7),
            title: "Route 1 closed".into(),
            summary: "Crews work through the night.".into(),
            tags: vec!["Winter Storm".into()],
            author: "Amélie Roy".into(),
            ..NewsRow::default()
        }
    }

    #[test]
    fn a_mute_hides_whole_words_tags_and_authors_folded() {
        let r = row();
        assert!(
            MuteRule::new(MuteKind::Keyword, "route 1").hides(&r),
            "a phrase of whole words"
        );
        assert!(
            MuteRule::new(MuteKind::Keyword, "NIGHT").hides(&r),
            "in the summary, any case"
        );
        assert!(
            !MuteRule::new(MuteKind::Keyword, "rout").hides(&r),
            "not part of a word"
        );
        assert!(MuteRule::new(MuteKind::Tag, "winter storm").hides(&r));
        assert!(!MuteRule::new(MuteKind::Tag, "winter").hides(&r), "a whole tag");
        assert!(
            MuteRule::new(MuteKind::Author, "amelie roy").hides(&r),
            "accents folded"
        );
        assert!(
            !MuteRule::new(MuteKind::Keyword, "  ").hides(&r),
            "an empty mute hides nothing"
        );
    }

    #[test]
    fn a_keyword_phrase_is_found_at_any_of_its_first_words_places_and_across_title_and_summary() {
        let r = NewsRow {
            title: "Le pont de Montréal l’emporte".into(),
            summary: "Le pont ferme. Un pont neuf, puis le pont de Laval.".into(),
            ..NewsRow::default()
        };
        let hides = |phrase: &str| MuteRule::new(MuteKind::Keyword, phrase).hides(&r);
        assert!(hides("pont de laval"), "the fourth 'pont' starts the phrase");
        assert!(hides("pont neuf"));
        assert!(hides("montreal"), "accents folded");
        assert!(hides("l'emporte"), "an apostrophe as the reader types it");
        assert!(
            hides("lemporte le pont"),
            "the title's last word, then the summary's first"
        );
        assert!(!hides("pont de quebec"));
        assert!(!hides("neuf pont"), "the words in their order");
        assert!(!hides("laval ville"), "a phrase past the last word");
    }

    /// Each mute on its own over the story's words, as before D446: the reference the
    /// view's matcher must agree with.
    fn one_by_one(rules: &[MuteRule], row: &NewsRow) -> bool {
        rules.iter().filter(|r| !r.folded.is_empty()).any(|r| match r.kind {
            MuteKind::Keyword => {
                let wanted: Vec<&str> = r.folded.split_whitespace().collect();
                let text = StoryText::of(row);
                let words: Vec<&str> = text.words().collect();
                !wanted.is_empty() && words.windows(wanted.len()).any(|w| w == wanted.as_slice())
            }
            MuteKind::Tag => row.tags.iter().any(|t| fold(t) == r.folded),
            MuteKind::Author => fold(&row.author) == r.folded,
        })
    }

    #[test]
    fn d446_a_views_mutes_hide_exactly_what_its_mutes_would_hide_one_by_one() {
        // Few words, so phrases share first words and stories hold parts of phrases.
        let vocab = [
            "le",
            "pont",
            "de",
            "Montréal",
            "l’emporte",
            "route",
            "1",
            "NIGHT",
            "crews",
            "Amélie",
            "Roy",
            "storm",
        ];
        fn next(seed: &mut u64, n: usize) -> usize {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            (*seed % n as u64) as usize
        }
        let words = |seed: &mut u64, most: usize, sep: &str| {
            let n = next(seed, most + 1);
            (0..n)
                .map(|_| vocab[next(seed, vocab.len())])
                .collect::<Vec<_>>()
                .join(sep)
        };
        let seed = &mut 0x2545_f491_4f6c_dd1du64;
        let (mut hidden, mut shown) = (0, 0);
        for _ in 0..3_000 {
            let row = NewsRow {
                title: words(seed, 6, " "),
                summary: words(seed, 8, ", "),
                tags: (0..next(seed, 3)).map(|_| words(seed, 2, " ")).collect(),
                author: words(seed, 2, " "),
                ..NewsRow::default()
            };
            let rules: Vec<MuteRule> = (0..1 + next(seed, 5))
                .map(|_| {
                    let kind = [MuteKind::Keyword, MuteKind::Keyword, MuteKind::Tag, MuteKind::Author][next(seed, 4)];
                    MuteRule::new(kind, &words(seed, 3, " "))
                })
                .collect();
            let view = ReaderView::new(HashSet::new(), HashSet::new(), rules.clone());
            let expected = one_by_one(&rules, &row);
            assert_eq!(view.hides(&row), expected, "{rules:?} on {row:?}");
            for rule in &rules {
                assert_eq!(
                    rule.hides(&row),
                    one_by_one(std::slice::from_ref(rule), &row),
                    "{rule:?} on {row:?}"
                );
            }
            if expected { hidden += 1 } else { shown += 1 }
        }
        assert!(
            hidden > 300 && shown > 300,
            "both answers are tried: {hidden} hidden, {shown} shown"
        );
    }

    #[test]
    fn d446_a_views_hidden_share_follows_what_its_lists_hid() {
        let view = ReaderView::new(HashSet::from([MediaId(1)]), HashSet::new(), vec![]);
        assert_eq!(view.hidden_share(), FIRST_HIDDEN_SHARE);
        for _ in 0..30 {
            view.saw(100, 10);
        }
        assert!((100..=104).contains(&view.hidden_share()), "{}", view.hidden_share());
        view.saw(0, 0);
        assert!(
            (100..=104).contains(&view.hidden_share()),
            "nothing read changes nothing"
        );
        for _ in 0..30 {
            view.saw(40, 40);
        }
        assert!(view.hidden_share() >= 990, "{}", view.hidden_share());
        let follows_only = ReaderView::new(HashSet::new(), HashSet::from([MediaId(1)]), vec![]);
        follows_only.saw(10, 10);
        assert_eq!(
            follows_only.hidden_share(),
            FIRST_HIDDEN_SHARE,
            "a view that hides nothing"
        );
    }

    #[test]
    fn d270_a_view_hides_blocked_publishers_and_muted_stories() {
        let r = row();
        assert!(!ReaderView::none().hides(&r));
        let blocked = ReaderView::new(HashSet::from([MediaId(7)]), HashSet::new(), vec![]);
        assert!(blocked.hides(&r) && blocked.blocks(MediaId(7)));
        let muted = ReaderView::new(
            HashSet::new(),
            HashSet::new(),
            vec![MuteRule::new(MuteKind::Keyword, "crews")],
        );
        assert!(muted.hides(&r));
        let follows = ReaderView::new(HashSet::new(), HashSet::from([MediaId(7)]), vec![]);
        assert!(!follows.hides(&r) && follows.follows(MediaId(7)) && follows.hides_nothing());
    }

    #[test]
    fn d270_the_fingerprint_is_empty_for_nothing_and_the_same_for_the_same_choices() {
        assert_eq!(ReaderView::none().fingerprint(), "");
        assert_eq!(
            ReaderView::new(HashSet::new(), HashSet::new(), vec![]).fingerprint(),
            ""
        );
        let a = ReaderView::new(
            HashSet::from([MediaId(1), MediaId(2)]),
            HashSet::new(),
            vec![MuteRule::new(MuteKind::Tag, "A"), MuteRule::new(MuteKind::Keyword, "b")],
        );
        let b = ReaderView::new(
            HashSet::from([MediaId(2), MediaId(1)]),
            HashSet::new(),
            vec![MuteRule::new(MuteKind::Keyword, "B"), MuteRule::new(MuteKind::Tag, "a")],
        );
        assert_eq!(a.fingerprint(), b.fingerprint(), "order and case do not matter");
        let blocked = ReaderView::new(HashSet::from([MediaId(1)]), HashSet::new(), vec![]);
        let followed = ReaderView::new(HashSet::new(), HashSet::from([MediaId(1)]), vec![]);
        assert_ne!(
            blocked.fingerprint(),
            followed.fingerprint(),
            "blocking is not following"
        );
        assert_eq!(blocked.fingerprint().len(), 32);
    }
}
