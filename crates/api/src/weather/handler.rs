//! The handler of `GET /api/weather` (D281): parse, look the city up, serve the kept answer.

use super::{Unit, WeatherDoc};
use crate::envelope::{ApiError, names_etag};
use crate::geo_api::{Params, bad};
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::ids::CityId;
use utoipa::IntoParams;

/// `GET /api/weather`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WeatherParams {
    /// GeoNames id of the city (the reader's `cityId`).
    pub city_id: i64,
    /// F (default, §9.12: °F, mph, in) or C (°C, km/h, mm).
    #[param(value_type = Option<String>)]
    pub unit: Unit,
}

impl WeatherParams {
    pub fn parse(params: &Params) -> Result<WeatherParams, ApiError> {
        let city_id = params
            .required("city_id")?
            .parse::<i64>()
            .map_err(|_| bad("city_id", "must be a whole number."))?;
        let unit = match params.get("unit").unwrap_or("") {
            "" | "F" | "f" => Unit::F,
            "C" | "c" => Unit::C,
            _ => return Err(bad("unit", "must be F or C.")),
        };
        Ok(WeatherParams { city_id, unit })
    }
}

/// How long browsers and proxies may keep an answer.
const MAX_AGE: &str = "public, max-age=300";

/// The weather for a city: now, the next 48 hours, 7 days (issue 20).
#[utoipa::path(get, path = "/api/weather", tag = "weather", params(WeatherParams),
    responses((status = 200, description = "Envelope with the forecast", body = WeatherDoc),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "No city has this id"),
        (status = 503, description = "The weather provider cannot be reached and nothing is kept for this city")))]
pub async fn weather_handler(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = WeatherParams::parse(&Params::new(query)?)?;
    let city = geo::by_id(CityId(p.city_id)).ok_or(ApiError::NotFound)?;
    let kept = state.weather.answer(city).await?;
    let (body, etag) = &kept.bodies[p.unit.index()];
    let mut res = if names_etag(headers.get(header::IF_NONE_MATCH), etag) {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut res = (StatusCode::OK, body.clone()).into_response();
        res.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        res
    };
    let h = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(MAX_AGE));
    Ok(res)
}
