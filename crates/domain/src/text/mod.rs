//! The text toolkit, one module for every crate that reads words (D418): folding
//! ([`fold`] and its named variants), stop words ([`story_stop_words`],
//! [`headline_stop_words`], [`function_word_language`]), the words of a search query
//! ([`search_words`]), and the SPEC §3.18 / §9.6 summary of an item.

use crate::constants::SUMMARY_MAX_CHARS;

mod fold;
mod stop_words;
mod words;

pub use fold::{fold, fold_for_highlight, fold_into, fold_letter_into};
pub use stop_words::{LANGUAGES, function_word_language, headline_stop_words, language_index, story_stop_words};
pub use words::search_words;

/// Runs of whitespace as one space, trimmed.
pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// SPEC §3.18 / §9.6: at most `max` characters, cut on a word boundary with an ellipsis
/// when shortened (the ellipsis counts towards the limit).
pub fn cut_on_word(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let room: String = text.chars().take(max.saturating_sub(1)).collect();
    let cut = match room.rfind(char::is_whitespace) {
        Some(i) if i > room.len() / 2 => room[..i].trim_end().to_string(),
        _ => room.trim_end().to_string(),
    };
    let cut = cut.trim_end_matches([',', ';', ':', '-', '–', '—']).to_string();
    format!("{cut}…")
}

/// SPEC §3.18: the summary of a plain text (the content with its tags stripped):
/// whitespace collapsed, cut to [`SUMMARY_MAX_CHARS`] (§9.6) on a word.
pub fn summary_of(text: &str) -> String {
    // Only the start of a long text can reach the summary: collapse no further than
    // one character past the cut (the cut then sees what it would in the whole text).
    let mut start = String::with_capacity(SUMMARY_MAX_CHARS * 2);
    let mut chars = 0;
    for word in text.split_whitespace() {
        if chars > SUMMARY_MAX_CHARS {
            break;
        }
        if !start.is_empty() {
            start.push(' ');
            chars += 1;
        }
        start.push_str(word);
        chars += word.chars().count();
    }
    cut_on_word(&start, SUMMARY_MAX_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_3_18_summary_is_the_text_with_whitespace_collapsed() {
        assert_eq!(summary_of("  Short \n\t text\u{a0} here  "), "Short text here");
        assert_eq!(summary_of(""), "");
        assert_eq!(collapse_whitespace(" a \n b\t\tc "), "a b c");
    }

    #[test]
    fn spec_3_18_and_9_6_summary_is_cut_to_300_characters_on_a_word() {
        let words = "Le conseil municipal a adopté le budget ".repeat(20);
        let summary = summary_of(&format!("{words}\n\n  fin  "));
        assert_eq!(SUMMARY_MAX_CHARS, 300);
        assert!(summary.chars().count() <= 300, "{}", summary.chars().count());
        assert!(summary.ends_with('…'));
        let kept = summary.trim_end_matches('…');
        assert!(words.contains(kept), "cut on a word boundary: {kept:?}");
        assert!(!kept.ends_with(' ') && !summary.contains("  "));
        // Exactly 300 characters stay whole; 301 are cut.
        let exact = "a".repeat(300);
        assert_eq!(summary_of(&exact), exact);
        let over = summary_of(&"a".repeat(301));
        assert_eq!(over.chars().count(), 300);
        assert!(over.ends_with('…'));
    }

    #[test]
    fn spec_9_6_summary_cut_reads_only_the_start_of_a_long_text() {
        let long = format!("{}{}", "word ".repeat(100), "x ".repeat(100_000));
        assert_eq!(
            summary_of(&long),
            cut_on_word(&collapse_whitespace(&long), SUMMARY_MAX_CHARS)
        );
        let one_word = "y".repeat(1_000);
        assert_eq!(summary_of(&one_word).chars().count(), 300);
    }

    #[test]
    fn cut_on_word_drops_trailing_punctuation_before_the_ellipsis() {
        assert_eq!(cut_on_word("abc def", 300), "abc def");
        assert_eq!(cut_on_word("alpha beta, gamma delta", 13), "alpha beta…");
    }
}
