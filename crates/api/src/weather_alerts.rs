//! The handler of `GET /api/weather/alerts` (D286): parse, look the city up, answer the
//! kept list as it stands now, in the reader's language.

use crate::envelope::{ApiError, ok};
use crate::geo_api::Params;
use crate::state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, header};
use axum::response::Response;
use domain::ids::CityId;
use domain::locale::Locale;
use providers::weather::alerts::AlertsDoc;
use utoipa::IntoParams;

/// `GET /api/weather/alerts`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AlertsParams {
    /// GeoNames id of the city (the reader's `cityId`).
    #[param(value_type = i64)]
    pub city_id: CityId,
    /// en (default), es or fr: a French reader gets the issuer's French words when it wrote
    /// them (Canada); otherwise the words are English, as issued.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
}

impl AlertsParams {
    pub fn parse(params: &Params) -> Result<AlertsParams, ApiError> {
        let city_id = params.city_id("city_id")?;
        Ok(AlertsParams {
            city_id,
            lang: params.lang()?,
        })
    }
}

/// Short: an alert that ends or is replaced must not linger in a browser.
const MAX_AGE: &str = "public, max-age=60";

/// Official weather alerts for a city: NWS in the US, ECCC in Canada; most severe first,
/// expired ones never (issue 20).
#[utoipa::path(get, path = "/api/weather/alerts", tag = "weather", params(AlertsParams),
    responses((status = 200, description = "Envelope with the alerts in force or coming (possibly none)", body = AlertsDoc),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "No city has this id"),
        (status = 503, description = "The issuer cannot be reached and nothing is kept for this city")))]
pub async fn alerts_handler(
    State(state): State<AppState>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Response, ApiError> {
    let p = AlertsParams::parse(&Params::new(query)?)?;
    let city = geo::by_id(p.city_id).ok_or(ApiError::NotFound)?;
    let kept = state.weather_alerts.answer(city).await?;
    let mut res = ok(kept.doc(city, p.lang, domain::clock::now_ms()));
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static(MAX_AGE));
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(q: &[(&str, &str)]) -> Result<AlertsParams, ApiError> {
        AlertsParams::parse(&Params::from_pairs(
            q.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        ))
    }

    #[test]
    fn d286_city_id_is_required_and_lang_defaults_to_en() {
        assert_eq!(parse(&[("city_id", "1")]).unwrap().lang, Locale::En);
        assert_eq!(parse(&[("city_id", "1"), ("lang", "fr")]).unwrap().lang, Locale::Fr);
        assert!(parse(&[("city_id", "x")]).is_err());
        assert!(parse(&[("lang", "fr")]).is_err());
        assert!(parse(&[("city_id", "1"), ("lang", "de")]).is_err());
    }
}
