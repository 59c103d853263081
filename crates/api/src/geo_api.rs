//! `/api/geo/cities/*`: the gazetteer over HTTP (SPEC §3.11 City (catalogue), §3.13
//! paging, §9.5 static lists; decisions D30–D32). Public GET calls; the answers depend
//! only on the URL, so they may be cached.

use crate::envelope::{ApiError, ok};
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use geo::{Capital, City, CityId};
use serde::Serialize;
use utoipa::{IntoParams, ToSchema};

/// Hits per search page.
pub const SEARCH_PAGE_SIZE: usize = 20;
/// Search stops paging here: a type-ahead box never needs more.
const SEARCH_MAX_OFFSET: usize = 1_000;
/// §3.13-style query length bounds, after trimming.
const QUERY_MAX_CHARS: usize = 100;

/// SPEC §3.11 City (catalogue), in the reader's language, plus `city_show` (§3.3) and
/// population.
#[derive(Debug, Serialize, ToSchema)]
pub struct CityDoc {
    /// GeoNames id.
    #[schema(value_type = i64)]
    pub id: CityId,
    /// The name to show in the requested language (Nueva York for `es`), else GeoNames'.
    pub name: String,
    /// ASCII form of `name` (falls back to `name`).
    pub name_ascii: String,
    pub lat: f64,
    pub lon: f64,
    /// Full state or province name.
    pub admin_name: String,
    /// State or province code: DC, NY, QC, ON.
    pub admin_code: String,
    /// Falls back to `admin_name`.
    pub admin_name_ascii: String,
    /// United States or Canada.
    pub country: String,
    /// US or CA.
    pub iso: String,
    /// True for the national capital (Washington, Ottawa).
    pub capital: bool,
    /// True for a state, provincial or territorial capital.
    pub admin_capital: bool,
    /// IANA time zone.
    pub timezone: String,
    /// A representative US ZIP; empty for most Canadian cities.
    pub postal_code: String,
    pub population: u32,
    /// Whether the reader follows this city (always false until following exists).
    pub following: bool,
    /// "City, AdminCode".
    pub city_show: String,
}

impl CityDoc {
    pub fn new(city: &City, lang: Locale) -> CityDoc {
        CityDoc {
            id: city.id,
            name: city.display_name(lang).to_string(),
            name_ascii: city.display_name_ascii(lang).to_string(),
            lat: city.lat,
            lon: city.lon,
            admin_name: city.admin_name.to_string(),
            admin_code: city.admin_code.to_string(),
            admin_name_ascii: city.admin_name_ascii.to_string(),
            country: city.country.to_string(),
            iso: city.iso.iso().to_string(),
            capital: city.capital == Capital::Country,
            admin_capital: city.capital == Capital::Admin,
            timezone: city.timezone.to_string(),
            postal_code: city.postal_code.to_string(),
            population: city.population,
            following: false,
            city_show: city.city_show(lang),
        }
    }
}

/// A list and the token of the next page (`null` on the last page), SPEC §3.13.
#[derive(Debug, Serialize, ToSchema)]
pub struct CityPage {
    pub list: Vec<CityDoc>,
    #[schema(required = true)]
    pub next_page_token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CityList {
    pub list: Vec<CityDoc>,
}

/// The query string, read by hand so every mistake becomes a 400 envelope naming the
/// parameter (axum's own rejection would answer plain text).
pub struct Params(Vec<(String, String)>);

pub(crate) fn bad(name: &str, why: &str) -> ApiError {
    ApiError::BadRequest(format!("Parameter `{name}`: {why}"))
}

impl Params {
    pub fn new(query: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Result<Params, ApiError> {
        query
            .map(|Query(pairs)| Params(pairs))
            .map_err(|e| ApiError::BadRequest(format!("Malformed query string: {}", e.body_text())))
    }

    /// Parameters the server itself chose (pages call the API's plain functions).
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Params {
        Params(pairs)
    }

    /// The first value given for `name`, trimmed.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v.trim())
    }

    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .filter(|v| !v.is_empty())
            .ok_or_else(|| bad(name, "is required."))
    }

    /// A city's GeoNames id: any whole number (one no city has is the handler's 404).
    pub fn city_id(&self, name: &str) -> Result<CityId, ApiError> {
        self.required(name)?
            .parse::<i64>()
            .map(CityId)
            .map_err(|_| bad(name, "must be a whole number."))
    }

    /// [`Params::city_id`], `None` when absent or empty.
    pub fn optional_city_id(&self, name: &str) -> Result<Option<CityId>, ApiError> {
        match self.get(name).filter(|v| !v.is_empty()) {
            None => Ok(None),
            Some(_) => self.city_id(name).map(Some),
        }
    }

    /// A number within `min..=max`.
    pub fn number_in(&self, name: &str, min: f64, max: f64) -> Result<f64, ApiError> {
        let raw = self.required(name)?;
        raw.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite() && (min..=max).contains(v))
            .ok_or_else(|| bad(name, &format!("must be a number between {min} and {max}.")))
    }

    /// US or CA (any case); `None` when absent or empty.
    pub fn country(&self) -> Result<Option<Country>, ApiError> {
        match self.get("country").filter(|v| !v.is_empty()) {
            None => Ok(None),
            Some(v) => Country::from_iso(v).map(Some).ok_or_else(|| {
                let shown: String = v.chars().take(16).collect();
                bad("country", &format!("'{shown}' is not supported; use US or CA."))
            }),
        }
    }

    /// en, es or fr; the §9.1 default language when absent.
    pub fn lang(&self) -> Result<Locale, ApiError> {
        match self.get("lang").filter(|v| !v.is_empty()) {
            None => Ok(Locale::DEFAULT),
            Some(v) => {
                Locale::from_code(&v.to_ascii_lowercase()).ok_or_else(|| bad("lang", "must be one of en, es, fr."))
            }
        }
    }
}

/// A success that caches for an hour: the gazetteer changes only with a new binary.
fn cached<T: Serialize>(data: T) -> Response {
    let mut res = ok(data);
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    res
}

fn docs(cities: impl IntoIterator<Item = &'static City>, lang: Locale) -> Vec<CityDoc> {
    cities.into_iter().map(|c| CityDoc::new(c, lang)).collect()
}

/// `GET /api/geo/cities/search`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchParams {
    /// 1 to 100 characters after trimming; matches the start of the name or of any word
    /// in it, accents and case ignored (Montreal finds Montréal, "st j" Saint-Jérôme).
    pub q: String,
    /// US or CA; both when absent.
    #[param(value_type = Option<String>)]
    pub country: Option<Country>,
    /// en (default), es or fr: the language of the names shown.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
    /// `next_page_token` of the previous page.
    #[param(value_type = Option<String>)]
    pub page_token: usize,
}

impl SearchParams {
    pub fn parse(params: &Params) -> Result<SearchParams, ApiError> {
        let q = params.required("q")?;
        if q.chars().count() > QUERY_MAX_CHARS {
            return Err(bad("q", &format!("must be 1 to {QUERY_MAX_CHARS} characters.")));
        }
        Ok(SearchParams {
            q: q.to_string(),
            country: params.country()?,
            lang: params.lang()?,
            page_token: match params.get("page_token").filter(|v| !v.is_empty()) {
                None => 0,
                Some(token) => token
                    .parse::<usize>()
                    .ok()
                    .filter(|o| *o <= SEARCH_MAX_OFFSET)
                    .ok_or_else(|| bad("page_token", "is not a token from a previous page."))?,
            },
        })
    }
}

/// City search for the city picker, biggest first, 20 a page.
#[utoipa::path(get, path = "/api/geo/cities/search", tag = "geo", params(SearchParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token}`", body = CityPage),
        (status = 400, description = "A parameter is missing or invalid; the message names it")))]
pub async fn search(query: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Result<Response, ApiError> {
    let SearchParams {
        q,
        country,
        lang,
        page_token: offset,
    } = SearchParams::parse(&Params::new(query)?)?;
    let page = geo::search_page(&q, country, lang, offset, SEARCH_PAGE_SIZE);
    let next = offset + page.hits.len();
    let next_page_token = (page.more && next <= SEARCH_MAX_OFFSET).then(|| next.to_string());
    let list = page.hits.iter().map(|h| CityDoc::new(h.city, lang)).collect();
    Ok(cached(CityPage { list, next_page_token }))
}

/// `GET /api/geo/cities/nearest`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NearestParams {
    /// Latitude, -90 to 90.
    pub lat: f64,
    /// Longitude, -180 to 180.
    pub lon: f64,
    /// US or CA; both when absent.
    #[param(value_type = Option<String>)]
    pub country: Option<Country>,
    /// en (default), es or fr.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
}

impl NearestParams {
    pub fn parse(params: &Params) -> Result<NearestParams, ApiError> {
        Ok(NearestParams {
            lat: params.number_in("lat", -90.0, 90.0)?,
            lon: params.number_in("lon", -180.0, 180.0)?,
            country: params.country()?,
            lang: params.lang()?,
        })
    }
}

/// The city nearest to a point (great-circle distance), e.g. from the browser's location.
#[utoipa::path(get, path = "/api/geo/cities/nearest", tag = "geo", params(NearestParams),
    responses((status = 200, description = "Envelope with the city", body = CityDoc),
        (status = 400, description = "A parameter is missing or invalid; the message names it")))]
pub async fn nearest(query: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Result<Response, ApiError> {
    let NearestParams {
        lat,
        lon,
        country,
        lang,
    } = NearestParams::parse(&Params::new(query)?)?;
    let city = geo::nearest(lat, lon, country).ok_or(ApiError::NotFound)?;
    Ok(cached(CityDoc::new(city, lang)))
}

/// `GET /api/geo/cities/default`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DefaultParams {
    /// US (default) or CA.
    #[param(value_type = Option<String>)]
    pub country: Country,
    /// en (default), es or fr. A language the country is not offered in gets the English list.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
}

impl DefaultParams {
    pub fn parse(params: &Params) -> Result<DefaultParams, ApiError> {
        Ok(DefaultParams {
            country: params.country()?.unwrap_or(Country::DEFAULT),
            lang: params.lang()?,
        })
    }
}

/// SPEC §9.5 static city list (20 cities; the §9.1 default city first).
#[utoipa::path(get, path = "/api/geo/cities/default", tag = "geo", params(DefaultParams),
    responses((status = 200, description = "Envelope with `{list}`", body = CityList),
        (status = 400, description = "A parameter is invalid; the message names it")))]
pub async fn default_cities(query: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Result<Response, ApiError> {
    let DefaultParams { country, lang } = DefaultParams::parse(&Params::new(query)?)?;
    Ok(cached(CityList {
        list: docs(geo::static_list(country, lang), lang),
    }))
}

/// `GET /api/geo/cities/detail`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DetailParams {
    /// GeoNames id.
    #[param(value_type = i64)]
    pub city_id: CityId,
    /// en (default), es or fr.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
}

impl DetailParams {
    pub fn parse(params: &Params) -> Result<DetailParams, ApiError> {
        Ok(DetailParams {
            city_id: params.city_id("city_id")?,
            lang: params.lang()?,
        })
    }
}

/// One city by id.
#[utoipa::path(get, path = "/api/geo/cities/detail", tag = "geo", params(DetailParams),
    responses((status = 200, description = "Envelope with the city", body = CityDoc),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "No city has this id")))]
pub async fn detail(query: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Result<Response, ApiError> {
    let DetailParams { city_id, lang } = DetailParams::parse(&Params::new(query)?)?;
    let city = geo::by_id(city_id).ok_or(ApiError::NotFound)?;
    Ok(cached(CityDoc::new(city, lang)))
}
