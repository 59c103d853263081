//! Near-duplicate story clustering: the same event told by different publishers, in en,
//! es or fr, joins one story cluster ("full coverage"), and [`is_hot`] says which
//! clusters are news right now.
//!
//! A [`Signature`] is the set of an item's *terms*: the title and summary accent-folded,
//! lowercased, split into words, stopwords (of the item's language and English,
//! `domain::text::story_stop_words`) dropped,
//! each word cut to its first [`STEM_LEN`] letters (a light stemmer that also meets across
//! languages: "operators"/"operadores", "Montréal"/"montréalais"), with weekdays, months
//! and small number words mapped to language-neutral forms ("Monday" = "lunes" = "lundi",
//! "three" = "tres" = "trois") and numbers kept whole ("2,000" = "2000"). Capitalised
//! words that are not just starting a sentence, and numbers, are *anchors* (names,
//! places, amounts): they weigh [`ANCHOR_WEIGHT`] times a plain word, because they are
//! what different publishers and languages keep when they tell the same event.
//!
//! Titles and summaries are short (≤ 300 characters of summary, SPEC §3), so the
//! signature keeps the term set itself, as sorted 32-bit hashes (at most [`MAX_TERMS`]),
//! rather than a MinHash sketch: it is smaller than a useful sketch (4 bytes a term, about
//! 30 terms an item), and the similarity is exact instead of estimated. [`similarity`] is a
//! weighted Dice coefficient over the two sets; [`Signature::keys`] gives the anchor
//! hashes, which a store can index to fetch only candidates that share one (every pair
//! [`same_story`] accepts shares an anchor).

use domain::ids::CityId;
use domain::text::{fold_letter_into, story_stop_words};

mod window;
#[cfg(test)]
pub(crate) use window::numbered;
pub use window::{Entry as WindowEntry, Window};

/// Words are cut to this many letters (after folding).
pub const STEM_LEN: usize = 6;
/// A term's weight when it is an anchor (name, place, number) in either item.
pub const ANCHOR_WEIGHT: f32 = 2.0;
/// At most this many terms are kept (title first, then summary, in order).
pub const MAX_TERMS: usize = 64;
/// [`same_story`] holds at this [`similarity`] or more (and with a shared anchor).
pub const SAME_STORY: f32 = 0.24;
/// Two items from the same publisher need this much: a paper's follow-up joins its own
/// story only when it is plainly the same, so a busy outlet cannot chain its own
/// unrelated local items into one cluster.
pub const SAME_PUBLISHER: f32 = 0.8;
/// Candidates further apart in publish time than this are never the same story.
pub const WINDOW_MS: i64 = 72 * 3_600_000;

const VERSION: u8 = 1;
const ANCHOR_BIT: u32 = 1;

/// An item's term set: sorted hashes, the low bit marking an anchor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Signature {
    terms: Vec<u32>,
}

/// Why bytes are not a signature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("signature bytes are empty")]
    Empty,
    #[error("signature version {0} is not known (this build reads version {VERSION})")]
    Version(u8),
    #[error("signature length {0} is not 1 + 4·n bytes")]
    Length(usize),
}

impl Signature {
    /// `[version][u32 little-endian]*`, for a BLOB/BYTEA column (about 120 bytes an item).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(1 + 4 * self.terms.len());
        out.push(VERSION);
        for t in &self.terms {
            out.extend_from_slice(&t.to_le_bytes());
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Signature, SignatureError> {
        let (&version, rest) = bytes.split_first().ok_or(SignatureError::Empty)?;
        if version != VERSION {
            return Err(SignatureError::Version(version));
        }
        if rest.len() % 4 != 0 {
            return Err(SignatureError::Length(bytes.len()));
        }
        let mut terms: Vec<u32> = rest
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        // Stored bytes are sorted already; make sure a hand-made or damaged one still compares right.
        if !terms.windows(2).all(|w| w[0] >> 1 < w[1] >> 1) {
            normalise(&mut terms);
        }
        Ok(Signature { terms })
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Blocking keys: the anchors' hashes. Two items [`same_story`] accepts always share
    /// one, so a store may index these and compare an item only with items sharing a key.
    pub fn keys(&self) -> impl Iterator<Item = u32> + '_ {
        self.terms.iter().filter(|t| *t & ANCHOR_BIT != 0).map(|t| t >> 1)
    }
}

/// Sort by term, merge duplicates (anchor if any copy is one).
fn normalise(terms: &mut Vec<u32>) {
    terms.sort_unstable();
    terms.dedup_by(|later, kept| {
        if *later >> 1 == *kept >> 1 {
            *kept |= *later & ANCHOR_BIT;
            true
        } else {
            false
        }
    });
}

/// The signature of an item from its title and summary (plain text) and language code.
pub fn signature(title: &str, summary: &str, lang: &str) -> Signature {
    let stop = story_stop_words(lang);
    let mut terms: Vec<u32> = Vec::with_capacity(48);
    let mut buf = String::with_capacity(title.len() + summary.len());
    let mut words: Vec<Word> = Vec::with_capacity(64);
    for (text_no, text) in [title, summary].into_iter().enumerate() {
        let shouting = is_shouting(text);
        let mut tok = Tokens::new(text);
        loop {
            let start = buf.len();
            let Some(mut t) = tok.next(&mut buf) else { break };
            t.capital &= !shouting;
            let folded = &buf[start..];
            let stop = !t.number && (folded.len() < 2 || stop.contains(folded));
            words.push(Word {
                start,
                end: buf.len(),
                text_no,
                token: t,
                stop,
            });
        }
    }
    let text = |w: &Word| &buf[w.start..w.end];
    // A capitalised word at the start of a sentence is a name when it is capitalised again.
    let capitalised_twice = |w: &Word| words.iter().filter(|v| v.token.capital && text(v) == text(w)).count() > 1;
    let mut i = 0;
    while i < words.len() && terms.len() < MAX_TERMS {
        let w = &words[i];
        i += 1;
        if w.token.number {
            terms.push(term(hash(text(w).as_bytes()), true));
            continue;
        }
        if let Some(canon) = canonical(text(w)) {
            terms.push(term(hash(canon.as_bytes()), canon.starts_with('#')));
            continue;
        }
        if w.stop {
            continue;
        }
        if !w.token.capital {
            terms.push(term(hash(stem(text(w)).as_bytes()), false));
            continue;
        }
        // A run of capitalised words ("Coconut Grove", "Toronto Public Health") is one name.
        let mut end = i;
        while end < words.len() && end - i < MAX_NAME_WORDS - 1 {
            let v = &words[end];
            if v.text_no != w.text_no || !v.token.capital || v.token.sentence_start || v.token.number || v.stop {
                break;
            }
            end += 1;
        }
        let mut h = hash(stem(text(w)).as_bytes());
        for v in &words[i..end] {
            h = hash_more(hash_more(h, b" "), stem(text(v)).as_bytes());
        }
        let anchor = end > i || !w.token.sentence_start || capitalised_twice(w);
        terms.push(term(h, anchor));
        i = end;
    }
    normalise(&mut terms);
    Signature { terms }
}

/// Mostly capitals ("CITY COUNCIL VOTES"): capitals then say nothing about names.
fn is_shouting(text: &str) -> bool {
    let (mut upper, mut lower) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        if c.is_uppercase() {
            upper += 1;
        } else {
            lower += 1;
        }
    }
    upper > 3 * lower.max(1)
}

/// At most this many capitalised words make one name.
const MAX_NAME_WORDS: usize = 4;

struct Word {
    start: usize,
    end: usize,
    text_no: usize,
    token: Token,
    stop: bool,
}

fn term(hash: u32, anchor: bool) -> u32 {
    hash & !ANCHOR_BIT | u32::from(anchor)
}

/// Weighted Dice coefficient of the two term sets, 0.0–1.0: twice the weight they share
/// over the weight of both, a term weighing [`ANCHOR_WEIGHT`] when it is an anchor in
/// either item and 1 otherwise.
pub fn similarity(a: &Signature, b: &Signature) -> f32 {
    overlap(a, b, |_| 1.0).similarity
}

fn weight(t: u32) -> f32 {
    if t & ANCHOR_BIT != 0 { ANCHOR_WEIGHT } else { 1.0 }
}

/// A shared term's weight: an anchor (on either side) weighs [`ANCHOR_WEIGHT`] scaled by
/// `discount`, never less than a plain word. Above 1 it still counts as a shared anchor
/// (D152).
fn shared_weight(anchor: bool, discount: f32) -> f32 {
    if anchor {
        (ANCHOR_WEIGHT * discount).max(1.0)
    } else {
        1.0
    }
}

/// How two items overlap: weighted Dice, shared anchors, shared terms.
#[derive(Debug, Clone, Copy)]
struct Overlap {
    similarity: f32,
    anchors: usize,
    terms: usize,
}

impl Overlap {
    fn passes(&self, bar: f32) -> bool {
        self.similarity >= bar && self.anchors > 0 && self.terms >= MIN_SHARED_TERMS
    }
}

/// [`same_story`] also needs this many shared terms: one shared city alone is not a story.
pub const MIN_SHARED_TERMS: usize = 2;

/// `discount` scales a shared anchor's weight (never below a plain word's); it gets the
/// term's hash.
fn overlap(a: &Signature, b: &Signature, discount: impl Fn(u32) -> f32) -> Overlap {
    overlap_with(a, b, |i| discount(a.terms[i] >> 1))
}

/// [`overlap`] with the discount looked up by the index of the term in `a`.
fn overlap_with(a: &Signature, b: &Signature, discount: impl Fn(usize) -> f32) -> Overlap {
    let wa: f32 = a.terms.iter().map(|&t| weight(t)).sum();
    let wb: f32 = b.terms.iter().map(|&t| weight(t)).sum();
    overlap_weighed(a, b, wa, wb, discount)
}

/// [`overlap_with`] given each side's total weight (summed as there).
fn overlap_weighed(a: &Signature, b: &Signature, wa: f32, wb: f32, discount: impl Fn(usize) -> f32) -> Overlap {
    let (mut i, mut j, mut shared, mut anchors, mut terms) = (0, 0, 0.0f32, 0usize, 0usize);
    // A shared term counts with one weight on both sides (the larger, discounted): adjust the totals.
    let mut extra = 0.0f32;
    while i < a.terms.len() && j < b.terms.len() {
        let (x, y) = (a.terms[i], b.terms[j]);
        match (x >> 1).cmp(&(y >> 1)) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let w = shared_weight((x | y) & ANCHOR_BIT != 0, discount(i));
                shared += w;
                extra += 2.0 * w - weight(x) - weight(y);
                // An anchor so common in the window that it weighs as a plain word is one
                // (a city every local story names, a weekday): it cannot make two items
                // one story (D152).
                anchors += usize::from(w > 1.0);
                terms += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let total = wa + wb + extra;
    let similarity = if total > 0.0 { 2.0 * shared / total } else { 0.0 };
    Overlap {
        similarity,
        anchors,
        terms,
    }
}

/// The same event: [`similarity`] ≥ [`SAME_STORY`], at least one shared anchor (a name,
/// place or number), so that two items made of the same common words alone ("council
/// approves new plan") are not one story, and at least [`MIN_SHARED_TERMS`] shared terms.
pub fn same_story(a: &Signature, b: &Signature) -> bool {
    overlap(a, b, |_| 1.0).passes(SAME_STORY)
}

/// An already stored item that a new one may join.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub news_id: i64,
    pub cluster_id: i64,
    pub media_id: i64,
    pub publish_time_ms: i64,
    pub signature: Signature,
    /// GeoNames ids of the cities the item is about (its area_list); may be empty.
    pub cities: Vec<CityId>,
}

/// Two items placed in different states or provinces are different stories, however
/// alike their words: "Miami school board debates later start times" and "Boston school
/// board debates later start times" share everything but the place. Items without places
/// never conflict.
pub fn places_conflict(a: &[CityId], b: &[CityId]) -> bool {
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let region = |id: &CityId| geo::by_id(*id).map(|c| (c.iso, c.admin_code));
    let ra: Vec<_> = a.iter().filter_map(region).collect();
    let rb: Vec<_> = b.iter().filter_map(region).collect();
    !ra.is_empty() && !rb.is_empty() && !ra.iter().any(|r| rb.contains(r))
}

/// The thresholds [`assign`] applies; [`Rules::default`] holds the documented constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    /// Similarity for items from different publishers ([`SAME_STORY`]).
    pub same_story: f32,
    /// Similarity for items from the same publisher ([`SAME_PUBLISHER`]).
    pub same_publisher: f32,
    /// Largest publish-time distance, either side ([`WINDOW_MS`]).
    pub window_ms: i64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            same_story: SAME_STORY,
            same_publisher: SAME_PUBLISHER,
            window_ms: WINDOW_MS,
        }
    }
}

/// The cluster a new item joins, or `None` for a new cluster of its own, under
/// [`Rules::default`].
///
/// Only candidates within [`WINDOW_MS`] of its publish time (either side: feeds arrive
/// out of order) are considered. A candidate from another publisher counts when
/// [`same_story`] holds; one from the same publisher only at [`SAME_PUBLISHER`] or more
/// (and a shared anchor). In this comparison a shared anchor weighs less the more distinct
/// clusters in the window carry it ([`rarity`]: a city every local story names counts less
/// than a company only one story names), and one that 3 or more stories carry
/// weighs as a plain word and is no longer a shared anchor (D152).
/// The item joins the cluster of its most similar qualifying
/// candidate (ties: the smaller, i.e. older, cluster id), single-link style; clusters
/// never merge later, so an item's cluster id is stable once stored.
pub fn assign(new: &Signature, media_id: i64, publish_time_ms: i64, candidates: &[Candidate]) -> Option<i64> {
    Rules::default().assign(new, media_id, publish_time_ms, &[], candidates)
}

impl Rules {
    /// [`assign`] with these thresholds.
    pub fn assign(
        &self,
        new: &Signature,
        media_id: i64,
        publish_time_ms: i64,
        cities: &[CityId],
        candidates: &[Candidate],
    ) -> Option<i64> {
        self.assign_among(new, media_id, publish_time_ms, cities, candidates.iter())
    }

    /// [`Rules::assign`] over any set of candidates (the brute-force definition that
    /// [`Window::assign`] answers without comparing them all).
    pub fn assign_among<'a, I>(
        &self,
        new: &Signature,
        media_id: i64,
        publish_time_ms: i64,
        cities: &[CityId],
        candidates: I,
    ) -> Option<i64>
    where
        I: Iterator<Item = &'a Candidate> + Clone,
    {
        let in_window = |c: &&Candidate| (c.publish_time_ms - publish_time_ms).abs() <= self.window_ms;
        // How many distinct clusters in the window carry each of the new item's anchors.
        let mut seen: Vec<(usize, i64)> = Vec::new();
        for c in candidates.clone().filter(in_window) {
            shared_terms(new, &c.signature, |i| seen.push((i, c.cluster_id)));
        }
        seen.sort_unstable();
        seen.dedup();
        let mut clusters = vec![0u32; new.terms.len()];
        for (i, _) in seen {
            clusters[i] += 1;
        }
        let discount = |t: u32| match new.terms.binary_search_by_key(&t, |x| x >> 1) {
            Ok(i) => rarity(clusters[i]),
            Err(_) => 1.0,
        };
        let mut best: Option<(f32, i64)> = None;
        for c in candidates.filter(in_window) {
            if places_conflict(cities, &c.cities) {
                continue;
            }
            let o = overlap(new, &c.signature, discount);
            let bar = if c.media_id == media_id {
                self.same_publisher
            } else {
                self.same_story
            };
            if !o.passes(bar) {
                continue;
            }
            let s = o.similarity;
            let better = match best {
                None => true,
                Some((bs, bid)) => s > bs || (s == bs && c.cluster_id < bid),
            };
            if better {
                best = Some((s, c.cluster_id));
            }
        }
        best.map(|(_, id)| id)
    }
}

/// An anchor's weight factor when `clusters` distinct stories in the window carry it:
/// 1 for one, falling as 1 / (1 + ln n), so a city every local story names ("Houston")
/// weighs less than a name only one story has ("Veritrace").
fn rarity(clusters: u32) -> f32 {
    1.0 / (1.0 + (clusters.max(1) as f32).ln())
}

/// Calls `f` with the index (in `a`) of every term `b` shares.
fn shared_terms(a: &Signature, b: &Signature, mut f: impl FnMut(usize)) {
    let (mut i, mut j) = (0, 0);
    while i < a.terms.len() && j < b.terms.len() {
        match (a.terms[i] >> 1).cmp(&(b.terms[j] >> 1)) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                f(i);
                i += 1;
                j += 1;
            }
        }
    }
}

/// A cluster counts as covered widely from this many distinct publishers.
pub const HOT_PUBLISHERS: usize = 3;
/// The score halves every this many hours after the cluster's newest item.
pub const HOT_HALF_LIFE_H: f64 = 24.0;
/// A further item from a publisher already counted adds this much (follow-ups matter a little).
pub const HOT_REPEAT_WEIGHT: f64 = 0.25;
/// [`is_hot`] needs at least this score: three publishers stay hot for one half-life (24 h),
/// six for two (48 h).
pub const HOT_MIN_SCORE: f64 = HOT_PUBLISHERS as f64 / 2.0;

/// How much a cluster is news right now: distinct publishers (plus
/// [`HOT_REPEAT_WEIGHT`] for each further item) halved every [`HOT_HALF_LIFE_H`] hours
/// since its newest item. A newest item in the future counts as now.
pub fn hot_score(cluster_size: usize, distinct_publishers: usize, newest_publish_ms: i64, now_ms: i64) -> f64 {
    let publishers = distinct_publishers.min(cluster_size);
    let weight = publishers as f64 + HOT_REPEAT_WEIGHT * (cluster_size - publishers) as f64;
    let age_h = (now_ms - newest_publish_ms).max(0) as f64 / 3_600_000.0;
    weight * 0.5f64.powf(age_h / HOT_HALF_LIFE_H)
}

/// Hot: at least [`HOT_PUBLISHERS`] distinct publishers and a [`hot_score`] of at least
/// [`HOT_MIN_SCORE`] (three publishers: hot for 24 hours after the newest item).
pub fn is_hot(cluster_size: usize, distinct_publishers: usize, newest_publish_ms: i64, now_ms: i64) -> bool {
    distinct_publishers.min(cluster_size) >= HOT_PUBLISHERS
        && hot_score(cluster_size, distinct_publishers, newest_publish_ms, now_ms) >= HOT_MIN_SCORE
}

// ---------------------------------------------------------------------------------------
// Text

/// FNV-1a, 32 bits: stable across builds and platforms (signatures are stored).
fn hash(bytes: &[u8]) -> u32 {
    hash_more(0x811c_9dc5, bytes)
}

fn hash_more(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The first [`STEM_LEN`] letters (the folded word is ASCII or close to it), with an
/// English/Romance plural "s" dropped first from shorter words.
fn stem(word: &str) -> &str {
    let w = if word.len() > 3 && word.len() <= STEM_LEN + 1 && word.ends_with('s') && !word.ends_with("ss") {
        &word[..word.len() - 1]
    } else {
        word
    };
    match w.char_indices().nth(STEM_LEN) {
        Some((i, _)) => &w[..i],
        None => w,
    }
}

/// Language-neutral forms: weekdays, months, small numbers and scale words.
fn canonical(word: &str) -> Option<&'static str> {
    Some(match word {
        "monday" | "lunes" | "lundi" => "@mon",
        "tuesday" | "martes" | "mardi" => "@tue",
        "wednesday" | "miercoles" | "mercredi" => "@wed",
        "thursday" | "jueves" | "jeudi" => "@thu",
        "friday" | "viernes" | "vendredi" => "@fri",
        "saturday" | "sabado" | "samedi" => "@sat",
        "sunday" | "domingo" | "dimanche" => "@sun",
        "january" | "enero" | "janvier" => "@jan",
        "february" | "febrero" | "fevrier" => "@feb",
        "march" | "marzo" | "mars" => "@mar",
        "april" | "abril" | "avril" => "@apr",
        "june" | "junio" | "juin" => "@jun",
        "july" | "julio" | "juillet" => "@jul",
        "august" | "agosto" | "aout" => "@aug",
        "september" | "septiembre" | "septembre" => "@sep",
        "october" | "octubre" | "octobre" => "@oct",
        "november" | "noviembre" | "novembre" => "@nov",
        "december" | "diciembre" | "decembre" => "@dec",
        "two" | "dos" | "deux" => "#2",
        "three" | "tres" | "trois" => "#3",
        "four" | "cuatro" | "quatre" => "#4",
        "five" | "cinco" | "cinq" => "#5",
        "six" | "seis" => "#6",
        "seven" | "siete" | "sept" => "#7",
        "eight" | "ocho" | "huit" => "#8",
        "nine" | "nueve" | "neuf" => "#9",
        "ten" | "diez" | "dix" => "#10",
        "twelve" | "doce" | "douze" => "#12",
        "hundred" | "hundreds" | "cien" | "cientos" | "centaine" | "centaines" => "@100",
        "thousand" | "thousands" | "mil" | "miles" | "millier" | "milliers" => "@1e3",
        "million" | "millions" | "millones" | "millon" => "@1e6",
        "billion" | "billions" | "milliard" | "milliards" => "@1e9",
        _ => return None,
    })
}

struct Token {
    number: bool,
    capital: bool,
    sentence_start: bool,
}

/// Words of a text, folded into `word` ([`fold_letter_into`]): letters lowercased and
/// accent-free, digits kept;
/// "2,000" and "4.5" are one number, apostrophes and hyphens split words.
struct Tokens<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    sentence_start: bool,
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Self {
        Tokens {
            chars: text.chars().peekable(),
            sentence_start: true,
        }
    }

    /// The next word, appended to `word` (which is not cleared).
    fn next(&mut self, word: &mut String) -> Option<Token> {
        // Skip to a word, noting sentence ends.
        loop {
            let &c = self.chars.peek()?;
            if c.is_alphanumeric() {
                break;
            }
            if matches!(c, '.' | '!' | '?' | '¿' | '¡' | '|' | '\n') {
                self.sentence_start = true;
            }
            self.chars.next();
        }
        let first = *self.chars.peek()?;
        let number = first.is_ascii_digit();
        let capital = first.is_uppercase();
        let sentence_start = std::mem::replace(&mut self.sentence_start, false);
        while let Some(&c) = self.chars.peek() {
            if number {
                if c.is_ascii_digit() {
                    word.push(c);
                    self.chars.next();
                    continue;
                }
                if matches!(c, ',' | '.' | '\u{a0}' | '\u{202f}') {
                    // A separator inside a number ("2,000", "4.5", "20 000") only when a digit follows.
                    let mut ahead = self.chars.clone();
                    ahead.next();
                    if ahead.peek().is_some_and(|d| d.is_ascii_digit()) {
                        self.chars.next();
                        continue;
                    }
                }
                break;
            }
            if !c.is_alphanumeric() {
                break;
            }
            fold_letter_into(c, word);
            self.chars.next();
        }
        Some(Token {
            number,
            capital,
            sentence_start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3_600_000;

    #[test]
    fn signature_round_trips_through_bytes() {
        let s = signature(
            "Voters reject Houston drainage fee",
            "Houston voters rejected it, 54 to 46 percent.",
            "en",
        );
        assert!(!s.is_empty());
        let bytes = s.to_bytes();
        assert_eq!(bytes.len(), 1 + 4 * s.len());
        assert_eq!(Signature::from_bytes(&bytes).unwrap(), s);
        assert_eq!(Signature::from_bytes(&[]), Err(SignatureError::Empty));
        assert_eq!(Signature::from_bytes(&[9, 0, 0, 0, 0]), Err(SignatureError::Version(9)));
        assert_eq!(Signature::from_bytes(&[VERSION, 0, 0]), Err(SignatureError::Length(3)));
    }

    #[test]
    fn accents_case_and_punctuation_do_not_matter() {
        let a = signature("Montréal inspecte ses tours", "", "fr");
        let b = signature("MONTREAL INSPECTE SES TOURS!", "", "fr");
        assert_eq!(similarity(&a, &b), 1.0);
    }

    #[test]
    fn numbers_keep_their_value_whatever_the_separators() {
        let a = signature("City to build 2,000 homes", "", "en");
        let b = signature("La ville construira 2000 logements", "", "fr");
        assert!(a.keys().any(|k| b.keys().any(|l| l == k)));
    }

    #[test]
    fn weekdays_and_small_numbers_meet_across_languages() {
        let a = signature("Three charged on Monday", "", "en");
        let b = signature("Tres detenidos el lunes", "", "es");
        assert!(similarity(&a, &b) > 0.5, "{}", similarity(&a, &b));
    }

    #[test]
    fn the_same_event_in_two_languages_is_the_same_story() {
        let en = signature(
            "Three charged in string of boat motor thefts",
            "Police charged three men with stealing outboard motors from marinas in Coconut Grove and Key Biscayne.",
            "en",
        );
        let es = signature(
            "Detienen a tres por robos de motores de lancha",
            "La policía acusó a tres hombres de robar motores en marinas de Coconut Grove y Key Biscayne.",
            "es",
        );
        assert!(same_story(&en, &es), "{}", similarity(&en, &es));
    }

    #[test]
    fn common_words_alone_are_not_the_same_story() {
        let a = signature(
            "Council approves new bike lanes",
            "The council approved bike lanes on Tuesday.",
            "en",
        );
        let b = signature(
            "Council approves bike lanes downtown",
            "The council approved bike lanes downtown.",
            "en",
        );
        assert!(similarity(&a, &b) >= SAME_STORY);
        assert!(!same_story(&a, &b), "no shared name, place or number");
    }

    #[test]
    fn the_same_place_with_a_different_event_is_not_the_same_story() {
        let a = signature(
            "Houston voters reject drainage fee",
            "Houston voters rejected a drainage fee.",
            "en",
        );
        let b = signature(
            "Houston opens a clinic in Gulfton",
            "A free clinic opened in Gulfton.",
            "en",
        );
        assert!(!same_story(&a, &b), "{}", similarity(&a, &b));
    }

    #[test]
    fn sentence_start_capitals_are_not_anchors() {
        let s = signature("Lobster season opens", "", "en");
        assert_eq!(s.keys().count(), 0);
        let s = signature("Season opens in Yarmouth", "", "en");
        assert_eq!(s.keys().count(), 1);
    }

    fn cand(news_id: i64, cluster_id: i64, media_id: i64, t: i64, s: &Signature) -> Candidate {
        Candidate {
            news_id,
            cluster_id,
            media_id,
            publish_time_ms: t,
            signature: s.clone(),
            cities: Vec::new(),
        }
    }

    #[test]
    fn items_placed_in_different_states_are_different_stories() {
        let a = signature(
            "Miami school board debates later start times",
            "The board heard two hours.",
            "en",
        );
        let b = signature(
            "Boston school board debates later start times",
            "The board heard two hours.",
            "en",
        );
        let miami = CityId(4164138);
        let boston = CityId(4930956);
        let mut c = cand(1, 7, 1, 0, &a);
        c.cities = vec![miami];
        assert!(places_conflict(&[boston], &[miami]));
        assert!(!places_conflict(&[boston], &[]), "an unplaced item never conflicts");
        let rules = Rules::default();
        assert_eq!(rules.assign(&b, 2, 0, &[boston], std::slice::from_ref(&c)), None);
        assert_eq!(rules.assign(&b, 2, 0, &[miami], &[c]), Some(7));
    }

    fn story() -> (Signature, Signature) {
        (
            signature(
                "Voters reject Houston drainage fee",
                "Houston voters rejected a new drainage fee on Tuesday.",
                "en",
            ),
            signature(
                "Rechazan en Houston la cuota de drenaje",
                "Los votantes de Houston rechazaron el martes una nueva cuota para obras de drenaje.",
                "es",
            ),
        )
    }

    #[test]
    fn assign_joins_another_publishers_story_within_the_window() {
        let (a, b) = story();
        assert_eq!(assign(&b, 2, 10 * H, &[cand(1, 7, 1, 0, &a)]), Some(7));
    }

    /// D152: an anchor that 3 or more stories in the window carry weighs as a plain word and
    /// no longer counts as a shared anchor; with fewer stories it still joins.
    #[test]
    fn a_saturated_anchor_alone_does_not_join_two_stories() {
        let old = signature("Library hours change in Houston", "The library opens later.", "en");
        let new = signature("Library hours change in Houston", "Readers asked for evenings.", "en");
        let other = |n: i64| {
            signature(
                &format!("Houston story number {n}"),
                &format!("Something else entirely, part {n}."),
                "en",
            )
        };
        // Only "Houston" is an anchor they share.
        let mine = cand(1, 7, 1, 0, &old);
        assert_eq!(assign(&new, 2, 0, std::slice::from_ref(&mine)), Some(7));
        let two_more = [mine.clone(), cand(2, 8, 3, 0, &other(1))];
        assert_eq!(assign(&new, 2, 0, &two_more), Some(7), "two stories carry it");
        let three_more = [mine, cand(2, 8, 3, 0, &other(1)), cand(3, 9, 4, 0, &other(2))];
        assert_eq!(assign(&new, 2, 0, &three_more), None, "three stories carry it");
    }

    #[test]
    fn assign_ignores_candidates_outside_the_72_hour_window_either_side() {
        let (a, b) = story();
        assert_eq!(assign(&b, 2, 73 * H, &[cand(1, 7, 1, 0, &a)]), None);
        assert_eq!(assign(&b, 2, 0, &[cand(1, 7, 1, 73 * H, &a)]), None);
        assert_eq!(assign(&b, 2, 0, &[cand(1, 7, 1, 72 * H, &a)]), Some(7));
    }

    #[test]
    fn assign_needs_more_to_join_through_the_same_publisher() {
        let (a, b) = story();
        let s = similarity(&a, &b);
        assert!((SAME_STORY..SAME_PUBLISHER).contains(&s), "{s}");
        assert_eq!(assign(&b, 1, 0, &[cand(1, 7, 1, 0, &a)]), None);
        assert_eq!(
            assign(&a, 1, 0, &[cand(1, 7, 1, 0, &a)]),
            Some(7),
            "a plain repeat still joins"
        );
    }

    #[test]
    fn assign_picks_the_most_similar_cluster_and_the_older_on_a_tie() {
        let (a, b) = story();
        let other = signature("Houston drainage fee vote set", "Houston voters decide Tuesday.", "en");
        let cs = [cand(1, 9, 1, 0, &other), cand(2, 5, 3, 0, &a)];
        assert_eq!(assign(&b, 2, 0, &cs), Some(5));
        let cs = [cand(1, 9, 1, 0, &a), cand(2, 5, 3, 0, &a)];
        assert_eq!(assign(&b, 2, 0, &cs), Some(5));
    }

    #[test]
    fn hot_needs_three_publishers_within_24_hours() {
        let now = 100 * H;
        assert!(is_hot(3, 3, now, now));
        assert!(is_hot(3, 3, now - 24 * H, now));
        assert!(!is_hot(3, 3, now - 25 * H, now));
        assert!(!is_hot(10, 2, now, now), "many items from two publishers is not hot");
        assert!(is_hot(6, 6, now - 47 * H, now), "wider coverage stays hot longer");
        assert!(is_hot(3, 3, now + H, now), "a future time counts as now");
    }

    #[test]
    fn hot_score_grows_with_publishers_and_decays_with_age() {
        let now = 100 * H;
        assert!(hot_score(4, 4, now, now) > hot_score(4, 3, now, now));
        assert!(hot_score(4, 3, now, now) > hot_score(3, 3, now, now));
        assert!(hot_score(3, 3, now - H, now) < hot_score(3, 3, now, now));
        assert!((hot_score(3, 3, now - 24 * H, now) - 1.5).abs() < 1e-9);
        assert_eq!(hot_score(1, 5, now, now), 1.0, "publishers never exceed items");
    }
}
