//! `GET /api/news/feed`: news by channel (local, latest, top, category, location,
//! media, special).

use super::cached::{LIST_MAX_AGE, RawQuery, kept, request_view};
use super::feed_page::{AreaId, AreaRef, FeedContext, FeedPage, SpecialDoc};
use super::local::local_feed;
use super::paging::{items, keyset_page, keyset_token, offset_limit, offset_page};
use super::params::{Common, category_param, optional_whole_number, present, query_terms, whole_number};
use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::news_json::{MediaDoc, PLAIN, PageToken, Reason};
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use geo::CityId;
use store::content::{Listing, MediaId, PlaceKey, SearchQuery};
use store::reader_view::ReaderView;
use utoipa::IntoParams;

/// `top` ranks stories with an item in this window (from the start of its first six-hour
/// bucket, D410).
pub const TOP_WINDOW_MS: i64 = 72 * 3_600_000;

const CHANNELS: &str = "local, latest, top, category, location, media, special";

/// A `location`: a city id or a state/province key (`US-ME`), with its name.
pub fn parse_location(raw: &str, lang: Locale) -> Result<(PlaceKey, AreaRef), ApiError> {
    if !raw.is_empty() && raw.len() <= 12 && raw.bytes().all(|b| b.is_ascii_digit()) {
        let id = CityId(raw.parse::<i64>().map_err(|_| bad("location", "is not a city id."))?);
        let city = geo::by_id(id).ok_or(ApiError::NotFound)?;
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
    view: &ReaderView,
    reason: Reason,
) -> Result<FeedPage, ApiError> {
    let after = c.after(&[PLAIN])?.map(|(_, a)| a);
    let (rows, next) = keyset_page(state, &listing, &c.filter(), after, c.size, view).await?;
    Ok(FeedPage {
        list: items(rows, c.names(), now, view, reason, &state.image_proxy),
        next_page_token: keyset_token(PLAIN, next),
        context,
    })
}

/// The channels of `GET /api/news/feed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    Local,
    Latest,
    Top,
    Category,
    Location,
    Media,
    Special,
}

impl Channel {
    fn parse(raw: &str) -> Result<Channel, ApiError> {
        Ok(match raw {
            "local" => Channel::Local,
            "latest" => Channel::Latest,
            "top" => Channel::Top,
            "category" => Channel::Category,
            "location" => Channel::Location,
            "media" => Channel::Media,
            "special" => Channel::Special,
            _ => return Err(bad("channel", &format!("expected one of {CHANNELS}."))),
        })
    }
}

/// `GET /api/news/feed`'s parameters: what the handler parses and the OpenAPI document
/// describes (D228). A channel's own parameters are read for that channel only.
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FeedParams {
    /// local, latest, top, category, location, media or special.
    #[param(value_type = String)]
    pub channel: Channel,
    /// local: GeoNames id (default: the default city of `country`, else of `lang`).
    #[param(value_type = Option<i64>)]
    pub city_id: Option<CityId>,
    /// category: one of the 13 category ids.
    #[param(value_type = Option<String>)]
    pub category: Option<&'static str>,
    /// location: a city id (4975802) or a state/province key (US-ME, CA-QC).
    pub location: Option<String>,
    /// media: the publisher.
    #[param(value_type = Option<i64>)]
    pub media_id: Option<MediaId>,
    /// special: the collection's slug.
    pub special: Option<String>,
    /// en, es or fr: only items in this language (default: all).
    #[param(value_type = Option<String>)]
    pub lang: Option<Locale>,
    /// US or CA: only items from publishers in this country.
    #[param(value_type = Option<String>)]
    pub country: Option<Country>,
    /// `next_page_token` of the previous page.
    #[param(value_type = Option<String>)]
    pub page_token: Option<PageToken>,
    /// 1 to 50, default 20.
    #[param(value_type = Option<i64>)]
    pub size: usize,
}

impl FeedParams {
    /// Checked in the order a reader fixes them: the channel is given, the list
    /// parameters, the channel's name, then the channel's own parameters.
    pub fn parse(params: &Params) -> Result<FeedParams, ApiError> {
        let raw_channel = params.required("channel")?;
        let c = Common::parse(params)?;
        let channel = Channel::parse(raw_channel)?;
        let mut p = FeedParams {
            channel,
            city_id: None,
            category: None,
            location: None,
            media_id: None,
            special: None,
            lang: c.lang,
            country: c.country,
            page_token: c.token,
            size: c.size,
        };
        match channel {
            Channel::Local => p.city_id = optional_whole_number(params, "city_id")?.map(CityId),
            Channel::Category => {
                p.category = Some(category_param(params, "category")?.ok_or_else(|| bad("category", "is required."))?)
            }
            Channel::Location => p.location = Some(params.required("location")?.to_string()),
            Channel::Media => p.media_id = Some(MediaId(whole_number(params, "media_id")?)),
            Channel::Special => p.special = Some(params.required("special")?.to_string()),
            Channel::Latest | Channel::Top => {}
        }
        Ok(p)
    }

    fn common(&self) -> Common {
        Common {
            lang: self.lang,
            country: self.country,
            size: self.size,
            token: self.page_token,
        }
    }
}

/// `GET /api/news/feed`'s data, as the reader's view shows it (D270).
pub async fn feed(state: &AppState, p: &FeedParams, now: i64, view: &ReaderView) -> Result<FeedPage, ApiError> {
    let c = p.common();
    let lang = c.names();
    let filter = c.filter();
    let plain =
        |listing: Listing, context: FeedContext, reason| plain_feed(state, listing, &c, context, now, view, reason);
    match p.channel {
        Channel::Local => local_feed(state, p.city_id, &c, now, view).await,
        Channel::Latest => plain(Listing::Latest, FeedContext::default(), Reason::Latest).await,
        Channel::Category => {
            let category = present(p.category, "category")?;
            plain(
                Listing::Category(category.into()),
                FeedContext::default(),
                Reason::InCategory,
            )
            .await
        }
        Channel::Location => {
            let (place, area) = parse_location(present(p.location.as_deref(), "location")?, lang)?;
            let context = FeedContext {
                area: Some(area),
                ..FeedContext::default()
            };
            plain(Listing::Places(vec![place]), context, Reason::AboutPlace).await
        }
        Channel::Media => {
            let media_id = present(p.media_id, "media_id")?;
            let media = state.store.media(media_id).await?.ok_or(ApiError::NotFound)?;
            let context = FeedContext {
                media: Some(MediaDoc {
                    follow_status: view.follow_status(media_id),
                    ..MediaDoc::new(media, &state.image_proxy)
                }),
                ..FeedContext::default()
            };
            plain(Listing::Media(media_id), context, Reason::FromPublisher).await
        }
        Channel::Special => {
            let slug = present(p.special.as_deref(), "special")?;
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
                return plain(Listing::Ids(special.news_ids), context, Reason::InCollection).await;
            }
            let offset = c.offset()?;
            let query = SearchQuery {
                terms: query_terms(&special.query),
                filter,
                ..SearchQuery::default()
            };
            let rows = state
                .store
                .search_news(&query, offset, offset_limit(c.size, view))
                .await?;
            let (rows, next_page_token) = offset_page(rows, offset, c.size, true, view);
            Ok(FeedPage {
                list: items(rows, lang, now, view, Reason::InCollection, &state.image_proxy),
                next_page_token,
                context,
            })
        }
        Channel::Top => {
            let offset = c.offset()?;
            let rows = state
                .store
                .top_news(&filter, now - TOP_WINDOW_MS, offset, offset_limit(c.size, view))
                .await?;
            let (rows, next_page_token) = offset_page(rows, offset, c.size, true, view);
            Ok(FeedPage {
                list: items(rows, lang, now, view, Reason::Top, &state.image_proxy),
                next_page_token,
                context: FeedContext::default(),
            })
        }
    }
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
    let view = request_view(&state, &headers).await;
    kept(&state, &uri, &headers, &view, LIST_MAX_AGE, || async {
        feed(&state, &FeedParams::parse(&Params::new(query)?)?, now_ms(), &view).await
    })
    .await
}
