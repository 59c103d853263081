//! `GET /api/media/detail`: one publisher (SPEC §3 Media source).

use super::cached::{DETAIL_MAX_AGE, RawQuery, kept, request_view};
use super::params::whole_number;
use crate::envelope::ApiError;
use crate::geo_api::Params;
use crate::news_json::MediaDoc;
use crate::state::AppState;
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use store::content::MediaId;
use store::reader_view::ReaderView;
use utoipa::IntoParams;

/// `GET /api/media/detail`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct MediaParams {
    #[param(value_type = i64)]
    pub media_id: MediaId,
}

impl MediaParams {
    pub fn parse(params: &Params) -> Result<MediaParams, ApiError> {
        Ok(MediaParams {
            media_id: MediaId(whole_number(params, "media_id")?),
        })
    }
}

/// `GET /api/media/detail`'s data, with whether the reader follows it. A blocked
/// publisher still answers: its page is where the reader can unblock it (D270).
pub async fn media_detail(state: &AppState, p: &MediaParams, view: &ReaderView) -> Result<MediaDoc, ApiError> {
    let media = state.store.media(p.media_id).await?.ok_or(ApiError::NotFound)?;
    Ok(MediaDoc {
        follow_status: view.follow_status(p.media_id),
        ..MediaDoc::new(media, &state.image_proxy)
    })
}

/// One publisher (SPEC §3 Media source).
#[utoipa::path(get, path = "/api/media/detail", tag = "news", params(MediaParams),
    responses((status = 200, description = "Envelope with the publisher", body = MediaDoc),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "No publisher has this id")))]
pub async fn media_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let view = request_view(&state, &headers).await;
    kept(&state, &uri, &headers, &view, DETAIL_MAX_AGE, || async {
        media_detail(&state, &MediaParams::parse(&Params::new(query)?)?, &view).await
    })
    .await
}
