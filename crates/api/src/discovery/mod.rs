//! What search engines and browsers read to find the site (issue 31, D372–D374):
//! `/robots.txt`, the sitemaps and the OpenSearch descriptions. Thin handlers over the
//! plain functions of [`robots`], [`sitemap`] and [`opensearch`].

pub mod opensearch;
pub mod robots;
pub mod sitemap;

use crate::envelope::ApiError;
use crate::pages::base_url;
use crate::read_cache::{CacheControl, Made};
use crate::state::{AppState, now_ms};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use domain::locale::Locale;
use sitemap::Sitemap;

/// Crawlers come back for these daily at most; an hour keeps them near what is stored.
const MAX_AGE: u32 = 3600;
/// The news sitemap changes with every story: crawlers may keep it five minutes.
const NEWS_MAX_AGE: u32 = 300;
const XML: &str = "application/xml; charset=utf-8";

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/robots.txt", get(robots_txt))
        .route("/sitemap.xml", get(sitemap_index))
        .route("/sitemaps/{file}", get(sitemap_file))
        .route("/opensearch/{file}", get(opensearch_xml))
}

fn text(status: StatusCode, content_type: &'static str, max_age: u32, body: String) -> Response {
    let mut res = (status, body).into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(v) = HeaderValue::from_str(&format!("public, max-age={max_age}")) {
        h.insert(header::CACHE_CONTROL, v);
    }
    res
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "Not Found").into_response()
}

async fn robots_txt(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let base = base_url(&state, &headers);
    text(
        StatusCode::OK,
        "text/plain; charset=utf-8",
        MAX_AGE,
        robots::robots_txt(&base),
    )
}

async fn sitemap_index(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let base = base_url(&state, &headers);
    text(StatusCode::OK, XML, MAX_AGE, sitemap::index(&base))
}

async fn opensearch_xml(State(state): State<AppState>, headers: HeaderMap, Path(file): Path<String>) -> Response {
    let Some(locale) = file.strip_suffix(".xml").and_then(Locale::from_code) else {
        return not_found();
    };
    let base = base_url(&state, &headers);
    text(
        StatusCode::OK,
        "application/opensearchdescription+xml; charset=utf-8",
        MAX_AGE,
        opensearch::description(&base, locale),
    )
}

/// One sitemap, through the read cache: the news one reads up to 1,000 stories and the
/// publishers one every publisher, so a crawler's burst asks the store once.
async fn sitemap_file(State(state): State<AppState>, headers: HeaderMap, Path(file): Path<String>) -> Response {
    let Some(which) = file.strip_suffix(".xml").and_then(Sitemap::from_name) else {
        return not_found();
    };
    let base = base_url(&state, &headers);
    let key = format!("{base}/sitemaps/{file}");
    let max_age = if which == Sitemap::News { NEWS_MAX_AGE } else { MAX_AGE };
    let generation = state.store.content_generation();
    let now = now_ms();
    let make = || async {
        let body = sitemap::make(&state, which, &base, now).await?;
        Ok::<_, ApiError>(Made {
            body: body.into_bytes(),
            content_type: XML,
        })
    };
    match state
        .read_cache
        .answer_document(&key, generation, now, &headers, CacheControl::Public { max_age }, make)
        .await
    {
        Ok((res, lookup)) => {
            state.metrics.read_cache(lookup);
            res
        }
        Err(e) => {
            tracing::warn!(error = %e, sitemap = file, "a sitemap could not be made");
            let mut res = (
                StatusCode::SERVICE_UNAVAILABLE,
                "The sitemap is unavailable right now; try again in a minute.",
            )
                .into_response();
            res.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
            res
        }
    }
}
