//! The SPA's message catalogues, read by the server for titles and meta (D2).

use domain::locale::Locale;
use std::collections::HashMap;
use std::sync::LazyLock;

type Catalogue = HashMap<String, String>;

fn parse(name: &str, text: &str) -> Catalogue {
    serde_json::from_str(text).unwrap_or_else(|e| {
        // Checked by the tests below and by the web's own catalogue tests.
        tracing::error!(catalogue = name, error = %e, "message catalogue is not a flat JSON object");
        Catalogue::new()
    })
}

static EN: LazyLock<Catalogue> = LazyLock::new(|| parse("en", include_str!("../../../web/src/i18n/en.json")));
static ES: LazyLock<Catalogue> = LazyLock::new(|| parse("es", include_str!("../../../web/src/i18n/es.json")));
static FR: LazyLock<Catalogue> = LazyLock::new(|| parse("fr", include_str!("../../../web/src/i18n/fr.json")));

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

/// `t` with i18next-style `{{name}}` interpolation.
pub fn t_with(locale: Locale, key: &str, vars: &[(&str, &str)]) -> String {
    let mut text = t(locale, key).to_string();
    for (name, value) in vars {
        text = text.replace(&format!("{{{{{name}}}}}"), value);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogues_load_with_the_keys_the_server_needs() {
        for locale in Locale::ALL {
            for key in ["App_Name", "Web_Back", "Web_PageNotFound", "Web_UnknownError"] {
                assert!(catalogue(locale).contains_key(key), "{} lacks {key}", locale.code());
            }
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
