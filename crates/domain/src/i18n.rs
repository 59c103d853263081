//! The SPA's message catalogues, read by the server for titles, meta and notifications (D2).

use crate::locale::Locale;
use std::collections::HashMap;
use std::sync::LazyLock;

type Catalogue = HashMap<String, String>;

/// A catalogue that does not read is empty (every key falls back to English, then to the
/// key): the tests below and the web's own catalogue tests keep that from shipping.
fn parse(text: &str) -> Catalogue {
    serde_json::from_str(text).unwrap_or_default()
}

/// A language's catalogue with the app's parts the server says too (D429): the sign-in
/// window's messages are the account part's.
fn with_parts(texts: &[&str]) -> Catalogue {
    texts.iter().flat_map(|text| parse(text)).collect()
}

static EN: LazyLock<Catalogue> = LazyLock::new(|| {
    with_parts(&[
        include_str!("../../../web/src/i18n/en.json"),
        include_str!("../../../web/src/i18n/account/en.json"),
    ])
});
static ES: LazyLock<Catalogue> = LazyLock::new(|| {
    with_parts(&[
        include_str!("../../../web/src/i18n/es.json"),
        include_str!("../../../web/src/i18n/account/es.json"),
    ])
});
static FR: LazyLock<Catalogue> = LazyLock::new(|| {
    with_parts(&[
        include_str!("../../../web/src/i18n/fr.json"),
        include_str!("../../../web/src/i18n/account/fr.json"),
    ])
});

fn catalogue(locale: Locale) -> &'static Catalogue {
    match locale {
        Locale::En => &EN,
        Locale::Es => &ES,
        Locale::Fr => &FR,
    }
}

/// The message for `key`, falling back to English, then to the key itself.
pub fn t(locale: Locale, key: &str) -> &str {
    catalogue(locale)
        .get(key)
        .or_else(|| EN.get(key))
        .map(String::as_str)
        .unwrap_or(key)
}

/// `t` with i18next-style `{{name}}` interpolation, then French elision (the app's
/// `elision` post-processor). The catalogues' own text never needs it (checked below), so
/// plain `t` leaves it out.
pub fn t_with(locale: Locale, key: &str, vars: &[(&str, &str)]) -> String {
    let mut text = t(locale, key).to_string();
    for (name, value) in vars {
        text = text.replace(&format!("{{{{{name}}}}}"), value);
    }
    if locale == Locale::Fr { elide(&text) } else { text }
}

/// French elides "de" and "que" before a vowel: "Près de {{city}}" with Ottawa reads
/// "Près d’Ottawa" (D150). Y and h are left alone. The same rule as the web app's
/// `elide` (`web/src/i18n/index.ts`): `/\b(d|qu)e (?=[vowel])/g` → `$1’`, where `\b`
/// is JavaScript's ASCII word boundary.
pub fn elide(text: &str) -> String {
    const VOWELS: &str = "AEIOUÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouàâæéèêëîïôœùûü";
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    // The character before `rest` in the original text.
    let mut previous: Option<char> = None;
    let mut rest = text;
    'scan: while let Some(c) = rest.chars().next() {
        if !previous.is_some_and(is_word) {
            for (word, elided) in [("de ", "d’"), ("que ", "qu’")] {
                if let Some(after) = rest.strip_prefix(word)
                    && after.chars().next().is_some_and(|v| VOWELS.contains(v))
                {
                    out.push_str(elided);
                    previous = Some(' ');
                    rest = after;
                    continue 'scan;
                }
            }
        }
        out.push(c);
        previous = Some(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogues_load_with_the_keys_the_server_needs() {
        for locale in Locale::ALL {
            // The sign-in window's own come from the account part (D429).
            for key in [
                "App_Name",
                "Web_Back",
                "Web_PageNotFound",
                "Web_UnknownError",
                "SignIn_Done",
                "SignIn_Expired",
                "Login_Title",
                "Push_Digest_Title",
            ] {
                assert!(catalogue(locale).contains_key(key), "{} lacks {key}", locale.code());
            }
        }
    }

    /// The cases of the web's `i18n.test.ts` elision tests, and the catalogue itself.
    #[test]
    fn french_elides_de_and_que_before_a_vowel_as_the_app_does() {
        assert_eq!(
            t_with(Locale::Fr, "Section_Local", &[("city", "Ottawa")]),
            "Près d’Ottawa"
        );
        assert_eq!(
            t_with(Locale::Fr, "Section_Local", &[("city", "Montréal")]),
            "Près de Montréal"
        );
        assert_eq!(
            t_with(Locale::En, "Section_Local", &[("city", "Ottawa")]),
            "Near Ottawa"
        );
        assert_eq!(elide("près de Yellowknife, de Hull"), "près de Yellowknife, de Hull");
        assert_eq!(elide("en tant que Alice de Évis"), "en tant qu’Alice d’Évis");
        assert_eq!(
            elide("lorsque Alice, monde Ouvert"),
            "lorsque Alice, monde Ouvert",
            "not inside a word"
        );
        assert_eq!(elide("de "), "de ");
        for text in FR.values() {
            assert_eq!(&elide(text), text, "the catalogue needs no elision of its own");
        }
    }

    #[test]
    fn spec_2_22_page_not_found_text_interpolates_the_path() {
        assert_eq!(
            t_with(Locale::En, "Web_PageNotFound", &[("path", "/x")]),
            "Page not found: /x"
        );
        assert_ne!(
            t(Locale::Fr, "Web_PageNotFound"),
            t(Locale::En, "Web_PageNotFound"),
            "translated"
        );
    }
}
