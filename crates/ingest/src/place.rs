//! Place items on the map: US and Canadian cities named in a story, disambiguated by
//! what follows the name (", Maine", ", ON", ", France"), then by the publisher's own
//! state or province and country, then by size. A story that names no place is about
//! its publisher's city.

use geo::{City, fold};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::LazyLock;

/// Where the publisher is.
#[derive(Debug, Clone, Copy)]
pub struct PublisherArea<'a> {
    pub city: &'a str,
    pub admin_code: &'a str,
    pub country: &'a str,
}

/// Folded name → cities with that name (or alternate name).
static NAMES: LazyLock<FxHashMap<String, Vec<&'static City>>> = LazyLock::new(|| {
    let mut map: FxHashMap<String, Vec<&'static City>> = FxHashMap::default();
    for city in geo::all() {
        let mut names = vec![fold(city.name), fold(city.name_ascii)];
        names.extend(city.alt_names.iter().map(|n| fold(n)));
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

/// Every word of every name [`places`] can match (gazetteer names and nicknames): a span
/// with a word outside this set names nothing, so it is not looked up.
static NAME_WORDS: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
    NAMES
        .keys()
        .map(String::as_str)
        .chain(NICKNAMES.iter().map(|(k, _, _)| *k))
        .flat_map(|name| name.split(' '))
        .collect()
});

/// Folded state/province names and abbreviations → admin code.
static ADMINS: LazyLock<FxHashMap<String, &'static str>> = LazyLock::new(|| {
    let mut map = FxHashMap::default();
    for city in geo::all() {
        map.entry(fold(city.admin_name)).or_insert(city.admin_code);
        map.entry(fold(city.admin_code)).or_insert(city.admin_code);
    }
    // Common newspaper abbreviations.
    for (abbr, code) in [
        ("ont", "ON"),
        ("que", "QC"),
        ("qc", "QC"),
        ("b c", "BC"),
        ("bc", "BC"),
        ("alta", "AB"),
        ("sask", "SK"),
        ("man", "MB"),
        ("n s", "NS"),
        ("n b", "NB"),
        ("fla", "FL"),
        ("calif", "CA"),
        ("mass", "MA"),
        ("ill", "IL"),
        ("tex", "TX"),
        ("ore", "OR"),
        ("wash", "WA"),
        ("mich", "MI"),
        ("penn", "PA"),
        ("ariz", "AZ"),
        ("colo", "CO"),
        ("d c", "DC"),
        ("quebec", "QC"),
    ] {
        map.entry(abbr.to_string()).or_insert(code);
    }
    map
});

/// Countries whose name after a city means "not ours".
const FOREIGN: [&str; 24] = [
    "france",
    "england",
    "uk",
    "u k",
    "united kingdom",
    "britain",
    "scotland",
    "ireland",
    "mexico",
    "italy",
    "spain",
    "germany",
    "greece",
    "portugal",
    "japan",
    "china",
    "australia",
    "russia",
    "egypt",
    "israel",
    "brazil",
    "jamaica",
    "belgium",
    "switzerland",
];

/// Big cities abroad that share a name with a smaller US or Canadian one: tagged only
/// with a qualifier or from a publisher in the same state or province.
const WORLD_NAMES: [&str; 16] = [
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
];

/// Short forms newsrooms use, and boroughs and neighbourhoods GeoNames lists as places
/// of their own but readers file under their city.
const NICKNAMES: [(&str, &str, &str); 31] = [
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

/// Words that make a city name part of something else: "Washington state", "Santa Fe
/// Bridge", "puente Santa Fe", "Valle de San Fernando".
const AFTER_NOT_CITY: [&str; 16] = [
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
const BEFORE_NOT_CITY: [&str; 19] = [
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

/// Columns, opinion and service pieces (recipes, how-tos, reviews) are not about a
/// place unless they name one: titles starting with one of these (folded), or with
/// it after a space.
const PLACELESS_GENRES: [&str; 20] = [
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

fn is_placeless_genre(title: &str) -> bool {
    let t = fold_fast(title);
    PLACELESS_GENRES.iter().any(|p| {
        t.starts_with(p)
            || t.as_bytes()
                .windows(p.len() + 1)
                .any(|w| w[0] == b' ' && &w[1..] == p.as_bytes())
    })
}

/// Single words that are GeoNames places but far more often plain words.
const COMMON_WORDS: [&str; 17] = [
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
const BEFORE_NOT_HERE: [&str; 12] = [
    "from", "of", "than", "outside", "near", "asked", "urged", "told", "toward", "towards", "to", "like",
];

/// Whether the title and text (`parts`, with their words and folded words) name a
/// state or province, or the Maritimes.
fn names_a_state_or_province(parts: &[&FoldedWords<'_>]) -> bool {
    parts.iter().any(|p| {
        p.words
            .iter()
            .enumerate()
            .any(|(i, w)| capitalized(w.text) && w.text.len() > 3 && ADMINS.contains_key(p.folded(i)))
    }) || parts.iter().any(|p| fold_fast(p.text).contains("maritimes"))
}

fn part_of_other_name(text: &str, start: usize, end: usize) -> bool {
    let after = fold_fast(text.get(end..).unwrap_or("").split_whitespace().next().unwrap_or(""));
    let before_words: Vec<&str> = text
        .get(..start)
        .unwrap_or("")
        .split_whitespace()
        .rev()
        .take(2)
        .collect();
    let before1 = before_words.first().map(|w| fold_fast(w)).unwrap_or_default();
    let before2 = before_words
        .iter()
        .rev()
        .map(|w| fold_fast(w))
        .collect::<Vec<_>>()
        .join(" ");
    AFTER_NOT_CITY.contains(&after.as_str())
        || BEFORE_NOT_CITY.contains(&before1.as_str())
        || BEFORE_NOT_CITY.contains(&before2.as_str())
}

struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
}

fn words(text: &str) -> Vec<Word<'_>> {
    let mut out: Vec<Word<'_>> = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let part = c.is_alphanumeric() || c == '\'' || c == '’' || c == '.' || c == '-';
        match (part, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push(Word {
                    text: text[s..i].trim_end_matches('.'),
                    start: s,
                    end: i,
                });
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push(Word {
            text: text[s..].trim_end_matches('.'),
            start: s,
            end: text.len(),
        });
    }
    // French elision: "d'Ottawa", "l’Outaouais" → the name after the apostrophe.
    for w in &mut out {
        for prefix in ["d'", "l'", "d’", "l’", "D'", "L'", "D’", "L’"] {
            if let Some(rest) = w.text.strip_prefix(prefix)
                && rest.chars().next().is_some_and(char::is_uppercase)
            {
                w.start += prefix.len();
                w.text = rest;
            }
        }
    }
    out
}

/// A text's words with each word folded once (into one buffer).
struct FoldedWords<'a> {
    text: &'a str,
    words: Vec<Word<'a>>,
    buffer: String,
    /// Each word's fold, as a range of `buffer`.
    ranges: Vec<(usize, usize)>,
    /// Whether every word of the fold ("Trois-Rivières" folds to two) is in
    /// [`NAME_WORDS`]; worked out only for words that can be part of a name (capitalised,
    /// joiners, "nyc"), false for the others.
    in_names: Vec<bool>,
}

impl<'a> FoldedWords<'a> {
    fn new(text: &'a str) -> Self {
        let words = words(text);
        let mut buffer = String::with_capacity(text.len());
        let ranges = words
            .iter()
            .map(|w| {
                let start = buffer.len();
                fold_into(w.text, &mut buffer);
                (start, buffer.len())
            })
            .collect();
        let mut folded = Self {
            text,
            words,
            buffer,
            ranges,
            in_names: Vec::new(),
        };
        folded.in_names = (0..folded.words.len())
            .map(|i| {
                let (w, f) = (folded.words[i].text, folded.folded(i));
                (capitalized(w) || joiner(w) || f == "nyc")
                    && (f.is_empty() || f.split(' ').all(|w| NAME_WORDS.contains(w)))
            })
            .collect();
        folded
    }

    /// The fold of word `i`.
    fn folded(&self, i: usize) -> &str {
        let (start, end) = self.ranges[i];
        &self.buffer[start..end]
    }

    /// `fold` of words `from..to` joined by spaces (empty folds vanish in the join),
    /// written into `out`.
    fn span_fold(&self, from: usize, to: usize, out: &mut String) {
        out.clear();
        for f in (from..to).map(|i| self.folded(i)).filter(|f| !f.is_empty()) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(f);
        }
    }
}

/// `geo::fold`, without Unicode normalisation for ASCII text. fold(a + " " + b) is
/// fold(a) and fold(b) joined by a space when both are non-empty (an ASCII space
/// separates words and stops normalisation), so each whitespace-separated piece is
/// folded apart: inline when ASCII, by `geo::fold` otherwise.
fn fold_fast(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    fold_into(text, &mut out);
    out
}

/// [`fold_fast`], appended to `out`.
fn fold_into(text: &str, out: &mut String) {
    let start = out.len();
    for piece in text.split_ascii_whitespace() {
        let piece_start = out.len();
        if piece_start > start {
            out.push(' ');
        }
        let body_start = out.len();
        if piece.is_ascii() {
            let mut pending_space = false;
            for b in piece.bytes() {
                if matches!(b, b'\'' | b'`') {
                    continue;
                }
                if b.is_ascii_alphanumeric() {
                    if pending_space && out.len() > body_start {
                        out.push(' ');
                    }
                    pending_space = false;
                    out.push(char::from(b.to_ascii_lowercase()));
                } else {
                    pending_space = true;
                }
            }
        } else {
            out.push_str(&fold(piece));
        }
        if out.len() == body_start {
            out.truncate(piece_start);
        }
    }
}

fn capitalized(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Joiners allowed inside a multi-word name (Saint-Jean-sur-Richelieu is one word;
/// "Rouyn Noranda", "Baie des Chaleurs" are not).
fn joiner(word: &str) -> bool {
    matches!(
        word,
        "de" | "des" | "du" | "la" | "le" | "sur" | "of" | "del" | "los" | "las" | "on"
    )
}

/// What follows a name: ", Maine" → Some(Ok("ME")), ", France" → Some(Err(())).
fn qualifier(text: &str, after: usize) -> Option<Result<&'static str, ()>> {
    let rest = text.get(after..)?;
    let rest = rest
        .strip_prefix(',')
        .or_else(|| rest.strip_prefix(" ("))
        .or_else(|| rest.strip_prefix(" in "))?;
    let words: Vec<&str> = rest.split_whitespace().take(3).collect();
    for n in (1..=words.len().min(3)).rev() {
        let candidate = fold_fast(&words[..n].join(" "));
        if FOREIGN.contains(&candidate.as_str()) {
            return Some(Err(()));
        }
        if let Some(code) = ADMINS.get(&candidate) {
            return Some(Ok(code));
        }
    }
    None
}

fn choose(
    candidates: &[&'static City],
    folded: &str,
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
        return candidates.iter().copied().find(|c| {
            c.admin_code == publisher.admin_code && c.iso.iso() == publisher.country && c.population >= 100_000
        });
    }
    if let Some(local) = candidates.iter().copied().find(|c| {
        c.admin_code == publisher.admin_code
            && c.iso.iso() == publisher.country
            && c.population.saturating_mul(10) >= largest
    }) {
        return Some(local);
    }
    if WORLD_NAMES.contains(&folded) {
        return None;
    }
    let same_country = candidates.iter().copied().find(|c| c.iso.iso() == publisher.country);
    if let Some(c) = same_country.filter(|c| c.population >= 100_000) {
        return Some(c);
    }
    candidates.first().copied().filter(|c| c.population >= 250_000)
}

/// The US and Canadian cities a story is about.
pub fn places(title: &str, text: &str, publisher: &PublisherArea<'_>) -> Vec<&'static City> {
    let mut found: Vec<&'static City> = Vec::new();
    // Cities named in the title before "in/à/en <Place>" say where someone comes from
    // ("Chicago chef wins award in New York"), not where the story happens.
    let mut origins: Vec<&'static City> = Vec::new();
    let mut title_places = 0;
    let mut named_abroad = false;
    let parts = [FoldedWords::new(title), FoldedWords::new(text)];
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
                ws.windows(2).position(|w| {
                    matches!(w[0].text, "in" | "à" | "en" | "at" | "to" | "a" | "vers")
                        && capitalized(w[1].text)
                        && !matches!(w[1].text, "El" | "La" | "Le" | "Los" | "Las" | "The")
                })
            })
            .flatten();
        let mut i = 0;
        while i < ws.len() {
            let mut matched = None;
            if capitalized(ws[i].text) || fw.folded(i) == "nyc" {
                let previous = i.checked_sub(1).map_or("", |p| fw.folded(p));
                // Longest name first, up to five words.
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
                        if matches!(qualifier(part, end), Some(Err(()))) {
                            named_abroad = true;
                            matched = Some((n + 1, None));
                            break;
                        }
                        continue;
                    }
                    fw.span_fold(i, i + n, &mut folded);
                    let folded = folded.as_str();
                    let nickname = NICKNAMES.iter().find(|(k, _, _)| *k == folded);
                    let known = NAMES.contains_key(folded) || nickname.is_some();
                    if known
                        && (part_of_other_name(part, span[0].start, end)
                            || (n == 1 && COMMON_WORDS.contains(&folded))
                            // "le Québec", "au Québec": the province.
                            || (folded == "quebec" && matches!(previous, "le" | "au" | "du"))
                            || BEFORE_NOT_HERE.contains(&previous))
                    {
                        matched = Some((n, None));
                        break;
                    }
                    let qual = qualifier(part, end);
                    if matches!(qual, Some(Err(()))) {
                        // "Kingston, Jamaica": skip the place and its country; the story
                        // is (at least partly) abroad, so no fallback to the home city.
                        named_abroad = true;
                        matched = Some((n + 1, None));
                        break;
                    }
                    let city = match nickname {
                        Some((_, name, code)) => NAMES
                            .get(&fold(name))
                            .and_then(|l| l.iter().copied().find(|c| c.admin_code == *code)),
                        None => NAMES
                            .get(folded)
                            .and_then(|list| choose(list, folded, qual.and_then(Result::ok), publisher)),
                    };
                    if city.is_some() || nickname.is_some() {
                        matched = Some((n, city));
                        break;
                    }
                }
            }
            match matched {
                Some((n, city)) => {
                    if let Some(city) = city {
                        // Once the title places the story, other cities in the body are
                        // mostly comparisons, distances and origins: keep only nearby
                        // ones and the ones the text qualifies with their state.
                        let qualified = matches!(qualifier(part, ws[i + n - 1].end), Some(Ok(_)));
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
        && let Some(home) = NAMES
            .get(&fold_fast(publisher.city))
            .and_then(|l| l.iter().copied().find(|c| c.admin_code == publisher.admin_code))
        && !is_placeless_genre(title)
        && !names_a_state_or_province(&[&parts[0], &parts[1]])
    {
        found.push(home);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(title: &str, text: &str, city: &str, admin: &str, country: &str) -> Vec<(String, String)> {
        let area = PublisherArea {
            city,
            admin_code: admin,
            country,
        };
        places(title, text, &area)
            .into_iter()
            .map(|c| (c.name.to_string(), c.admin_code.to_string()))
            .collect()
    }

    fn pair(name: &str, admin: &str) -> (String, String) {
        (name.to_string(), admin.to_string())
    }

    #[test]
    fn fast_fold_is_fold() {
        for text in [
            "  St. John's, NL ",
            "Montréal-Nord et l’Outaouais",
            "Trois-Rivières",
            "Œuvre-ÆSS ß",
            "d'Ottawa `x` --",
            "Montre\u{301}al İstanbul",
            "a\tb\nc  ",
            "",
            "'",
        ] {
            assert_eq!(fold_fast(text), fold(text), "{text:?}");
        }
    }

    #[test]
    fn portland_is_disambiguated_by_qualifier_and_publisher() {
        assert_eq!(
            tags("Ferry fares rise in Portland", "", "Bangor", "ME", "US"),
            vec![pair("Portland", "ME")]
        );
        assert_eq!(
            tags("Ferry fares rise in Portland", "", "Salem", "OR", "US"),
            vec![pair("Portland", "OR")]
        );
        assert_eq!(
            tags(
                "Council votes",
                "A new clinic in Portland, Maine, opened.",
                "Boston",
                "MA",
                "US"
            ),
            vec![pair("Portland", "ME")]
        );
    }

    #[test]
    fn foreign_places_are_never_tagged() {
        assert!(
            tags("Chef cooks in Paris, France", "", "Paris", "TX", "US").is_empty()
                || !tags("Chef cooks in Paris, France", "", "Paris", "TX", "US").contains(&pair("Paris", "TX"))
        );
        assert!(!tags("Choir sings in Dublin and Belfast", "", "Atlanta", "GA", "US").contains(&pair("Dublin", "GA")));
    }

    #[test]
    fn neighbourhoods_are_filed_under_their_city() {
        assert_eq!(
            tags("Brooklyn bakery expands", "", "New York City", "NY", "US"),
            vec![pair("New York City", "NY")]
        );
        assert_eq!(
            tags("Fête de quartier à Hull", "", "Gatineau", "QC", "CA"),
            vec![pair("Gatineau", "QC")]
        );
    }

    #[test]
    fn an_unplaced_local_story_is_about_the_publishers_city_but_a_recipe_is_not() {
        assert_eq!(
            tags(
                "City council delays budget vote",
                "Members asked for new estimates.",
                "Ottawa",
                "ON",
                "CA"
            ),
            vec![pair("Ottawa", "ON")]
        );
        assert!(tags("Recipe: pumpkin soup for cold nights", "", "Ottawa", "ON", "CA").is_empty());
    }

    #[test]
    fn origins_in_titles_are_not_where_the_story_happens() {
        assert_eq!(
            tags("Chicago chef wins award in New York", "", "Chicago", "IL", "US"),
            vec![pair("New York City", "NY")]
        );
    }
}
