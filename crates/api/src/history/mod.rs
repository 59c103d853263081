//! Today in history (`GET /api/history`; issue 20): Wikipedia's on-this-day feed for the
//! reader's local date and language, entries about their city, state or province first
//! (D290–D292).
//!
//! [`wiki`] reads the feed's format, [`source`] fetches and keeps days (or gives the demo
//! ones), [`place`] knows the reader's date and what counts as local, [`answer`] makes the
//! reader's answer and [`kept`] keeps the answers made.

pub mod answer;
pub mod kept;
pub mod place;
pub mod source;
pub mod wiki;

use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::history::answer::HistoryDay;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use geo::CityId;
use utoipa::IntoParams;

#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HistoryParams {
    /// en (default), es or fr: the Wikipedia the entries come from.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
    /// The reader's city (GeoNames id): its time zone gives the date, its names and its
    /// state's or province's make entries local. Default: the language's default city.
    #[param(value_type = Option<i64>)]
    pub city_id: Option<i64>,
}

impl HistoryParams {
    pub fn parse(params: &Params) -> Result<HistoryParams, ApiError> {
        let city_id = match params.get("city_id").filter(|v| !v.is_empty()) {
            None => None,
            Some(v) => Some(
                v.parse::<i64>()
                    .map_err(|_| bad("city_id", "must be a whole number."))?,
            ),
        };
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
        Some(id) => geo::by_id(CityId(id)).ok_or(ApiError::NotFound)?,
        None => geo::default_city(default_country(lang)).ok_or_else(|| ApiError::Internal("no default city".into()))?,
    };
    let date = place::local_date(domain::clock::now_ms(), city.timezone);
    let kept = state.history.answer(lang, date, city, &state.image_proxy).await?;
    Ok(kept.respond(headers.get(header::IF_NONE_MATCH)))
}

fn default_country(lang: Locale) -> Country {
    match lang {
        Locale::Fr => Country::Ca,
        _ => Country::Us,
    }
}
