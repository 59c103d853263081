//! `GET /api/news/feed`: news by channel (local, latest, top, category, location,
//! media, special).

use super::cached::{LIST_MAX_AGE, RawQuery, kept};
use super::feed_page::{AreaId, AreaRef, FeedContext, FeedPage, SpecialDoc};
use super::local::local_feed;
use super::paging::{items, keyset_page, keyset_token, offset_page};
use super::params::{Common, category_param, query_terms, whole_number};
use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::news_json::PLAIN;
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use geo::CityId;
use store::content::{Listing, PlaceKey, SearchQuery};
use utoipa::IntoParams;

/// `top` ranks stories with an item in this window.
pub const TOP_WINDOW_MS: i64 = 72 * 3_600_000;

const CHANNELS: &str = "local, latest, top, category, location, media, special";

/// A `location`: a city id or a state/province key (`US-ME`), with its name.
pub fn parse_location(raw: &str, lang: Locale) -> Result<(PlaceKey, AreaRef), ApiError> {
    if !raw.is_empty() && raw.len() <= 12 && raw.bytes().all(|b| b.is_ascii_digit()) {
        let id = raw.parse::<i64>().map_err(|_| bad("location", "is not a city id."))?;
        let city = geo::by_id(CityId(id)).ok_or(ApiError::NotFound)?;
        return Ok((
            PlaceKey::City(id),
            AreaRef {
                id: AreaId::City(id),
                name: city.city_show(lang),
                kind: "city",
            },
        ));
    }
    let state_key = raw.split_once('-').filter(|(iso, code)| {
        iso.len() == 2 && (1..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    let Some((iso, code)) = state_key else {
        return Err(bad(
            "location",
            "must be a city id (4975802) or a state or province key (US-ME).",
        ));
    };
    let country = Country::from_iso(iso).ok_or_else(|| bad("location", "the country must be US or CA."))?;
    let code = code.to_ascii_uppercase();
    let city = geo::all()
        .iter()
        .filter(|c| c.iso == country && c.admin_code == code)
        .max_by_key(|c| c.population)
        .ok_or(ApiError::NotFound)?;
    let key = format!("{}-{code}", country.iso());
    Ok((
        PlaceKey::State {
            country: country.iso().to_string(),
            admin_code: code,
        },
        AreaRef {
            id: AreaId::State(key),
            name: city.admin_name.to_string(),
            kind: "state",
        },
    ))
}

/// A newest-first feed without a scope.
async fn plain_feed(
    state: &AppState,
    listing: Listing,
    c: &Common,
    context: FeedContext,
    now: i64,
) -> Result<FeedPage, ApiError> {
    let after = c.after(&[PLAIN])?.map(|(_, a)| a);
    let (rows, next) = keyset_page(state, &listing, &c.filter(), after, c.size).await?;
    Ok(FeedPage {
        list: items(rows, c.names(), now),
        next_page_token: keyset_token(PLAIN, next),
        context,
    })
}

/// `GET /api/news/feed`'s data.
pub async fn feed(state: &AppState, params: &Params, now: i64) -> Result<FeedPage, ApiError> {
    let channel = params.required("channel")?;
    let c = Common::parse(params)?;
    let lang = c.names();
    let filter = c.filter();
    let plain = |listing: Listing, context: FeedContext| plain_feed(state, listing, &c, context, now);
    match channel {
        "local" => local_feed(state, params, &c, now).await,
        "latest" => plain(Listing::Latest, FeedContext::default()).await,
        "category" => {
            let category = category_param(params, "category")?.ok_or_else(|| bad("category", "is required."))?;
            plain(Listing::Category(category.into()), FeedContext::default()).await
        }
        "location" => {
            let (place, area) = parse_location(params.required("location")?, lang)?;
            let context = FeedContext {
                area: Some(area),
                ..FeedContext::default()
            };
            plain(Listing::Places(vec![place]), context).await
        }
        "media" => {
            let media_id = whole_number(params, "media_id")?;
            let media = state.store.media(media_id).await?.ok_or(ApiError::NotFound)?;
            let context = FeedContext {
                media: Some(media.into()),
                ..FeedContext::default()
            };
            plain(Listing::Media(media_id), context).await
        }
        "special" => {
            let slug = params.required("special")?;
            if slug.len() > 200 {
                return Err(ApiError::NotFound);
            }
            let special = state.store.special(slug).await?.ok_or(ApiError::NotFound)?;
            let context = FeedContext {
                special: Some(SpecialDoc {
                    slug: special.slug,
                    title: special.title,
                    description: special.description,
                }),
                ..FeedContext::default()
            };
            if special.query.trim().is_empty() {
                return plain(Listing::Ids(special.news_ids), context).await;
            }
            let offset = c.offset()?;
            let query = SearchQuery {
                terms: query_terms(&special.query),
                filter,
                ..SearchQuery::default()
            };
            let rows = state.store.search_news(&query, offset, c.size as i64 + 1).await?;
            let (rows, next_page_token) = offset_page(rows, offset, c.size, true);
            Ok(FeedPage {
                list: items(rows, lang, now),
                next_page_token,
                context,
            })
        }
        "top" => {
            let offset = c.offset()?;
            let rows = state
                .store
                .top_news(&filter, now - TOP_WINDOW_MS, offset, c.size as i64 + 1)
                .await?;
            let (rows, next_page_token) = offset_page(rows, offset, c.size, true);
            Ok(FeedPage {
                list: items(rows, lang, now),
                next_page_token,
                context: FeedContext::default(),
            })
        }
        _ => Err(bad("channel", &format!("expected one of {CHANNELS}."))),
    }
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct FeedParams {
    /// local, latest, top, category, location, media or special.
    channel: String,
    /// local: GeoNames id (default: the default city of `country`, else of `lang`).
    city_id: Option<i64>,
    /// category: one of the 13 category ids.
    category: Option<String>,
    /// location: a city id (4975802) or a state/province key (US-ME, CA-QC).
    location: Option<String>,
    /// media: the publisher.
    media_id: Option<i64>,
    /// special: the collection's slug.
    special: Option<String>,
    /// en, es or fr: only items in this language (default: all).
    lang: Option<String>,
    /// US or CA: only items from publishers in this country.
    country: Option<String>,
    /// `next_page_token` of the previous page.
    page_token: Option<String>,
    /// 1 to 50, default 20.
    size: Option<i64>,
}

/// News by channel, newest first (top: by hot score). One item per story per page.
#[utoipa::path(get, path = "/api/news/feed", tag = "news", params(FeedParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token, context}`", body = FeedPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "Unknown city, place, publisher or special")))]
pub async fn feed_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, LIST_MAX_AGE, || async {
        feed(&state, &Params::new(query)?, now_ms()).await
    })
    .await
}
