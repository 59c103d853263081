//! Each reading route's first data, inlined in the page (docs/api-reading.md "Inline
//! payload", D101): the same plain functions the API calls run, with the parameters the
//! SPA will send, so `data` is exactly what `GET {path}?{params}` answers. Article and
//! share pages also get their story's title, description, image and NewsArticle data.

use super::locale::{Rendering, query_value};
use super::routes::RouteMatch;
use super::shared::{home_section_size, leads_with_first};
use super::{CITY_COOKIE, ISO_COOKIE, cookie};
use crate::envelope::ApiError;
use crate::geo_api::Params;
use crate::news_api;
use crate::news_api::categories::CategoriesParams;
use crate::news_api::detail::DetailParams;
use crate::news_api::feeds::FeedParams;
use crate::news_api::search::{SearchMediaParams, SearchNewsParams};
use crate::state::AppState;
use axum::http::HeaderMap;
use domain::geo::Country;
use domain::i18n::t_with;
use domain::locale::Locale;
use geo::CityId;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use store::content::NewsId;
use store::reader_view::ReaderView;

pub const FEED: &str = "/api/news/feed";
pub const DETAIL: &str = "/api/news/detail";
pub const CATEGORIES: &str = "/api/news/categories";
pub const SEARCH_NEWS: &str = "/api/search/news";
pub const SEARCH_MEDIA: &str = "/api/search/media";

/// One API call of a screen: its path and the parameters the server used.
#[derive(Debug, Clone)]
pub struct Call {
    pub path: &'static str,
    pub params: Vec<(String, String)>,
}

impl Call {
    fn new(path: &'static str, params: &[(&str, String)]) -> Call {
        Call {
            path,
            params: params
                .iter()
                .filter(|(_, v)| !v.is_empty())
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    fn query_json(&self) -> Value {
        let params: Map<String, Value> = self
            .params
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        json!({ "path": self.path, "params": params })
    }
}

/// The story an article or share page is about, for its meta and JSON-LD.
#[derive(Debug, Clone, Default)]
pub struct Article {
    pub news_id: NewsId,
    pub title: String,
    pub summary: String,
    /// §3 main image (original, else img_url), as the feed gave it.
    pub image: String,
    pub publish_time_ms: i64,
    pub author: String,
    pub publisher: String,
    pub publisher_url: String,
    pub publisher_icon: String,
    pub link_url: String,
    pub lang: String,
}

/// What a route adds to its page.
#[derive(Debug, Default)]
pub struct PageData {
    /// `{query, data}` of the main call, and the screen's other calls.
    pub main: Option<(Call, Value)>,
    pub extra: Vec<(Call, Value)>,
    /// The thing the page is about (a publisher's name, a story's title), for `<title>`.
    pub title: Option<String>,
    pub description: Option<String>,
    pub article: Option<Article>,
    /// The page names a story that does not exist: a real 404.
    pub missing_article: bool,
    /// A canonical path other than the page's own (a share page's article).
    pub canonical_rest: Option<String>,
    /// The main call failed on the server's side (the store), not on the request: the
    /// page shows its own error state, and a feed of it answers 503, never 404 (D376).
    pub unavailable: bool,
}

/// Run one call as the API would for the reader's view (kept briefly:
/// [`InlineCache`](crate::inline_cache::InlineCache), per view as the API's answers, D270).
pub async fn run(state: &AppState, call: &Call, now: i64, view: &ReaderView) -> Result<Value, ApiError> {
    let key = format!("{}?{:?}\n{}", call.path, call.params, view.fingerprint());
    let generation = state.store.content_generation();
    if let Some(value) = state.inline_cache.get(&key, generation, now) {
        return Ok(Value::clone(&value));
    }
    let value = run_uncached(state, call, now, view).await?;
    state.inline_cache.put(key, generation, now, Arc::new(value.clone()));
    Ok(value)
}

async fn run_uncached(state: &AppState, call: &Call, now: i64, view: &ReaderView) -> Result<Value, ApiError> {
    let params = Params::from_pairs(call.params.clone());
    let value = match call.path {
        FEED => serde_json::to_value(news_api::feeds::feed(state, &FeedParams::parse(&params)?, now, view).await?),
        DETAIL => {
            serde_json::to_value(news_api::detail::detail(state, &DetailParams::parse(&params)?, now, view).await?)
        }
        CATEGORIES => serde_json::to_value(news_api::categories::categories(&CategoriesParams::parse(&params)?)),
        SEARCH_NEWS => serde_json::to_value(
            news_api::search::search_news(state, &SearchNewsParams::parse(&params)?, now, view).await?,
        ),
        SEARCH_MEDIA => serde_json::to_value(
            news_api::search::search_media(state, &SearchMediaParams::parse(&params)?, view).await?,
        ),
        other => return Err(ApiError::Internal(format!("no inline call for {other}"))),
    };
    value.map_err(|e| ApiError::Internal(e.to_string()))
}

async fn answered(state: &AppState, call: Call, now: i64, view: &ReaderView) -> Option<(Call, Value)> {
    attempt(state, call, now, view).await.ok()
}

/// [`run`], logging what failed on the server's side.
async fn attempt(state: &AppState, call: Call, now: i64, view: &ReaderView) -> Result<(Call, Value), ApiError> {
    match run(state, &call, now, view).await {
        Ok(data) => Ok((call, data)),
        Err(ApiError::Internal(cause)) => {
            tracing::warn!(%cause, path = call.path, "inline payload call failed");
            Err(ApiError::Internal(cause))
        }
        // A 400 or 404: the screen asks itself and shows its own state.
        Err(e) => Err(e),
    }
}

/// The reader's country as the SPA will see it: `c` when applied, else the `iso` app
/// setting, else the page's.
fn reader_country(r: &Rendering, headers: &HeaderMap) -> Country {
    if r.applied_c.is_some() {
        return r.country;
    }
    cookie(headers, ISO_COOKIE)
        .and_then(Country::from_iso)
        .unwrap_or(r.country)
}

/// The reader's city from the `cityId` app setting, when it is a real city.
fn reader_city(headers: &HeaderMap) -> Option<CityId> {
    let id = CityId(cookie(headers, CITY_COOKIE)?.parse::<i64>().ok()?);
    geo::by_id(id).map(|c| c.id)
}

/// The city the page is written for: the `cityId` setting, else the default city of the
/// reader's country, which is where a first visit's guest is placed (§4.2, §9.1). Named
/// in the inlined call, so the SPA's query once it knows the guest is the inlined one
/// (D147).
pub fn reader_city_id(r: &Rendering, headers: &HeaderMap) -> CityId {
    reader_city(headers).unwrap_or_else(|| reader_country(r, headers).default_city().id)
}

/// `/local/4140963`, `/local/washington-dc-4140963` → 4140963; a bare name is looked up
/// in the gazetteer (first hit), as the SPA does (D105).
pub fn city_from_slug(slug: &str, lang: Locale) -> Option<CityId> {
    let slug = slug.trim();
    let digits: String = slug.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
    let before = slug.len() - digits.len();
    if !digits.is_empty() && (before == 0 || slug[..before].ends_with(['-', '_'])) {
        return digits.chars().rev().collect::<String>().parse().ok().map(CityId);
    }
    let name = slug.replace(['-', '_'], " ");
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    geo::search(name, None, lang, 1).first().map(|h| h.city.id)
}

/// `/share/1042`, `/share/article/1042`, `/share/1042-council-votes` → 1042 (D105): the
/// first number that is a whole path segment or starts one before `-`, `/` or `.`.
pub fn shared_news_id(path: &str) -> Option<NewsId> {
    for segment in path.split('/') {
        let digits: String = segment.chars().take_while(|c| c.is_ascii_digit()).collect();
        let rest = &segment[digits.len()..];
        if !digits.is_empty() && (rest.is_empty() || rest.starts_with(['-', '.'])) {
            return digits.parse().ok().map(NewsId);
        }
    }
    None
}

fn param<'a>(m: &'a RouteMatch, name: &str) -> &'a str {
    m.params.iter().find(|(k, _)| k == name).map_or("", |(_, v)| v.as_str())
}

/// §3 derived values of a news item: the main image is the original image, else
/// `img_url`; the thumbnail is `thumbnail_url`, else the main image.
const MAIN_IMAGE: [&str; 2] = ["org_img_url", "img_url"];
const THUMBNAIL: [&str; 3] = ["thumbnail_url", "org_img_url", "img_url"];

/// The first non-empty of a news item's image fields, in the order given.
fn first_url<'a>(news: &'a Value, fields: &[&str]) -> Option<&'a str> {
    fields.iter().find_map(|f| news[*f].as_str().filter(|u| !u.is_empty()))
}

/// §3 main image of a news item as the API answers it ("" when it has none).
pub fn main_image_of(news: &Value) -> &str {
    first_url(news, &MAIN_IMAGE).unwrap_or_default()
}

/// §3 thumbnail of a news item as the API answers it ("" when it has none).
pub fn thumbnail_of(news: &Value) -> &str {
    first_url(news, &THUMBNAIL).unwrap_or_default()
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

fn article_of(data: &Value) -> Article {
    let news = &data["news"];
    Article {
        news_id: NewsId(news["news_id"].as_i64().unwrap_or_default()),
        title: text(&news["title"]),
        summary: text(&news["summary"]),
        image: main_image_of(news).to_string(),
        publish_time_ms: news["publish_time"].as_i64().unwrap_or_default(),
        author: text(&news["author"]),
        publisher: text(&news["media_name"]),
        publisher_url: text(&news["media_home_url"]),
        publisher_icon: text(&news["media_icon"]),
        link_url: text(&news["link_url"]),
        lang: text(&news["lang"]),
    }
}

/// The story page for `news_id` (None: not a story id at all).
async fn story(state: &AppState, news_id: Option<NewsId>, now: i64, view: &ReaderView) -> PageData {
    let missing = PageData {
        missing_article: true,
        ..PageData::default()
    };
    let Some(id) = news_id.filter(|id| id.0 > 0) else {
        return missing;
    };
    let call = Call::new(DETAIL, &[("news_id", id.to_string())]);
    match run(state, &call, now, view).await {
        Ok(data) => {
            let article = article_of(&data);
            PageData {
                title: Some(article.title.clone()),
                description: Some(article.summary.clone()),
                article: Some(article),
                main: Some((call, data)),
                ..PageData::default()
            }
        }
        Err(ApiError::NotFound) | Err(ApiError::BadRequest(_)) => missing,
        Err(e) => {
            tracing::warn!(error = %e, "inline payload: news detail failed");
            PageData::default()
        }
    }
}

fn feed_call(channel: &str, more: &[(&str, String)]) -> Call {
    let mut params = vec![("channel", channel.to_string())];
    params.extend(more.iter().cloned());
    Call::new(FEED, &params)
}

/// A page with one feed and, for the reader's feeds, the category tabs.
async fn feed_page(state: &AppState, call: Call, categories: Option<Call>, now: i64, view: &ReaderView) -> PageData {
    let main = attempt(state, call, now, view).await;
    let mut page = PageData {
        unavailable: matches!(main, Err(ApiError::Internal(_))),
        main: main.ok(),
        ..PageData::default()
    };
    if let Some(c) = categories
        && let Some(done) = answered(state, c, now, view).await
    {
        page.extra.push(done);
    }
    page
}

/// The image the first screen of route `route` shows largest, for the head to preload
/// (D147): an article's main image, or a lead card's thumbnail (§3 derived values).
pub fn lead_image<'a>(route: &str, page: &'a PageData) -> Option<&'a str> {
    let url = if route == "article" {
        page.article.as_ref()?.image.as_str()
    } else if leads_with_first(route) {
        Some(thumbnail_of(&page.main.as_ref()?.1["list"][0])).filter(|u| !u.is_empty())?
    } else {
        return None;
    };
    // What the page's image policy allows: this server's paths and https (CSP img-src).
    let allowed = url.starts_with("https://") || (url.starts_with('/') && !url.starts_with("//"));
    allowed.then_some(url)
}

/// The first data of the page of route `m`.
pub async fn page_data(
    state: &AppState,
    headers: &HeaderMap,
    r: &Rendering,
    m: &RouteMatch,
    query: Option<&str>,
    now: i64,
    view: &ReaderView,
) -> PageData {
    let locale = r.locale;
    let lang = locale.code().to_string();
    let country = reader_country(r, headers).iso().to_string();
    let scoped = |more: &[(&'static str, String)]| -> Vec<(&'static str, String)> {
        let mut p = more.to_vec();
        p.push(("lang", lang.clone()));
        p.push(("country", country.clone()));
        p
    };
    let categories = || Call::new(CATEGORIES, &[("lang", lang.clone())]);
    let q = |name: &str| query.and_then(|q| query_value(q, name)).unwrap_or_default();
    match m.route.name.as_str() {
        "home" => {
            let city = reader_city_id(r, headers).to_string();
            let local = feed_call(
                "local",
                &scoped(&[("city_id", city), ("size", home_section_size().to_string())]),
            );
            let mut page = feed_page(state, local, None, now, view).await;
            let top = feed_call("top", &scoped(&[("size", home_section_size().to_string())]));
            // Home's latest list sits below the first screen and asks for itself when the
            // reader comes near it (D425): inlined, it was 3.9 KB of every home page.
            for call in [top, categories()] {
                if let Some(done) = answered(state, call, now, view).await {
                    page.extra.push(done);
                }
            }
            page
        }
        "local" => {
            let city = reader_city_id(r, headers).to_string();
            feed_page(
                state,
                feed_call("local", &scoped(&[("city_id", city)])),
                None,
                now,
                view,
            )
            .await
        }
        "local-city" => {
            let Some(id) = city_from_slug(param(m, "local"), locale) else {
                return PageData::default();
            };
            let mut page = feed_page(
                state,
                feed_call("local", &scoped(&[("city_id", id.to_string())])),
                None,
                now,
                view,
            )
            .await;
            if let Some(city) = geo::by_id(id) {
                page.title = Some(t_with(locale, "Local_CityTitle", &[("city", &city.city_show(locale))]));
            }
            page
        }
        "latest" => feed_page(state, feed_call("latest", &scoped(&[])), Some(categories()), now, view).await,
        "top-news" => feed_page(state, feed_call("top", &scoped(&[])), Some(categories()), now, view).await,
        "category" => {
            let category = param(m, "category");
            let Some(name) = news_api::categories::category_name(category, locale) else {
                return PageData::default();
            };
            let call = feed_call("category", &scoped(&[("category", category.to_string())]));
            let mut page = feed_page(state, call, Some(categories()), now, view).await;
            page.title = Some(name.to_string());
            page
        }
        "location" => {
            let call = feed_call("location", &[("location", param(m, "location").to_string())]);
            let mut page = feed_page(state, call, None, now, view).await;
            if let Some((_, data)) = &page.main {
                page.title = data["context"]["area"]["name"].as_str().map(str::to_string);
            }
            page
        }
        "media" => {
            let call = feed_call("media", &[("media_id", param(m, "media").to_string())]);
            let mut page = feed_page(state, call, None, now, view).await;
            if let Some((_, data)) = &page.main {
                let media = &data["context"]["media"];
                page.title = media["name"].as_str().map(str::to_string);
                page.description = media["about"].as_str().filter(|s| !s.is_empty()).map(str::to_string);
            }
            page
        }
        "special" => {
            let call = feed_call("special", &[("special", param(m, "special").to_string())]);
            let mut page = feed_page(state, call, None, now, view).await;
            if let Some((_, data)) = &page.main {
                let special = &data["context"]["special"];
                page.title = special["title"].as_str().map(str::to_string);
                page.description = special["description"]
                    .as_str()
                    .filter(|s| !s.is_empty())
                    .map(str::to_string);
            }
            page
        }
        "article" => {
            let id = param(m, "id");
            let id = (id.len() <= 18 && id.bytes().all(|b| b.is_ascii_digit()))
                .then(|| id.parse().ok().map(NewsId))
                .flatten();
            story(state, id, now, view).await
        }
        "share" => {
            let id = shared_news_id(param(m, "path"));
            let mut page = story(state, id, now, view).await;
            if let Some(id) = id.filter(|_| page.article.is_some()) {
                page.canonical_rest = Some(format!("/article/{id}"));
            }
            page
        }
        "search-news" => {
            let text = q("q");
            // `time` becomes a `since` the SPA computes from its own clock: not guessable.
            if text.trim().is_empty() || !q("time").is_empty() {
                return PageData::default();
            }
            let call = Call::new(
                SEARCH_NEWS,
                &[
                    ("q", text.trim().to_string()),
                    ("country", country.clone()),
                    ("city_id", q("city_id")),
                    // The reader's own city first (D426): the `cityId` setting, else the
                    // country's default city, where start-up places a new guest, so the
                    // app's call once it knows the guest is this one (D147) and the
                    // results do not change under the reader.
                    ("near_city_id", reader_city_id(r, headers).to_string()),
                    ("category", q("category")),
                ],
            );
            feed_page(state, call, None, now, view).await
        }
        "search-media" => {
            let text = q("q");
            if text.trim().is_empty() {
                return PageData::default();
            }
            feed_page(
                state,
                Call::new(SEARCH_MEDIA, &[("q", text.trim().to_string())]),
                None,
                now,
                view,
            )
            .await
        }
        _ => PageData::default(),
    }
}

/// The payload entries: `query` + `data` of the main call, and `extra`.
pub fn payload_fields(page: &PageData, payload: &mut Map<String, Value>) {
    if let Some((call, data)) = &page.main {
        payload.insert("query".into(), call.query_json());
        payload.insert("data".into(), data.clone());
    }
    if !page.extra.is_empty() {
        let extra: Vec<Value> = page
            .extra
            .iter()
            .map(|(call, data)| json!({ "query": call.query_json(), "data": data }))
            .collect();
        payload.insert("extra".into(), Value::Array(extra));
    }
}

/// An absolute URL for a page's meta: kept when absolute, joined to `base` when it is a
/// path on this server (`/demo/media/…`), else `None`.
pub fn absolute_url(url: &str, base: &str) -> Option<String> {
    let url = url.trim();
    if url.starts_with("https://") || url.starts_with("http://") {
        Some(url.to_string())
    } else if let Some(rest) = url.strip_prefix("//") {
        Some(format!("https://{rest}"))
    } else if url.starts_with('/') {
        Some(format!("{base}{url}"))
    } else {
        None
    }
}

/// ISO-8601 UTC (`2026-11-20T12:00:00Z`) of a time in milliseconds.
pub fn iso8601(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%SZ").to_string())
        .unwrap_or_default()
}

/// schema.org NewsArticle for a story page.
pub fn news_article_json_ld(a: &Article, base: &str, canonical: &str) -> Value {
    let mut ld = Map::new();
    ld.insert("@context".into(), json!("https://schema.org"));
    ld.insert("@type".into(), json!("NewsArticle"));
    ld.insert("headline".into(), json!(a.title));
    if !a.summary.is_empty() {
        ld.insert("description".into(), json!(a.summary));
    }
    ld.insert("datePublished".into(), json!(iso8601(a.publish_time_ms)));
    if let Some(image) = absolute_url(&a.image, base) {
        ld.insert("image".into(), json!([image]));
    }
    let publisher_url = absolute_url(&a.publisher_url, base);
    let author = if a.author.trim().is_empty() {
        let mut org = json!({ "@type": "Organization", "name": a.publisher });
        if let Some(url) = &publisher_url {
            org["url"] = json!(url);
        }
        org
    } else {
        json!({ "@type": "Person", "name": a.author })
    };
    ld.insert("author".into(), json!([author]));
    let mut publisher = json!({ "@type": "Organization", "name": a.publisher });
    if let Some(logo) = absolute_url(&a.publisher_icon, base) {
        publisher["logo"] = json!({ "@type": "ImageObject", "url": logo });
    }
    ld.insert("publisher".into(), publisher);
    ld.insert("mainEntityOfPage".into(), json!(canonical));
    ld.insert("url".into(), json!(canonical));
    if let Some(link) = absolute_url(&a.link_url, base) {
        ld.insert("isBasedOn".into(), json!(link));
    }
    if !a.lang.is_empty() {
        ld.insert("inLanguage".into(), json!(a.lang));
    }
    Value::Object(ld)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso8601_of_milliseconds() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(1_795_176_000_000), "2026-11-20T12:00:00Z");
        assert_eq!(iso8601(951_782_400_000), "2000-02-29T00:00:00Z");
        assert_eq!(iso8601(-1000), "1969-12-31T23:59:59Z");
    }

    #[test]
    fn d105_shared_paths_name_the_first_number() {
        assert_eq!(shared_news_id("1042"), Some(NewsId(1042)));
        assert_eq!(shared_news_id("article/1042"), Some(NewsId(1042)));
        assert_eq!(shared_news_id("1042-council-votes"), Some(NewsId(1042)));
        assert_eq!(shared_news_id("news/abc"), None);
        assert_eq!(shared_news_id("a1042"), None);
    }

    #[test]
    fn d105_local_slugs_end_in_a_city_id_or_name_one() {
        assert_eq!(city_from_slug("4140963", Locale::En), Some(CityId(4140963)));
        assert_eq!(
            city_from_slug("washington-dc-4140963", Locale::En),
            Some(CityId(4140963))
        );
        assert!(city_from_slug("ottawa", Locale::En).is_some());
        assert_eq!(city_from_slug("", Locale::En), None);
    }

    #[test]
    fn meta_urls_become_absolute() {
        let base = "https://news.example";
        assert_eq!(
            absolute_url("/demo/media/a.jpg", base).as_deref(),
            Some("https://news.example/demo/media/a.jpg")
        );
        assert_eq!(
            absolute_url("https://x/a.jpg", base).as_deref(),
            Some("https://x/a.jpg")
        );
        assert_eq!(absolute_url("//cdn/a.jpg", base).as_deref(), Some("https://cdn/a.jpg"));
        assert_eq!(absolute_url("", base), None);
        assert_eq!(absolute_url("javascript:alert(1)", base), None);
    }
}
