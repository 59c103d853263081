//! Where a page's list is followed as a feed (D376): the rule the page's head
//! (autodiscovery links) and the web app's "Follow as a feed" control both apply, checked
//! against one fixture (`web/src/shared/fixtures/feed-path.json`).

use super::locale::{encode_uri_component, localized_path, query_value};
use super::routes::{FeedOf, RouteDef};
use domain::ids::CityId;
use domain::locale::Locale;
use serde::Deserialize;
use std::sync::LazyLock;

/// A format a page's list is followed in, as `/feeds/{format}` names it.
#[derive(Debug, Clone, Deserialize)]
pub struct FeedFormat {
    pub format: String,
    #[serde(rename = "type")]
    pub media_type: String,
    pub label: String,
}

#[derive(Deserialize)]
struct Shared {
    formats: Vec<FeedFormat>,
}

/// RSS, Atom and JSON Feed, from the file the web app's control reads too.
pub static FORMATS: LazyLock<Vec<FeedFormat>> = LazyLock::new(|| {
    serde_json::from_str::<Shared>(include_str!("../../../../web/src/shared/feeds.json"))
        .map(|s| s.formats)
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "web/src/shared/feeds.json is not a list of feed formats");
            Vec::new()
        })
});

/// What follows `/feeds/{format}` for the page of `route` at `rest` (its path without
/// the locale prefix) and `query`, for a reader in `city_id`; `None` when the page has
/// no list to follow. The query keeps `c` (the country) and, on a search, the words.
pub fn feed_path(route: &RouteDef, locale: Locale, rest: &str, query: &str, city_id: CityId) -> Option<String> {
    let path = match route.feed? {
        FeedOf::ReaderCity if city_id.0 > 0 => format!("/local/{city_id}"),
        FeedOf::ReaderCity => return None,
        FeedOf::Page => {
            let trimmed = rest.trim_end_matches('/');
            if trimmed.is_empty() {
                "/".to_string()
            } else {
                trimmed.to_string()
            }
        }
    };
    let mut params = Vec::new();
    if route.name == "search-news" {
        let words = query_value(query, "q").unwrap_or_default();
        let words = words.trim();
        if words.is_empty() {
            return None;
        }
        params.push(format!("q={}", encode_uri_component(words)));
    }
    if let Some(c) = query_value(query, "c").filter(|c| !c.trim().is_empty()) {
        params.push(format!("c={}", encode_uri_component(c.trim())));
    }
    let path = localized_path(locale, &path);
    Some(if params.is_empty() {
        path
    } else {
        format!("{path}?{}", params.join("&"))
    })
}
