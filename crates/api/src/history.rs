//! `GET /api/history` (issue 20): today in history for the reader's local date and
//! language, as the history provider makes and keeps it (`providers::history`, D290–D292).

use crate::envelope::{ApiError, ok_kept};
use crate::geo_api::Params;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use geo::CityId;
use providers::history::answer::HistoryDay;
use utoipa::IntoParams;

/// Browsers may keep an answer this long; the day changes at the reader's midnight.
const MAX_AGE_SECS: u32 = 300;

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    /// en (default), es or fr: the Wikipedia the entries come from.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
    /// The reader's city (GeoNames id): its time zone gives the date, its names and its
    /// state's or province's make entries local. Default: the language's default city.
    #[param(value_type = Option<i64>)]
    pub city_id: Option<CityId>,
}

impl HistoryParams {
    pub fn parse(params: &Params) -> Result<HistoryParams, ApiError> {
        let city_id = params.optional_city_id("city_id")?;
        Ok(HistoryParams {
            lang: params.lang()?,
            city_id,
        })
    }
}

/// Today in history for the reader: the on-this-day entries of their local date, in their
/// language, local ones first. 503 when Wikipedia cannot be reached and nothing is kept
/// (answered within a second).
#[utoipa::path(get, path = "/api/history", tag = "history", params(HistoryParams),
    responses((status = 200, description = "Envelope with the day", body = HistoryDay),
        (status = 304, description = "`If-None-Match` names the same answer"),
        (status = 400, description = "A parameter is invalid; the message names it"),
        (status = 404, description = "No city has this id"),
        (status = 503, description = "Wikipedia is unavailable and nothing is kept for this day")))]
pub async fn history_handler(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let HistoryParams { lang, city_id } = HistoryParams::parse(&Params::new(query)?)?;
    let city = match city_id {
        Some(id) => geo::by_id(id).ok_or(ApiError::NotFound)?,
        None => geo::default_city(default_country(lang)).ok_or_else(|| ApiError::Internal("no default city".into()))?,
    };
    let date = geo::zone::local_date(domain::clock::now_ms(), city.timezone);
    let images = |src: &mut String| state.image_proxy.rewrite(src);
    let kept = state.history.answer(lang, date, city, &images).await?;
    Ok(ok_kept(&kept, headers.get(header::IF_NONE_MATCH), MAX_AGE_SECS))
}

fn default_country(lang: Locale) -> Country {
    match lang {
        Locale::Fr => Country::Ca,
        _ => Country::Us,
    }
}
