//! Place items on the map: US and Canadian cities named in a story, disambiguated by
//! what follows the name (", Maine", ", ON", ", France"), then by the publisher's own
//! state or province and country, then by size. A story that names no place is about
//! its publisher's city. State and province names are places of their own, the longest
//! name wins, and people named like cities are not places (docs/decisions.md D61, D215).

//!
//! One file a job: `words` (a text's words, folded once), `gazetteer` (the names a span
//! is looked up in), `context` (what the words around a name say), `qualifier` (", Maine",
//! ", France"), `people` (people named like cities), `choose` (which city a name means);
//! [`places`] here reads a story with them.

use choose::{WORLD_NAMES, choose, reads_as_city};
use context::{
    ASKED, BEFORE_NOT_HERE, BEFORE_OF_NOT_HERE, COMMON_WORDS, is_placeless_genre, names_a_state_or_province,
    part_of_other_name,
};
use domain::text::fold;
use gazetteer::{ADMIN_NAMES, NAMES, NICKNAMES, home_key};
use geo::City;
use people::{PERSON_NAMES, followed_by_surname, people};
use qualifier::{Qualifier, qualifier};
use words::{FoldedWords, capitalized, joiner};

mod choose;
mod context;
mod gazetteer;
mod people;
mod qualifier;
#[cfg(test)]
mod tests;
mod words;

/// Where the publisher is.
#[derive(Debug, Clone, Copy)]
pub struct PublisherArea<'a> {
    pub city: &'a str,
    pub admin_code: &'a str,
    pub country: &'a str,
}

/// The US and Canadian cities a story is about.
pub fn places(title: &str, text: &str, publisher: &PublisherArea<'_>) -> Vec<&'static City> {
    let mut found: Vec<&'static City> = Vec::new();
    // Cities named in the title before "in/à/en <Place>" say where someone comes from
    // ("Chicago chef wins award in New York"), not where the story happens.
    let mut origins: Vec<&'static City> = Vec::new();
    let mut title_places = 0;
    let mut named_abroad = false;
    // A state, province or territory named as itself ("British Columbia will…").
    let mut named_admin = false;
    let parts = [FoldedWords::new(title), FoldedWords::new(text)];
    let people = people(&[&parts[0], &parts[1]]);
    // Each word folded once; a span's fold is its words' folds joined (`span_fold`).
    let mut folded = String::new();
    for (part_index, fw) in parts.iter().enumerate() {
        if part_index == 1 {
            title_places = found.len();
        }
        let part = fw.text;
        let ws = &fw.words;
        let venue_at = (part_index == 0)
            .then(|| {
                // A venue is not a qualifier ("Orillia, en Ontario").
                (1..ws.len()).map(|k| k - 1).find(|&k| {
                    let (w, next) = (&ws[k], &ws[k + 1]);
                    matches!(w.text, "in" | "à" | "en" | "at" | "to" | "a" | "vers")
                        && capitalized(next.text)
                        && !matches!(next.text, "El" | "La" | "Le" | "Los" | "Las" | "The")
                        && !part
                            .get(k.checked_sub(1).map_or(0, |p| ws[p].end)..w.start)
                            .is_some_and(|between| between.contains(','))
                })
            })
            .flatten();
        let mut i = 0;
        while i < ws.len() {
            // (words taken, the city if one is chosen, where a qualifier after it ends)
            let mut matched: Option<(usize, Option<&'static City>, Option<usize>)> = None;
            // Whether the chosen city's qualifier names its state or province.
            let mut qualified = false;
            if capitalized(ws[i].text) || fw.folded(i) == "nyc" {
                let previous = i.checked_sub(1).map_or("", |p| fw.folded(p));
                // Longest name first, up to five words: "Miami Beach" is never Miami,
                // "British Columbia" never Columbia.
                for n in (1..=5.min(ws.len() - i)).rev() {
                    let span = &ws[i..i + n];
                    if span.iter().skip(1).any(|w| !capitalized(w.text) && !joiner(w.text)) {
                        continue;
                    }
                    let end = span[n - 1].end;
                    // A word no name has: the span names nothing, and only a foreign
                    // qualifier after it matters.
                    let may_be_name = fw.in_names[i..i + n].iter().all(|&w| w);
                    if !may_be_name {
                        if let Some((Qualifier::Abroad, qual_end)) = qualifier(part, end) {
                            named_abroad = true;
                            matched = Some((n, None, Some(qual_end)));
                            break;
                        }
                        continue;
                    }
                    fw.span_fold(i, i + n, &mut folded);
                    let folded = folded.as_str();
                    let long = geo::long_forms(folded);
                    let key = long.as_deref().unwrap_or(folded);
                    let nickname = NICKNAMES.iter().find(|(k, _, _)| *k == folded);
                    let cities = NAMES.get(key);
                    let admin = ADMIN_NAMES.contains_key(folded);
                    if cities.is_none() && nickname.is_none() && !admin {
                        if n == 1
                            && let Some((Qualifier::Abroad, qual_end)) = qualifier(part, end)
                        {
                            named_abroad = true;
                            matched = Some((n, None, Some(qual_end)));
                            break;
                        }
                        continue;
                    }
                    // Worked out once, and only for spans that need it.
                    let mut admin_qual = None;
                    if admin {
                        let qual = cities.and_then(|_| qualifier(part, end));
                        if !reads_as_city(folded, cities, qual.map(|(q, _)| q), fw, i, publisher) {
                            named_admin = true;
                            matched = Some((n, None, None));
                            break;
                        }
                        admin_qual = Some(qual);
                    }
                    if (n == 1 && COMMON_WORDS.contains(&folded))
                        || part_of_other_name(part, span[0].start, end)
                        || BEFORE_NOT_HERE.contains(&previous)
                        || (previous == "of" && i >= 2 && BEFORE_OF_NOT_HERE.contains(&fw.folded(i - 2)))
                        || (i >= 2 && ASKED.contains(&[fw.folded(i - 2), previous]))
                        || (n == 1
                            && PERSON_NAMES.contains(&folded)
                            && (people.iter().any(|p| p == folded) || followed_by_surname(fw, i)))
                    {
                        matched = Some((n, None, None));
                        break;
                    }
                    let qual = admin_qual.unwrap_or_else(|| qualifier(part, end));
                    let qual_end = qual.map(|(_, e)| e);
                    let qual = qual.map(|(q, _)| q);
                    if qual == Some(Qualifier::Abroad) {
                        // "Kingston, Jamaica": skip the place and its country; the story
                        // is (at least partly) abroad, so no fallback to the home city.
                        named_abroad = true;
                        matched = Some((n, None, qual_end));
                        break;
                    }
                    let admin_code = match qual {
                        Some(Qualifier::Admin(code)) => Some(code),
                        _ => None,
                    };
                    qualified = admin_code.is_some();
                    let city = match nickname {
                        Some((_, name, code)) => NAMES
                            .get(&fold(name))
                            .and_then(|l| l.iter().copied().find(|c| c.admin_code == *code)),
                        None => cities.and_then(|list| choose(list, key, n, admin_code, publisher)),
                    };
                    if city.is_none() && WORLD_NAMES.contains(&key) {
                        named_abroad = true;
                    }
                    matched = Some((n, city, qual_end));
                    break;
                }
            }
            match matched {
                Some((n, city, qual_end)) => {
                    if let Some(city) = city {
                        // Once the title places the story, other cities in the body are
                        // mostly comparisons, distances and origins: keep only nearby
                        // ones and the ones the text qualifies with their state.
                        let body_aside = part_index == 1
                            && title_places > 0
                            && city.admin_code != publisher.admin_code
                            && !qualified;
                        if venue_at.is_some_and(|v| i < v) {
                            origins.push(city);
                        } else if !body_aside && !found.iter().any(|c| c.id == city.id) {
                            found.push(city);
                        }
                    }
                    i += n;
                    // The qualifier's words ("Buffalo, New York") are not places of
                    // their own.
                    if let Some(qual_end) = qual_end {
                        while i < ws.len() && ws[i].start < qual_end {
                            i += 1;
                        }
                    }
                }
                None => i += 1,
            }
        }
    }
    found.retain(|c| !origins.iter().any(|o| o.id == c.id));
    // The checks are pure: the cheap home-city lookup goes before the costlier ones.
    if found.is_empty()
        && origins.is_empty()
        && !named_abroad
        && !named_admin
        && let Some(home) = NAMES
            .get(&home_key(publisher.city))
            .and_then(|l| l.iter().copied().find(|c| c.admin_code == publisher.admin_code))
        && !is_placeless_genre(title)
        && !names_a_state_or_province(&[&parts[0], &parts[1]])
    {
        found.push(home);
    }
    found
}
