//! The read API (docs/api-reading.md; issues 3 and 4): news feeds by channel, news and
//! publisher detail, categories, news and publisher search. Public GET calls, cacheable
//! (ETag + Cache-Control). Each call is a thin handler over a plain function of the query
//! parameters, which the pages call too for their inline payload (D101).

use crate::envelope::{ApiError, ok_cached};
use crate::geo_api::{CityDoc, Params, bad};
use crate::news_json::{MAX_OFFSET, MediaDoc, NewsItem, PLAIN, PageToken};
use crate::state::{AppState, now_ms};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, Uri, header};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use domain::text::{fold, search_words};
use geo::{City, CityId};
use ingest::categorize::CATEGORIES;
use serde::Serialize;
use std::collections::HashSet;
use std::future::Future;
use store::content::{After, ListFilter, Listing, NewsRow, PlaceKey, SearchQuery};
use utoipa::{IntoParams, ToSchema};

/// Items per page unless `size` says otherwise (1 to [`MAX_SIZE`]).
pub const DEFAULT_SIZE: usize = 20;
pub const MAX_SIZE: usize = 50;
/// A quiet city's first page widens until it has this many items (or `size`, if smaller).
pub const LOCAL_MIN_ITEMS: usize = 8;
/// "Nearby" is within this distance of the city…
pub const NEARBY_KM: f64 = geo::NEARBY_KM;
/// …and at most this many of the nearest cities (plus publishers' own cities in range).
pub const NEARBY_MAX_CITIES: usize = 30;
/// `top` ranks stories with an item in this window.
pub const TOP_WINDOW_MS: i64 = 72 * 3_600_000;
/// `related` in news/detail.
pub const RELATED_MAX: usize = 6;
/// Other items of a story shown in news/detail.
pub const CLUSTER_MAX: i64 = 50;
/// Search query length bounds, after trimming.
pub const QUERY_MAX_CHARS: usize = 200;
/// Cache lifetimes (seconds) of lists and of details.
pub const LIST_MAX_AGE: u32 = 30;
pub const DETAIL_MAX_AGE: u32 = 60;

pub mod publisher_cities;

const CHANNELS: &str = "local, latest, top, category, location, media, special";

// ---------------------------------------------------------------------------------------
// Parameters

/// What every list call shares: filters, page size and token.
struct Common {
    /// The `lang` filter, when given.
    lang: Option<Locale>,
    country: Option<Country>,
    size: usize,
    token: Option<PageToken>,
}

impl Common {
    fn parse(params: &Params) -> Result<Common, ApiError> {
        let lang = match params.get("lang").filter(|v| !v.is_empty()) {
            None => None,
            Some(v) => Some(
                Locale::from_code(&v.to_ascii_lowercase()).ok_or_else(|| bad("lang", "must be one of en, es, fr."))?,
            ),
        };
        let country = params.country()?;
        let size = match params.get("size").filter(|v| !v.is_empty()) {
            None => DEFAULT_SIZE,
            Some(v) => v
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=MAX_SIZE).contains(n))
                .ok_or_else(|| bad("size", &format!("must be a whole number from 1 to {MAX_SIZE}.")))?,
        };
        let token = match params.get("page_token").filter(|v| !v.is_empty()) {
            None => None,
            Some(raw) => Some(PageToken::decode(raw)?),
        };
        Ok(Common {
            lang,
            country,
            size,
            token,
        })
    }

    fn filter(&self) -> ListFilter {
        ListFilter {
            lang: self.lang.map(|l| l.code().to_string()),
            country: self.country.map(|c| c.iso().to_string()),
        }
    }

    /// The language place names are given in.
    fn names(&self) -> Locale {
        self.lang.unwrap_or(Locale::DEFAULT)
    }

    /// The offset of a ranked list's token (a keyset token is someone else's).
    fn offset(&self) -> Result<i64, ApiError> {
        match self.token {
            None => Ok(0),
            Some(PageToken::Offset(n)) => Ok(n),
            Some(PageToken::Keyset { .. }) => Err(bad_token()),
        }
    }

    /// The position of a newest-first list's token with the scope letters it accepts.
    fn after(&self, scopes: &[char]) -> Result<Option<(char, After)>, ApiError> {
        match self.token {
            None => Ok(None),
            Some(PageToken::Keyset { scope, after }) if scopes.contains(&scope) => Ok(Some((scope, after))),
            Some(_) => Err(bad_token()),
        }
    }
}

fn bad_token() -> ApiError {
    bad("page_token", "is not a token from a previous page of this list.")
}

fn whole_number(params: &Params, name: &str) -> Result<i64, ApiError> {
    params
        .required(name)?
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| bad(name, "must be a whole number."))
}

fn category_param(params: &Params, name: &str) -> Result<Option<&'static str>, ApiError> {
    match params.get(name).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => CATEGORIES
            .iter()
            .find(|(id, _)| *id == v)
            .map(|(id, _)| Some(*id))
            .ok_or_else(|| {
                let ids: Vec<&str> = CATEGORIES.iter().map(|(id, _)| *id).collect();
                bad(name, &format!("expected one of {}.", ids.join(", ")))
            }),
    }
}

/// A search query: 1 to 200 characters after trimming.
fn query_param(params: &Params) -> Result<&str, ApiError> {
    let q = params.required("q")?;
    if q.chars().count() > QUERY_MAX_CHARS {
        return Err(bad("q", &format!("must be 1 to {QUERY_MAX_CHARS} characters.")));
    }
    Ok(q)
}

/// The folded words of a query, each once, in order.
pub fn query_terms(q: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    search_words(q)
        .into_iter()
        .filter(|w| seen.insert(w.clone()))
        .take(16)
        .collect()
}

// ---------------------------------------------------------------------------------------
// Shapes

/// A page of news items and what the list is about.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeedPage {
    pub list: Vec<NewsItem>,
    /// `""` on the last page.
    pub next_page_token: String,
    /// local: scope, city, area_name; location: area; media: media; special: special;
    /// others: `{}`.
    #[schema(value_type = Object)]
    pub context: FeedContext,
}

#[derive(Debug, Default, Serialize)]
pub struct FeedContext {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub city: Option<CityDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub area: Option<AreaRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media: Option<MediaDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special: Option<SpecialDoc>,
}

/// The place of a `location` feed.
#[derive(Debug, Serialize)]
pub struct AreaRef {
    pub id: AreaId,
    pub name: String,
    /// city or state.
    pub kind: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum AreaId {
    City(i64),
    State(String),
}

#[derive(Debug, Serialize)]
pub struct SpecialDoc {
    pub slug: String,
    pub title: String,
    pub description: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct NewsDetail {
    /// With its content.
    pub news: NewsItem,
    pub media: MediaDoc,
    /// Other items of the same story, newest first.
    pub cluster: Vec<NewsItem>,
    /// Up to 6 more from the same place.
    pub related: Vec<NewsItem>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryDoc {
    pub id: &'static str,
    pub name: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryList {
    pub list: Vec<CategoryDoc>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchNewsPage {
    pub list: Vec<NewsItem>,
    pub next_page_token: String,
    /// The folded query words, for highlighting.
    pub terms: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MediaPage {
    pub list: Vec<MediaDoc>,
    pub next_page_token: String,
}

// ---------------------------------------------------------------------------------------
// Paging

/// Whether a row repeats an item or a story already on the page.
#[derive(Default)]
struct OncePerPage {
    ids: HashSet<i64>,
    clusters: HashSet<i64>,
}

impl OncePerPage {
    fn first(&mut self, row: &NewsRow, by_cluster: bool) -> bool {
        if !self.ids.insert(row.news_id) {
            return false;
        }
        !(by_cluster && row.cluster_id != 0 && !self.clusters.insert(row.cluster_id))
    }
}

fn key(row: &NewsRow) -> After {
    After {
        publish_time_ms: row.publish_time_ms,
        news_id: row.news_id,
    }
}

/// One page of a newest-first list with each story once: up to `size` rows, and where
/// the next page starts (the last row consumed) when more follow.
async fn keyset_page(
    state: &AppState,
    listing: &Listing,
    filter: &ListFilter,
    after: Option<After>,
    size: usize,
) -> Result<(Vec<NewsRow>, Option<After>), ApiError> {
    // Rows of a story already shown are skipped, so read ahead a little.
    let batch = size * 2 + 1;
    let mut out = Vec::with_capacity(size);
    let mut once = OncePerPage::default();
    let mut cursor = after;
    for _ in 0..4 {
        let rows = state.store.list_news(listing, filter, cursor, batch as i64).await?;
        let full = rows.len() == batch;
        for row in rows {
            if out.len() == size {
                return Ok((out, cursor));
            }
            cursor = Some(key(&row));
            if once.first(&row, true) {
                out.push(row);
            }
        }
        if !full {
            return Ok((out, None));
        }
    }
    Ok((out, cursor))
}

/// A ranked page read with one row of look-ahead: (rows, the next offset if more follow).
fn offset_page(mut rows: Vec<NewsRow>, offset: i64, size: usize, by_cluster: bool) -> (Vec<NewsRow>, String) {
    let more = rows.len() > size;
    rows.truncate(size);
    let next = offset + size as i64;
    let mut once = OncePerPage::default();
    rows.retain(|r| once.first(r, by_cluster));
    let token = if more && next <= MAX_OFFSET {
        PageToken::Offset(next).encode()
    } else {
        String::new()
    };
    (rows, token)
}

fn items(rows: Vec<NewsRow>, lang: Locale, now: i64) -> Vec<NewsItem> {
    rows.into_iter()
        .map(|mut r| {
            r.content.clear();
            NewsItem::from_row(r, lang, now)
        })
        .collect()
}

fn keyset_token(scope: char, next: Option<After>) -> String {
    next.map(|after| PageToken::Keyset { scope, after }.encode())
        .unwrap_or_default()
}

// ---------------------------------------------------------------------------------------
// Local widening

/// How far a local feed had to widen (docs/api-reading.md, context.scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    City,
    Nearby,
    State,
    Country,
}

impl Scope {
    const ALL: [Scope; 4] = [Scope::City, Scope::Nearby, Scope::State, Scope::Country];
    const LETTERS: [char; 4] = ['c', 'y', 's', 'n'];

    fn letter(self) -> char {
        Scope::LETTERS[self as usize]
    }

    fn from_letter(c: char) -> Option<Scope> {
        Scope::LETTERS.iter().position(|l| *l == c).map(|i| Scope::ALL[i])
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::City => "city",
            Scope::Nearby => "nearby",
            Scope::State => "state",
            Scope::Country => "country",
        }
    }
}

/// The city and the cities within [`NEARBY_KM`]: the [`NEARBY_MAX_CITIES`] nearest, plus
/// publisher cities in range.
pub fn nearby_cities(city: &City, publisher_cities: &[i64]) -> Vec<i64> {
    // 80 km is about 0.72° of latitude anywhere: a cheap first cut before the great circle.
    let lat_cut = NEARBY_KM / 111.0 + 0.01;
    let mut near: Vec<(f64, i64)> = geo::all()
        .iter()
        .filter(|c| c.id != city.id && (c.lat - city.lat).abs() <= lat_cut)
        .filter_map(|c| {
            let d = geo::distance_km(city.lat, city.lon, c.lat, c.lon);
            (d <= NEARBY_KM).then_some((d, c.id.0))
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut ids = vec![city.id.0];
    ids.extend(near.iter().take(NEARBY_MAX_CITIES).map(|(_, id)| *id));
    for id in publisher_cities {
        if !ids.contains(id)
            && let Some(c) = geo::by_id(CityId(*id))
            && geo::distance_km(city.lat, city.lon, c.lat, c.lon) <= NEARBY_KM
        {
            ids.push(*id);
        }
    }
    ids
}

async fn scope_places(state: &AppState, city: &City, scope: Scope, now: i64) -> Vec<PlaceKey> {
    match scope {
        Scope::City => vec![PlaceKey::City(city.id.0)],
        Scope::Nearby => {
            let pubs = state.publisher_cities.get(state.store.as_ref(), now).await;
            nearby_cities(city, &pubs).into_iter().map(PlaceKey::City).collect()
        }
        Scope::State => vec![PlaceKey::State {
            country: city.iso.iso().to_string(),
            admin_code: city.admin_code.to_string(),
        }],
        Scope::Country => vec![PlaceKey::Country(city.iso.iso().to_string())],
    }
}

fn country_name(country: Country, lang: Locale) -> &'static str {
    match (country, lang) {
        (Country::Us, Locale::En) => "United States",
        (Country::Us, Locale::Es) => "Estados Unidos",
        (Country::Us, Locale::Fr) => "États-Unis",
        (Country::Ca, Locale::Es) => "Canadá",
        (Country::Ca, _) => "Canada",
    }
}

fn scope_area_name(city: &City, scope: Scope, lang: Locale) -> String {
    match scope {
        Scope::City | Scope::Nearby => city.city_show(lang),
        Scope::State => city.admin_name.to_string(),
        Scope::Country => country_name(city.iso, lang).to_string(),
    }
}

/// The city of a local feed: `city_id`, else the default city of `country` (or of the
/// language's home country).
fn local_city(params: &Params, c: &Common) -> Result<&'static City, ApiError> {
    match params.get("city_id").filter(|v| !v.is_empty()) {
        Some(_) => {
            let id = whole_number(params, "city_id")?;
            geo::by_id(CityId(id)).ok_or(ApiError::NotFound)
        }
        None => {
            let country = c
                .country
                .unwrap_or_else(|| c.lang.map_or(Country::DEFAULT, |l| l.home_country()));
            geo::default_city(country).ok_or_else(|| ApiError::Internal("no default city".into()))
        }
    }
}

async fn local_feed(state: &AppState, params: &Params, c: &Common, now: i64) -> Result<FeedPage, ApiError> {
    let city = local_city(params, c)?;
    let filter = c.filter();
    let (scope, rows, next) = match c.after(&Scope::LETTERS)? {
        Some((letter, after)) => {
            let scope = Scope::from_letter(letter).ok_or_else(bad_token)?;
            let places = scope_places(state, city, scope, now).await;
            let (rows, next) = keyset_page(state, &Listing::Places(places), &filter, Some(after), c.size).await?;
            (scope, rows, next)
        }
        None => {
            let enough = LOCAL_MIN_ITEMS.min(c.size);
            let mut found = None;
            for scope in Scope::ALL {
                let places = scope_places(state, city, scope, now).await;
                if scope == Scope::Nearby && places.len() == 1 {
                    continue; // nothing nearby: the same list as the city's
                }
                let (rows, next) = keyset_page(state, &Listing::Places(places), &filter, None, c.size).await?;
                let done = rows.len() >= enough || scope == Scope::Country;
                found = Some((scope, rows, next));
                if done {
                    break;
                }
            }
            found.ok_or_else(|| ApiError::Internal("no local scope".into()))?
        }
    };
    let lang = c.names();
    Ok(FeedPage {
        list: items(rows, lang, now),
        next_page_token: keyset_token(scope.letter(), next),
        context: FeedContext {
            scope: Some(scope.name()),
            city: Some(CityDoc::new(city, lang)),
            area_name: Some(scope_area_name(city, scope, lang)),
            ..FeedContext::default()
        },
    })
}

// ---------------------------------------------------------------------------------------
// The calls as plain functions

/// A `location`: a city id or a state/province key (`US-ME`), with its name.
pub fn parse_location(raw: &str, lang: Locale) -> Result<(PlaceKey, AreaRef), ApiError> {
    if !raw.is_empty() && raw.len() <= 12 && raw.bytes().all(|b| b.is_ascii_digit()) {
        let id = raw.parse::<i64>().map_err(|_| bad("location", "is not a city id."))?;
        let city = geo::by_id(CityId(id)).ok_or(ApiError::NotFound)?;
        return Ok((
            PlaceKey::City(id),
            AreaRef {
                id: AreaId::City(id),
                name: city.city_show(lang),
                kind: "city",
            },
        ));
    }
    let state_key = raw.split_once('-').filter(|(iso, code)| {
        iso.len() == 2 && (1..=3).contains(&code.len()) && code.bytes().all(|b| b.is_ascii_alphanumeric())
    });
    let Some((iso, code)) = state_key else {
        return Err(bad(
            "location",
            "must be a city id (4975802) or a state or province key (US-ME).",
        ));
    };
    let country = Country::from_iso(iso).ok_or_else(|| bad("location", "the country must be US or CA."))?;
    let code = code.to_ascii_uppercase();
    let city = geo::all()
        .iter()
        .filter(|c| c.iso == country && c.admin_code == code)
        .max_by_key(|c| c.population)
        .ok_or(ApiError::NotFound)?;
    let key = format!("{}-{code}", country.iso());
    Ok((
        PlaceKey::State {
            country: country.iso().to_string(),
            admin_code: code,
        },
        AreaRef {
            id: AreaId::State(key),
            name: city.admin_name.to_string(),
            kind: "state",
        },
    ))
}

/// A newest-first feed without a scope.
async fn plain_feed(
    state: &AppState,
    listing: Listing,
    c: &Common,
    context: FeedContext,
    now: i64,
) -> Result<FeedPage, ApiError> {
    let after = c.after(&[PLAIN])?.map(|(_, a)| a);
    let (rows, next) = keyset_page(state, &listing, &c.filter(), after, c.size).await?;
    Ok(FeedPage {
        list: items(rows, c.names(), now),
        next_page_token: keyset_token(PLAIN, next),
        context,
    })
}

/// `GET /api/news/feed`'s data.
pub async fn feed(state: &AppState, params: &Params, now: i64) -> Result<FeedPage, ApiError> {
    let channel = params.required("channel")?;
    let c = Common::parse(params)?;
    let lang = c.names();
    let filter = c.filter();
    let plain = |listing: Listing, context: FeedContext| plain_feed(state, listing, &c, context, now);
    match channel {
        "local" => local_feed(state, params, &c, now).await,
        "latest" => plain(Listing::Latest, FeedContext::default()).await,
        "category" => {
            let category = category_param(params, "category")?.ok_or_else(|| bad("category", "is required."))?;
            plain(Listing::Category(category.into()), FeedContext::default()).await
        }
        "location" => {
            let (place, area) = parse_location(params.required("location")?, lang)?;
            let context = FeedContext {
                area: Some(area),
                ..FeedContext::default()
            };
            plain(Listing::Places(vec![place]), context).await
        }
        "media" => {
            let media_id = whole_number(params, "media_id")?;
            let media = state.store.media(media_id).await?.ok_or(ApiError::NotFound)?;
            let context = FeedContext {
                media: Some(media.into()),
                ..FeedContext::default()
            };
            plain(Listing::Media(media_id), context).await
        }
        "special" => {
            let slug = params.required("special")?;
            if slug.len() > 200 {
                return Err(ApiError::NotFound);
            }
            let special = state.store.special(slug).await?.ok_or(ApiError::NotFound)?;
            let context = FeedContext {
                special: Some(SpecialDoc {
                    slug: special.slug,
                    title: special.title,
                    description: special.description,
                }),
                ..FeedContext::default()
            };
            if special.query.trim().is_empty() {
                return plain(Listing::Ids(special.news_ids), context).await;
            }
            let offset = c.offset()?;
            let query = SearchQuery {
                terms: query_terms(&special.query),
                filter,
                ..SearchQuery::default()
            };
            let rows = state.store.search_news(&query, offset, c.size as i64 + 1).await?;
            let (rows, next_page_token) = offset_page(rows, offset, c.size, true);
            Ok(FeedPage {
                list: items(rows, lang, now),
                next_page_token,
                context,
            })
        }
        "top" => {
            let offset = c.offset()?;
            let rows = state
                .store
                .top_news(&filter, now - TOP_WINDOW_MS, offset, c.size as i64 + 1)
                .await?;
            let (rows, next_page_token) = offset_page(rows, offset, c.size, true);
            Ok(FeedPage {
                list: items(rows, lang, now),
                next_page_token,
                context: FeedContext::default(),
            })
        }
        _ => Err(bad("channel", &format!("expected one of {CHANNELS}."))),
    }
}

/// `GET /api/news/detail`'s data.
pub async fn detail(state: &AppState, params: &Params, now: i64) -> Result<NewsDetail, ApiError> {
    let news_id = whole_number(params, "news_id")?;
    let lang = Common::parse(params)?.names();
    let row = state.store.news(news_id).await?.ok_or(ApiError::NotFound)?;
    let media: MediaDoc = match state.store.media(row.media_id).await? {
        Some(m) => m.into(),
        None => MediaDoc {
            media_id: row.media_id,
            name: row.media_name.clone(),
            icon_url: row.media_icon.clone(),
            home_url: row.media_home_url.clone(),
            about: String::new(),
            contact: String::new(),
            category_id: String::new(),
            category_top_id: String::new(),
            area1: String::new(),
            area2: String::new(),
            area3: String::new(),
            follow_status: 0,
            city_id: 0,
            lang: String::new(),
            item_count: 0,
        },
    };
    let cluster_id = row.cluster_id;
    let cluster = if cluster_id != 0 && row.cluster.size > 1 {
        let rows = state.store.cluster_items(cluster_id, CLUSTER_MAX + 1).await?;
        rows.into_iter().filter(|r| r.news_id != news_id).collect()
    } else {
        Vec::new()
    };
    let place = row
        .city_ids
        .first()
        .copied()
        .or((media.city_id > 0).then_some(media.city_id));
    let related = match place {
        None => Vec::new(),
        Some(city) => {
            let limit = RELATED_MAX as i64 * 3 + row.cluster.size.clamp(0, 30);
            let rows = state
                .store
                .list_news(
                    &Listing::Places(vec![PlaceKey::City(city)]),
                    &ListFilter::default(),
                    None,
                    limit,
                )
                .await?;
            let mut once = OncePerPage::default();
            rows.into_iter()
                .filter(|r| r.news_id != news_id && (cluster_id == 0 || r.cluster_id != cluster_id))
                .filter(|r| once.first(r, true))
                .take(RELATED_MAX)
                .collect()
        }
    };
    Ok(NewsDetail {
        news: NewsItem::from_row(row, lang, now),
        media,
        cluster: items(cluster, lang, now),
        related: items(related, lang, now),
    })
}

/// `GET /api/media/detail`'s data.
pub async fn media_detail(state: &AppState, params: &Params) -> Result<MediaDoc, ApiError> {
    let media_id = whole_number(params, "media_id")?;
    Ok(state.store.media(media_id).await?.ok_or(ApiError::NotFound)?.into())
}

/// `GET /api/news/categories`'s data.
pub fn categories(params: &Params) -> Result<CategoryList, ApiError> {
    let lang = params.lang()?;
    let i = Locale::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    Ok(CategoryList {
        list: CATEGORIES
            .iter()
            .map(|(id, names)| CategoryDoc { id, name: names[i] })
            .collect(),
    })
}

/// The display name of a category in a language (for page titles).
pub fn category_name(id: &str, lang: Locale) -> Option<&'static str> {
    let i = Locale::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    CATEGORIES.iter().find(|(c, _)| *c == id).map(|(_, names)| names[i])
}

/// `GET /api/search/news`'s data.
pub async fn search_news(state: &AppState, params: &Params, now: i64) -> Result<SearchNewsPage, ApiError> {
    let q = query_param(params)?;
    let c = Common::parse(params)?;
    let place = match params.get("city_id").filter(|v| !v.is_empty()) {
        None => None,
        Some(_) => {
            let id = whole_number(params, "city_id")?;
            geo::by_id(CityId(id)).ok_or(ApiError::NotFound)?;
            Some(PlaceKey::City(id))
        }
    };
    let category = category_param(params, "category")?;
    let since_ms = match params.get("since").filter(|v| !v.is_empty()) {
        None => None,
        Some(v) => Some(
            v.parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| bad("since", "must be a time in milliseconds since 1970."))?,
        ),
    };
    let offset = c.offset()?;
    let terms = query_terms(q);
    let query = SearchQuery {
        terms: terms.clone(),
        filter: c.filter(),
        place,
        category: category.map(str::to_string),
        since_ms,
    };
    let rows = if terms.is_empty() {
        Vec::new()
    } else {
        state.store.search_news(&query, offset, c.size as i64 + 1).await?
    };
    let (rows, next_page_token) = offset_page(rows, offset, c.size, false);
    Ok(SearchNewsPage {
        list: items(rows, c.names(), now),
        next_page_token,
        terms,
    })
}

/// `GET /api/search/media`'s data.
pub async fn search_media(state: &AppState, params: &Params) -> Result<MediaPage, ApiError> {
    let q = query_param(params)?;
    let c = Common::parse(params)?;
    let offset = c.offset()?;
    let folded = fold(q);
    let mut rows = if folded.is_empty() {
        Vec::new()
    } else {
        state.store.search_media(&folded, offset, c.size as i64 + 1).await?
    };
    let more = rows.len() > c.size;
    rows.truncate(c.size);
    let next = offset + c.size as i64;
    Ok(MediaPage {
        list: rows.into_iter().map(MediaDoc::from).collect(),
        next_page_token: if more && next <= MAX_OFFSET {
            PageToken::Offset(next).encode()
        } else {
            String::new()
        },
    })
}

// ---------------------------------------------------------------------------------------
// Handlers

type RawQuery = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// A public read answer, through the read cache (D140): the request's path and query
/// are the key.
async fn kept<T, Fut>(
    state: &AppState,
    uri: &Uri,
    headers: &HeaderMap,
    max_age: u32,
    make: impl FnOnce() -> Fut,
) -> Result<Response, ApiError>
where
    T: Serialize,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let key = uri.path_and_query().map_or(uri.path(), |pq| pq.as_str());
    let generation = state.store.content_generation();
    let (res, lookup) = state
        .read_cache
        .answer(key, generation, now_ms(), headers, max_age, make)
        .await?;
    state.metrics.read_cache(lookup);
    Ok(res)
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct FeedParams {
    /// local, latest, top, category, location, media or special.
    channel: String,
    /// local: GeoNames id (default: the default city of `country`, else of `lang`).
    city_id: Option<i64>,
    /// category: one of the 13 category ids.
    category: Option<String>,
    /// location: a city id (4975802) or a state/province key (US-ME, CA-QC).
    location: Option<String>,
    /// media: the publisher.
    media_id: Option<i64>,
    /// special: the collection's slug.
    special: Option<String>,
    /// en, es or fr: only items in this language (default: all).
    lang: Option<String>,
    /// US or CA: only items from publishers in this country.
    country: Option<String>,
    /// `next_page_token` of the previous page.
    page_token: Option<String>,
    /// 1 to 50, default 20.
    size: Option<i64>,
}

/// News by channel, newest first (top: by hot score). One item per story per page.
#[utoipa::path(get, path = "/api/news/feed", tag = "news", params(FeedParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token, context}`", body = FeedPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "Unknown city, place, publisher or special")))]
pub async fn feed_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, LIST_MAX_AGE, || async {
        feed(&state, &Params::new(query)?, now_ms()).await
    })
    .await
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct DetailParams {
    news_id: i64,
    /// en (default), es or fr: the language of place names.
    lang: Option<String>,
}

/// One item with its content, its publisher, its story and more from its place.
#[utoipa::path(get, path = "/api/news/detail", tag = "news", params(DetailParams),
    responses((status = 200, description = "Envelope with `{news, media, cluster, related}`", body = NewsDetail),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it"),
        (status = 404, description = "No item has this id")))]
pub async fn detail_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, DETAIL_MAX_AGE, || async {
        detail(&state, &Params::new(query)?, now_ms()).await
    })
    .await
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct MediaParams {
    media_id: i64,
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
    kept(&state, &uri, &headers, DETAIL_MAX_AGE, || async {
        media_detail(&state, &Params::new(query)?).await
    })
    .await
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct CategoriesParams {
    /// en (default), es or fr.
    lang: Option<String>,
}

/// The 13 categories in display order, named in the reader's language.
#[utoipa::path(get, path = "/api/news/categories", tag = "news", params(CategoriesParams),
    responses((status = 200, description = "Envelope with `{list}`", body = CategoryList),
        (status = 400, description = "A parameter is invalid; the message names it")))]
pub async fn categories_handler(headers: HeaderMap, query: RawQuery) -> Result<Response, ApiError> {
    let params = Params::new(query)?;
    Ok(ok_cached(
        categories(&params)?,
        headers.get(header::IF_NONE_MATCH),
        LIST_MAX_AGE,
    ))
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct SearchNewsParams {
    /// 1 to 200 characters after trimming; accents and case ignored; every word must
    /// match (the last as a prefix).
    q: String,
    /// en, es or fr: only items in this language.
    lang: Option<String>,
    /// US or CA.
    country: Option<String>,
    /// Only items placed in this city.
    city_id: Option<i64>,
    /// One of the 13 category ids.
    category: Option<String>,
    /// Only items published at or after this time (ms).
    since: Option<i64>,
    page_token: Option<String>,
    /// 1 to 50, default 20.
    size: Option<i64>,
}

/// Full-text news search over titles, summaries and content, best match first.
#[utoipa::path(get, path = "/api/search/news", tag = "search", params(SearchNewsParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token, terms}`", body = SearchNewsPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it")))]
pub async fn search_news_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, LIST_MAX_AGE, || async {
        search_news(&state, &Params::new(query)?, now_ms()).await
    })
    .await
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct SearchMediaParams {
    /// 1 to 200 characters; matches anywhere in the publisher's name, accents and case
    /// ignored.
    q: String,
    page_token: Option<String>,
    /// 1 to 50, default 20.
    size: Option<i64>,
}

/// Publishers by name.
#[utoipa::path(get, path = "/api/search/media", tag = "search", params(SearchMediaParams),
    responses((status = 200, description = "Envelope with `{list, next_page_token}`", body = MediaPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is missing or invalid; the message names it")))]
pub async fn search_media_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    kept(&state, &uri, &headers, LIST_MAX_AGE, || async {
        search_media(&state, &Params::new(query)?).await
    })
    .await
}
