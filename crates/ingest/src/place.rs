//! Place items on the map: US and Canadian cities named in a story, disambiguated by
//! what follows the name (", Maine", ", ON", ", France"), then by the publisher's own
//! state or province and country, then by size. A story that names no place is about
//! its publisher's city. State and province names are places of their own, the longest
//! name wins, and people named like cities are not places (docs/decisions.md D61, D215).

use domain::text::{fold, fold_into};
use geo::{Capital, City};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::LazyLock;

/// Where the publisher is.
#[derive(Debug, Clone, Copy)]
pub struct PublisherArea<'a> {
    pub city: &'a str,
    pub admin_code: &'a str,
    pub country: &'a str,
}

/// Folded name → cities with that name, alternate name or exonym ("Nueva York", "San
/// Luis"). Keys have their short forms spelled out (`geo::long_forms`: "saint louis", not
/// "st louis"), and so do the spans looked up in it.
static NAMES: LazyLock<FxHashMap<String, Vec<&'static City>>> = LazyLock::new(|| {
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

/// Every word of every name [`places`] can match (gazetteer names and nicknames): a span
/// with a word outside this set names nothing, so it is not looked up.
static NAME_WORDS: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| {
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
/// [`reads_as_city`] says otherwise.
static ADMIN_NAMES: LazyLock<FxHashMap<String, &'static str>> = LazyLock::new(|| {
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
static QUALIFIERS: LazyLock<FxHashMap<String, &'static str>> = LazyLock::new(|| {
    let mut map: FxHashMap<String, &'static str> = ADMIN_NAMES.iter().map(|(k, v)| (k.clone(), *v)).collect();
    for city in geo::all() {
        map.entry(fold(city.admin_code)).or_insert(city.admin_code);
    }
    for alias in geo::admin_names() {
        map.entry(fold(alias.name)).or_insert(alias.admin_code);
    }
    map
});

/// Names that are both a state or province and a city people mean more often than the
/// state when they write the bare name: the city unless the words around it say state
/// ("upstate New York", "l'État de New York", "le Québec"; a Washington-state publisher's
/// "Washington").
const CITY_FIRST: [&str; 4] = ["new york", "nueva york", "washington", "quebec"];

/// Words before a [`CITY_FIRST`] name that make it the state or province.
const BEFORE_STATE: [&str; 11] = [
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

/// Countries (in en, fr, es) whose name after a city means "not ours".
const FOREIGN: &[&str] = &[
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
    "puerto rico",
    "cuba",
    "colombia",
    "mexique",
    "italie",
    "italia",
    "espagne",
    "espana",
    "allemagne",
    "alemania",
    "angleterre",
    "inglaterra",
    "royaume uni",
    "reino unido",
    "irlande",
    "irlanda",
    "ecosse",
    "escocia",
    "japon",
    "chine",
    "belgique",
    "belgica",
    "suisse",
    "suiza",
    "colombie",
    "porto rico",
    "haiti",
];

/// Big cities abroad that share a name with a smaller US or Canadian one: tagged only
/// with a qualifier or from a publisher in the same state or province. A story that names
/// one (and no US or Canadian city) is not about its publisher's city.
const WORLD_NAMES: &[&str] = &[
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

/// Common given names and surnames that are also names of US or Canadian cities. Written
/// by the Localwire authors. A bare one is a person when a title or another name stands
/// next to it ("Council member Tamika Jackson", "Abraham Lincoln", "Regina Morales") or
/// when a verb of speech follows; then it is a person everywhere in the story.
const PERSON_NAMES: &[&str] = &[
    "jackson",
    "lincoln",
    "madison",
    "pierre",
    "regina",
    "victoria",
    "savannah",
    "tyler",
    "austin",
    "dallas",
    "houston",
    "charlotte",
    "orlando",
    "eugene",
    "helena",
    "florence",
    "elizabeth",
    "warren",
    "troy",
    "gary",
    "marion",
    "clinton",
    "franklin",
    "chester",
    "kent",
    "irving",
    "lawrence",
    "douglas",
    "jordan",
    "chandler",
    "gilbert",
    "norman",
    "quincy",
    "sherman",
    "bryan",
    "allen",
    "murray",
    "taylor",
    "hudson",
    "monroe",
    "jefferson",
    "harrison",
    "lafayette",
    "beaumont",
    "denton",
    "layton",
    "sandy",
    "camden",
];

static PERSON_NAME_SET: LazyLock<FxHashSet<&'static str>> = LazyLock::new(|| PERSON_NAMES.iter().copied().collect());

/// Titles before a person's name (folded), in en, fr and es.
const PERSON_TITLES: &[&str] = &[
    "mayor",
    "sen",
    "senator",
    "rep",
    "gov",
    "governor",
    "dr",
    "mr",
    "mrs",
    "ms",
    "president",
    "justice",
    "judge",
    "coach",
    "officer",
    "sgt",
    "det",
    "lt",
    "capt",
    "gen",
    "rev",
    "singer",
    "actor",
    "actress",
    "quarterback",
    "councillor",
    "councilor",
    "member",
    "minister",
    "premier",
    "chief",
    "m",
    "mme",
    "maire",
    "mairesse",
    "depute",
    "deputee",
    "ministre",
    "juge",
    "chanteur",
    "chanteuse",
    "comedien",
    "comedienne",
    "sr",
    "sra",
    "srta",
    "dra",
    "alcalde",
    "alcaldesa",
    "concejal",
    "concejala",
    "senador",
    "senadora",
    "gobernador",
    "gobernadora",
    "juez",
    "jueza",
    "presidente",
    "presidenta",
    "cantante",
    "actriz",
    "entrenador",
    "don",
    "dona",
];

/// Verbs of speech after a name: "Jackson said", "Lincoln dijo".
const SAID: &[&str] = &[
    "said", "says", "told", "added", "dijo", "afirmo", "declaro", "explico", "dice", "affirme", "explique", "estime",
    "declare",
];

/// Words before a name that belong to the place, not to a person ("Downtown Jackson").
const PLACE_PREFIXES: &[&str] = &[
    "downtown", "metro", "greater", "old", "upper", "lower", "north", "south", "east", "west", "central", "northern",
    "southern", "eastern", "western", "suburban", "rural", "vieux", "grand", "gran", "the", "in", "at", "el", "la",
    "le", "los", "las", "les", "en", "a", "de", "of",
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
    let t = fold(title);
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
const BEFORE_NOT_HERE: [&str; 11] = [
    "from", "than", "outside", "near", "asked", "urged", "told", "toward", "towards", "to", "like",
];

/// Words before "of" that make the name after it a distance or an origin ("north of
/// Boston", "a native of Ottawa"); "residents of Hay River", "the mayor of Toronto" are
/// where the story happens.
const BEFORE_OF_NOT_HERE: &[&str] = &[
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
const ASKED: &[[&str; 2]] = &[
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
fn names_a_state_or_province(parts: &[&FoldedWords<'_>]) -> bool {
    parts.iter().any(|p| {
        p.words
            .iter()
            .enumerate()
            .any(|(i, w)| capitalized(w.text) && w.text.len() > 3 && ADMIN_NAMES.contains_key(p.folded(i)))
    }) || parts.iter().any(|p| fold(p.text).contains("maritimes"))
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

/// What a name's qualifier says: the state or province, or a country abroad.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Qualifier {
    Admin(&'static str),
    Abroad,
}

/// Words between a city and its state in French and Spanish and long English forms
/// ("Kelowna, en Colombie-Britannique", "Plattsburgh, dans l'État de New York", "in the
/// state of Washington"); skipped when lower case (or the "État"/"estado"/"state" word).
const QUALIFIER_LEAD: [&str; 17] = [
    "en", "au", "aux", "a", "dans", "in", "the", "of", "de", "la", "le", "el", "del", "province", "etat", "estado",
    "state",
];

/// What follows a name: ", Maine" → Admin("ME"), ", N.Y." → Admin("NY"), ", en Floride"
/// → Admin("FL"), " (Ontario)" → Admin("ON"), ", France" → Abroad; with the byte offset in
/// `text` where the qualifier ends, so its words are not read again as places.
fn qualifier(text: &str, after: usize) -> Option<(Qualifier, usize)> {
    let rest = text.get(after..)?;
    let skip = if rest.starts_with(',') {
        1
    } else if rest.starts_with(" (") {
        2
    } else if rest.starts_with(" in ") {
        4
    } else {
        return None;
    };
    let start = after + skip;
    // A qualifier is a few words: look no further than 60 bytes.
    let mut end = (start + 60).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let window = &text[start..end];
    let ws = words(window);
    let folds: Vec<String> = ws.iter().take(7).map(|w| fold(w.text)).collect();
    let lead = ws
        .iter()
        .zip(&folds)
        .take(4)
        .take_while(|(w, f)| {
            QUALIFIER_LEAD.contains(&f.as_str())
                && (w.text.chars().all(char::is_lowercase) || matches!(f.as_str(), "etat" | "estado" | "state"))
        })
        .count();
    let (ws, folds) = (&ws[lead..], &folds[lead..]);
    let mut candidate = String::new();
    for n in (1..=folds.len().min(3)).rev() {
        candidate.clear();
        for f in folds[..n].iter().filter(|f| !f.is_empty()) {
            if !candidate.is_empty() {
                candidate.push(' ');
            }
            candidate.push_str(f);
        }
        let qualifier_end = start + ws[n - 1].end;
        if FOREIGN.contains(&candidate.as_str()) {
            return Some((Qualifier::Abroad, qualifier_end));
        }
        // "Portland, or", "Halifax, on": a postal code is written in capitals.
        let lower_two_letters = n == 1 && candidate.len() == 2 && !ws[0].text.chars().any(char::is_uppercase);
        if let Some(code) = QUALIFIERS.get(&candidate).filter(|_| !lower_two_letters) {
            return Some((Qualifier::Admin(code), qualifier_end));
        }
    }
    None
}

fn choose(
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
fn reads_as_city(
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

/// Whether part `fw` is written in Title Case (most longer words capitalised), where a
/// capital letter says nothing about names.
fn title_case(fw: &FoldedWords<'_>) -> bool {
    let long: Vec<&Word<'_>> = fw.words.iter().filter(|w| w.text.chars().count() >= 4).collect();
    long.len() >= 3 && long.iter().filter(|w| capitalized(w.text)).count() * 5 >= long.len() * 4
}

/// Whether word `i` of `fw` starts a sentence (or the part).
fn sentence_start(fw: &FoldedWords<'_>, i: usize) -> bool {
    i == 0
        || fw
            .text
            .get(fw.words[i - 1].start..fw.words[i].start)
            .is_none_or(|between| {
                let between = between.trim_start_matches(|c: char| c.is_alphanumeric());
                between.contains(['.', '!', '?', ':', '"', '“', '«', '—'])
            })
}

/// [`PERSON_NAMES`] used as a person's name anywhere in the story: after a title
/// ("Mayor Jackson", "le député Pierre Gagnon"), after a capitalised given name inside a
/// sentence ("Abraham Lincoln"), or before a verb of speech ("Jackson said").
fn people(parts: &[&FoldedWords<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    for fw in parts {
        let mut cased = None;
        for i in 0..fw.words.len() {
            let f = fw.folded(i);
            if !capitalized(fw.words[i].text) || !PERSON_NAME_SET.contains(f) || out.iter().any(|o| o == f) {
                continue;
            }
            let previous = i.checked_sub(1).map(|p| (fw.folded(p), capitalized(fw.words[p].text)));
            let titled = previous.is_some_and(|(p, _)| PERSON_TITLES.contains(&p));
            let given_name = previous.is_some_and(|(p, cap)| {
                cap && !PLACE_PREFIXES.contains(&p)
                    && fw.text.get(fw.words[i - 1].end..fw.words[i].start) == Some(" ")
                    && !sentence_start(fw, i - 1)
                    && !*cased.get_or_insert_with(|| title_case(fw))
            });
            let next = |k: usize| if i + k < fw.words.len() { fw.folded(i + k) } else { "" };
            let speaks = SAID.contains(&next(1)) || (next(1) == "a" && matches!(next(2), "dit" | "declare"));
            if titled || given_name || speaks {
                out.push(f.to_string());
            }
        }
    }
    out
}

/// Whether a [`PERSON_NAMES`] word `i` is followed by a surname here ("Savannah Price",
/// "Regina Morales"): a capitalised word right after it, in a part not in Title Case.
fn followed_by_surname(fw: &FoldedWords<'_>, i: usize) -> bool {
    let Some(next) = fw.words.get(i + 1) else {
        return false;
    };
    let gap = fw.text.get(fw.words[i].end..next.start).unwrap_or("");
    capitalized(next.text)
        && gap == " "
        && !AFTER_NOT_CITY.contains(&fw.folded(i + 1))
        && !matches!(
            fw.folded(i + 1),
            "city" | "county" | "police" | "public" | "airport" | "area" | "region"
        )
        && !title_case(fw)
}

/// The [`NAMES`] key of the publisher's city ("St. Louis" → "saint louis").
fn home_key(city: &str) -> String {
    let folded = fold(city);
    geo::long_forms(&folded).unwrap_or(folded)
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

    fn names(title: &str, text: &str, city: &str, admin: &str, country: &str) -> Vec<String> {
        tags(title, text, city, admin, country)
            .into_iter()
            .map(|(name, admin)| format!("{name}, {admin}"))
            .collect()
    }

    #[test]
    fn ap_style_state_abbreviations_place_the_story() {
        let story = |text: &str| names("Council news", text, "Washington", "DC", "US");
        assert_eq!(story("A bridge in Binghamton, N.Y., will close."), ["Binghamton, NY"]);
        assert_eq!(story("A clinic in Rochester, Minn., will expand."), ["Rochester, MN"]);
        assert_eq!(story("Voters in Cookeville, Tenn., said yes."), ["Cookeville, TN"]);
        assert_eq!(story("Kansas City, Kan., opened a library."), ["Kansas City, KS"]);
        let canada = |text: &str| names("Nouvelles", text, "Toronto", "ON", "CA");
        assert_eq!(
            canada("Residents of Hay River, N.W.T., left on Sunday."),
            ["Hay River, NT"]
        );
        assert_eq!(canada("Summerside, P.E.I., will build an arena."), ["Summerside, PE"]);
        assert_eq!(canada("Crews in Brandon, Man., hired paramedics."), ["Brandon, MB"]);
        // A lower-case word after a comma is not a postal code ("Portland, or").
        assert_eq!(
            names(
                "Ferry fares",
                "Fares rise in Portland, or so riders say.",
                "Bangor",
                "ME",
                "US"
            ),
            ["Portland, ME"]
        );
    }

    #[test]
    fn british_columbia_is_not_columbia_south_carolina() {
        assert!(names("British Columbia raises its minimum wage", "", "Chicago", "IL", "US").is_empty());
        assert!(
            names(
                "Nieve en Columbia Británica",
                "Cierran carreteras.",
                "Los Angeles",
                "CA",
                "US"
            )
            .is_empty()
        );
        assert!(
            names(
                "La Colombie-Britannique hausse le salaire minimum",
                "",
                "Montréal",
                "QC",
                "CA"
            )
            .is_empty()
        );
        assert_eq!(
            names(
                "Storm hits Columbia, S.C.",
                "Trees fell on homes.",
                "Chicago",
                "IL",
                "US"
            ),
            ["Columbia, SC"]
        );
    }

    #[test]
    fn ontario_the_province_is_not_ontario_california() {
        assert!(
            names(
                "Ontario to build new reactors",
                "The province said so.",
                "New York City",
                "NY",
                "US"
            )
            .is_empty()
        );
        // A California paper's Ontario is its neighbour; a qualifier says so anywhere.
        assert_eq!(
            names(
                "Warehouse jobs",
                "A grocer opened a warehouse in Ontario with 600 jobs.",
                "Los Angeles",
                "CA",
                "US"
            ),
            ["Ontario, CA"]
        );
        assert_eq!(
            names(
                "Warehouse jobs",
                "A grocer opened a warehouse in Ontario, Calif.",
                "Toronto",
                "ON",
                "CA"
            ),
            ["Ontario, CA"]
        );
    }

    #[test]
    fn washington_state_and_new_york_state_are_not_the_cities() {
        assert!(names("Washington lawmakers pass ferry funding", "", "Seattle", "WA", "US").is_empty());
        assert_eq!(
            names("Senators meet in Washington", "", "Boston", "MA", "US"),
            ["Washington, DC"]
        );
        assert_eq!(
            names(
                "Upstate New York braces for snow",
                "The heaviest totals will be in Watertown.",
                "New York City",
                "NY",
                "US"
            ),
            ["Watertown, NY"]
        );
        // The state after a city is its qualifier, not a second place.
        assert_eq!(
            names("Snow buries Buffalo, New York", "", "Chicago", "IL", "US"),
            ["Buffalo, NY"]
        );
    }

    #[test]
    fn territories_are_not_cities_and_their_capitals_are_known() {
        assert!(
            names(
                "Yukon bans plastic bags",
                "The territory acted on Monday.",
                "Vancouver",
                "BC",
                "CA"
            )
            .is_empty()
        );
        assert!(
            names(
                "Les Territoires du Nord-Ouest déclarent l'état d'urgence",
                "",
                "Montréal",
                "QC",
                "CA"
            )
            .is_empty()
        );
        assert_eq!(
            names(
                "Housing bill passes",
                "Nunavut's legislature in Iqaluit passed it.",
                "Toronto",
                "ON",
                "CA"
            ),
            ["Iqaluit, NU"]
        );
        assert_eq!(
            names("Whitehorse opens a clinic", "", "Vancouver", "BC", "CA"),
            ["Whitehorse, YT"]
        );
    }

    #[test]
    fn well_known_cities_need_no_qualifier_in_a_national_story() {
        assert_eq!(
            names("Premiers meet in Charlottetown", "", "Toronto", "ON", "CA"),
            ["Charlottetown, PE"]
        );
        assert_eq!(
            names("Plant to open in Boise", "", "Calgary", "AB", "CA"),
            ["Boise, ID"]
        );
        assert_eq!(
            names("Moncton hosts curling final", "", "Vancouver", "BC", "CA"),
            ["Moncton, NB"]
        );
        // A person's first name is not a small capital: "Pierre" is not Pierre, S.D.
        assert!(
            !names("Pierre a gagné", "Pierre a remporté le prix.", "Montréal", "QC", "CA")
                .contains(&"Pierre, SD".to_string())
        );
    }

    #[test]
    fn saint_and_st_forms_name_the_same_city() {
        assert_eq!(
            names("St. Paul council votes", "", "Denver", "CO", "US"),
            ["Saint Paul, MN"]
        );
        assert_eq!(
            names("Saint Louis zoo expands", "", "New York City", "NY", "US"),
            ["St. Louis, MO"]
        );
        assert_eq!(
            names("Une usine ferme à St-Jean-sur-Richelieu", "", "Montréal", "QC", "CA"),
            ["Saint-Jean-sur-Richelieu, QC"]
        );
        assert_eq!(
            names("Locks close in Sault Ste. Marie, Mich.", "", "Chicago", "IL", "US"),
            ["Sault Ste. Marie, MI"]
        );
        assert_eq!(
            names("Fog in St. John's", "", "Toronto", "ON", "CA"),
            ["St. John's, NL"]
        );
        assert_eq!(
            names("Ft. Lauderdale beach closes", "", "Boston", "MA", "US"),
            ["Fort Lauderdale, FL"]
        );
    }

    #[test]
    fn french_and_spanish_state_and_province_names_qualify_cities() {
        assert_eq!(
            names(
                "Un pont fermé à Bathurst, au Nouveau-Brunswick",
                "",
                "Montréal",
                "QC",
                "CA"
            ),
            ["Bathurst, NB"]
        );
        assert_eq!(
            names("Huracán en Wilmington, Carolina del Norte", "", "Houston", "TX", "US"),
            ["Wilmington, NC"]
        );
        // El Paso's Texan namesake loses to the qualifier.
        assert_eq!(
            names("Santa Fe, Nuevo México, limita las rentas", "", "El Paso", "TX", "US"),
            ["Santa Fe, NM"]
        );
        assert_eq!(
            names("Inundaciones en San Luis, Misuri", "", "Chicago", "IL", "US"),
            ["St. Louis, MO"]
        );
        assert_eq!(
            names("Nueva York prohíbe el gas", "", "Miami", "FL", "US"),
            ["New York City, NY"]
        );
        assert_eq!(
            names(
                "Inondations",
                "Les pluies ont inondé Plattsburgh, dans l'État de New York.",
                "Montréal",
                "QC",
                "CA"
            ),
            ["Plattsburgh, NY"]
        );
        assert_eq!(
            names(
                "Des feux menacent Penticton, en Colombie-Britannique",
                "",
                "Gatineau",
                "QC",
                "CA"
            ),
            ["Penticton, BC"]
        );
    }

    #[test]
    fn miami_beach_is_not_miami() {
        assert_eq!(
            names("Miami Beach bans spring break parties", "", "New York City", "NY", "US"),
            ["Miami Beach, FL"]
        );
        assert_eq!(
            names("North Vancouver seawall closes", "", "Ottawa", "ON", "CA"),
            ["North Vancouver, BC"]
        );
        assert_eq!(
            names("New Westminster adds a station", "", "Toronto", "ON", "CA"),
            ["New Westminster, BC"]
        );
        assert_eq!(
            names("Fire in Kansas City, Kansas", "", "Kansas City", "MO", "US"),
            ["Kansas City, KS"]
        );
        // A longer name nobody picks still hides the shorter one inside it.
        assert!(
            !names("Palm Beach Gardens opens a park", "", "Seattle", "WA", "US")
                .contains(&"Palm Beach, FL".to_string())
        );
    }

    #[test]
    fn people_named_like_cities_are_not_places() {
        assert_eq!(
            names(
                "Jackson wins council seat",
                "Council member Tamika Jackson won re-election in D.C. on Tuesday.",
                "Washington",
                "DC",
                "US"
            ),
            ["Washington, DC"]
        );
        assert_eq!(
            names(
                "Lincoln statue returns",
                "A statue of Abraham Lincoln was reinstalled in Springfield.",
                "Chicago",
                "IL",
                "US"
            ),
            ["Springfield, IL"]
        );
        assert_eq!(
            names("Singer Savannah Price plays the Fox", "", "Atlanta", "GA", "US"),
            ["Atlanta, GA"]
        );
        assert_eq!(
            names("Concejal Lincoln Ortiz pide más buses", "", "New York City", "NY", "US"),
            ["New York City, NY"]
        );
        // The city stays a city next to another place name.
        assert_eq!(
            names(
                "Inundaciones en Beaumont; Houston envía rescatistas",
                "",
                "Houston",
                "TX",
                "US"
            ),
            ["Beaumont, TX", "Houston, TX"]
        );
    }

    #[test]
    fn greater_sudbury_is_the_sudbury_of_the_news() {
        assert_eq!(
            names("Sudbury mine reopens", "", "Toronto", "ON", "CA"),
            ["Greater Sudbury, ON"]
        );
        assert_eq!(
            names("Sudbury, Mass., library expands", "", "Toronto", "ON", "CA"),
            ["Sudbury, MA"]
        );
    }

    #[test]
    fn a_story_abroad_is_not_about_the_publishers_city() {
        assert!(
            names(
                "Diplomats gather in Brussels",
                "Ministers met on Thursday.",
                "Washington",
                "DC",
                "US"
            )
            .is_empty()
        );
        assert!(
            names(
                "Une cheffe primée",
                "Elle a gagné à Lyon, en France.",
                "Gatineau",
                "QC",
                "CA"
            )
            .is_empty()
        );
        assert!(
            names(
                "Sismo",
                "Un sismo sacudió Oaxaca, en México.",
                "Los Angeles",
                "CA",
                "US"
            )
            .is_empty()
        );
        // A Paris, Texas paper's Paris is its own city.
        assert_eq!(
            names(
                "Hospital adds a unit",
                "The hospital in Paris will grow.",
                "Paris",
                "TX",
                "US"
            ),
            ["Paris, TX"]
        );
    }
}
