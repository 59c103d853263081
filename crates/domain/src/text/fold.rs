//! Folding: the form text is compared in, one place for every reader of text.
//!
//! - [`fold`] and [`fold_into`]: the key of a name, a query or a phrase (city and
//!   publisher search, news search, place tagging, trend phrases, mutes).
//! - [`fold_letter_into`]: the story signature's narrower fold of one letter, fixed
//!   because signatures store hashes of its output (`ingest::cluster`).
//! - [`fold_for_highlight`]: one character as the web app's `fold` gives it, which keeps
//!   punctuation so that a highlight maps back to the text (first paint).

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Fold a name or a query for matching: lower case, accents removed (Montréal →
/// montreal), apostrophes dropped (St. John's → st johns), any other run of
/// non-alphanumeric characters as one space, trimmed.
pub fn fold(text: &str) -> String {
    // One plain word, the commonest case for trend phrases: nothing but the case to fold.
    if text.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return text.to_ascii_lowercase();
    }
    if text.is_ascii() {
        return fold_ascii(text);
    }
    fold_unicode(text)
}

/// [`fold`], appended to `out`, without Unicode normalisation for ASCII text: each
/// ASCII-whitespace-separated piece is folded apart (inline when ASCII, by [`fold`]
/// otherwise) and the non-empty folds joined by a space. That is [`fold`] of the whole
/// text: an ASCII space separates words and stops normalisation. For place tagging,
/// which folds every word of every story.
pub fn fold_into(text: &str, out: &mut String) {
    let start = out.len();
    for piece in text.split_ascii_whitespace() {
        let piece_start = out.len();
        if piece_start > start {
            out.push(' ');
        }
        let body_start = out.len();
        if piece.is_ascii() {
            push_ascii_fold(piece, out);
        } else {
            out.push_str(&fold(piece));
        }
        if out.len() == body_start {
            out.truncate(piece_start);
        }
    }
}

/// Apostrophes readers type: straight, curly, modifier letter and backtick.
pub(super) fn is_apostrophe(c: char) -> bool {
    matches!(c, '\'' | '’' | 'ʻ' | '`')
}

fn fold_unicode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.nfd() {
        if is_combining_mark(c) || is_apostrophe(c) {
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
    push_ascii_fold(text, &mut out);
    out
}

/// [`fold_ascii`] of `text`, appended to `out`.
fn push_ascii_fold(text: &str, out: &mut String) {
    let start = out.len();
    let mut pending_space = false;
    for b in text.bytes() {
        if matches!(b, b'\'' | b'`') {
            continue;
        }
        if b.is_ascii_alphanumeric() {
            if pending_space && out.len() > start {
                out.push(' ');
            }
            pending_space = false;
            out.push(char::from(b.to_ascii_lowercase()));
        } else {
            pending_space = true;
        }
    }
}

/// The story signature's fold of one letter or digit, appended to `out`: ASCII lower
/// cased, the accented letters of Latin-1 (and œ) as [`fold`] gives them, any other
/// character only lower cased ('ł' and 'ā' keep their marks, where [`fold`] takes them
/// off). Kept apart from [`fold`] on purpose: signatures store hashes of these forms
/// (`ingest::cluster`, version 1), so widening it would part new stories from stored ones.
pub fn fold_letter_into(c: char, out: &mut String) {
    if c.is_ascii() {
        out.push(c.to_ascii_lowercase());
        return;
    }
    let folded = match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'a',
        'ç' | 'Ç' => 'c',
        'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => 'i',
        'ñ' | 'Ñ' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => 'u',
        'ý' | 'ÿ' | 'Ý' => 'y',
        'æ' | 'Æ' => {
            out.push_str("ae");
            return;
        }
        'œ' | 'Œ' => {
            out.push_str("oe");
            return;
        }
        'ß' => {
            out.push_str("ss");
            return;
        }
        _ => {
            out.extend(c.to_lowercase());
            return;
        }
    };
    out.push(folded);
}

/// One character lower cased with its accents (combining marks) removed, punctuation and
/// apostrophes kept: the web app's `fold` (`text.normalize('NFD')`, marks removed,
/// lower cased), character by character so that a match maps back to the text.
pub fn fold_for_highlight(c: char) -> String {
    c.to_string()
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect()
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

    #[test]
    fn fold_of_one_plain_word_is_its_lower_case() {
        for word in ["Council", "COVID19", "x", "", "2026"] {
            assert_eq!(fold(word), fold_ascii(word), "{word:?}");
            assert_eq!(fold(word), fold_unicode(word), "{word:?}");
        }
    }

    fn fold_fast(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        fold_into(text, &mut out);
        out
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
        let mut out = String::from("kept");
        fold_into(" Saint-Jérôme ", &mut out);
        assert_eq!(out, "keptsaint jerome");
    }

    #[test]
    fn the_signature_fold_is_fold_on_latin_1_letters_and_lower_case_beyond() {
        let letters = ('\u{0}'..='\u{ff}').chain(['œ', 'Œ']).filter(|c| c.is_alphanumeric());
        for c in letters {
            let mut out = String::new();
            fold_letter_into(c, &mut out);
            assert_eq!(out, fold(&c.to_string()), "{c:?}");
        }
        for (c, folded) in [('ł', "ł"), ('Ā', "ā"), ('Ÿ', "ÿ"), ('İ', "i\u{307}")] {
            let mut out = String::new();
            fold_letter_into(c, &mut out);
            assert_eq!(out, folded, "{c:?}");
        }
    }

    #[test]
    fn the_highlight_fold_keeps_punctuation() {
        let folded: String = "L’Île-d'Orléans, ÉTÉ!".chars().map(fold_for_highlight).collect();
        assert_eq!(folded, "l’ile-d'orleans, ete!");
    }
}
