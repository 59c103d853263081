//! Stop words: the words of English, Spanish and French that say nothing about what a
//! text is about, as [`super::fold`] gives them, and the function words that tell the
//! three languages apart.
//!
//! Two lists serve two readers: the story lists (near-duplicate clustering) and, on top
//! of them, the headline lists (trend phrases), which also leave out the words headlines
//! are full of ("live", "update", "video", "today") and small numbers that clustering
//! maps to language-neutral forms instead.

use std::collections::HashSet;
use std::sync::LazyLock;

/// Our languages, in the order of the indexes the functions here give.
pub const LANGUAGES: [&str; 3] = ["en", "es", "fr"];

/// Story stop words (clustering), per language.
const STORY_EN: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "are", "as", "at", "be", "been", "before", "but", "by", "can",
    "could", "did", "do", "for", "from", "had", "has", "have", "he", "her", "his", "how", "if", "in", "into", "is",
    "it", "its", "last", "more", "most", "new", "next", "not", "now", "of", "on", "one", "or", "other", "our", "out",
    "over", "said", "says", "she", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "those", "to", "up", "was", "we", "week", "were", "what", "when", "where", "which", "while", "who",
    "will", "with", "would", "year", "years", "you", "your", "st", "mr", "ms", "dr",
];
const STORY_ES: &[&str] = &[
    "a", "al", "ante", "aun", "como", "con", "contra", "cual", "de", "del", "desde", "dijo", "donde", "durante", "e",
    "el", "ella", "ellos", "en", "entre", "era", "es", "esa", "ese", "esta", "este", "esto", "fue", "ha", "han",
    "hasta", "hay", "la", "las", "le", "les", "lo", "los", "mas", "muy", "nueva", "nuevo", "nuevas", "nuevos", "o",
    "para", "pero", "por", "que", "se", "segun", "ser", "si", "sin", "sobre", "son", "su", "sus", "tambien", "tras",
    "un", "una", "uno", "unos", "unas", "y", "ya", "ano", "anos",
];
const STORY_FR: &[&str] = &[
    "a",
    "afin",
    "au",
    "aux",
    "avec",
    "c",
    "ce",
    "ces",
    "cette",
    "d",
    "dans",
    "de",
    "des",
    "du",
    "elle",
    "en",
    "est",
    "et",
    "etre",
    "il",
    "ils",
    "j",
    "l",
    "la",
    "le",
    "les",
    "leur",
    "leurs",
    "lui",
    "m",
    "mais",
    "n",
    "ne",
    "nouveau",
    "nouvelle",
    "nouveaux",
    "nouvelles",
    "on",
    "ont",
    "ou",
    "par",
    "pas",
    "plus",
    "pour",
    "qu",
    "que",
    "qui",
    "s",
    "sa",
    "se",
    "ses",
    "son",
    "sont",
    "sur",
    "t",
    "un",
    "une",
    "y",
    "ete",
    "selon",
    "annee",
    "ans",
];
/// What headline stop words (trends) add to the story ones, per language.
const HEADLINE_EN: &[&str] = &[
    "again", "against", "ahead", "am", "amid", "any", "back", "being", "best", "between", "big", "both", "day", "days",
    "does", "down", "during", "each", "first", "get", "gets", "here", "i", "just", "latest", "least", "live", "make",
    "makes", "man", "many", "may", "much", "my", "near", "news", "no", "off", "only", "people", "report", "s", "say",
    "set", "should", "still", "take", "takes", "three", "through", "today", "top", "two", "under", "update", "updates",
    "us", "via", "video", "vs", "watch", "way", "why", "woman", "yet",
];
const HEADLINE_ES: &[&str] = &[
    "aqui", "asi", "cuando", "dia", "dice", "dos", "eso", "estos", "hoy", "ni", "no", "porque", "quien", "tres",
    "video",
];
const HEADLINE_FR: &[&str] = &[
    "apres", "avant", "cela", "chez", "comme", "contre", "deux", "encore", "entre", "fait", "jour", "sans", "sous",
    "tout", "tous", "trois", "vers", "video",
];

/// The index in [`LANGUAGES`] of a language code ("fr", "fr-CA", "ES"), if it is one of ours.
pub fn language_index(lang: &str) -> Option<usize> {
    match lang.get(..2).map(|l| l.to_ascii_lowercase()).as_deref() {
        Some("en") => Some(0),
        Some("es") => Some(1),
        Some("fr") => Some(2),
        _ => None,
    }
}

fn set(lists: &[&[&'static str]]) -> HashSet<&'static str> {
    lists.iter().flat_map(|l| l.iter().copied()).collect()
}

static STORY: LazyLock<[HashSet<&'static str>; 4]> = LazyLock::new(|| {
    [
        set(&[STORY_EN]),
        set(&[STORY_EN, STORY_ES]),
        set(&[STORY_EN, STORY_FR]),
        set(&[STORY_EN, STORY_ES, STORY_FR]),
    ]
});

static HEADLINE: LazyLock<[HashSet<&'static str>; 3]> = LazyLock::new(|| {
    [
        set(&[STORY_EN, HEADLINE_EN]),
        set(&[STORY_EN, HEADLINE_EN, STORY_ES, HEADLINE_ES]),
        set(&[STORY_EN, HEADLINE_EN, STORY_FR, HEADLINE_FR]),
    ]
});

/// A story's stop words (clustering): its language's plus English ones (names and quotes
/// cross over); all three languages' for another or unknown language.
pub fn story_stop_words(lang: &str) -> &'static HashSet<&'static str> {
    &STORY[language_index(lang).unwrap_or(3)]
}

/// A headline's stop words (trends): the story ones and the headline ones, of its
/// language plus English (which every language's headlines borrow); English's alone for
/// another or unknown language.
pub fn headline_stop_words(lang: &str) -> &'static HashSet<&'static str> {
    &HEADLINE[language_index(lang).unwrap_or(0)]
}

/// Function words common in one of English, Spanish and French and rare in the other
/// two (words the languages share, like "de", "la", "en", "que", "un", are left out), as
/// written in lower case with their accents: the index in [`LANGUAGES`] of the language
/// `word` marks, for language detection (D90).
pub fn function_word_language(word: &str) -> Option<usize> {
    const EN: usize = 0;
    const ES: usize = 1;
    const FR: usize = 2;
    Some(match word {
        "the" | "and" | "of" | "to" | "is" | "was" | "for" | "that" | "with" | "are" | "has" | "have" | "will"
        | "said" | "from" | "this" | "by" | "at" | "it" | "were" | "which" | "who" | "their" | "they" | "been"
        | "after" | "about" | "would" | "not" | "but" | "its" | "be" | "his" | "her" | "than" | "into" | "over" => EN,
        "el" | "los" | "las" | "del" | "y" | "por" | "para" | "con" | "una" | "al" | "como" | "más" | "pero"
        | "sus" | "su" | "fue" | "esta" | "este" | "dijo" | "también" | "sobre" | "muy" | "hay" | "está" | "están"
        | "desde" | "cuando" | "hasta" | "según" | "ayuntamiento" => ES,
        "le" | "les" | "des" | "du" | "et" | "est" | "une" | "pour" | "dans" | "sur" | "au" | "aux" | "avec"
        | "qui" | "ce" | "cette" | "pas" | "il" | "elle" | "ont" | "été" | "sont" | "leur" | "mais" | "ses" | "à"
        | "où" | "selon" | "ces" | "nous" | "était" | "aussi" | "être" => FR,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headline_stop_words_hold_the_story_ones() {
        for (lang, story) in [("en", "en"), ("es", "es"), ("fr", "fr"), ("de", "en"), ("", "en")] {
            assert!(story_stop_words(story).is_subset(headline_stop_words(lang)), "{lang:?}");
        }
        assert!(headline_stop_words("fr").contains("video") && !story_stop_words("fr").contains("video"));
    }

    #[test]
    fn another_language_has_every_story_list_and_english_headline_words() {
        assert!(story_stop_words("de").contains("dans") && story_stop_words("de").contains("para"));
        assert!(story_stop_words("es-MX").contains("para") && !story_stop_words("en").contains("para"));
        assert!(!headline_stop_words("de").contains("dans") && headline_stop_words("de").contains("the"));
        assert_eq!(language_index("FR-ca"), Some(2));
        assert_eq!(language_index("e"), None);
    }

    #[test]
    fn function_words_mark_one_language() {
        assert_eq!(function_word_language("the"), Some(0));
        assert_eq!(function_word_language("también"), Some(1));
        assert_eq!(function_word_language("été"), Some(2));
        assert_eq!(function_word_language("de"), None);
    }
}
