//! The sitemaps (D373): an index, a Google News sitemap of the last 48 hours, and
//! sitemaps of the sections, categories, cities and publishers, each page in the
//! languages it is written for, with its other languages as `hreflang` alternates.
//!
//! Plain functions from rows to XML; [`make`] reads what they need from the store.

use crate::envelope::ApiError;
use crate::pages::data::iso8601;
use crate::pages::locale::localized_path;
use crate::state::AppState;
use crate::xml;
use domain::geo::Country;
use domain::i18n::t;
use domain::locale::Locale;
use ingest::categorize::CATEGORIES;
use std::fmt::Write;
use store::content::{CityId, ListFilter, Listing, MediaSource, NewsRow};

/// Google News takes stories of the last two days, at most 1,000 in one sitemap.
pub const NEWS_WINDOW_MS: i64 = 48 * 3_600_000;
pub const NEWS_MAX: i64 = 1_000;
/// The sitemap protocol's cap on the addresses in one file.
pub const URLS_MAX: usize = 50_000;

/// The sections every reader has, whatever their city. `/local` and `/weather` show
/// the reader's own city, and search results are closed to crawlers (D372).
const SECTIONS: [&str; 5] = ["/", "/latest", "/top-news", "/realtime-trends", "/today-in-history"];

const URLSET: &str =
    r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">"#;
const NEWS_URLSET: &str = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">"#;
const PROLOG: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sitemap {
    News,
    Sections,
    Categories,
    Cities,
    Publishers,
}

impl Sitemap {
    pub const ALL: [Sitemap; 5] = [
        Sitemap::News,
        Sitemap::Sections,
        Sitemap::Categories,
        Sitemap::Cities,
        Sitemap::Publishers,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Sitemap::News => "news",
            Sitemap::Sections => "sections",
            Sitemap::Categories => "categories",
            Sitemap::Cities => "cities",
            Sitemap::Publishers => "publishers",
        }
    }

    pub fn from_name(name: &str) -> Option<Sitemap> {
        Sitemap::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// `/sitemap.xml`: where the sitemaps are.
pub fn index(base: &str) -> String {
    let mut out = String::from(PROLOG);
    out.push_str(r#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#);
    for sitemap in Sitemap::ALL {
        let loc = format!("{base}/sitemaps/{}.xml", sitemap.name());
        let _ = write!(out, "<sitemap><loc>{}</loc></sitemap>", xml::escape(&loc));
    }
    out.push_str("</sitemapindex>\n");
    out
}

/// One sitemap, read from the store as of `now_ms`.
pub async fn make(state: &AppState, which: Sitemap, base: &str, now_ms: i64) -> Result<String, ApiError> {
    Ok(match which {
        Sitemap::News => {
            let rows = state
                .store
                .list_news(&Listing::Latest, &ListFilter::default(), None, NEWS_MAX)
                .await?;
            news(base, &rows, now_ms)
        }
        Sitemap::Sections => sections(base),
        Sitemap::Categories => categories(base),
        Sitemap::Cities => cities(base, &publishers_with_stories(state).await?),
        Sitemap::Publishers => publishers(base, &publishers_with_stories(state).await?),
    })
}

/// Every publisher with a story stored, by name (an empty needle matches every name).
async fn publishers_with_stories(state: &AppState) -> Result<Vec<MediaSource>, ApiError> {
    let all = state.store.search_media("", 0, URLS_MAX as i64).await?;
    Ok(all.into_iter().filter(|m| m.item_count > 0).collect())
}

/// The language a story's or publisher's page is listed in: its own when the product
/// speaks it, else English.
fn locale_of(lang: &str) -> Locale {
    Locale::from_code(lang).unwrap_or(Locale::DEFAULT)
}

/// The Google News sitemap: the stories published in the last 48 hours, newest first,
/// each in its own language. The publication is this site (its pages are what is
/// listed); the story's publisher is in its title's page.
pub fn news(base: &str, rows: &[NewsRow], now_ms: i64) -> String {
    let publication = xml::escape(t(Locale::DEFAULT, "App_Name"));
    let mut out = String::from(PROLOG);
    out.push_str(NEWS_URLSET);
    for row in rows
        .iter()
        .filter(|r| (now_ms - NEWS_WINDOW_MS..=now_ms).contains(&r.publish_time_ms))
    {
        let locale = locale_of(&row.lang);
        let loc = format!(
            "{base}{}",
            localized_path(locale, &format!("/article/{}", row.news_id.0))
        );
        let _ = write!(
            out,
            "<url><loc>{}</loc><news:news><news:publication><news:name>{publication}</news:name>\
             <news:language>{}</news:language></news:publication>\
             <news:publication_date>{}</news:publication_date><news:title>{}</news:title></news:news></url>",
            xml::escape(&loc),
            locale.code(),
            iso8601(row.publish_time_ms),
            xml::escape(&row.title),
        );
    }
    out.push_str("</urlset>\n");
    out
}

/// One `<url>` per language of a page, each naming all of them as alternates.
fn localized_urls(out: &mut String, base: &str, rest: &str, locales: &[Locale]) {
    let href = |locale: Locale| xml::escape(&format!("{base}{}", localized_path(locale, rest)));
    for &locale in locales {
        let _ = write!(out, "<url><loc>{}</loc>", href(locale));
        if locales.len() > 1 {
            for &alt in locales {
                let _ = write!(
                    out,
                    r#"<xhtml:link rel="alternate" hreflang="{}" href="{}"/>"#,
                    alt.code(),
                    href(alt)
                );
            }
        }
        out.push_str("</url>");
    }
}

fn urlset(base: &str, pages: impl IntoIterator<Item = (String, Vec<Locale>)>) -> String {
    let mut out = String::from(PROLOG);
    out.push_str(URLSET);
    for (rest, locales) in pages {
        localized_urls(&mut out, base, &rest, &locales);
    }
    out.push_str("</urlset>\n");
    out
}

/// Home, latest, top news, trends and today in history, in every language.
pub fn sections(base: &str) -> String {
    urlset(base, SECTIONS.iter().map(|s| (s.to_string(), Locale::ALL.to_vec())))
}

/// The 13 categories, in every language.
pub fn categories(base: &str) -> String {
    urlset(
        base,
        CATEGORIES
            .iter()
            .map(|(id, _)| (format!("/category/{id}"), Locale::ALL.to_vec())),
    )
}

/// The languages a country's readers are offered: English, and Spanish in the United
/// States or French in Canada (the product pairs, D3).
fn locales_of(country: Country) -> Vec<Locale> {
    Locale::ALL
        .into_iter()
        .filter(|l| *l == Locale::En || l.home_country() == country)
        .collect()
}

/// `Saint-Jean-sur-Richelieu` → `saint-jean-sur-richelieu`: letters and digits, the rest
/// one dash. The page reads the id at the end (D105).
fn city_slug(name: &str) -> String {
    let folded = domain::text::fold(name);
    let mut slug = String::with_capacity(folded.len());
    for c in folded.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.trim_end_matches('-').to_string()
}

/// The cities publishers are based in: their local pages have news of their own.
pub fn cities(base: &str, publishers: &[MediaSource]) -> String {
    let mut ids: Vec<CityId> = publishers.iter().map(|m| m.city_id).filter(|id| id.0 > 0).collect();
    ids.sort_unstable();
    ids.dedup();
    let pages = ids.into_iter().filter_map(geo::by_id).map(|city| {
        let slug = city_slug(&format!("{} {}", city.name_ascii, city.admin_code));
        (format!("/local/{slug}-{}", city.id), locales_of(city.iso))
    });
    urlset(base, pages)
}

/// Each publisher's page, in the publisher's language.
pub fn publishers(base: &str, publishers: &[MediaSource]) -> String {
    urlset(
        base,
        publishers
            .iter()
            .take(URLS_MAX)
            .map(|m| (format!("/media/{}", m.media_id.0), vec![locale_of(&m.lang)])),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::ids::NewsId;

    const BASE: &str = "https://news.example";
    const NOW: i64 = 1_763_640_000_000;

    fn story(id: i64, title: &str, lang: &str, age_ms: i64) -> NewsRow {
        NewsRow {
            news_id: NewsId(id),
            title: title.into(),
            lang: lang.into(),
            publish_time_ms: NOW - age_ms,
            ..NewsRow::default()
        }
    }

    #[test]
    fn d373_news_keeps_the_last_48_hours_and_nothing_from_the_future() {
        let rows = [
            story(1, "Now", "en", 0),
            story(2, "Two days less a minute", "en", NEWS_WINDOW_MS - 60_000),
            story(3, "Two days and a minute", "en", NEWS_WINDOW_MS + 60_000),
            story(4, "Tomorrow", "en", -3_600_000),
        ];
        let xml = news(BASE, &rows, NOW);
        assert!(xml.contains("<loc>https://news.example/article/1</loc>"));
        assert!(xml.contains("<loc>https://news.example/article/2</loc>"));
        assert!(!xml.contains("/article/3<") && !xml.contains("/article/4<"));
    }

    #[test]
    fn d373_news_titles_are_escaped_and_each_story_is_in_its_language() {
        let rows = [
            story(7, "Council </news:title> vote & \"quotes\" <b>", "fr", 0),
            story(8, "Sin idioma conocido", "pt", 0),
        ];
        let xml = news(BASE, &rows, NOW);
        assert!(
            xml.contains(
                "<news:title>Council &lt;/news:title&gt; vote &amp; &quot;quotes&quot; &lt;b&gt;</news:title>"
            )
        );
        assert!(xml.contains("<loc>https://news.example/fr/article/7</loc>"));
        assert!(xml.contains("<news:language>fr</news:language>"));
        // A language the product does not speak is listed on the English page.
        assert!(xml.contains("<loc>https://news.example/article/8</loc>"));
        assert!(xml.contains("<news:publication_date>2025-11-20T12:00:00Z</news:publication_date>"));
    }

    #[test]
    fn d373_city_slugs_are_ascii_words_joined_by_dashes() {
        assert_eq!(city_slug("Montréal QC"), "montreal-qc");
        assert_eq!(city_slug("St. John's NL"), "st-johns-nl");
        assert_eq!(city_slug("Winston-Salem NC"), "winston-salem-nc");
    }

    #[test]
    fn d373_a_countrys_cities_are_offered_in_english_and_its_other_language() {
        assert_eq!(locales_of(Country::Us), [Locale::En, Locale::Es]);
        assert_eq!(locales_of(Country::Ca), [Locale::En, Locale::Fr]);
    }

    #[test]
    fn d373_the_index_names_each_sitemap_by_the_name_it_is_served_under() {
        let xml = index(BASE);
        for sitemap in Sitemap::ALL {
            let loc = format!("<loc>{BASE}/sitemaps/{}.xml</loc>", sitemap.name());
            assert!(xml.contains(&loc), "{loc}");
            assert_eq!(Sitemap::from_name(sitemap.name()), Some(sitemap));
        }
        assert_eq!(Sitemap::from_name("index"), None);
    }
}
