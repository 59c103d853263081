//! `GET /api/weather` (issue 20; D280–D283): parse, look the city up, serve the forecast
//! the weather provider keeps (`providers::weather`).

use crate::envelope::{ApiError, ok_kept};
use crate::geo_api::{Params, bad};
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, header};
use axum::response::Response;
use domain::ids::CityId;
use providers::weather::{Unit, WeatherDoc};
use utoipa::IntoParams;

/// `GET /api/weather`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct WeatherParams {
    /// GeoNames id of the city (the reader's `cityId`).
    #[param(value_type = i64)]
    pub city_id: CityId,
    /// F (default, §9.12: °F, mph, in) or C (°C, km/h, mm).
    #[param(value_type = Option<String>)]
    pub unit: Unit,
    /// `now`: the current conditions alone, `hourly` and `daily` empty (home's widget, D425).
    #[param(rename = "part", value_type = Option<String>)]
    pub only_now: bool,
}

impl WeatherParams {
    pub fn parse(params: &Params) -> Result<WeatherParams, ApiError> {
        let city_id = params.city_id("city_id")?;
        let unit = match params.get("unit").unwrap_or("") {
            "" | "F" | "f" => Unit::F,
            "C" | "c" => Unit::C,
            _ => return Err(bad("unit", "must be F or C.")),
        };
        let only_now = match params.get("part").unwrap_or("") {
            "" => false,
            "now" => true,
            _ => return Err(bad("part", "must be now or absent.")),
        };
        Ok(WeatherParams {
            city_id,
            unit,
            only_now,
        })
    }
}

/// How long browsers and proxies may keep an answer, in seconds.
const MAX_AGE_SECS: u32 = 300;

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
    let city = geo::by_id(p.city_id).ok_or(ApiError::NotFound)?;
    let kept = state.weather.answer(city).await?;
    let bodies = if p.only_now { &kept.now } else { &kept.bodies };
    Ok(ok_kept(
        &bodies[p.unit.index()],
        headers.get(header::IF_NONE_MATCH),
        MAX_AGE_SECS,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_unit_defaults_to_f_and_anything_else_is_refused() {
        let parse = |q: &[(&str, &str)]| {
            WeatherParams::parse(&Params::from_pairs(
                q.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            ))
        };
        assert_eq!(parse(&[("city_id", "1")]).unwrap().unit, Unit::F);
        assert_eq!(parse(&[("city_id", "1"), ("unit", "c")]).unwrap().unit, Unit::C);
        assert!(parse(&[("city_id", "1"), ("unit", "K")]).is_err());
        assert!(parse(&[("unit", "C")]).is_err());
    }

    #[test]
    fn part_now_asks_for_the_current_conditions_alone() {
        let parse = |q: &[(&str, &str)]| {
            WeatherParams::parse(&Params::from_pairs(
                q.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
            ))
        };
        assert!(!parse(&[("city_id", "1")]).unwrap().only_now);
        assert!(parse(&[("city_id", "1"), ("part", "now")]).unwrap().only_now);
        assert!(parse(&[("city_id", "1"), ("part", "hours")]).is_err());
    }
}
