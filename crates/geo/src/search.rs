//! Type-ahead city search. Called on every keystroke, so the work is done once: every
//! name a city answers to is folded (lower case, no accents, punctuation as spaces) into
//! keys, and every word start of every key goes into one sorted list. A query is one
//! binary search plus a walk over the matching run.

use crate::{City, all};
use domain::geo::Country;
use domain::locale::Locale;
use std::sync::LazyLock;

/// A search result: the city and the name to show in the reader's language.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub city: &'static City,
    pub name: &'static str,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Page {
    pub hits: Vec<Hit>,
    /// More hits follow this page.
    pub more: bool,
}

pub use domain::text::fold;

/// Short and long forms readers use interchangeably in place names.
const ABBREVIATIONS: [(&str, &str); 4] = [("saint", "st"), ("sainte", "ste"), ("mount", "mt"), ("fort", "ft")];

/// The folded key with each long form replaced by its short one, and the other way round,
/// so "st j" finds Saint-Jérôme and "saint l" finds St. Louis.
fn variants(folded: &str) -> [String; 3] {
    let map = |long_to_short: bool| {
        folded
            .split(' ')
            .map(|w| {
                ABBREVIATIONS
                    .iter()
                    .find(|(long, short)| w == if long_to_short { *long } else { *short })
                    .map_or(w, |(long, short)| if long_to_short { short } else { long })
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    [folded.to_string(), map(true), map(false)]
}

/// A folded name with its short forms spelled out ("st louis" → "saint louis", "ft
/// worth" → "fort worth"), so "St. Paul", "Saint Paul" and "St-Jean" read the same; `None`
/// when there is nothing to spell out.
pub fn long_forms(folded: &str) -> Option<String> {
    if !folded
        .split(' ')
        .any(|w| ABBREVIATIONS.iter().any(|(_, short)| w == *short))
    {
        return None;
    }
    Some(variants(folded)[2].clone())
}

struct Index {
    /// Folded keys, each ending in a space so a query ending in a separator ("st ")
    /// matches whole words only; with the index of the city they belong to.
    keys: Vec<(Box<str>, u32)>,
    /// (key, byte offset of a word start), sorted by the key's text from that offset.
    starts: Vec<(u32, u16)>,
}

impl Index {
    fn suffix(&self, (key, offset): (u32, u16)) -> &str {
        self.keys[key as usize].0.get(offset as usize..).unwrap_or("")
    }
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut keys: Vec<(Box<str>, u32)> = Vec::new();
    for (i, city) in all().iter().enumerate() {
        let mut names: Vec<String> = Vec::new();
        let sources = [city.name, city.name_ascii].into_iter();
        for source in sources.chain(city.alt_names.iter().copied()).chain(city.exonym_names()) {
            for v in variants(&fold(source)) {
                if !v.is_empty() && !names.contains(&v) {
                    names.push(v);
                }
            }
        }
        keys.extend(names.into_iter().map(|n| (format!("{n} ").into_boxed_str(), i as u32)));
    }
    let mut starts: Vec<(u32, u16)> = Vec::new();
    for (k, (key, _)) in keys.iter().enumerate() {
        let mut at_start = true;
        for (offset, b) in key.bytes().enumerate() {
            if at_start && b != b' ' {
                starts.push((k as u32, offset.min(u16::MAX as usize) as u16));
            }
            at_start = b == b' ';
        }
    }
    let mut index = Index {
        keys,
        starts: Vec::new(),
    };
    starts.sort_by(|a, b| index.suffix(*a).cmp(index.suffix(*b)));
    index.starts = starts;
    index
});

pub(crate) fn search_page(query: &str, country: Option<Country>, lang: Locale, offset: usize, limit: usize) -> Page {
    let mut q = fold(query);
    if q.is_empty() {
        return Page {
            hits: Vec::new(),
            more: false,
        };
    }
    // "st " (a separator typed after the word) asks for the whole word "st".
    if query.ends_with(|c: char| !c.is_alphanumeric()) {
        q.push(' ');
    }
    let index = &*INDEX;
    let first = index.starts.partition_point(|s| index.suffix(*s) < q.as_str());
    let cities = all();
    let mut found: Vec<u32> = index.starts[first..]
        .iter()
        .take_while(|s| index.suffix(**s).starts_with(q.as_str()))
        .map(|(key, _)| index.keys[*key as usize].1)
        .filter(|i| country.is_none_or(|c| cities[*i as usize].iso == c))
        .collect();
    found.sort_unstable();
    found.dedup();
    // Biggest first; ties by name then id so pages are stable.
    found.sort_by(|a, b| {
        let (a, b) = (&cities[*a as usize], &cities[*b as usize]);
        b.population
            .cmp(&a.population)
            .then(a.name.cmp(b.name))
            .then(a.id.cmp(&b.id))
    });
    let more = found.len() > offset.saturating_add(limit);
    let hits = found
        .into_iter()
        .skip(offset)
        .take(limit)
        .map(|i| {
            let city = &cities[i as usize];
            Hit {
                city,
                name: city.display_name(lang),
            }
        })
        .collect();
    Page { hits, more }
}
