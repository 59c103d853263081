//! What the app's screens list, read from the file the app reads
//! (`web/src/shared/screens.json`, D235): the main navigation, the footer's links, how
//! many stories a home section shows and which screens lead with a large first card.

use serde::Deserialize;
use std::sync::LazyLock;

/// A link of the main navigation or the footer.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct NavLink {
    /// The path without a locale prefix.
    pub path: String,
    /// The message key of its name.
    pub key: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Screens {
    pub nav: Vec<NavLink>,
    pub footer: Vec<NavLink>,
    /// Stories in each of the home's local and top sections.
    pub home_section_size: usize,
    /// Route names whose main feed shows its first story as a lead card.
    pub lead_first: Vec<String>,
}

pub static SCREENS: LazyLock<Screens> = LazyLock::new(|| {
    serde_json::from_str(include_str!("../../../../web/src/shared/screens.json")).unwrap_or_else(|e| {
        tracing::error!(error = %e, "web/src/shared/screens.json is not valid");
        Screens::default()
    })
});

/// Stories in each of the home's local and top sections (web `HOME_SECTION_SIZE`).
pub fn home_section_size() -> usize {
    SCREENS.home_section_size
}

/// Does route `route`'s main feed show its first story as a lead card (web `leadsWithFirst`)?
pub fn leads_with_first(route: &str) -> bool {
    SCREENS.lead_first.iter().any(|name| name == route)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::routes::ROUTES;

    #[test]
    fn d235_the_shared_screens_file_reads_and_names_real_routes() {
        assert!(!SCREENS.nav.is_empty() && !SCREENS.footer.is_empty());
        assert!(home_section_size() > 0);
        for link in SCREENS.nav.iter().chain(&SCREENS.footer) {
            assert!(ROUTES.iter().any(|r| r.path == link.path), "{}", link.path);
            let name = domain::i18n::t(domain::locale::Locale::En, &link.key);
            assert_ne!(name, link.key, "a message for {}", link.key);
        }
        for name in &SCREENS.lead_first {
            assert!(ROUTES.iter().any(|r| &r.name == name), "{name}");
        }
        assert!(leads_with_first("latest") && leads_with_first("home"));
        assert!(!leads_with_first("search-news") && !leads_with_first("media"));
    }

    /// Every lead-first screen preloads its lead card's image; "latest" did not, although
    /// both renderers lead it with a large card.
    #[test]
    fn d235_every_lead_first_screen_preloads_its_lead_image() {
        use crate::pages::data::{Call, FEED, PageData, lead_image};
        let page = PageData {
            main: Some((
                Call {
                    path: FEED,
                    params: Vec::new(),
                },
                serde_json::json!({ "list": [{ "news_id": 1, "img_url": "https://img.example/1.jpg" }] }),
            )),
            ..PageData::default()
        };
        for route in &SCREENS.lead_first {
            assert_eq!(lead_image(route, &page), Some("https://img.example/1.jpg"), "{route}");
        }
        assert_eq!(lead_image("search-news", &page), None);
    }
}
