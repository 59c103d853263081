//! Feeds out (issue 31, D376): every page with a list (a city, a category, a publisher,
//! a place, a collection, latest, top, a search) can be followed as RSS 2.0, Atom 1.0 or
//! JSON Feed 1.1 at `/feeds/{rss|atom|json}` followed by the page's own address, e.g.
//! `/feeds/atom/fr/category/politics?c=fr_CA` or `/feeds/rss/search/news?q=budget`.
//!
//! A feed is the page's first list, made by the same rules as the page (`pages::data`,
//! for a reader nobody knows), in the page's language, written by [`rss`], [`atom`] or
//! [`json_feed`], and kept like every read (D140) with an ETag for conditional GETs.

pub mod atom;
pub mod document;
pub mod json_feed;
pub mod rss;

use crate::envelope::ApiError;
use crate::pages::base_url;
use crate::pages::data::page_data;
use crate::pages::locale::{Rendering, localized_path, query_value, split_locale_prefix};
use crate::pages::routes::{FeedOf, match_route};
use crate::read_cache::{CacheControl, Made};
use crate::state::{AppState, now_ms};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use document::{FeedDoc, entry, titled};
use domain::i18n::{t, t_with};
use domain::locale::{CountryLanguage, Locale};
use percent_encoding::percent_decode_str;
use store::reader_view::ReaderView;

/// Feed readers poll every 15 minutes or more; what they get is at most this old.
pub const MAX_AGE: u32 = 300;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Rss,
    Atom,
    Json,
}

impl Format {
    pub const ALL: [Format; 3] = [Format::Rss, Format::Atom, Format::Json];

    pub fn name(self) -> &'static str {
        match self {
            Format::Rss => "rss",
            Format::Atom => "atom",
            Format::Json => "json",
        }
    }

    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Rss => "application/rss+xml; charset=utf-8",
            Format::Atom => "application/atom+xml; charset=utf-8",
            Format::Json => "application/feed+json; charset=utf-8",
        }
    }

    pub fn write(self, doc: &FeedDoc) -> String {
        match self {
            Format::Rss => rss::write(doc),
            Format::Atom => atom::write(doc),
            Format::Json => json_feed::write(doc),
        }
    }
}

pub fn routes() -> Router<AppState> {
    Router::new().route("/feeds/{format}/{*page}", get(feed_handler))
}

/// The list of the page at `path` (with its locale prefix) and `query`, as a feed.
/// `NotFound` when the page has no list to follow (or names nothing that exists),
/// `Internal` when the store failed.
pub async fn feed_doc(
    state: &AppState,
    base: &str,
    path: &str,
    query: Option<&str>,
    feed_url: String,
    now: i64,
) -> Result<FeedDoc, ApiError> {
    let decoded = percent_decode_str(path).decode_utf8_lossy();
    let (prefix, rest) = split_locale_prefix(&decoded);
    let locale = prefix.and_then(Locale::from_code).unwrap_or(Locale::DEFAULT);
    // `c` chooses the country of the page's language (en_CA); its language is the path's.
    let country = query
        .and_then(|q| query_value(q, "c"))
        .and_then(|c| CountryLanguage::parse(&c))
        .map(|c| c.country)
        .filter(|country| {
            CountryLanguage::PRODUCT_PAIRS.contains(&CountryLanguage {
                locale,
                country: *country,
            })
        })
        .unwrap_or_else(|| locale.home_country());
    let matched = match_route(rest).filter(|m| m.route.feed == Some(FeedOf::Page));
    let Some(m) = matched else {
        return Err(ApiError::NotFound);
    };
    let rendering = Rendering {
        locale,
        country,
        rest: rest.to_string(),
        applied_c: Some(CountryLanguage { locale, country }),
    };
    // The page as a reader nobody knows sees it: no cookies, no blocks.
    let page = page_data(
        state,
        &HeaderMap::new(),
        &rendering,
        &m,
        query,
        now,
        &ReaderView::none(),
    )
    .await;
    if page.unavailable {
        return Err(ApiError::Internal("the feed's list could not be read".into()));
    }
    let Some((_, data)) = &page.main else {
        return Err(ApiError::NotFound);
    };
    let entries: Vec<_> = data["list"]
        .as_array()
        .map(|list| list.iter().filter_map(|news| entry(news, base, locale)).collect())
        .unwrap_or_default();
    let words = query.and_then(|q| query_value(q, "q")).unwrap_or_default();
    let name = match (m.route.name.as_str(), &page.title) {
        ("search-news", _) => t_with(locale, "Feed_SearchTitle", &[("q", words.trim())]),
        (_, Some(title)) if !title.trim().is_empty() => title.clone(),
        _ => t(locale, &m.route.title).to_string(),
    };
    let description = page
        .description
        .clone()
        .filter(|d| !d.trim().is_empty())
        .unwrap_or_else(|| t(locale, &m.route.description).to_string());
    let mut page_url = format!("{base}{}", localized_path(locale, rest));
    if m.route.name == "search-news" {
        page_url.push_str(&format!(
            "?q={}",
            percent_encoding::utf8_percent_encode(words.trim(), percent_encoding::NON_ALPHANUMERIC)
        ));
    }
    Ok(FeedDoc {
        title: titled(&name, locale),
        description,
        language: locale,
        page_url,
        feed_url,
        base: base.to_string(),
        updated_ms: entries.iter().map(|e| e.published_ms).max().unwrap_or(now),
        entries,
    })
}

fn plain(status: StatusCode, message: &'static str) -> Response {
    let mut res = (status, message).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

async fn feed_handler(
    State(state): State<AppState>,
    Path((format, page)): Path<(String, String)>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let Some(format) = Format::from_name(&format) else {
        return plain(StatusCode::NOT_FOUND, "No such feed format: use rss, atom or json.");
    };
    let base = base_url(&state, &headers);
    let path_and_query = uri.path_and_query().map_or(uri.path(), |pq| pq.as_str());
    let feed_url = format!("{base}{path_and_query}");
    let generation = state.store.content_generation();
    let now = now_ms();
    let make = || async {
        let doc = feed_doc(&state, &base, &format!("/{page}"), uri.query(), feed_url.clone(), now).await?;
        Ok::<_, ApiError>(Made {
            body: format.write(&doc).into_bytes(),
            content_type: format.content_type(),
        })
    };
    let answer = state
        .read_cache
        .answer_document(
            &feed_url,
            generation,
            now,
            &headers,
            CacheControl::Public { max_age: MAX_AGE },
            make,
        )
        .await;
    match answer {
        Ok((res, lookup)) => {
            state.metrics.read_cache(lookup);
            res
        }
        Err(ApiError::Internal(cause)) => {
            tracing::warn!(%cause, feed = %uri, "a feed could not be made");
            let mut res = plain(
                StatusCode::SERVICE_UNAVAILABLE,
                "This feed is unavailable right now; try again in a minute.",
            );
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
            res
        }
        Err(_) => plain(
            StatusCode::NOT_FOUND,
            "No feed here: the address after /feeds/{format} must be a page with a list (a city, a category, a publisher, latest, top news or a search).",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pages::feed_links::FORMATS;

    #[test]
    fn d376_every_format_the_pages_offer_is_served_with_its_media_type() {
        assert_eq!(FORMATS.len(), Format::ALL.len());
        for shared in FORMATS.iter() {
            let format = Format::from_name(&shared.format).expect("a format the server writes");
            assert!(format.content_type().starts_with(&format!("{};", shared.media_type)));
        }
    }
}
