//! OpenSearch descriptions (D374), one per language: a browser that finds the
//! `<link rel="search">` in a page offers our news search from its address bar.

use crate::pages::locale::localized_path;
use crate::xml;
use domain::i18n::t;
use domain::locale::Locale;

/// The description's address for a language. Pages link it from their head
/// (`pages::render_page`; pages do not import this module, which imports theirs).
pub fn path(locale: Locale) -> String {
    format!("/opensearch/{}.xml", locale.code())
}

pub fn description(base: &str, locale: Locale) -> String {
    let name = t(locale, "App_Name");
    let search = format!("{base}{}", localized_path(locale, "/search/news"));
    // `{searchTerms}` is OpenSearch's own placeholder: the browser puts the words there.
    format!(
        concat!(
            r#"<?xml version="1.0" encoding="UTF-8"?>"#,
            "\n",
            r#"<OpenSearchDescription xmlns="http://a9.com/-/spec/opensearch/1.1/" xmlns:moz="http://www.mozilla.org/2006/browser/search/">"#,
            "<ShortName>{name}</ShortName>",
            "<Description>{description}</Description>",
            "<InputEncoding>UTF-8</InputEncoding>",
            "<Language>{lang}</Language>",
            r#"<Image height="32" width="32" type="image/png">{base}/icons/icon-32.png</Image>"#,
            r#"<Url type="text/html" method="get" template="{search}?q={{searchTerms}}"/>"#,
            r#"<Url type="application/opensearchdescription+xml" rel="self" template="{base}{me}"/>"#,
            "<moz:SearchForm>{form}</moz:SearchForm>",
            "</OpenSearchDescription>\n"
        ),
        name = xml::escape(name),
        description = xml::escape(t(locale, "OpenSearch_Description")),
        lang = locale.code(),
        base = xml::escape(base),
        search = xml::escape(&search),
        me = path(locale),
        form = xml::escape(&format!("{base}{}", localized_path(locale, "/search"))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d374_opensearch_sends_the_words_to_news_search_in_the_readers_language() {
        let en = description("https://news.example", Locale::En);
        assert!(en.contains(r#"template="https://news.example/search/news?q={searchTerms}""#));
        assert!(en.contains("<ShortName>Localwire</ShortName>"));
        assert!(en.contains("<Language>en</Language>"));
        let fr = description("https://news.example", Locale::Fr);
        assert!(fr.contains(r#"template="https://news.example/fr/search/news?q={searchTerms}""#));
        assert!(fr.contains(r#"template="https://news.example/opensearch/fr.xml""#));
        assert!(!fr.contains(t(Locale::En, "OpenSearch_Description")));
    }

    #[test]
    fn d374_the_short_name_fits_opensearchs_16_characters() {
        for locale in Locale::ALL {
            assert!(t(locale, "App_Name").chars().count() <= 16);
        }
    }
}
