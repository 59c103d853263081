//! Text folding shared by every search: city names, publisher names, news queries.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Fold a name or a query for matching: lower case, accents removed (Montréal →
/// montreal), apostrophes dropped (St. John's → st johns), any other run of
/// non-alphanumeric characters as one space, trimmed.
pub fn fold(text: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn fold_removes_accents_case_and_punctuation() {
        assert_eq!(fold("Montréal"), "montreal");
        assert_eq!(fold("  St. John's, NL "), "st johns nl");
        assert_eq!(fold("Œuvre-ÆSS"), "oeuvre aess");
        assert_eq!(fold("¡Hola!"), "hola");
    }
}
