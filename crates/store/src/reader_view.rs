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
use sha2::{Digest, Sha256};
use std::collections::HashSet;
use std::sync::{Arc, LazyLock};

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

    /// Whether the mute hides this story. `text` is the story's folded title and summary,
    /// made once per story by the caller (when a keyword first needs it).
    fn hides_with(&self, row: &NewsRow, text: &mut Option<StoryText>) -> bool {
        if self.folded.is_empty() {
            return false;
        }
        match self.kind {
            MuteKind::Keyword => text.get_or_insert_with(|| StoryText::of(row)).has_phrase(&self.folded),
            MuteKind::Tag => row.tags.iter().any(|t| fold(t) == self.folded),
            MuteKind::Author => fold(&row.author) == self.folded,
        }
    }

    pub fn hides(&self, row: &NewsRow) -> bool {
        self.hides_with(row, &mut None)
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

    fn words(&self) -> impl Iterator<Item = &str> + Clone {
        self.folded
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
    }

    /// Is `phrase` (folded words, space-separated) a run of whole words of the story?
    fn has_phrase(&self, phrase: &str) -> bool {
        let wanted: Vec<&str> = phrase.split_whitespace().collect();
        let Some(first) = wanted.first() else {
            return false;
        };
        let mut words = self.words();
        while words.by_ref().any(|w| w == *first) {
            if words.clone().take(wanted.len() - 1).eq(wanted[1..].iter().copied()) {
                return true;
            }
        }
        false
    }
}

/// A reader's view. [`ReaderView::none`] is everyone's who chose nothing.
#[derive(Debug, Default)]
pub struct ReaderView {
    blocked: HashSet<MediaId>,
    followed: HashSet<MediaId>,
    mutes: Vec<MuteRule>,
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
            fingerprint: String::new(),
        };
        view.mutes.sort();
        view.mutes.dedup();
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
        let mut words = None;
        self.mutes.iter().any(|m| m.hides_with(row, &mut words))
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
