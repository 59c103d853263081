//! The gazetteer as place tagging reads it: folded names of cities, states and provinces,
//! and the short forms newsrooms use.

use domain::text::fold;
use geo::City;
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::LazyLock;

/// Folded name → cities with that name, alternate name or exonym ("Nueva York", "San
/// Luis"). Keys have their short forms spelled out (`geo::long_forms`: "saint louis", not
/// "st louis"), and so do the spans looked up in it.
pub(super) static NAMES: LazyLock<FxHashMap<String, Vec<&'static City>>> = LazyLock::new(|| {
    let mut map: FxHashMap<String, Vec<&'static City>> = FxHashMap::default();
    for city in geo::all() {
        let mut names = vec![fold(city.name), fold(city.name_ascii)];
        names.extend(city.alt_names.iter().map(|n| fold(n)));
        names.extend(city.exonym_names().map(fold));
        // GeoNames' "Greater Sudbury" is the Sudbury of the news.
        if let Some(short) = names.iter().find_map(|n| n.strip_prefix("greater ")) {
            names.push(short.to_string());
        }
        for name in &mut names {
            if let Some(long) = geo::long_forms(name) {
                *name = long;
            }
        }
        names.sort();
        names.dedup();
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            map.entry(name).or_default().push(city);
        }
    }
    for list in map.values_mut() {
        list.sort_by_key(|c| std::cmp::Reverse(c.population));
    }
    map
});

/// Every word of every name [`super::places`] can match (gazetteer names and nicknames): a span
/// with a word outside this set names nothing, so it is not looked up.
pub(super) static NAME_WORDS: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
    NAMES
        .keys()
        .map(String::as_str)
        .chain(NICKNAMES.iter().map(|(k, _, _)| *k))
        .chain(ADMIN_NAMES.keys().map(String::as_str))
        .flat_map(|name| name.split(' '))
        .chain(["st", "ste", "ft", "mt"])
        .collect()
});

/// Folded full names of states, provinces and territories (GeoNames' English names and
/// the French and Spanish ones of `data/geo/admin-names.tsv`) → admin code. A span with
/// one of these names is the state or province, not a city of that name, unless
/// [`super::choose::reads_as_city`] says otherwise.
pub(super) static ADMIN_NAMES: LazyLock<FxHashMap<String, &'static str>> = LazyLock::new(|| {
    let mut map = FxHashMap::default();
    for city in geo::all() {
        map.entry(fold(city.admin_name)).or_insert(city.admin_code);
    }
    for alias in geo::admin_names().iter().filter(|a| a.form == geo::AdminForm::Name) {
        map.entry(fold(alias.name)).or_insert(alias.admin_code);
    }
    map
});

/// What can follow a city to say its state or province (", Maine", ", ON", ", N.Y.",
/// ", en Colombie-Britannique"): the full names, the postal codes and the newsroom
/// abbreviations of `data/geo/admin-names.tsv` (AP and Canadian Press style, French).
pub(super) static QUALIFIERS: LazyLock<FxHashMap<String, &'static str>> = LazyLock::new(|| {
    let mut map: FxHashMap<String, &'static str> = ADMIN_NAMES.iter().map(|(k, v)| (k.clone(), *v)).collect();
    for city in geo::all() {
        map.entry(fold(city.admin_code)).or_insert(city.admin_code);
    }
    for alias in geo::admin_names() {
        map.entry(fold(alias.name)).or_insert(alias.admin_code);
    }
    map
});

/// Short forms newsrooms use, and boroughs and neighbourhoods GeoNames lists as places
/// of their own but readers file under their city.
pub(super) const NICKNAMES: [(&str, &str, &str); 31] = [
    ("dorchester", "Boston", "MA"),
    ("sainte foy", "Québec", "QC"),
    ("van nuys", "Los Angeles", "CA"),
    ("boyle heights", "Los Angeles", "CA"),
    ("flatbush", "New York City", "NY"),
    ("d c", "Washington", "DC"),
    ("nyc", "New York City", "NY"),
    ("l a", "Los Angeles", "CA"),
    ("philly", "Philadelphia", "PA"),
    ("montreal", "Montréal", "QC"),
    ("quebec city", "Québec", "QC"),
    ("manhattan", "New York City", "NY"),
    ("brooklyn", "New York City", "NY"),
    ("queens", "New York City", "NY"),
    ("the bronx", "New York City", "NY"),
    ("bronx", "New York City", "NY"),
    ("staten island", "New York City", "NY"),
    ("harlem", "New York City", "NY"),
    ("inwood", "New York City", "NY"),
    ("washington heights", "New York City", "NY"),
    ("coconut grove", "Miami", "FL"),
    ("little havana", "Miami", "FL"),
    ("kanata", "Ottawa", "ON"),
    ("orleans", "Ottawa", "ON"),
    ("hull", "Gatineau", "QC"),
    ("aylmer", "Gatineau", "QC"),
    ("scarborough", "Toronto", "ON"),
    ("north york", "Toronto", "ON"),
    ("etobicoke", "Toronto", "ON"),
    ("steveston", "Richmond", "BC"),
    ("pilsen", "Chicago", "IL"),
];

/// The [`NAMES`] key of the publisher's city ("St. Louis" → "saint louis").
pub(super) fn home_key(city: &str) -> String {
    let folded = fold(city);
    geo::long_forms(&folded).unwrap_or(folded)
}
