//! The reader's answer: the day's sections, local entries first, with links, images
//! and the CC BY-SA attribution.

use crate::history::place::LocalNames;
use crate::history::source::Day;
use crate::history::wiki::{FeedEntry, SECTIONS, Section};
use chrono::{Datelike, NaiveDate};
use domain::locale::Locale;
use geo::{City, CityId};
use serde::Serialize;
use utoipa::ToSchema;

/// One day of history for the reader.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryDay {
    /// The reader's local date (`YYYY-MM-DD`) in their city's time zone.
    pub date: String,
    pub month: u32,
    pub day: u32,
    /// The language of the entries: en, es or fr.
    pub lang: &'static str,
    /// Built-in demo entries (`serve --demo`), not today's: the page must say so.
    pub demo: bool,
    /// The place whose entries come first and are marked `local`.
    pub place: HistoryPlace,
    /// selected, events, births, deaths, holidays, in that order; each local-first.
    pub sections: Vec<HistorySection>,
    pub attribution: Attribution,
    /// When the entries were fetched from Wikipedia (UTC ms; 0 for the demo).
    pub fetched_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryPlace {
    #[schema(value_type = i64)]
    pub city_id: CityId,
    pub city: String,
    pub admin_name: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HistorySection {
    pub kind: Section,
    /// How many of `entries` (the first ones) are about the reader's place.
    pub local_count: usize,
    pub entries: Vec<HistoryEntry>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryEntry {
    /// Plain text.
    pub text: String,
    /// Absent on holidays.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub year: Option<i32>,
    /// About the reader's city, state or province (D292).
    pub local: bool,
    pub pages: Vec<HistoryPage>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryPage {
    pub title: String,
    /// The article on Wikipedia.
    pub url: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub image: Option<HistoryImage>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryImage {
    pub src: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub width: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub height: Option<u32>,
}

/// Wikipedia's text is CC BY-SA: the page names the source and the licence.
#[derive(Debug, Serialize, ToSchema)]
pub struct Attribution {
    /// "Wikipedia".
    pub source: &'static str,
    /// The day's article on that language's Wikipedia.
    pub source_url: String,
    pub license: &'static str,
    pub license_url: &'static str,
}

impl HistoryDay {
    /// Every picture's address through `rewrite`, the image proxy (D382): Wikimedia's
    /// servers never see the reader.
    pub fn proxy_images(&mut self, rewrite: &dyn Fn(&mut String)) {
        for image in self
            .sections
            .iter_mut()
            .flat_map(|s| s.entries.iter_mut())
            .flat_map(|e| e.pages.iter_mut())
            .filter_map(|p| p.image.as_mut())
        {
            rewrite(&mut image.src);
        }
    }
}

/// The answer for a reader of `city`: every section, local entries first (stable).
pub fn build(day: &Day, lang: Locale, date: NaiveDate, city: &City) -> HistoryDay {
    let names = LocalNames::new(city, lang);
    let sections = SECTIONS
        .iter()
        .map(|&kind| {
            let (mut local, other): (Vec<_>, Vec<_>) = day
                .feed
                .section(kind)
                .iter()
                .map(|e| entry(e, &names))
                .partition(|e| e.local);
            let local_count = local.len();
            local.extend(other);
            HistorySection {
                kind,
                local_count,
                entries: local,
            }
        })
        .collect();
    HistoryDay {
        date: date.to_string(),
        month: date.month(),
        day: date.day(),
        lang: lang.code(),
        demo: day.demo,
        place: HistoryPlace {
            city_id: city.id,
            city: city.display_name(lang).to_string(),
            admin_name: city.admin_name.to_string(),
        },
        sections,
        attribution: Attribution {
            source: "Wikipedia",
            source_url: day_article(lang, date),
            license: "CC BY-SA 4.0",
            license_url: "https://creativecommons.org/licenses/by-sa/4.0/",
        },
        fetched_at: day.fetched_at_ms,
    }
}

fn entry(e: &FeedEntry, names: &LocalNames) -> HistoryEntry {
    let texts = std::iter::once(e.text.as_str()).chain(e.pages.iter().flat_map(|p| {
        [
            p.title.as_str(),
            p.description.as_deref().unwrap_or(""),
            p.extract.as_deref().unwrap_or(""),
        ]
    }));
    let local = names.mentioned_in(texts.map(|t| t.trim_matches('_')).collect::<Vec<_>>());
    HistoryEntry {
        text: e.text.clone(),
        year: e.year,
        local,
        pages: e
            .pages
            .iter()
            .filter_map(|p| {
                Some(HistoryPage {
                    title: p.display_title(),
                    url: p
                        .url()
                        .filter(|u| u.starts_with("https://") || u.starts_with("http://"))?
                        .to_string(),
                    description: p.description.clone().filter(|d| !d.is_empty()),
                    image: p
                        .thumbnail
                        .as_ref()
                        .filter(|t| t.source.starts_with("https://"))
                        .map(|t| HistoryImage {
                            src: t.source.clone(),
                            width: t.width,
                            height: t.height,
                        }),
                })
            })
            .collect(),
    }
}

/// The day's own article: en `July_1`, es `1_de_julio`, fr `1er_juillet`.
fn day_article(lang: Locale, date: NaiveDate) -> String {
    const EN: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    const ES: [&str; 12] = [
        "enero",
        "febrero",
        "marzo",
        "abril",
        "mayo",
        "junio",
        "julio",
        "agosto",
        "septiembre",
        "octubre",
        "noviembre",
        "diciembre",
    ];
    const FR: [&str; 12] = [
        "janvier",
        "février",
        "mars",
        "avril",
        "mai",
        "juin",
        "juillet",
        "août",
        "septembre",
        "octobre",
        "novembre",
        "décembre",
    ];
    let m = date.month0() as usize;
    let d = date.day();
    let title = match lang {
        Locale::En => format!("{}_{d}", EN[m]),
        Locale::Es => format!("{d}_de_{}", ES[m]),
        Locale::Fr if d == 1 => format!("1er_{}", FR[m]),
        Locale::Fr => format!("{d}_{}", FR[m]),
    };
    let encoded = percent_encoding::utf8_percent_encode(&title, percent_encoding::NON_ALPHANUMERIC).to_string();
    format!(
        "https://{}.wikipedia.org/wiki/{}",
        lang.code(),
        encoded.replace("%5F", "_")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::wiki;
    use geo::CityId;

    fn day(lang: Locale) -> Day {
        let bytes: &[u8] = match lang {
            Locale::En => include_bytes!("../../../../data/demo/onthisday/onthisday-en-07-01.json"),
            Locale::Es => include_bytes!("../../../../data/demo/onthisday/onthisday-es-07-01.json"),
            Locale::Fr => include_bytes!("../../../../data/demo/onthisday/onthisday-fr-07-01.json"),
        };
        Day {
            feed: wiki::parse(bytes).unwrap(),
            fetched_at_ms: 1,
            demo: false,
        }
    }

    fn section(d: &HistoryDay, kind: Section) -> &HistorySection {
        d.sections.iter().find(|s| s.kind == kind).unwrap()
    }

    #[test]
    fn entries_about_the_readers_city_or_province_come_first_and_are_marked() {
        let date = NaiveDate::from_ymd_opt(2026, 7, 1).unwrap();
        let toronto = geo::by_id(CityId(6167865)).unwrap();
        let d = build(&day(Locale::En), Locale::En, date, toronto);
        let events = section(&d, Section::Events);
        assert_eq!(events.local_count, 1);
        assert!(events.entries[0].local && events.entries[0].text.contains("Toronto"));
        assert!(!events.entries[1].local);
        // Confederation names Ontario in its extract: local for Toronto, first already.
        let selected = section(&d, Section::Selected);
        assert_eq!(selected.local_count, 1);
        assert_eq!(selected.entries[0].year, Some(1867));

        // A reader in Pennsylvania gets Gettysburg first, the feed's order otherwise kept.
        let pittsburgh = geo::all().iter().find(|c| c.name == "Pittsburgh").unwrap();
        let d = build(&day(Locale::En), Locale::En, date, pittsburgh);
        let selected = section(&d, Section::Selected);
        assert_eq!(selected.local_count, 1);
        assert_eq!(selected.entries[0].year, Some(1863));
        assert_eq!(
            selected.entries.iter().skip(1).map(|e| e.year).collect::<Vec<_>>(),
            [Some(1867), Some(1916)]
        );
        // Los Angeles: Brando died there (his extract says so).
        let la = geo::all().iter().find(|c| c.name == "Los Angeles").unwrap();
        let d = build(&day(Locale::Fr), Locale::Fr, date, la);
        assert!(section(&d, Section::Deaths).entries[0].local);
    }

    #[test]
    fn d382_history_pictures_are_addressed_through_the_image_proxy() {
        let date = NaiveDate::from_ymd_opt(2026, 7, 1).unwrap();
        let mut d = build(&day(Locale::En), Locale::En, date, geo::by_id(CityId(6167865)).unwrap());
        let proxy = |src: &mut String| *src = format!("/proxy/{}", src.len());
        let original = section(&d, Section::Selected).entries[0].pages[0]
            .image
            .as_ref()
            .unwrap()
            .src
            .clone();
        d.proxy_images(&proxy);
        let pictures: Vec<&str> = d
            .sections
            .iter()
            .flat_map(|s| &s.entries)
            .flat_map(|e| &e.pages)
            .filter_map(|p| p.image.as_ref())
            .map(|i| i.src.as_str())
            .collect();
        assert!(!pictures.is_empty());
        assert!(pictures.iter().all(|src| src.starts_with("/proxy/")), "{pictures:?}");
        assert_eq!(pictures[0], format!("/proxy/{}", original.len()));
        assert_eq!(
            section(&d, Section::Selected).entries[0].pages[0].url,
            "https://en.wikipedia.org/wiki/Canadian_Confederation"
        );
    }

    #[test]
    fn the_answer_carries_links_images_and_the_cc_by_sa_attribution() {
        let date = NaiveDate::from_ymd_opt(2026, 7, 1).unwrap();
        let d = build(&day(Locale::En), Locale::En, date, geo::by_id(CityId(6167865)).unwrap());
        let page = &section(&d, Section::Selected).entries[0].pages[0];
        assert_eq!(page.url, "https://en.wikipedia.org/wiki/Canadian_Confederation");
        assert!(
            page.image
                .as_ref()
                .unwrap()
                .src
                .starts_with("https://upload.wikimedia.org/")
        );
        assert_eq!(d.attribution.license, "CC BY-SA 4.0");
        assert_eq!(d.attribution.source_url, "https://en.wikipedia.org/wiki/July_1");
        assert_eq!(
            day_article(Locale::Fr, date),
            "https://fr.wikipedia.org/wiki/1er_juillet"
        );
        assert_eq!(
            day_article(Locale::Es, date),
            "https://es.wikipedia.org/wiki/1_de_julio"
        );
        assert_eq!(section(&d, Section::Holidays).entries[0].year, None);
    }
}
