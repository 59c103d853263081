//! The phrases a headline offers to trends (D300): words and runs of up to three words,
//! stop words of English, Spanish and French left out, names kept whole.
//!
//! A headline is cut into segments at punctuation and at stop words. Inside a segment, a
//! run of two to four capitalised words (joined by at most one connector such as "of" or
//! "de": "Gulf of Mexico") is a name and stays one unit: "New York" never gives "York"
//! alone. A phrase is one unit, or two or three consecutive units of three words at most.
//! Headlines written in Title Case ("Council Approves New Budget") say nothing about
//! names, so they give plain words and runs.

use domain::text::{fold, headline_stop_words};

/// One phrase of a headline: its folded key (what counts) and its words as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Phrase {
    pub key: String,
    pub surface: String,
}

/// Longest phrase in words, and longest name.
pub const MAX_PHRASE_WORDS: usize = 3;
pub const MAX_NAME_WORDS: usize = 4;

/// Never the first word of a name.
const ARTICLES: &[&str] = &["the", "a", "an"];
/// Lower-case words that may join the words of a name.
const CONNECTORS: &[&str] = &["of", "de", "del", "la", "du", "des", "le", "los", "las"];

/// A folded word is a stop word of the headline's language or of English
/// ([`headline_stop_words`]), or too short, or only digits.
pub fn is_stop(folded: &str, lang: &str) -> bool {
    if folded.len() < 2 || folded.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    headline_stop_words(lang).contains(folded)
}

struct Word<'a> {
    text: &'a str,
    folded: String,
    capital: bool,
    stop: bool,
    /// A break (punctuation) comes before this word.
    after_break: bool,
}

fn words<'a>(title: &'a str, lang: &str) -> Vec<Word<'a>> {
    let mut out = Vec::new();
    let mut pending_break = false;
    let mut start: Option<usize> = None;
    let push = |out: &mut Vec<Word<'a>>, s: usize, e: usize, brk: &mut bool| {
        let text = &title[s..e];
        let folded = fold(text);
        let capital = text.chars().next().is_some_and(char::is_uppercase);
        let stop = is_stop(&folded, lang);
        out.push(Word {
            text,
            folded,
            capital,
            stop,
            after_break: *brk,
        });
        *brk = false;
    };
    for (i, c) in title.char_indices() {
        if c.is_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
            continue;
        }
        if let Some(s) = start.take() {
            push(&mut out, s, i, &mut pending_break);
        }
        // Apostrophes and hyphens join within a segment ("l'Assemblée", "Île-de-France");
        // spaces too; anything else ends a segment.
        if !(c.is_whitespace() || matches!(c, '\'' | '’' | '-' | '‐')) {
            pending_break = true;
        }
    }
    if let Some(s) = start {
        push(&mut out, s, title.len(), &mut pending_break);
    }
    out
}

/// A headline in Title Case: most of its longer words capitalised.
fn title_case(words: &[Word]) -> bool {
    let long: Vec<&Word> = words.iter().filter(|w| w.folded.len() > 3).collect();
    long.len() >= 4 && long.iter().filter(|w| w.capital).count() * 5 >= long.len() * 4
}

/// A unit: one word, or a name of several.
struct Unit {
    key: String,
    surface: String,
    words: usize,
}

/// The phrases of a headline, each key once, in the order met.
pub fn phrases(title: &str, lang: &str) -> Vec<Phrase> {
    let words = words(title, lang);
    let names = !title_case(&words);
    // Segments of units: stop words and punctuation end a segment.
    let mut segments: Vec<Vec<Unit>> = vec![Vec::new()];
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w.after_break && segments.last().is_some_and(|s| !s.is_empty()) {
            segments.push(Vec::new());
        }
        // A name starts with a capitalised word; a capitalised stop word ("New York",
        // "Los Angeles") only when a capitalised word follows, and never an English article.
        let starts_name = w.capital
            && (!w.stop
                || (!ARTICLES.contains(&w.folded.as_str())
                    && words.get(i + 1).is_some_and(|n| n.capital && !n.stop && !n.after_break)));
        if names && starts_name {
            // The longest name starting here.
            let mut end = i + 1;
            let mut count = 1;
            let mut j = i + 1;
            while j < words.len() && count < MAX_NAME_WORDS && !words[j].after_break {
                let n = &words[j];
                if n.capital && !n.stop {
                    count += 1;
                    j += 1;
                    end = j;
                } else if !n.capital
                    && CONNECTORS.contains(&n.folded.as_str())
                    && words.get(j + 1).is_some_and(|m| m.capital && !m.stop && !m.after_break)
                {
                    j += 1;
                } else {
                    break;
                }
            }
            if count >= 2 {
                let run = &words[i..end];
                if let Some(s) = segments.last_mut() {
                    s.push(Unit {
                        key: run.iter().map(|w| w.folded.as_str()).collect::<Vec<_>>().join(" "),
                        surface: run.iter().map(|w| w.text).collect::<Vec<_>>().join(" "),
                        words: run.len(),
                    });
                }
                i = end;
                continue;
            }
        }
        if w.stop {
            if segments.last().is_some_and(|s| !s.is_empty()) {
                segments.push(Vec::new());
            }
        } else if let Some(s) = segments.last_mut() {
            s.push(Unit {
                key: w.folded.clone(),
                surface: w.text.to_string(),
                words: 1,
            });
        }
        i += 1;
    }
    let mut out: Vec<Phrase> = Vec::new();
    let mut add = |key: String, surface: String| {
        if !out.iter().any(|p| p.key == key) {
            out.push(Phrase { key, surface });
        }
    };
    for seg in &segments {
        for start in 0..seg.len() {
            let mut key = String::new();
            let mut surface = String::new();
            let mut count = 0;
            for (n, unit) in seg[start..].iter().enumerate() {
                count += unit.words;
                if n > 0 && count > MAX_PHRASE_WORDS {
                    break;
                }
                if n > 0 {
                    key.push(' ');
                    surface.push(' ');
                }
                key.push_str(&unit.key);
                surface.push_str(&unit.surface);
                if unit.words == 1 && n == 0 && unit.key.chars().count() < 3 {
                    continue;
                }
                add(key.clone(), surface.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(title: &str, lang: &str) -> Vec<String> {
        phrases(title, lang).into_iter().map(|p| p.key).collect()
    }

    #[test]
    fn d300_names_stay_whole() {
        let k = keys("Flooding closes roads in New York after storm", "en");
        assert!(k.contains(&"new york".to_string()), "{k:?}");
        assert!(!k.contains(&"york".to_string()), "{k:?}");
        assert!(k.contains(&"flooding closes roads".to_string()), "{k:?}");
        let k = keys("Shrimp boats leave the Gulf of Mexico", "en");
        assert!(k.contains(&"gulf of mexico".to_string()), "{k:?}");
        assert!(!k.contains(&"mexico".to_string()), "{k:?}");
    }

    #[test]
    fn d300_stop_words_per_language_are_left_out() {
        assert_eq!(keys("The mayor and the council", "en"), ["mayor", "council"]);
        assert_eq!(keys("La alcaldesa y el consejo", "es"), ["alcaldesa", "consejo"]);
        assert_eq!(keys("Le maire et les conseillers", "fr"), ["maire", "conseillers"]);
        // French elision: "l'" is a stop word, the name after it is whole.
        let k = keys("Vote à l'Assemblée nationale", "fr");
        assert!(k.contains(&"assemblee nationale".to_string()), "{k:?}");
        assert!(!k.iter().any(|p| p.starts_with("l ")), "{k:?}");
    }

    #[test]
    fn d300_phrases_are_one_to_three_words_within_a_segment() {
        let k = keys("Transit strike: buses stop running downtown", "en");
        assert!(k.contains(&"transit strike".to_string()));
        assert!(
            !k.contains(&"strike buses".to_string()),
            "punctuation ends a segment: {k:?}"
        );
        assert!(k.contains(&"buses".to_string()));
        assert!(k.iter().all(|p| p.split(' ').count() <= 3), "{k:?}");
    }

    #[test]
    fn d300_title_case_headlines_give_plain_words() {
        let k = keys("Council Approves Budget For Water Plant", "en");
        assert!(k.contains(&"budget".to_string()), "{k:?}");
        assert!(k.contains(&"council approves budget".to_string()), "{k:?}");
    }

    #[test]
    fn d300_accents_and_case_fold_in_keys_not_in_surfaces() {
        let p = phrases("Montréal inspecte ses tours", "fr");
        assert_eq!((p[0].key.as_str(), p[0].surface.as_str()), ("montreal", "Montréal"));
        assert_eq!(p[1].key, "montreal inspecte");
        assert!(keys("2026 budget", "en").iter().all(|k| k != "2026"));
    }
}
