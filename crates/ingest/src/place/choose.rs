//! Which city a name means: by its qualifier, then by the publisher's own state or
//! province and country, then by size; and whether a state's name means a city of it.

use super::PublisherArea;
use super::gazetteer::home_key;
use super::people::PERSON_NAMES;
use super::qualifier::Qualifier;
use super::words::FoldedWords;
use geo::{Capital, City};

/// Names that are both a state or province and a city people mean more often than the
/// state when they write the bare name: the city unless the words around it say state
/// ("upstate New York", "l'État de New York", "le Québec"; a Washington-state publisher's
/// "Washington").
pub(super) const CITY_FIRST: [&str; 4] = ["new york", "nueva york", "washington", "quebec"];

/// Words before a [`CITY_FIRST`] name that make it the state or province.
pub(super) const BEFORE_STATE: [&str; 11] = [
    "upstate",
    "downstate",
    "western",
    "eastern",
    "northern",
    "southern",
    "central",
    "rural",
    "etat",
    "estado",
    "state",
];

/// Big cities abroad that share a name with a smaller US or Canadian one: tagged only
/// with a qualifier or from a publisher in the same state or province. A story that names
/// one (and no US or Canadian city) is not about its publisher's city.
pub(super) const WORLD_NAMES: &[&str] = &[
    "london",
    "paris",
    "rome",
    "berlin",
    "dublin",
    "athens",
    "moscow",
    "vienna",
    "madrid",
    "lisbon",
    "florence",
    "naples",
    "cambridge",
    "manchester",
    "birmingham",
    "mexico",
    "brussels",
    "milan",
    "lyon",
    "geneva",
    "amsterdam",
    "warsaw",
    "belfast",
    "glasgow",
    "cairo",
    "delhi",
    "havana",
    "stockholm",
    "oslo",
    "copenhagen",
    "prague",
    "budapest",
    "barcelona",
    "venice",
    "munich",
    "hamburg",
    "frankfurt",
    "zurich",
    "bruxelles",
    "londres",
    "roma",
    "moscou",
    "moscu",
    "varsovie",
];

pub(super) fn choose(
    candidates: &[&'static City],
    folded: &str,
    words: usize,
    qualified: Option<&str>,
    publisher: &PublisherArea<'_>,
) -> Option<&'static City> {
    if let Some(code) = qualified {
        return candidates.iter().copied().find(|c| c.admin_code == code);
    }
    let largest = candidates.first().map_or(0, |c| c.population);
    if WORLD_NAMES.contains(&folded) {
        // Dublin, Georgia is not who "Dublin and Belfast" means: only a sizeable
        // namesake in the publisher's own state or province is.
        // The publisher's own city is what its paper means (a Paris, Texas paper's "Paris").
        return candidates.iter().copied().find(|c| {
            c.admin_code == publisher.admin_code
                && c.iso.iso() == publisher.country
                && (c.population >= 100_000 || home_key(c.name) == home_key(publisher.city))
        });
    }
    if let Some(local) = candidates.iter().copied().find(|c| {
        c.admin_code == publisher.admin_code
            && c.iso.iso() == publisher.country
            && c.population.saturating_mul(10) >= largest
    }) {
        return Some(local);
    }
    let same_country = candidates.iter().copied().find(|c| c.iso.iso() == publisher.country);
    if let Some(c) = same_country.filter(|c| c.population >= 100_000) {
        return Some(c);
    }
    let first = candidates.first().copied()?;
    let person = PERSON_NAMES.contains(&folded);
    // Well known though small: a state, provincial or territorial capital that is the
    // largest place of its name (Juneau, Iqaluit, Charlottetown; a person's name only
    // when it is a sizeable city, so "Pierre" is not Pierre, S.D.).
    if first.capital != Capital::None && (!person || first.population >= 50_000) {
        return Some(first);
    }
    // A sizeable city whose name is rarely anything else: two words or more ("Miami
    // Beach", "North Vancouver"), or one word no other sizeable place shares (Moncton).
    let second = candidates.get(1).map_or(0, |c| c.population);
    let distinctive = words >= 2 || (!person && second.saturating_mul(10) <= first.population);
    let floor = if first.iso.iso() == publisher.country {
        50_000
    } else {
        100_000
    };
    if distinctive && first.population >= floor {
        return Some(first);
    }
    (first.population >= 250_000).then_some(first)
}

/// Whether a span naming a state or province (`folded`, words `i..i + n` of `fw`) names a
/// city of that name instead: when its qualifier says the city's state ("Ontario,
/// Calif.", "Washington, D.C."), when it is a [`CITY_FIRST`] name and nothing around it
/// says state, or when the publisher is in the state of a sizeable city of that name (a
/// California paper's "Ontario", a New Jersey paper's "New Brunswick").
pub(super) fn reads_as_city(
    folded: &str,
    cities: Option<&Vec<&'static City>>,
    qual: Option<Qualifier>,
    fw: &FoldedWords<'_>,
    i: usize,
    publisher: &PublisherArea<'_>,
) -> bool {
    let Some(cities) = cities else {
        return false;
    };
    if let Some(Qualifier::Admin(code)) = qual {
        return cities.iter().any(|c| c.admin_code == code);
    }
    if CITY_FIRST.contains(&folded) {
        let previous = i.checked_sub(1).map_or("", |p| fw.folded(p));
        let state = BEFORE_STATE.contains(&previous)
            || (folded == "quebec" && matches!(previous, "le" | "au" | "du"))
            || (folded == "washington" && publisher.admin_code == "WA" && publisher.country == "US");
        return !state;
    }
    cities
        .iter()
        .any(|c| c.admin_code == publisher.admin_code && c.iso.iso() == publisher.country && c.population >= 10_000)
}
