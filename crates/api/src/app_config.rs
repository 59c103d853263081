//! Public configuration the app needs before anything else: build id, locales,
//! countries, default location and cities, route rules (SPEC §1, §3.12, §5.6, §9.1).

use crate::envelope::ok;
use crate::state::{AppState, RouteRule};
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::geo::{CityInfo, Country, CountryEntry, DefaultLocation, default_location};
use domain::locale::Locale;
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// SPEC §9.11: "attempts 1 (app setting; default 3)": the app setting is 1.
pub const IMAGE_ATTEMPTS: u32 = 1;

#[derive(Serialize, ToSchema)]
pub struct AppConfig {
    build_id: String,
    locales: Vec<&'static str>,
    default_locale: &'static str,
    countries: Vec<CountryEntry>,
    default_location: DefaultLocation,
    /// Keyed by iso (US, CA).
    default_cities: BTreeMap<&'static str, CityInfo>,
    route_rules: Vec<RouteRule>,
    /// SPEC §9.11 lazy images: attempts per image (app setting 1; D104).
    image_attempts: u32,
    /// Which sign-in providers this server is set up for (a provider off says so).
    sign_in: SignInProviders,
    /// The operator's ad client (D345); `null` when none is configured: no ad slot
    /// renders and nothing is reported about ads.
    #[schema(required = true)]
    ads: Option<crate::ads::AdClient>,
}

#[derive(Serialize, ToSchema)]
pub struct SignInProviders {
    google: bool,
    facebook: bool,
}

/// Everything the app needs at start.
#[utoipa::path(get, path = "/api/app/config", tag = "app",
    responses((status = 200, description = "Envelope with the app configuration", body = AppConfig)))]
pub async fn config(State(state): State<AppState>) -> Response {
    let cfg = AppConfig {
        build_id: state.shell.build_id.clone(),
        locales: Locale::ALL.iter().map(|l| l.code()).collect(),
        default_locale: Locale::DEFAULT.code(),
        countries: Country::ALL.iter().map(|c| c.entry()).collect(),
        default_location: default_location().clone(),
        default_cities: Country::ALL
            .iter()
            .map(|c| (c.iso(), c.default_city().clone()))
            .collect(),
        route_rules: state.config.route_rules.clone(),
        image_attempts: IMAGE_ATTEMPTS,
        sign_in: SignInProviders {
            google: state.providers.google.is_some(),
            facebook: state.providers.facebook.is_some(),
        },
        ads: state.config.ads.clone(),
    };
    let mut res = ok(cfg);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    res
}

/// SPEC §3.12 country entries.
#[utoipa::path(get, path = "/api/geo/countries", tag = "geo",
    responses((status = 200, description = "Envelope with `{list}` of country entries")))]
pub async fn countries() -> Response {
    let list: Vec<CountryEntry> = Country::ALL.iter().map(|c| c.entry()).collect();
    ok(json!({ "list": list }))
}

/// SPEC §7.13: the latest build, polled to detect a deployment.
pub async fn version(State(state): State<AppState>) -> Response {
    let mut res = axum::Json(json!({ "id": state.shell.build_id })).into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// SPEC §7.12: the build manifest named by build id, with the route rules.
pub async fn build_manifest(State(state): State<AppState>, Path(file): Path<String>) -> Response {
    let id = file.strip_suffix(".json").unwrap_or(&file);
    if id != state.shell.build_id {
        return (StatusCode::NOT_FOUND, axum::Json(json!({ "error": "no such build" }))).into_response();
    }
    let mut res = axum::Json(json!({ "id": id, "route_rules": state.config.route_rules })).into_response();
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=31536000, immutable"),
    );
    res
}
