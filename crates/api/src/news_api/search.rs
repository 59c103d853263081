//! `GET /api/search/news` and `GET /api/search/media`: full-text news search and
//! publishers by name.

use super::cached::{LIST_MAX_AGE, RawQuery, kept, request_view};
use super::paging::{items, offset_limit, offset_page};
use super::params::{Common, category_param, optional_whole_number, page_size, page_token, query_param, query_terms};
use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::news_json::{MAX_OFFSET, MediaDoc, NewsItem, PageToken, Reason};
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use domain::text::fold;
use geo::CityId;
use serde::Serialize;
use store::content::{PlaceKey, SearchQuery};
use store::reader_view::ReaderView;
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

/// `GET /api/search/news`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchNewsParams {
    /// 1 to 200 characters after trimming; accents and case ignored; every word must
    /// match (the last as a prefix).
    pub q: String,
    /// en, es or fr: only items in this language.
    #[param(value_type = Option<String>)]
    pub lang: Option<Locale>,
    /// US or CA.
    #[param(value_type = Option<String>)]
    pub country: Option<Country>,
    /// Only items placed in this city.
    #[param(value_type = Option<i64>)]
    pub city_id: Option<CityId>,
    /// The reader's own city: the matches placed there come first (among the newest
    /// 1,000 matches of each tier); it filters nothing, and `city_id` makes it moot.
    #[param(value_type = Option<i64>)]
    pub near_city_id: Option<CityId>,
    /// One of the 13 category ids.
    #[param(value_type = Option<String>)]
    pub category: Option<&'static str>,
    /// Only items published at or after this time (ms).
    pub since: Option<i64>,
    #[param(value_type = Option<String>)]
    pub page_token: Option<PageToken>,
    /// 1 to 50, default 20.
    #[param(value_type = Option<i64>)]
    pub size: usize,
}

impl SearchNewsParams {
    /// Checked in order: the query, the list parameters, the city (which must exist),
    /// the reader's city, the category, the time.
    pub fn parse(params: &Params) -> Result<SearchNewsParams, ApiError> {
        let q = query_param(params)?;
        let c = Common::parse(params)?;
        let city_id = optional_whole_number(params, "city_id")?.map(CityId);
        if let Some(id) = city_id {
            geo::by_id(id).ok_or(ApiError::NotFound)?;
        }
        // The reader's own city orders and filters nothing: an unknown one is the caller's
        // mistake to fix, not a missing resource.
        let near_city_id = optional_whole_number(params, "near_city_id")?.map(CityId);
        if near_city_id.is_some_and(|id| geo::by_id(id).is_none()) {
            return Err(bad(
                "near_city_id",
                "is not a city id (find one with /api/geo/cities/search).",
            ));
        }
        let category = category_param(params, "category")?;
        let since = match params.get("since").filter(|v| !v.is_empty()) {
            None => None,
            Some(v) => Some(
                v.parse::<i64>()
                    .ok()
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| bad("since", "must be a time in milliseconds since 1970."))?,
            ),
        };
        Ok(SearchNewsParams {
            q,
            lang: c.lang,
            country: c.country,
            city_id,
            near_city_id,
            category,
            since,
            page_token: c.token,
            size: c.size,
        })
    }
}

/// `GET /api/search/news`'s data, without what the reader's view hides (D270).
pub async fn search_news(
    state: &AppState,
    p: &SearchNewsParams,
    now: i64,
    view: &ReaderView,
) -> Result<SearchNewsPage, ApiError> {
    let c = Common {
        lang: p.lang,
        country: p.country,
        size: p.size,
        token: p.page_token,
    };
    let offset = c.offset()?;
    let terms = query_terms(&p.q);
    let query = SearchQuery {
        terms: terms.clone(),
        filter: c.filter(),
        place: p.city_id.map(PlaceKey::City),
        near: p.near_city_id.map(PlaceKey::City),
        category: p.category.map(str::to_string),
        since_ms: p.since,
    };
    let rows = if terms.is_empty() {
        Vec::new()
    } else {
        state
            .store
            .search_news(&query, offset, offset_limit(c.size, view))
            .await?
    };
    let (rows, next_page_token) = offset_page(rows, offset, c.size, false, view);
    Ok(SearchNewsPage {
        list: items(rows, c.names(), now, view, Reason::MatchesSearch, &state.image_proxy),
        next_page_token,
        terms,
    })
}

/// `GET /api/search/media`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchMediaParams {
    /// 1 to 200 characters; matches anywhere in the publisher's name, accents and case
    /// ignored.
    pub q: String,
    #[param(value_type = Option<String>)]
    pub page_token: Option<PageToken>,
    /// 1 to 50, default 20.
    #[param(value_type = Option<i64>)]
    pub size: usize,
}

impl SearchMediaParams {
    pub fn parse(params: &Params) -> Result<SearchMediaParams, ApiError> {
        Ok(SearchMediaParams {
            q: query_param(params)?,
            size: page_size(params)?,
            page_token: page_token(params)?,
        })
    }
}

/// `GET /api/search/media`'s data: publishers the reader blocked are left out (D270).
pub async fn search_media(state: &AppState, p: &SearchMediaParams, view: &ReaderView) -> Result<MediaPage, ApiError> {
    let c = Common {
        lang: None,
        country: None,
        size: p.size,
        token: p.page_token,
    };
    let offset = c.offset()?;
    let folded = fold(&p.q);
    let rows = if folded.is_empty() {
        Vec::new()
    } else {
        state
            .store
            .search_media(&folded, offset, offset_limit(c.size, view))
            .await?
    };
    let read = rows.len();
    let mut consumed = 0;
    let mut list = Vec::with_capacity(c.size);
    for m in rows {
        if list.len() == c.size {
            break;
        }
        consumed += 1;
        if !view.blocks(m.media_id) {
            list.push(MediaDoc {
                follow_status: view.follow_status(m.media_id),
                ..MediaDoc::new(m, &state.image_proxy)
            });
        }
    }
    let more = read > consumed;
    let next = offset + consumed as i64;
    Ok(MediaPage {
        list,
        next_page_token: if more && next <= MAX_OFFSET {
            PageToken::Offset(next).encode()
        } else {
            String::new()
        },
    })
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
    let view = request_view(&state, &headers).await;
    kept(&state, &uri, &headers, &view, LIST_MAX_AGE, || async {
        search_news(&state, &SearchNewsParams::parse(&Params::new(query)?)?, now_ms(), &view).await
    })
    .await
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
    let view = request_view(&state, &headers).await;
    kept(&state, &uri, &headers, &view, LIST_MAX_AGE, || async {
        search_media(&state, &SearchMediaParams::parse(&Params::new(query)?)?, &view).await
    })
    .await
}
