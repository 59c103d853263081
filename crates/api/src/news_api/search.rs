//! `GET /api/search/news` and `GET /api/search/media`: full-text news search and
//! publishers by name.

use super::cached::{LIST_MAX_AGE, RawQuery, kept};
use super::paging::{items, offset_page};
use super::params::{Common, category_param, query_param, query_terms, whole_number};
use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::news_json::{MAX_OFFSET, MediaDoc, NewsItem, PageToken};
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use domain::text::fold;
use geo::CityId;
use serde::Serialize;
use store::content::{PlaceKey, SearchQuery};
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchNewsPage {
    pub list: Vec<NewsItem>,
    pub next_page_token: String,
    /// The folded query words, for highlighting.
    pub terms: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MediaPage {
    pub list: Vec<MediaDoc>,
    pub next_page_token: String,
}

/// `GET /api/search/news`'s data.
pub async fn search_news(state: &AppState, params: &Params, now: i64) -> Result<SearchNewsPage, ApiError> {
    let q = query_param(params)?;
    let c = Common::parse(params)?;
    let place = match params.get("city_id").filter(|v| !v.is_empty()) {
        None => None,
        Some(_) => {
            let id = whole_number(params, "city_id")?;
            geo::by_id(CityId(id)).ok_or(ApiError::NotFound)?;
            Some(PlaceKey::City(id))
        }
    };
    let category = category_param(params, "category")?;
    let since_ms = match params.get("since").filter(|v| !v.is_empty()) {
        None => None,
        Some(v) => Some(
            v.parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| bad("since", "must be a time in milliseconds since 1970."))?,
        ),
    };
    let offset = c.offset()?;
    let terms = query_terms(q);
    let query = SearchQuery {
        terms: terms.clone(),
        filter: c.filter(),
        place,
        category: category.map(str::to_string),
        since_ms,
    };
    let rows = if terms.is_empty() {
        Vec::new()
    } else {
        state.store.search_news(&query, offset, c.size as i64 + 1).await?
    };
    let (rows, next_page_token) = offset_page(rows, offset, c.size, false);
    Ok(SearchNewsPage {
        list: items(rows, c.names(), now),
        next_page_token,
        terms,
    })
}

/// `GET /api/search/media`'s data.
pub async fn search_media(state: &AppState, params: &Params) -> Result<MediaPage, ApiError> {
    let q = query_param(params)?;
    let c = Common::parse(params)?;
    let offset = c.offset()?;
    let folded = fold(q);
    let mut rows = if folded.is_empty() {
        Vec::new()
    } else {
        state.store.search_media(&folded, offset, c.size as i64 + 1).await?
    };
    let more = rows.len() > c.size;
    rows.truncate(c.size);
    let next = offset + c.size as i64;
    Ok(MediaPage {
        list: rows.into_iter().map(MediaDoc::from).collect(),
        next_page_token: if more && next <= MAX_OFFSET {
            PageToken::Offset(next).encode()
        } else {
            String::new()
        },
    })
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct SearchNewsParams {
    /// 1 to 200 characters after trimming; accents and case ignored; every word must
    /// match (the last as a prefix).
    q: String,
    /// en, es or fr: only items in this language.
    lang: Option<String>,
    /// US or CA.
    country: Option<String>,
    /// Only items placed in this city.
    city_id: Option<i64>,
    /// One of the 13 category ids.
    category: Option<String>,
    /// Only items published at or after this time (ms).
    since: Option<i64>,
    page_token: Option<String>,
    /// 1 to 50, default 20.
    size: Option<i64>,
}

/// Full-text news search over titles, summaries and content, best match first.
#[utoipa::path(get, path = "/api/search/news", tag = "search", params(SearchNewsParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token, terms}`", body = SearchNewsPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it")))]
pub async fn search_news_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, LIST_MAX_AGE, || async {
        search_news(&state, &Params::new(query)?, now_ms()).await
    })
    .await
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct SearchMediaParams {
    /// 1 to 200 characters; matches anywhere in the publisher's name, accents and case
    /// ignored.
    q: String,
    page_token: Option<String>,
    /// 1 to 50, default 20.
    size: Option<i64>,
}

/// Publishers by name.
#[utoipa::path(get, path = "/api/search/media", tag = "search", params(SearchMediaParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token}`", body = MediaPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it")))]
pub async fn search_media_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, LIST_MAX_AGE, || async {
        search_media(&state, &Params::new(query)?).await
    })
    .await
}
