//! A story's places, language and publisher's country as search tokens, and the tokens a
//! search's filters ask for: the same words for both engines' full-text indexes (SQLite's
//! `news_tags`, D430; PostgreSQL's `search` vector, D431), so a filtered search intersects
//! two lists in the index instead of testing each word match's row.

use store::content::PlaceKey;

/// A token is letters and digits only (SQLite's tokenizer splits on anything else, and
/// with `detail = none` a query cannot ask for two tokens side by side). The migrations
/// that write tokens for older stories strip the same characters (`:`, `-`, `_`).
fn token(kind: char, value: &str) -> String {
    std::iter::once(kind)
        .chain(value.chars().filter(char::is_ascii_alphanumeric))
        .collect()
}

fn place_token(place: &str) -> String {
    token('p', place)
}

fn lang_token(lang: &str) -> String {
    token('l', lang)
}

fn country_token(country: &str) -> String {
    token('k', country)
}

/// Both at once: a reader's language and country are one list to walk, not two (walking
/// two long lists together cost a French Canadian reader's search most of its time).
fn edition_token(lang: &str, country: &str) -> String {
    token('x', &format!("{lang}{country}"))
}

/// A story's tokens: its language, its publisher's country, both together, and each of
/// its places.
pub(crate) fn story_tokens(lang: &str, country: &str, places: &[PlaceKey]) -> Vec<String> {
    let mut tokens = vec![lang_token(lang), country_token(country), edition_token(lang, country)];
    tokens.extend(places.iter().map(|p| place_token(&p.key())));
    tokens
}

/// The tokens a search's filters ask for, every one of which a story must hold; none
/// when no filter is given.
pub(crate) fn filter_tokens(place: Option<&str>, lang: Option<&str>, country: Option<&str>) -> Vec<String> {
    let edition = match (lang, country) {
        (Some(lang), Some(country)) => Some(edition_token(lang, country)),
        (Some(lang), None) => Some(lang_token(lang)),
        (None, Some(country)) => Some(country_token(country)),
        (None, None) => None,
    };
    [place.map(place_token), edition].into_iter().flatten().collect()
}
