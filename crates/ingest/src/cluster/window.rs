//! One process's clustering window: the stored items a new item may join, kept in memory
//! with a term index, so that placing an item costs about the candidates that can really
//! join it rather than every stored item of the last three days (D120).
//!
//! [`Window::assign`] gives exactly what [`Rules::assign`] gives over every item of the
//! window (the brute-force definition; `tests::window_matches_brute_force` checks it), but
//! reads only the postings of the new item's *strong* terms (those an item must share to
//! join it: a shared anchor that still weighs as one, D152), only within its time window,
//! and compares in full only the items whose bound can pass (see [`Window::assign`]).

use super::{ANCHOR_BIT, ANCHOR_WEIGHT, Overlap, Rules, Signature, rarity, shared_weight, weight};
use domain::ids::CityId;
use rustc_hash::FxHashMap;

/// A term carried by this many distinct clusters or more weighs as a plain word: the
/// rarity discount `2 · rarity(n)` falls below 1 from n = 3 on and is clamped to 1.
const SATURATED: u8 = 3;
/// Safety margin on the pruning bounds, far above `f32` rounding in `overlap`.
const MARGIN: f64 = 1e-4;
/// Publish time of an evicted slot: never within any window.
const DEAD: i64 = i64::MIN / 4;

/// A place's region, as `places_conflict` compares them.
type Region = (domain::geo::Country, &'static str);

/// Stored (or just stored) items within reach of new ones, indexed by term.
#[derive(Debug)]
pub struct Window {
    rules: Rules,
    // Slots, struct-of-arrays (the hot loop reads only `time`).
    time: Vec<i64>,
    cluster: Vec<i64>,
    news: Vec<i64>,
    media: Vec<i64>,
    signature: Vec<Signature>,
    regions: Vec<Box<[Region]>>,
    cities: Vec<Box<[CityId]>>,
    /// Each slot's total term weight (as `overlap` sums it).
    weight: Vec<f32>,
    /// Term (hash without the anchor bit) → the slots carrying it, by publish time.
    postings: FxHashMap<u32, TermPostings>,
    by_news: FxHashMap<i64, u32>,
    dead: usize,
    // Scratch, reused between calls: per slot, what it shares with the item being placed.
    acc: Vec<Acc>,
    touched: Vec<u32>,
    generation: u32,
    stats: WindowStats,
}

/// Work counters (for benchmarks and tuning).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WindowStats {
    pub items: u64,
    pub postings_counted: u64,
    pub terms_probed: u64,
    pub postings_probed: u64,
    pub compared: u64,
}

/// A slot carrying a term, with its publish time in whole seconds so that the time
/// window is checked without touching the slot.
#[derive(Debug, Clone, Copy)]
struct Posting {
    /// `slot << 1 | anchor-in-that-slot`.
    slot: u32,
    secs: i32,
}

/// What one slot shares with the item being placed, among the terms read so far
/// (valid when `generation` is the window's current one).
#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    generation: u32,
    /// Shared weight, as `overlap_weighed` counts it.
    shared: f32,
    /// The shared terms' own weights in the new item and in this slot.
    own_new: f32,
    own_old: f32,
    anchors: u8,
    terms: u8,
}

/// Width of a [`TermPostings`] bucket: a quarter of a day. A window of ±72 hours reads
/// about 25 buckets of a term seen all year, and at most a bucket's width too much at
/// either edge.
const BUCKET_S: i64 = 6 * 3600;

/// One term's postings in buckets of publish time, sorted by bucket. Items arrive in
/// any time order (feed after feed), and most of a common term's postings lie outside
/// a new item's window: reading only the buckets that can hold times within it skips
/// them without touching each (on the 100k bench corpus, two thirds of the postings a
/// flat list made the window read were out of time).
#[derive(Debug, Default)]
struct TermPostings {
    buckets: Vec<(i32, Vec<Posting>)>,
}

impl TermPostings {
    fn push(&mut self, p: Posting) {
        let b = bucket(i64::from(p.secs));
        match self.buckets.binary_search_by_key(&b, |(k, _)| *k) {
            Ok(i) => self.buckets[i].1.push(p),
            Err(i) => self.buckets.insert(i, (b, vec![p])),
        }
    }

    /// The buckets that may hold times within `window_s` seconds of `at` (whole seconds,
    /// as [`coarse`] compares them).
    fn near(&self, at: i32, window_s: i64) -> &[(i32, Vec<Posting>)] {
        let (lo, hi) = (
            bucket(i64::from(at) - window_s - 1),
            bucket(i64::from(at) + window_s + 1),
        );
        let start = self.buckets.partition_point(|(k, _)| *k < lo);
        let end = start + self.buckets[start..].partition_point(|(k, _)| *k <= hi);
        &self.buckets[start..end]
    }
}

fn bucket(secs: i64) -> i32 {
    secs.div_euclid(BUCKET_S)
        .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Seconds since 2000-01-01 (clamped), for [`Posting::secs`].
fn secs(ms: i64) -> i32 {
    let s = ms.div_euclid(1000) - 946_684_800;
    s.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Whether `p` may be within `window_ms` of a time whose [`secs`] is `at`: `Some(true)`
/// certainly, `Some(false)` certainly not, `None` when the slot's exact time must say.
fn coarse(p: Posting, at: i32, window_s: i64) -> Option<bool> {
    // Whole seconds differ by up to 999 ms from the times they stand for.
    let d = (i64::from(p.secs) - i64::from(at)).abs();
    if d < window_s {
        Some(true)
    } else if d > window_s + 1 {
        Some(false)
    } else {
        None
    }
}

/// One item going into the window.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub news_id: i64,
    pub cluster_id: i64,
    pub media_id: i64,
    pub publish_time_ms: i64,
    pub signature: Signature,
    /// The cities the story happens in (area_list, else the publisher's city).
    pub cities: &'a [CityId],
}

impl Default for Window {
    fn default() -> Self {
        Window::new(Rules::default())
    }
}

impl Window {
    pub fn new(rules: Rules) -> Window {
        Window {
            rules,
            time: Vec::new(),
            cluster: Vec::new(),
            news: Vec::new(),
            media: Vec::new(),
            signature: Vec::new(),
            regions: Vec::new(),
            cities: Vec::new(),
            weight: Vec::new(),
            postings: FxHashMap::default(),
            by_news: FxHashMap::default(),
            dead: 0,
            acc: Vec::new(),
            touched: Vec::new(),
            generation: 0,
            stats: WindowStats::default(),
        }
    }

    pub fn stats(&self) -> WindowStats {
        self.stats
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Items in the window.
    pub fn len(&self) -> usize {
        self.time.len() - self.dead
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn contains(&self, news_id: i64) -> bool {
        self.by_news.contains_key(&news_id)
    }

    /// The cluster of a stored item in the window.
    pub fn cluster_of(&self, news_id: i64) -> Option<i64> {
        self.by_news.get(&news_id).map(|&s| self.cluster[s as usize])
    }

    /// Add an item, replacing the one with the same news id (an item updated in place).
    pub fn insert(&mut self, e: Entry<'_>) {
        self.remove(e.news_id);
        let slot = u32::try_from(self.time.len()).unwrap_or(u32::MAX >> 1);
        let at = secs(e.publish_time_ms);
        for &t in &e.signature.terms {
            self.postings.entry(t >> 1).or_default().push(Posting {
                slot: slot << 1 | (t & ANCHOR_BIT),
                secs: at,
            });
        }
        self.weight.push(e.signature.terms.iter().map(|&t| weight(t)).sum());
        self.time.push(e.publish_time_ms);
        self.cluster.push(e.cluster_id);
        self.news.push(e.news_id);
        self.media.push(e.media_id);
        self.signature.push(e.signature);
        self.regions.push(regions(e.cities));
        self.cities.push(e.cities.into());
        self.acc.push(Acc::default());
        self.by_news.insert(e.news_id, slot);
    }

    /// Drop an item (no-op when absent).
    pub fn remove(&mut self, news_id: i64) -> bool {
        let Some(slot) = self.by_news.remove(&news_id) else {
            return false;
        };
        let s = slot as usize;
        self.time[s] = DEAD;
        self.signature[s] = Signature::default();
        self.regions[s] = Box::default();
        self.cities[s] = Box::default();
        self.dead += 1;
        self.compact_if_sparse();
        true
    }

    /// Give a provisional item its stored ids (news id and cluster).
    pub fn rename(&mut self, old_news_id: i64, news_id: i64, cluster_id: i64) {
        if let Some(slot) = self.by_news.remove(&old_news_id) {
            if let Some(other) = self.by_news.insert(news_id, slot) {
                // The stored id was already here (read back from the store): keep the newer copy.
                let o = other as usize;
                self.time[o] = DEAD;
                self.signature[o] = Signature::default();
                self.regions[o] = Box::default();
                self.cities[o] = Box::default();
                self.dead += 1;
            }
            self.news[slot as usize] = news_id;
            self.cluster[slot as usize] = cluster_id;
            self.compact_if_sparse();
        }
    }

    /// Drop every item with a provisional (negative) news id.
    pub fn remove_provisional(&mut self) -> usize {
        let ids: Vec<i64> = self.by_news.keys().copied().filter(|&id| id < 0).collect();
        for id in &ids {
            self.remove(*id);
        }
        ids.len()
    }

    /// Drop every item published before `cut_ms`. Returns how many went.
    pub fn evict_before(&mut self, cut_ms: i64) -> usize {
        let old: Vec<i64> = (0..self.time.len())
            .filter(|&s| self.time[s] != DEAD && self.time[s] < cut_ms)
            .map(|s| self.news[s])
            .collect();
        for id in &old {
            self.remove(*id);
        }
        old.len()
    }

    /// Keep about the `keep` newest items: drop every item published before the
    /// `keep`-th newest publish time, and return that time (items tied with it stay).
    /// `None` when the window holds no more than `keep`.
    pub fn evict_oldest(&mut self, keep: usize) -> Option<i64> {
        if keep == 0 || self.len() <= keep {
            return None;
        }
        let mut live: Vec<i64> = self.time.iter().copied().filter(|&t| t != DEAD).collect();
        let (_, &mut cut, _) = live.select_nth_unstable_by(keep - 1, |a, b| b.cmp(a));
        self.evict_before(cut);
        // A full window is at its memory bound: give the dropped items' postings back now
        // rather than once they are half of the slots.
        if self.dead > 0 {
            self.compact();
        }
        Some(cut)
    }

    /// Rebuild the arrays and postings without evicted slots once they are half of them.
    fn compact_if_sparse(&mut self) {
        if self.dead < 1024 || self.dead * 2 < self.time.len() {
            return;
        }
        self.compact();
    }

    fn compact(&mut self) {
        let live: Vec<usize> = (0..self.time.len()).filter(|&s| self.time[s] != DEAD).collect();
        let mut next = Window::new(self.rules);
        for s in live {
            let cities = std::mem::take(&mut self.cities[s]);
            next.insert(Entry {
                news_id: self.news[s],
                cluster_id: self.cluster[s],
                media_id: self.media[s],
                publish_time_ms: self.time[s],
                signature: std::mem::take(&mut self.signature[s]),
                cities: &cities,
            });
        }
        next.stats = self.stats;
        *self = next;
    }

    /// The cluster a new item joins under the window's [`Rules`], or `None` for a story of
    /// its own: the same answer as [`Rules::assign`] with every item of the window as a
    /// candidate.
    ///
    /// How it avoids comparing with them all: a pair passes only with a shared anchor that
    /// fewer than `SATURATED` stories in the window carry, so only those terms' postings
    /// are read (never the long ones of the terms every local story names). A pair passes only when `2·S / (A + B + 2·S) ≥ bar`, where `S` is the shared
    /// weight and `A`, `B` the weight of each side's unshared terms; each item met gets an
    /// upper bound from what it shares among the terms read, as if it shared every unread
    /// term at its largest weight, and items are compared in full, best bound first, until
    /// no bound can beat (or tie) the best similarity found.
    pub fn assign(&mut self, new: &Signature, media_id: i64, publish_time_ms: i64, cities: &[CityId]) -> Option<i64> {
        let n = new.terms.len();
        if n == 0 {
            return None;
        }
        if n > super::MAX_TERMS {
            // Only a damaged or hand-made signature is this long: compare with everything.
            return self.assign_brute_force(new, media_id, publish_time_ms, cities);
        }
        self.stats.items += 1;
        let window = self.rules.window_ms;
        let in_window = |t: i64| (t - publish_time_ms).abs() <= window;
        // Whole seconds either side of the window's edge are checked exactly; a dead slot's
        // posting keeps its old time, so a slot that passes is always checked exactly too.
        let (at, window_s) = (secs(publish_time_ms), window.div_euclid(1000));
        // How many distinct clusters in the window carry each term (saturating), and how
        // many postings of each lie in the buckets within reach (for the stats).
        let mut discount = [1.0f32; super::MAX_TERMS];
        let mut cost = [0usize; super::MAX_TERMS];
        for (i, &t) in new.terms.iter().enumerate() {
            let Some(term) = self.postings.get(&(t >> 1)) else {
                continue;
            };
            let near = term.near(at, window_s);
            cost[i] = near.iter().map(|(_, list)| list.len()).sum();
            let mut seen = [0i64; SATURATED as usize];
            let mut k = 0usize;
            for &p in near.iter().flat_map(|(_, list)| list) {
                self.stats.postings_counted += 1;
                if coarse(p, at, window_s) == Some(false) {
                    continue;
                }
                let s = (p.slot >> 1) as usize;
                if !in_window(self.time[s]) {
                    continue;
                }
                let c = self.cluster[s];
                if !seen[..k].contains(&c) {
                    seen[k] = c;
                    k += 1;
                    if k == SATURATED as usize {
                        break;
                    }
                }
            }
            discount[i] = rarity(k as u32);
        }
        // Phase 1: an item can join only through a shared anchor that still weighs as one
        // (a term fewer than SATURATED stories in the window carry, an anchor on either
        // side: see `overlap_weighed`), so only those terms' postings are read. Each item
        // met adds up what it shares with the new one among the terms read.
        let strong = |i: usize| shared_weight(true, discount[i]) > 1.0;
        let wmax = |i: usize| f64::from(shared_weight(true, discount[i]));
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.acc.iter_mut().for_each(|a| a.generation = 0);
            self.generation = 1;
        }
        let generation = self.generation;
        self.touched.clear();
        let (mut s_rest, mut a_probed, mut unread) = (0.0f64, 0.0f64, 0usize);
        for (i, &t) in new.terms.iter().enumerate() {
            if !strong(i) {
                s_rest += wmax(i);
                unread += 1;
                continue;
            }
            a_probed += f64::from(weight(t));
            let Some(term) = self.postings.get(&(t >> 1)) else {
                continue;
            };
            self.stats.terms_probed += 1;
            self.stats.postings_probed += cost[i] as u64;
            for (_, list) in term.near(at, window_s) {
                for &p in list {
                    if coarse(p, at, window_s) == Some(false) {
                        continue;
                    }
                    let s = (p.slot >> 1) as usize;
                    let acc = &mut self.acc[s];
                    if acc.generation != generation {
                        if !in_window(self.time[s]) {
                            continue;
                        }
                        *acc = Acc {
                            generation,
                            ..Acc::default()
                        };
                        self.touched.push(s as u32);
                    }
                    // As `overlap_weighed` counts a shared term.
                    let anchor = (t | p.slot) & ANCHOR_BIT != 0;
                    acc.shared += shared_weight(anchor, discount[i]);
                    acc.own_new += weight(t);
                    acc.own_old += weight(p.slot); // its low bit is the anchor bit, as in a term
                    acc.anchors = acc.anchors.saturating_add(u8::from(anchor));
                    acc.terms = acc.terms.saturating_add(1);
                }
            }
        }
        // Phase 2: bound each item met from what it shares among the terms read, assuming
        // it shares every unread term at its largest weight; compare in full, best bound
        // first, until no bound can beat (or tie) the best similarity found.
        let new_regions = regions(cities);
        let new_weight: f32 = new.terms.iter().map(|&t| weight(t)).sum();
        let mut best: Option<(f32, i64)> = None;
        let mut bounded: Vec<(f64, u32)> = Vec::with_capacity(self.touched.len());
        for &slot in &self.touched {
            let s = slot as usize;
            let acc = self.acc[s];
            let shared = f64::from(acc.shared) + s_rest;
            let a_low = (a_probed - f64::from(acc.own_new)).max(0.0);
            let b_low = (f64::from(self.weight[s]) - f64::from(acc.own_old) - f64::from(ANCHOR_WEIGHT) * unread as f64)
                .max(0.0);
            let upper = if shared > 0.0 {
                2.0 * shared / (a_low + b_low + 2.0 * shared)
            } else {
                0.0
            };
            let bar = if self.media[s] == media_id {
                self.rules.same_publisher
            } else {
                self.rules.same_story
            };
            let could_pass = upper + MARGIN >= f64::from(bar)
                && acc.anchors > 0
                && usize::from(acc.terms) + unread >= super::MIN_SHARED_TERMS;
            if could_pass {
                bounded.push((upper, slot));
            }
        }
        bounded.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
        for (upper, slot) in bounded {
            if best.is_some_and(|(bs, _)| upper + MARGIN < f64::from(bs)) {
                break;
            }
            best = self.better(best, slot as usize, new, new_weight, &new_regions, media_id, &discount);
        }
        best.map(|(_, id)| id)
    }

    /// `best` or slot `s`, whichever wins: the higher similarity among those that pass,
    /// ties to the smaller cluster id.
    #[allow(clippy::too_many_arguments)]
    fn better(
        &mut self,
        best: Option<(f32, i64)>,
        s: usize,
        new: &Signature,
        new_weight: f32,
        new_regions: &[Region],
        media_id: i64,
        discount: &[f32; super::MAX_TERMS],
    ) -> Option<(f32, i64)> {
        if regions_conflict(new_regions, &self.regions[s]) {
            return best;
        }
        let bar = if self.media[s] == media_id {
            self.rules.same_publisher
        } else {
            self.rules.same_story
        };
        self.stats.compared += 1;
        let o: Overlap = super::overlap_weighed(new, &self.signature[s], new_weight, self.weight[s], |i| discount[i]);
        if !o.passes(bar) {
            return best;
        }
        let (sim, c) = (o.similarity, self.cluster[s]);
        match best {
            Some((bs, bid)) if sim < bs || (sim == bs && c >= bid) => best,
            _ => Some((sim, c)),
        }
    }
}

impl Window {
    /// [`Rules::assign`] with every item of the window as a candidate.
    pub fn assign_brute_force(
        &self,
        new: &Signature,
        media_id: i64,
        publish_time_ms: i64,
        cities: &[CityId],
    ) -> Option<i64> {
        let candidates: Vec<super::Candidate> = (0..self.time.len())
            .filter(|&s| self.time[s] != DEAD)
            .map(|s| super::Candidate {
                news_id: self.news[s],
                cluster_id: self.cluster[s],
                media_id: self.media[s],
                publish_time_ms: self.time[s],
                signature: self.signature[s].clone(),
                cities: self.cities[s].to_vec(),
            })
            .collect();
        self.rules.assign(new, media_id, publish_time_ms, cities, &candidates)
    }
}

fn regions(cities: &[CityId]) -> Box<[Region]> {
    cities
        .iter()
        .filter_map(|id| geo::by_id(*id).map(|c| (c.iso, c.admin_code)))
        .collect()
}

/// [`super::places_conflict`] over regions worked out beforehand.
fn regions_conflict(a: &[Region], b: &[Region]) -> bool {
    !a.is_empty() && !b.is_empty() && !a.iter().any(|r| b.contains(r))
}

/// Item `i` of a test window: its own story, published `i` seconds after the epoch.
#[cfg(test)]
pub(crate) fn numbered(i: i64, signature: &Signature) -> Entry<'static> {
    Entry {
        news_id: i,
        cluster_id: i,
        media_id: 1,
        publish_time_ms: i * 1000,
        signature: signature.clone(),
        cities: &[],
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Candidate, signature};
    use super::*;

    const H: i64 = 3_600_000;

    /// A small deterministic generator (SplitMix64).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn a_saturated_term_weighs_as_a_plain_word() {
        assert!(ANCHOR_WEIGHT * rarity(u32::from(SATURATED)) < 1.0);
        assert!(ANCHOR_WEIGHT * rarity(u32::from(SATURATED) - 1) > 1.0);
    }

    /// Items made of a small vocabulary (so common terms have long postings and the
    /// pruning really skips them), in a few places, over a week: the window answers what
    /// comparing with every item answers, item after item.
    #[test]
    fn window_matches_brute_force() {
        let names = [
            "Houston",
            "Miami",
            "Boston",
            "Denver",
            "Veritrace",
            "Coconut Grove",
            "Key Biscayne",
            "Toronto",
        ];
        let words = [
            "council", "approves", "budget", "school", "board", "fire", "downtown", "voters", "reject", "drainage",
            "fee", "clinic", "opens", "bridge", "closed", "storm", "power", "outage", "team", "wins",
        ];
        let cities: [&[CityId]; 5] = [
            &[],
            &[CityId(4164138)],
            &[CityId(4930956)],
            &[CityId(4699066)],
            &[CityId(4164138), CityId(4699066)],
        ];
        let mut rng = Rng(20261122);
        let mut window = Window::default();
        let mut all: Vec<Candidate> = Vec::new();
        let mut joined = 0;
        let mut told: Vec<(String, String, i64, usize)> = Vec::new();
        for i in 0..2500i64 {
            let mut title = String::new();
            for _ in 0..2 + rng.below(3) {
                if rng.below(3) == 0 {
                    title.push_str(words[rng.below(words.len())]);
                } else {
                    title.push_str(&format!("zq{}", rng.below(600)));
                }
                title.push(' ');
            }
            title.push_str("in ");
            title.push_str(names[rng.below(names.len())]);
            let mut summary = format!("{} ", names[rng.below(names.len())]);
            // A rarer name (an anchor few stories carry), which is what joins stories
            // once the common names above weigh as plain words; a third of the items
            // retell a recent one (its title and rare name, a summary of their own).
            let mut t = rng.below(7 * 24) as i64 * H;
            let mut place = rng.below(cities.len());
            let rare = if i > 0 && rng.below(3) == 0 {
                let (earlier, r, at, p) = told[told.len() - 1 - rng.below(told.len().min(200))].clone();
                title = earlier;
                t = at + rng.below(24) as i64 * H;
                place = p;
                r
            } else {
                // "Zrbqe": letters only, so it is a name (an anchor), not a number.
                let n = rng.below(3000);
                let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
                format!("Zr{}{}{}", letter(n), letter(n / 26), letter(n / 676))
            };
            // After a lowercase word: a run of capitalised words would make one name.
            summary.push_str("with ");
            summary.push_str(&rare);
            summary.push(' ');
            told.push((title.clone(), rare, t, place));
            for _ in 0..3 + rng.below(8) {
                // Common words, and rarer ones ("zq17") that only some items share.
                if rng.below(2) == 0 {
                    summary.push_str(words[rng.below(words.len())]);
                } else {
                    summary.push_str(&format!("zq{}", rng.below(600)));
                }
                summary.push(' ');
            }
            if rng.below(3) == 0 {
                summary.push_str(&format!("{} ", 10 + rng.below(30)));
            }
            let sig = signature(&title, &summary, "en");
            let media = rng.below(40) as i64;
            let where_ = cities[place];
            let fast = window.assign(&sig, media, t, where_);
            let slow = Rules::default().assign(&sig, media, t, where_, &all);
            assert_eq!(fast, slow, "item {i}: {title} | {summary}");
            let cluster = fast.unwrap_or(i);
            joined += usize::from(fast.is_some());
            window.insert(Entry {
                news_id: i,
                cluster_id: cluster,
                media_id: media,
                publish_time_ms: t,
                signature: sig.clone(),
                cities: where_,
            });
            all.push(Candidate {
                news_id: i,
                cluster_id: cluster,
                media_id: media,
                publish_time_ms: t,
                signature: sig,
                cities: where_.to_vec(),
            });
        }
        assert!(
            joined > 250 && joined < 2450,
            "a mix of joins and new stories: {joined}"
        );
        let pairs = 2500 * 2499 / 2;
        let stats = window.stats();
        eprintln!("{joined} joined; {stats:?} of {pairs} pairs");
        assert!(stats.compared * 4 < pairs, "most pairs are never compared");
    }

    #[test]
    fn eviction_renaming_and_replacing_keep_the_answers() {
        let a = signature(
            "Voters reject Houston drainage fee",
            "Houston voters rejected a new drainage fee on Tuesday.",
            "en",
        );
        let b = signature(
            "Rechazan en Houston la cuota de drenaje",
            "Los votantes de Houston rechazaron el martes una nueva cuota para obras de drenaje.",
            "es",
        );
        let entry = |news_id, cluster_id, t, s: &Signature| Entry {
            news_id,
            cluster_id,
            media_id: 1,
            publish_time_ms: t,
            signature: s.clone(),
            cities: &[],
        };
        let mut w = Window::default();
        w.insert(entry(-1, -1, 10 * H, &a));
        assert_eq!(w.assign(&b, 2, 10 * H, &[]), Some(-1), "a provisional entry is found");
        w.rename(-1, 41, 41);
        assert_eq!(w.assign(&b, 2, 10 * H, &[]), Some(41));
        assert_eq!(w.cluster_of(41), Some(41));
        // Updated in place with other words: no longer the same story.
        let other = signature("Houston opens a clinic in Gulfton", "A free clinic opened.", "en");
        w.insert(entry(41, 41, 10 * H, &other));
        assert_eq!(w.len(), 1);
        assert_eq!(w.assign(&b, 2, 10 * H, &[]), None);
        w.insert(entry(42, 41, 20 * H, &a));
        assert_eq!(w.evict_before(15 * H), 1);
        assert_eq!(w.assign(&b, 2, 20 * H, &[]), Some(41));
        assert!(w.remove(42));
        assert!(w.is_empty());
        assert_eq!(w.assign(&b, 2, 20 * H, &[]), None);
    }

    #[test]
    fn evict_oldest_keeps_the_newest_and_names_the_cut() {
        let mut w = Window::default();
        let s = signature("Story in Houston", "It happened", "en");
        // Publish times 0..100 s, inserted out of order.
        for i in (0..100).rev().step_by(2).chain((0..100).step_by(2)) {
            w.insert(numbered(i, &s));
        }
        assert_eq!(w.evict_oldest(100), None, "nothing to drop");
        assert_eq!(w.evict_oldest(30), Some(70_000));
        assert_eq!(w.len(), 30);
        assert!(!w.contains(69) && w.contains(70) && w.contains(99));
        assert_eq!(w.time.len(), 30, "the dropped slots are given back at once");
        assert_eq!(
            (w.cluster_of(70), w.cluster_of(99)),
            (Some(70), Some(99)),
            "the kept items are still there"
        );
    }

    #[test]
    fn compaction_keeps_every_live_item() {
        let mut w = Window::default();
        let sigs: Vec<Signature> = (0..3000)
            .map(|i| signature(&format!("Story {i} in Houston"), &format!("Number {i} happened"), "en"))
            .collect();
        for (i, s) in sigs.iter().enumerate() {
            w.insert(Entry {
                news_id: i as i64,
                cluster_id: i as i64,
                media_id: 1,
                publish_time_ms: i as i64 * 1000,
                signature: s.clone(),
                cities: &[],
            });
        }
        assert_eq!(w.evict_before(2000 * 1000), 2000);
        assert_eq!(w.len(), 1000);
        assert!(w.time.len() < 3000, "compacted");
        for (i, s) in sigs.iter().enumerate().skip(2000) {
            assert_eq!(w.assign(s, 2, i as i64 * 1000, &[]), Some(i as i64));
            assert_eq!(w.cluster_of(i as i64), Some(i as i64));
        }
    }
}
