//! Text rules: folding shared by every search (city names, publisher names, news
//! queries), and the SPEC §3.18 / §9.6 summary of an item.

use crate::constants::SUMMARY_MAX_CHARS;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Fold a name or a query for matching: lower case, accents removed (Montréal →
/// montreal), apostrophes dropped (St. John's → st johns), any other run of
/// non-alphanumeric characters as one space, trimmed.
pub fn fold(text: &str) -> String {
    if text.is_ascii() {
        return fold_ascii(text);
    }
    fold_unicode(text)
}

fn fold_unicode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfd() {
        if is_combining_mark(c) || matches!(c, '\'' | '’' | 'ʻ' | '`') {
            continue;
        }
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            // Letters NFD does not decompose but a reader types without the accent.
            match c {
                'æ' | 'Æ' => out.push_str("ae"),
                'œ' | 'Œ' => out.push_str("oe"),
                'ß' => out.push_str("ss"),
                'ø' | 'Ø' => out.push('o'),
                'ł' | 'Ł' => out.push('l'),
                'đ' | 'Đ' => out.push('d'),
                _ => out.extend(c.to_lowercase()),
            }
        } else {
            pending_space = true;
        }
    }
    out
}

/// [`fold`] for ASCII text, which has no accents to take off (the same rules without the
/// Unicode decomposition: search ranks a thousand titles per query, D412).
fn fold_ascii(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if matches!(c, '\'' | '`') {
            continue;
        }
        if c.is_ascii_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.push(c.to_ascii_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// Apostrophes readers type: straight, curly, modifier letter and backtick.
fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | 'ʻ' | '`')
}

/// French elided words: `l'`, `d'`, `j'`, `qu'`, `n'`, `s'`, `c'`, `m'`, `t'` (D190).
const FRENCH_ELISIONS: [&str; 9] = ["l", "d", "j", "qu", "n", "s", "c", "m", "t"];
/// English clitics after an apostrophe: `'s`, `'t`, `'d`, `'ll`, `'re`, `'ve`, `'m`.
const ENGLISH_CLITICS: [&str; 7] = ["s", "t", "d", "ll", "re", "ve", "m"];

/// The words of a news search query, folded like [`fold`], split where both search
/// engines split indexed text: at apostrophes. An elided French word before an
/// apostrophe (`l'Outaouais`, `d’Ottawa`, `qu'il`) and an English clitic after one
/// (`Ottawa's`, `don't`) are left out, so a query finds what its plain words find
/// (`l'Outaouais` = `Outaouais`). Other parts stay (`aujourd'hui` → `aujourd hui`, as
/// the engines index it).
pub fn search_words(query: &str) -> Vec<String> {
    let mut words = Vec::new();
    for raw in query.split(char::is_whitespace) {
        let parts: Vec<String> = raw.split(is_apostrophe).map(fold).collect();
        let last = parts.len() - 1;
        for (i, part) in parts.iter().enumerate() {
            let part_words: Vec<&str> = part.split(' ').filter(|w| !w.is_empty()).collect();
            for (j, word) in part_words.iter().enumerate() {
                let elided = i < last && j + 1 == part_words.len() && FRENCH_ELISIONS.contains(word);
                let clitic = i > 0 && i == last && j == 0 && ENGLISH_CLITICS.contains(word);
                if !elided && !clitic {
                    words.push(word.to_string());
                }
            }
        }
    }
    words
}

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
    fn fold_of_ascii_text_is_the_unicode_fold() {
        let every_ascii: String = (0u8..128).map(char::from).collect();
        for text in [
            every_ascii.as_str(),
            "St. John's  Council--",
            "  Don`t  STOP: 24/7 ",
            "a'b c-d_e\tf\ng",
            "",
            "''",
        ] {
            assert_eq!(fold_ascii(text), fold_unicode(text), "{text:?}");
        }
    }

    #[test]
    fn fold_removes_accents_case_and_punctuation() {
        assert_eq!(fold("Montréal"), "montreal");
        assert_eq!(fold("  St. John's, NL "), "st johns nl");
        assert_eq!(fold("Œuvre-ÆSS"), "oeuvre aess");
        assert_eq!(fold("¡Hola!"), "hola");
    }

    fn words(q: &str) -> Vec<String> {
        search_words(q)
    }

    #[test]
    fn french_elision_is_dropped_from_search_words() {
        assert_eq!(words("l'Outaouais"), ["outaouais"]);
        assert_eq!(words("d’Ottawa"), ["ottawa"]);
        assert_eq!(words("réseaux d'autobus"), ["reseaux", "autobus"]);
        assert_eq!(
            words("Qu’il J'ai N'est S'il C'est M'a T'as"),
            ["il", "ai", "est", "il", "est", "a", "as"]
        );
    }

    #[test]
    fn english_clitics_are_dropped_and_other_apostrophes_split() {
        assert_eq!(words("Ottawa's mayor"), ["ottawa", "mayor"]);
        assert_eq!(words("don't"), ["don"]);
        assert_eq!(words("aujourd'hui"), ["aujourd", "hui"]);
        assert_eq!(words("Île-d'Orléans"), ["ile", "orleans"]);
        assert_eq!(words("  Montréal, école  "), ["montreal", "ecole"]);
        assert_eq!(words("'"), Vec::<String>::new());
    }

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
