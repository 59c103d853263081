//! Publishers as the store keeps them, from OPML outlines or `feeds add` arguments:
//! slugs, locations checked against the gazetteer, languages and categories checked
//! against the fixed sets. Every problem is named so the operator can fix the file.

use crate::categorize::CATEGORIES;
use crate::opml::OpmlPublisher;
use domain::geo::Country;
use domain::locale::Locale;
use geo::{City, CityId};
use store::content::{NewFeed, NewMedia, PublisherFeeds};

/// A publisher's place, as the operator gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub country: String,
    pub state: String,
    pub city: String,
}

/// What `feeds add` or an OPML outline says about a publisher.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PublisherInput {
    pub feed_url: String,
    pub name: String,
    pub home_url: String,
    pub icon_url: String,
    pub about: String,
    pub contact: String,
    pub location: Location,
    pub lang: String,
    pub category: String,
}

impl From<&OpmlPublisher> for PublisherInput {
    fn from(p: &OpmlPublisher) -> Self {
        PublisherInput {
            feed_url: p.feed_url.clone(),
            name: p.name.clone(),
            home_url: p.home_url.clone().or_else(|| p.html_url.clone()).unwrap_or_default(),
            icon_url: p.icon_url.clone().unwrap_or_default(),
            about: p.about.clone().unwrap_or_default(),
            contact: p.contact.clone().unwrap_or_default(),
            location: Location {
                country: p.country.clone().unwrap_or_default(),
                state: p.state.clone().unwrap_or_default(),
                city: p.city.clone().unwrap_or_default(),
            },
            lang: p.lang.clone().unwrap_or_default(),
            category: p.category.clone().unwrap_or_default(),
        }
    }
}

/// A URL-safe key from a name: folded, words joined by dashes (`Le Devoir` → `le-devoir`).
pub fn slug(name: &str) -> String {
    domain::text::fold(name).replace(' ', "-")
}

/// The gazetteer city for a publisher's city, state/province and country, if it names one.
pub fn locate(city: &str, state: &str, country: Country) -> Option<&'static City> {
    let wanted = domain::text::fold(city);
    if wanted.is_empty() {
        return None;
    }
    let hits: Vec<&'static City> = geo::search(city, Some(country), Locale::En, 50)
        .into_iter()
        .map(|hit| hit.city)
        .filter(|c| state.is_empty() || c.admin_code.eq_ignore_ascii_case(state))
        .collect();
    // The name or an alternate name ("New York" is New York City's), else the biggest
    // city whose name starts with it.
    hits.iter()
        .copied()
        .find(|c| {
            [c.name, c.name_ascii]
                .into_iter()
                .chain(c.alt_names.iter().copied())
                .any(|n| domain::text::fold(n) == wanted)
        })
        .or_else(|| {
            hits.iter()
                .copied()
                .find(|c| domain::text::fold(c.name).starts_with(&wanted))
        })
}

/// A publisher's home or icon address as it is kept: an absolute http(s) address, else
/// empty (D364). `javascript:`, `data:`, `file:`, relative paths and garbage are dropped:
/// the app and the pages put these in `href` and `src`, and the operator's screens show
/// them, so only a web address may get that far. The command line, OPML files and
/// `/admin` all come through here.
pub fn web_address(raw: &str) -> String {
    let raw = raw.trim();
    match url::Url::parse(raw) {
        Ok(u) if matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty()) => {
            raw.to_string()
        }
        _ => String::new(),
    }
}

/// Check and complete a publisher. Country defaults to US and language to en; a city,
/// when given, must be in the gazetteer (with its state or province when given). A home
/// or icon address that is not http(s) is dropped ([`web_address`]).
pub fn to_store(input: &PublisherInput) -> Result<PublisherFeeds, String> {
    let name = input.name.trim();
    if name.is_empty() {
        return Err("the publisher has no name (give --name or an OPML title)".into());
    }
    let slug = slug(name);
    if slug.is_empty() {
        return Err(format!("the publisher name {name:?} has no letters or digits"));
    }
    let iso = if input.location.country.trim().is_empty() {
        "US"
    } else {
        input.location.country.trim()
    };
    let country = Country::from_iso(&iso.to_ascii_uppercase())
        .ok_or_else(|| format!("unsupported country {iso:?} (Localwire covers US and CA)"))?;
    let lang = if input.lang.trim().is_empty() {
        "en"
    } else {
        input.lang.trim()
    };
    let lang = lang.split(['-', '_']).next().unwrap_or(lang).to_ascii_lowercase();
    if !matches!(lang.as_str(), "en" | "es" | "fr") {
        return Err(format!("unsupported language {lang:?} (use en, es or fr)"));
    }
    let category = if input.category.trim().is_empty() {
        "local"
    } else {
        input.category.trim()
    };
    if !CATEGORIES.iter().any(|(id, _)| *id == category) {
        let known: Vec<&str> = CATEGORIES.iter().map(|(id, _)| *id).collect();
        return Err(format!(
            "unknown category {category:?} (use one of {})",
            known.join(", ")
        ));
    }
    let state = input.location.state.trim().to_ascii_uppercase();
    let city_name = input.location.city.trim();
    let city = if city_name.is_empty() {
        None
    } else {
        Some(locate(city_name, &state, country).ok_or_else(|| {
            format!(
                "city {city_name:?}{} not found in {}",
                if state.is_empty() {
                    String::new()
                } else {
                    format!(", {state}")
                },
                country.iso()
            )
        })?)
    };
    Ok(PublisherFeeds {
        media: NewMedia {
            slug,
            name: name.to_string(),
            icon_url: web_address(&input.icon_url),
            home_url: web_address(&input.home_url),
            about: input.about.trim().to_string(),
            contact: input.contact.trim().to_string(),
            category_id: category.to_string(),
            category_top_id: category.to_string(),
            country: country.iso().to_string(),
            admin_code: city.map_or(state.clone(), |c| c.admin_code.to_string()),
            city: city.map_or(String::new(), |c| c.name.to_string()),
            city_id: city.map_or(CityId(0), |c| c.id),
            lang: lang.clone(),
        },
        feeds: vec![NewFeed {
            url: input.feed_url.trim().to_string(),
            lang,
        }],
    })
}

/// Merge publishers that share a slug (one publisher, several feeds), keeping file order.
pub fn merge(list: Vec<PublisherFeeds>) -> Vec<PublisherFeeds> {
    let mut out: Vec<PublisherFeeds> = Vec::new();
    for p in list {
        match out.iter_mut().find(|o| o.media.slug == p.media.slug) {
            Some(existing) => existing.feeds.extend(p.feeds),
            None => out.push(p),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(city: &str, state: &str, country: &str) -> PublisherInput {
        PublisherInput {
            feed_url: "https://example.com/feed".into(),
            name: "Le Journal de Québec".into(),
            location: Location {
                country: country.into(),
                state: state.into(),
                city: city.into(),
            },
            lang: "fr-CA".into(),
            ..PublisherInput::default()
        }
    }

    #[test]
    fn d364_only_http_and_https_home_and_icon_addresses_are_kept() {
        for bad in [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "data:image/svg+xml,<svg onload=alert(1)>",
            "file:///etc/passwd",
            "vbscript:msgbox(1)",
            "//evil.example/icon.png",
            "/icon.png",
            "ftp://files.example/icon.png",
            "http://",
            "not a url",
        ] {
            let p = to_store(&PublisherInput {
                home_url: bad.into(),
                icon_url: bad.into(),
                ..input("", "", "US")
            })
            .unwrap();
            assert_eq!(
                (p.media.home_url.as_str(), p.media.icon_url.as_str()),
                ("", ""),
                "{bad:?}"
            );
        }
        let p = to_store(&PublisherInput {
            home_url: " https://news.example.org/ ".into(),
            icon_url: "http://news.example.org/icon.png".into(),
            ..input("", "", "US")
        })
        .unwrap();
        assert_eq!(p.media.home_url, "https://news.example.org/");
        assert_eq!(p.media.icon_url, "http://news.example.org/icon.png");
    }

    #[test]
    fn slug_is_folded_and_dashed() {
        assert_eq!(slug("Le Journal de Québec"), "le-journal-de-quebec");
        assert_eq!(slug("  The Capitol Ledger! "), "the-capitol-ledger");
    }

    #[test]
    fn publisher_city_is_found_in_the_gazetteer_with_its_state() {
        let p = to_store(&input("Portland", "ME", "US")).unwrap();
        assert_eq!((p.media.city.as_str(), p.media.admin_code.as_str()), ("Portland", "ME"));
        assert_eq!(p.media.city_id, CityId(4975802));
        let or = to_store(&input("Portland", "OR", "US")).unwrap();
        assert_ne!(or.media.city_id, p.media.city_id);
        let ny = to_store(&input("New York", "NY", "US")).unwrap();
        assert_eq!(ny.media.city, "New York City", "alternate names count");
        let qc = to_store(&input("Montreal", "QC", "CA")).unwrap();
        assert_eq!(qc.media.city, "Montréal");
        assert_eq!(qc.media.lang, "fr", "regional language tags keep the language");
    }

    #[test]
    fn bad_publisher_fields_are_named() {
        assert!(
            to_store(&input("Gotham Heights", "", "US"))
                .unwrap_err()
                .contains("city \"Gotham Heights\" not found in US")
        );
        assert!(
            to_store(&input("", "", "FR"))
                .unwrap_err()
                .contains("unsupported country")
        );
        let mut no_name = input("", "", "US");
        no_name.name = " ".into();
        assert!(to_store(&no_name).unwrap_err().contains("no name"));
        let mut lang = input("", "", "US");
        lang.lang = "de".into();
        assert!(to_store(&lang).unwrap_err().contains("unsupported language \"de\""));
        let mut category = input("", "", "US");
        category.category = "gossip".into();
        assert!(to_store(&category).unwrap_err().contains("unknown category \"gossip\""));
    }

    #[test]
    fn feeds_of_one_publisher_merge() {
        let a = to_store(&input("", "", "US")).unwrap();
        let mut b = a.clone();
        b.feeds[0].url = "https://example.com/other".into();
        let merged = merge(vec![a, b]);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].feeds.len(), 2);
    }
}
