//! The language of an item (en, es or fr): the feed's own when the text's function
//! words plainly agree (D90), else the detector's when it is sure, else the feed's.

use domain::text::function_word_language;

/// The hint as one of our languages (en, es, fr), if it is one.
fn language_of_hint(hint: Option<&str>) -> Option<String> {
    hint.map(|h| h.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase())
        .filter(|h| matches!(h.as_str(), "en" | "es" | "fr"))
}

pub(super) fn detect_language(text: &str, hint: Option<&str>) -> String {
    let hint = language_of_hint(hint);
    // Detection costs more than the rest of cleaning together; when the feed names a
    // language and the text plainly reads as it, the detector would only agree (D90).
    if let Some(hint) = &hint
        && stop_words_confirm(text, hint)
    {
        return hint.clone();
    }
    let detected = whatlang::detect(text).and_then(|info| {
        let code = match info.lang() {
            whatlang::Lang::Eng => "en",
            whatlang::Lang::Spa => "es",
            whatlang::Lang::Fra => "fr",
            _ => return None,
        };
        // Short texts are unreliable: trust the detector over the hint only when sure.
        (info.is_reliable() || hint.is_none()).then(|| code.to_string())
    });
    detected.or(hint).unwrap_or_else(|| "en".to_string())
}

/// Whether `text` reads plainly as `lang` by its function words: at least six of them,
/// and four times as many as of either other language.
fn stop_words_confirm(text: &str, lang: &str) -> bool {
    let want = match lang {
        "en" => 0,
        "es" => 1,
        _ => 2,
    };
    let mut counts = [0usize; 3];
    let mut lower = String::new();
    for word in text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty() && w.len() <= 12)
    {
        lower.clear();
        lower.extend(word.chars().flat_map(char::to_lowercase));
        if let Some(l) = function_word_language(&lower) {
            counts[l] += 1;
        }
    }
    let others = (0..3).filter(|&l| l != want).map(|l| counts[l]).max().unwrap_or(0);
    counts[want] >= 6 && counts[want] >= 4 * others
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_feed_language_stands_when_function_words_plainly_agree() {
        let en = "The council said that the plan for the bridge was approved by the board and will start in May";
        assert!(stop_words_confirm(en, "en"));
        assert!(!stop_words_confirm(en, "fr"));
        assert!(!stop_words_confirm("Ok", "en"), "too few words to tell");
        let es = "El ayuntamiento aprobó el presupuesto para las escuelas y los parques de la ciudad con el apoyo del alcalde";
        assert!(stop_words_confirm(es, "es") && !stop_words_confirm(es, "en"));
        assert_eq!(
            detect_language(es, Some("en")),
            "es",
            "a clear other language still wins"
        );
    }
}
