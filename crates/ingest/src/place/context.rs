//! What the words around a name say: part of another name ("Washington state"), not where
//! the story happens ("north of Boston"), a story about no place (a recipe), a story
//! about a whole state or province.

use super::gazetteer::ADMIN_NAMES;
use super::words::{FoldedWords, capitalized};
use domain::text::fold;

/// Words that make a city name part of something else: "Washington state", "Santa Fe
/// Bridge", "puente Santa Fe", "Valle de San Fernando".
pub(super) const AFTER_NOT_CITY: [&str; 16] = [
    "state",
    "street",
    "st",
    "avenue",
    "ave",
    "road",
    "boulevard",
    "bridge",
    "park",
    "drive",
    "county",
    "valley",
    "river",
    "university",
    "island",
    "islands",
];

pub(super) const BEFORE_NOT_CITY: [&str; 19] = [
    "state of",
    "etat de",
    "estado de",
    "puente",
    "pont",
    "calle",
    "rue",
    "avenida",
    "boulevard",
    "valle de",
    "parc",
    "parque",
    "mount",
    "lake",
    "nuevo",
    "ciudad",
    "condado de",
    "comte de",
    "county of",
];

pub(super) fn part_of_other_name(text: &str, start: usize, end: usize) -> bool {
    let after = fold(text.get(end..).unwrap_or("").split_whitespace().next().unwrap_or(""));
    let before_words: Vec<&str> = text
        .get(..start)
        .unwrap_or("")
        .split_whitespace()
        .rev()
        .take(2)
        .collect();
    let before1 = before_words.first().map(|w| fold(w)).unwrap_or_default();
    let before2 = before_words.iter().rev().map(|w| fold(w)).collect::<Vec<_>>().join(" ");
    AFTER_NOT_CITY.contains(&after.as_str())
        || BEFORE_NOT_CITY.contains(&before1.as_str())
        || BEFORE_NOT_CITY.contains(&before2.as_str())
}

/// Columns, opinion and service pieces (recipes, how-tos, reviews) are not about a
/// place unless they name one: titles starting with one of these (folded), or with
/// it after a space.
pub(super) const PLACELESS_GENRES: [&str; 20] = [
    "opinion",
    "chronique",
    "editorial",
    "column",
    "columna",
    "lettre",
    "letter",
    "carta",
    "how to",
    "what to",
    "review",
    "recette",
    "receta",
    "recipe",
    "como ",
    "comment ",
    "ask the",
    "tips",
    "consejos",
    "conseils",
];

pub(super) fn is_placeless_genre(title: &str) -> bool {
    let t = fold(title);
    PLACELESS_GENRES.iter().any(|p| {
        t.starts_with(p)
            || t.as_bytes()
                .windows(p.len() + 1)
                .any(|w| w[0] == b' ' && &w[1..] == p.as_bytes())
    })
}

/// Single words that are GeoNames places but far more often plain words.
pub(super) const COMMON_WORDS: [&str; 17] = [
    "king",
    "central",
    "university",
    "liberty",
    "jamaica",
    "hope",
    "independence",
    "commerce",
    "mobile",
    "reading",
    "normal",
    "enterprise",
    "paradise",
    "surprise",
    "primera",
    "nuevo",
    "ciudad",
];

/// Words before a name that make it a distance, an origin or a government, not where
/// the story happens ("north of Boston", "music from Kingston", "asked Ottawa").
pub(super) const BEFORE_NOT_HERE: [&str; 11] = [
    "from", "than", "outside", "near", "asked", "urged", "told", "toward", "towards", "to", "like",
];

/// Words before "of" that make the name after it a distance or an origin ("north of
/// Boston", "a native of Ottawa"); "residents of Hay River", "the mayor of Toronto" are
/// where the story happens.
pub(super) const BEFORE_OF_NOT_HERE: &[&str] = &[
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "outside",
    "miles",
    "mile",
    "kilometres",
    "kilometers",
    "km",
    "hours",
    "hour",
    "minutes",
    "native",
    "natives",
    "suburbs",
    "outskirts",
    "instead",
    "because",
    "out",
];

/// Two words before a name that make it a government, not a place ("a demandé à
/// Québec", "pidió a Washington"): French and Spanish forms of [`BEFORE_NOT_HERE`]'s
/// "asked" and "urged".
pub(super) const ASKED: &[[&str; 2]] = &[
    ["demande", "a"],
    ["reclame", "a"],
    ["exige", "de"],
    ["presse", "a"],
    ["pide", "a"],
    ["pidio", "a"],
    ["pidieron", "a"],
    ["exige", "a"],
    ["urge", "a"],
];

/// Whether the title and text (`parts`, with their words and folded words) name a
/// state or province, or the Maritimes.
pub(super) fn names_a_state_or_province(parts: &[&FoldedWords<'_>]) -> bool {
    parts.iter().any(|p| {
        p.words
            .iter()
            .enumerate()
            .any(|(i, w)| capitalized(w.text) && w.text.len() > 3 && ADMIN_NAMES.contains_key(p.folded(i)))
    }) || parts.iter().any(|p| fold(p.text).contains("maritimes"))
}
