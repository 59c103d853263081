//! The fixed category set (issue 3) and how an item gets one: first from the feed's
//! own categories (the publisher's word, in en/es/fr), then from words in the title
//! and summary, else "local". Feed categories are kept as tags either way.

use geo::fold;
use std::collections::HashMap;
use std::sync::LazyLock;

/// The categories, in display order, with their names in en, es and fr.
pub const CATEGORIES: [(&str, [&str; 3]); 13] = [
    ("local", ["Local", "Local", "Local"]),
    ("politics", ["Politics", "Política", "Politique"]),
    ("business", ["Business", "Economía", "Économie"]),
    ("sports", ["Sports", "Deportes", "Sports"]),
    (
        "entertainment",
        ["Entertainment", "Entretenimiento", "Culture et spectacles"],
    ),
    ("health", ["Health", "Salud", "Santé"]),
    (
        "science-tech",
        ["Science & Tech", "Ciencia y tecnología", "Sciences et techno"],
    ),
    ("weather", ["Weather", "El tiempo", "Météo"]),
    ("crime-safety", ["Crime & Safety", "Seguridad", "Faits divers"]),
    ("education", ["Education", "Educación", "Éducation"]),
    ("food", ["Food", "Gastronomía", "Gastronomie"]),
    ("lifestyle", ["Lifestyle", "Estilo de vida", "Mode de vie"]),
    ("opinion", ["Opinion", "Opinión", "Opinion"]),
];

/// Generic newsroom section words (folded) → category. Exact words, then words they
/// start with. Kept generic on purpose: the demo corpus's own section names are not
/// here, so its score measures the method, not this list.
const FEED_TERMS: [(&str, &str); 48] = [
    ("local", "local"),
    ("actualites locales", "local"),
    ("community", "local"),
    ("comunidad", "local"),
    ("politics", "politics"),
    ("politique", "politics"),
    ("politica", "politics"),
    ("elections", "politics"),
    ("city hall", "politics"),
    ("business", "business"),
    ("economia", "business"),
    ("economie", "business"),
    ("sports", "sports"),
    ("deportes", "sports"),
    ("entertainment", "entertainment"),
    ("entretenimiento", "entertainment"),
    ("culture", "entertainment"),
    ("arts", "entertainment"),
    ("health", "health"),
    ("salud", "health"),
    ("sante", "health"),
    ("wellness", "health"),
    ("bienestar", "health"),
    ("mieux etre", "health"),
    ("technology", "science-tech"),
    ("tech", "science-tech"),
    ("science", "science-tech"),
    ("sciences et techno", "science-tech"),
    ("numerique", "science-tech"),
    ("weather", "weather"),
    ("meteo", "weather"),
    ("pronostico", "weather"),
    ("el tiempo", "weather"),
    ("crime", "crime-safety"),
    ("police", "crime-safety"),
    ("seguridad", "crime-safety"),
    ("faits divers", "crime-safety"),
    ("nota roja", "crime-safety"),
    ("education", "education"),
    ("educacion", "education"),
    ("food", "food"),
    ("gastronomia", "food"),
    ("gastronomie", "food"),
    ("lifestyle", "lifestyle"),
    ("estilo de vida", "lifestyle"),
    ("mode de vie", "lifestyle"),
    ("opinion", "opinion"),
    ("letters", "opinion"),
];

const MORE_FEED_TERMS: [(&str, &str); 2] = [("editorial", "opinion"), ("sports locaux", "sports")];

/// Words in a title or summary that point to a category (folded; en, es, fr).
const KEYWORDS: [(&str, &[&str]); 12] = [
    (
        "politics",
        &[
            "council",
            "mayor",
            "election",
            "vote",
            "voters",
            "legislat",
            "senator",
            "governor",
            "bill",
            "ballot",
            "concejo",
            "alcald",
            "eleccion",
            "votacion",
            "conseil municipal",
            "maire",
            "depute",
            "scrutin",
            "premier ministre",
            // Government money and the bodies that vote it: "wins a federal grant".
            "lawmaker",
            "federal",
            "grant",
            "congres",
            "senat",
            "subvention",
            "subvencion",
        ],
    ),
    (
        "business",
        &[
            "jobs",
            "company",
            "plant",
            "startup",
            "market",
            "sales",
            "bank",
            "economy",
            "empleos",
            "empresa",
            "negocio",
            "emplois",
            "entreprise",
            "usine",
            "economie",
            "commerce",
            "investment",
            "price",
        ],
    ),
    (
        "sports",
        &[
            "game",
            "team",
            "coach",
            "season",
            "playoff",
            "title",
            "match",
            "tournament",
            "goal",
            "equipo",
            "partido",
            "gol",
            "campeonato",
            "equipe",
            "tournoi",
            "entraineur",
            "hockey",
            "soccer",
            "basketball",
            "football",
        ],
    ),
    (
        "entertainment",
        &[
            "festival",
            "concert",
            "film",
            "movie",
            "theater",
            "theatre",
            "museum",
            "music",
            "band",
            "show",
            "concierto",
            "pelicula",
            "musica",
            "spectacle",
            "musique",
            "cinema",
            "musee",
            "artist",
            "mural",
        ],
    ),
    (
        "health",
        &[
            "hospital", "clinic", "doctor", "nurse", "health", "vaccine", "flu", "patients", "hospital", "clinica",
            "salud", "medic", "hopital", "clinique", "sante", "patients", "virus",
        ],
    ),
    (
        "science-tech",
        &[
            "tech",
            "software",
            "app",
            "robot",
            "ai",
            "data",
            "internet",
            "broadband",
            "science",
            "research",
            "tecnologia",
            "ciencia",
            "techno",
            "numerique",
            "recherche",
            "satellite",
            "e reader",
        ],
    ),
    (
        "weather",
        &[
            "storm",
            "snow",
            "rain",
            "forecast",
            "heat",
            "cold",
            "flood",
            "wind",
            "tormenta",
            "lluvia",
            "nieve",
            "calor",
            "helada",
            "tempete",
            "neige",
            "pluie",
            "verglas",
            "froid",
            "canicule",
            "blizzard",
            "noreaster",
            "thunderstorm",
            "tornado",
            "hurricane",
            "huracan",
            "ouragan",
            "meteorolog",
            "previsionniste",
            "vientos",
            "vents violents",
            "degrees",
            "freezing",
            "drought",
            "sequia",
            "secheresse",
        ],
    ),
    (
        "crime-safety",
        &[
            "police",
            "arrest",
            "shooting",
            "crime",
            "court",
            "robbery",
            "fire",
            "crash",
            "policia",
            "arresto",
            "robo",
            "incendio",
            "accidente",
            "arrestation",
            "vol ",
            "tribunal",
            "incendie",
            "collision",
            "suspect",
        ],
    ),
    (
        "education",
        &[
            "school",
            "students",
            "teacher",
            "university",
            "college",
            "classroom",
            "escuela",
            "estudiantes",
            "maestros",
            "universidad",
            "ecole",
            "eleves",
            "etudiants",
            "enseignants",
            "universite",
            "cegep",
        ],
    ),
    (
        "food",
        &[
            "restaurant",
            "chef",
            "bakery",
            "recipe",
            "taco",
            "food",
            "menu",
            "restaurante",
            "receta",
            "comida",
            "panaderia",
            "recette",
            "boulangerie",
            "cuisine",
            "brewery",
            "soup",
            "bistro",
        ],
    ),
    (
        "lifestyle",
        &[
            "garden", "home", "travel", "trips", "walking", "fashion", "pets", "jardin", "hogar", "viaje", "maison",
            "voyage", "mode", "trails", "how to", "tips",
        ],
    ),
    (
        "opinion",
        &[
            "opinion",
            "column",
            "editorial",
            "letter",
            "columna",
            "carta",
            "chronique",
            "lettre",
            "we should",
            "i think",
        ],
    ),
];

/// Phrases (folded) in which a keyword does not mean its category: a flood-prone road
/// or a flood wall is infrastructure, not weather; a cold case is a crime story. They
/// are blanked out before the keywords are counted.
const NOT_KEYWORDS: [&str; 16] = [
    "flood prone",
    "flood control",
    "floodplain",
    "flood plain",
    "flood wall",
    "floodwall",
    "flood insurance",
    "flood zone",
    "flood map",
    "heat pump",
    "cold case",
    "storm drain",
    "stormwater",
    "rain garden",
    "wind farm",
    "wind turbine",
];

static TERMS: LazyLock<HashMap<&'static str, &'static str>> =
    LazyLock::new(|| FEED_TERMS.iter().chain(MORE_FEED_TERMS.iter()).copied().collect());

/// The category the publisher's own feed categories give, if any.
pub fn from_feed_categories(categories: &[String]) -> Option<&'static str> {
    categories.iter().find_map(|c| {
        let folded = fold(c);
        TERMS.get(folded.as_str()).copied().or_else(|| {
            TERMS
                .iter()
                .find(|(term, _)| {
                    folded
                        .strip_prefix(*term)
                        .is_some_and(|rest| rest.starts_with(' ') || rest.starts_with('s'))
                })
                .map(|(_, cat)| *cat)
        })
    })
}

/// [`KEYWORDS`] with a space in front of each word: what a text must contain.
static KEYWORD_PATTERNS: LazyLock<Vec<(&'static str, Vec<String>)>> = LazyLock::new(|| {
    KEYWORDS
        .iter()
        .map(|(category, words)| (*category, words.iter().map(|w| format!(" {w}")).collect()))
        .collect()
});

/// The category the words of an item point to, if any (title words count thrice).
pub fn from_text(title: &str, summary: &str) -> Option<&'static str> {
    let title = without_not_keywords(format!(" {} ", fold(title)));
    let summary = without_not_keywords(format!(" {} ", fold(summary)));
    let score = |patterns: &[String], text: &str| patterns.iter().filter(|p| text.contains(p.as_str())).count();
    KEYWORD_PATTERNS
        .iter()
        .map(|(category, patterns)| (*category, 3 * score(patterns, &title) + score(patterns, &summary)))
        .filter(|(_, s)| *s > 0)
        .max_by_key(|(_, s)| *s)
        .map(|(c, _)| c)
}

/// `text` (folded, padded with spaces) with every [`NOT_KEYWORDS`] phrase blanked.
fn without_not_keywords(mut text: String) -> String {
    for phrase in NOT_KEYWORDS {
        let padded = format!(" {phrase}");
        if text.contains(&padded) {
            text = text.replace(&padded, " _");
        }
    }
    text
}

/// Feed categories first, then words, else local.
pub fn categorize(feed_categories: &[String], title: &str, summary: &str) -> &'static str {
    from_feed_categories(feed_categories)
        .or_else(|| from_text(title, summary))
        .unwrap_or("local")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_feed_categories` tries the terms as prefixes in a hash map's order, which
    /// changes between runs. That is safe only while no term that is a prefix of another
    /// points to a different category: then any order gives the same answer.
    #[test]
    fn the_prefix_rule_gives_one_answer_in_any_order() {
        let all: Vec<(&str, &str)> = FEED_TERMS.iter().chain(MORE_FEED_TERMS.iter()).copied().collect();
        for (a, cat_a) in &all {
            for (b, cat_b) in &all {
                if a != b && b.starts_with(a) {
                    assert_eq!(cat_a, cat_b, "\"{a}\" and \"{b}\" would compete");
                }
            }
        }
    }

    #[test]
    fn thirteen_categories_named_in_three_languages() {
        assert_eq!(CATEGORIES.len(), 13);
        assert!(CATEGORIES.iter().all(|(_, names)| names.iter().all(|n| !n.is_empty())));
    }

    #[test]
    fn feed_categories_map_in_every_language() {
        let c = |s: &str| from_feed_categories(&[s.to_string()]);
        assert_eq!(c("Deportes"), Some("sports"));
        assert_eq!(c("Sports locaux"), Some("sports"));
        assert_eq!(c("Météo"), Some("weather"));
        assert_eq!(c("Faits divers"), Some("crime-safety"));
        assert_eq!(c("Houston"), None);
    }

    /// Issue 16, defect 7: a grant for a flood-prone road is a government story; the
    /// weather words in it describe the road.
    #[test]
    fn government_money_for_flood_prone_infrastructure_is_politics_not_weather() {
        let stories = [
            (
                "Springfield, Missouri, wins a federal grant to rebuild a flood-prone road",
                "The Transportation Department awarded $18 million to Springfield, Mo., on Friday to raise a \
                 stretch of Kansas Expressway that floods after heavy rain, the largest award in this round.",
            ),
            (
                "Prince George's County gets $30 million for Anacostia flood-control project",
                "The federal grant will pay for a flood wall and new storm drains along the river, county \
                 officials said Tuesday.",
            ),
            (
                "Lawmakers demand answers after four-hour Northeast rail shutdown",
                "Members of the House transportation subcommittee want a briefing from the rail authority \
                 after a signal failure stranded thousands of riders.",
            ),
            (
                "Gatineau obtient une subvention fédérale pour protéger le boulevard contre les crues",
                "Ottawa versera 12 millions de dollars pour rehausser la chaussée en zone inondable.",
            ),
        ];
        for (title, summary) in stories {
            assert_eq!(categorize(&[], title, summary), "politics", "{title}");
        }
    }

    #[test]
    fn real_weather_stories_stay_weather() {
        let stories = [
            (
                "Flood warning issued for the Potomac as heavy rain moves in",
                "The National Weather Service said the river could crest two feet above flood stage in \
                 Georgetown by Thursday morning.",
            ),
            (
                "Heavy snow and freezing rain expected across the capital region Tuesday night",
                "Forecasters expect 4 to 8 inches north and west of the city, with ice on untreated roads.",
            ),
            (
                "Nor'easter knocks out power to 80,000 in Nova Scotia",
                "A powerful nor'easter brought down trees and power lines across Nova Scotia overnight.",
            ),
            (
                "Phoenix hits 91 degrees, a record for late November",
                "Phoenix reached 91 degrees on Sunday afternoon, the hottest reading this late in November.",
            ),
            (
                "Blizzard closes Trans-Canada Highway west of Winnipeg",
                "An early-season blizzard shut the highway to the Saskatchewan border on Friday.",
            ),
            (
                "Avertissement de vents violents pour Montréal",
                "Environnement Canada prévoit des rafales de 90 km/h jusqu'à jeudi soir.",
            ),
        ];
        for (title, summary) in stories {
            assert_eq!(categorize(&[], title, summary), "weather", "{title}");
        }
    }

    #[test]
    fn words_decide_when_the_feed_does_not() {
        assert_eq!(
            categorize(&["Houston".into()], "Snow storm closes schools early", ""),
            "weather"
        );
        assert_eq!(categorize(&[], "Le conseil municipal adopte le budget", ""), "politics");
        assert_eq!(categorize(&[], "Nothing to see", ""), "local");
    }
}
