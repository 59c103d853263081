//! `GET /api/news/detail`: one item with its content, publisher, story and more from
//! its place.

use super::cached::{DETAIL_MAX_AGE, RawQuery, kept, request_view};
use super::paging::{Reading, items, keyset_page_where};
use super::params::{lang_filter, whole_number};
use crate::envelope::ApiError;
use crate::geo_api::Params;
use crate::news_json::{MediaDoc, NewsItem, Reason};
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use domain::locale::Locale;
use serde::Serialize;
use store::content::{CityId, ClusterId, ListFilter, Listing, NewsId, PlaceKey};
use store::reader_view::ReaderView;
use utoipa::{IntoParams, ToSchema};

/// `related` in news/detail.
pub const RELATED_MAX: usize = 6;
/// Other items of a story shown in news/detail.
pub const CLUSTER_MAX: i64 = 50;

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsDetail {
    /// With its content.
    pub news: NewsItem,
    pub media: MediaDoc,
    /// Other items of the same story, newest first (none the reader blocked or muted).
    pub cluster: Vec<NewsItem>,
    /// Up to 6 more from the same place (none the reader blocked or muted).
    pub related: Vec<NewsItem>,
}

/// `GET /api/news/detail`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DetailParams {
    #[param(value_type = i64)]
    pub news_id: NewsId,
    /// en (default), es or fr: the language of place names.
    #[param(value_type = Option<String>)]
    pub lang: Option<Locale>,
}

impl DetailParams {
    pub fn parse(params: &Params) -> Result<DetailParams, ApiError> {
        Ok(DetailParams {
            news_id: NewsId(whole_number(params, "news_id")?),
            lang: lang_filter(params)?,
        })
    }
}

/// `GET /api/news/detail`'s data, as the reader's view shows it (D270): the story itself
/// is shown even from a blocked publisher (the reader opened it), its story and related
/// stories leave out what the view hides.
pub async fn detail(state: &AppState, p: &DetailParams, now: i64, view: &ReaderView) -> Result<NewsDetail, ApiError> {
    let news_id = p.news_id;
    let lang = p.lang.unwrap_or(Locale::DEFAULT);
    let story = state
        .store
        .story(news_id, CLUSTER_MAX + 1)
        .await?
        .ok_or(ApiError::NotFound)?;
    let row = story.news;
    let media: MediaDoc = match story.media {
        Some(m) => MediaDoc {
            follow_status: view.follow_status(m.media_id),
            ..MediaDoc::new(m, &state.image_proxy)
        },
        None => MediaDoc {
            media_id: row.media_id,
            name: row.media_name.clone(),
            icon_url: state.image_proxy.url(&row.media_icon),
            home_url: row.media_home_url.clone(),
            about: String::new(),
            contact: String::new(),
            category_id: String::new(),
            category_top_id: String::new(),
            area1: String::new(),
            area2: String::new(),
            area3: String::new(),
            follow_status: 0,
            city_id: CityId(0),
            lang: String::new(),
            item_count: 0,
        },
    };
    let cluster_id = row.cluster_id;
    let cluster: Vec<_> = story
        .cluster
        .into_iter()
        .filter(|r| r.news_id != news_id && !view.hides(r))
        .collect();
    let place = row
        .city_ids
        .first()
        .copied()
        .or((media.city_id.0 > 0).then_some(media.city_id));
    let related = match place {
        None => Vec::new(),
        Some(city) => {
            // The place's newest stories but this one (D436): read a few more than shown at a
            // time, and on while the story's own items, hidden ones or repeats fill them.
            let reading = Reading {
                batch: RELATED_MAX * 2 + 1,
                batches: 8,
            };
            let (rows, _) = keyset_page_where(
                state,
                &Listing::Places(vec![PlaceKey::City(city)]),
                &ListFilter::default(),
                None,
                RELATED_MAX,
                view,
                reading,
                |r| r.news_id != news_id && (cluster_id == ClusterId(0) || r.cluster_id != cluster_id),
            )
            .await?;
            rows
        }
    };
    Ok(NewsDetail {
        news: NewsItem {
            media_follow: media.follow_status,
            ..NewsItem::from_row(row, lang, now, Reason::Opened, &state.image_proxy)
        },
        media,
        cluster: items(cluster, lang, now, view, Reason::SameStory, &state.image_proxy),
        related: items(related, lang, now, view, Reason::SamePlace, &state.image_proxy),
    })
}

/// One item with its content, its publisher, its story and more from its place.
#[utoipa::path(get, path = "/api/news/detail", tag = "news", params(DetailParams),
    responses((status = 200, description = "Envelope with `{news, media, cluster, related}`", body = NewsDetail),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "No item has this id")))]
pub async fn detail_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let view = request_view(&state, &headers).await;
    kept(&state, &uri, &headers, &view, DETAIL_MAX_AGE, || async {
        detail(&state, &DetailParams::parse(&Params::new(query)?)?, now_ms(), &view).await
    })
    .await
}
