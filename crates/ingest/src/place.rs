//! Place items on the map: US and Canadian cities named in a story, disambiguated by
//! what follows the name (", Maine", ", ON", ", France"), then by the publisher's own
//! state or province and country, then by size. A story that names no place is about
//! its publisher's city.

use geo::{City, fold};
use std::collections::HashMap;
use std::sync::LazyLock;

/// Where the publisher is.
#[derive(Debug, Clone, Copy)]
pub struct PublisherArea<'a> {
    pub city: &'a str,
    pub admin_code: &'a str,
    pub country: &'a str,
}

/// Folded name → cities with that name (or alternate name).
static NAMES: LazyLock<HashMap<String, Vec<&'static City>>> = LazyLock::new(|| {
    let mut map: HashMap<String, Vec<&'static City>> = HashMap::new();
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

/// Folded state/province names and abbreviations → admin code.
static ADMINS: LazyLock<HashMap<String, &'static str>> = LazyLock::new(|| {
    let mut map = HashMap::new();
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
/// place unless they name one.
fn is_placeless_genre(title: &str) -> bool {
    let t = fold(title);
    [
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
    ]
    .iter()
    .any(|p| t.starts_with(p) || t.contains(&format!(" {p}")))
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

fn names_a_state_or_province(text: &str) -> bool {
    words(text)
        .iter()
        .any(|w| capitalized(w.text) && w.text.len() > 3 && ADMINS.contains_key(&fold(w.text)))
        || fold(text).contains("maritimes")
}

fn part_of_other_name(text: &str, start: usize, end: usize) -> bool {
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
        let candidate = fold(&words[..n].join(" "));
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
    for (part_index, part) in [title, text].into_iter().enumerate() {
        if part_index == 1 {
            title_places = found.len();
        }
        let ws = words(part);
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
            if capitalized(ws[i].text) || fold(ws[i].text) == "nyc" {
                // Longest name first, up to five words.
                for n in (1..=5.min(ws.len() - i)).rev() {
                    let span = &ws[i..i + n];
                    if span.iter().skip(1).any(|w| !capitalized(w.text) && !joiner(w.text)) {
                        continue;
                    }
                    let folded = fold(&span.iter().map(|w| w.text).collect::<Vec<_>>().join(" "));
                    let nickname = NICKNAMES.iter().find(|(k, _, _)| *k == folded);
                    let end = span[n - 1].end;
                    let known = NAMES.contains_key(&folded) || nickname.is_some();
                    let previous = i.checked_sub(1).map(|p| fold(ws[p].text)).unwrap_or_default();
                    if known
                        && (part_of_other_name(part, span[0].start, end)
                            || (n == 1 && COMMON_WORDS.contains(&folded.as_str()))
                            // "le Québec", "au Québec": the province.
                            || (folded == "quebec" && matches!(previous.as_str(), "le" | "au" | "du"))
                            || BEFORE_NOT_HERE.contains(&previous.as_str()))
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
                            .get(&folded)
                            .and_then(|list| choose(list, &folded, qual.and_then(Result::ok), publisher)),
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
    if found.is_empty()
        && origins.is_empty()
        && !named_abroad
        && !is_placeless_genre(title)
        && !names_a_state_or_province(&format!("{title} {text}"))
        && let Some(home) = NAMES
            .get(&fold(publisher.city))
            .and_then(|l| l.iter().copied().find(|c| c.admin_code == publisher.admin_code))
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
