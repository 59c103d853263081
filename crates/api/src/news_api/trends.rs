//! `GET /api/trends`: what is trending in a country and language, or in a state of it
//! (issue 20; D300 the engine, D301 kept and brought up to date, D302 a reader's view).

use super::cached::{LIST_MAX_AGE, RawQuery, kept, request_view};
use super::paging::items;
use super::params::lang_filter;
use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::news_json::{NewsItem, Reason};
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use domain::geo::Country;
use domain::locale::Locale;
use serde::Serialize;
use store::reader_view::ReaderView;
use trends::engine::{MAX_STORIES, Trend};
use trends::kept::ScopeKey;
use utoipa::{IntoParams, ToSchema};

/// A state has "enough news" for its own trends with this many stories begun in the
/// recent window; otherwise the country's are answered (`scope: "country"`).
pub const STATE_MIN_RECENT_STORIES: usize = 30;
pub const DEFAULT_TRENDS: usize = 10;
pub const MAX_TRENDS_ANSWERED: usize = 20;
pub const DEFAULT_STORIES: usize = 3;

#[derive(Debug, Serialize, ToSchema)]
pub struct TrendDoc {
    /// The phrase as most headlines write it ("Hurricane Milton").
    pub phrase: String,
    /// Folded (lower case, no accents): pass it as `key` to ask for this trend alone.
    pub key: String,
    /// Stories begun in the last 6 hours.
    pub recent: usize,
    /// Distinct publishers of those stories (at least 3).
    pub publishers: usize,
    /// Stories begun in each of the last 24 hours, oldest first (24 numbers).
    pub sparkline: Vec<u32>,
    /// Every story of the trend in the last 24 hours (one item each), newest first.
    #[schema(value_type = Vec<i64>)]
    pub news_ids: Vec<store::content::NewsId>,
    /// The first `stories` of them as cards.
    pub list: Vec<NewsItem>,
}

/// Whose trends were answered: the state's when it had enough news, else the country's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TrendScope {
    State,
    Country,
}

impl TrendScope {
    fn name(self) -> &'static str {
        match self {
            TrendScope::State => "state",
            TrendScope::Country => "country",
        }
    }

    /// Why a trend's cards are there (D385).
    fn reason(self) -> Reason {
        match self {
            TrendScope::State => Reason::TrendingInYourState,
            TrendScope::Country => Reason::Trending,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TrendsPage {
    /// "state" when the state had enough news for its own trends, else "country".
    pub scope: &'static str,
    /// When the trends were made (ms).
    pub made_at: i64,
    pub trends: Vec<TrendDoc>,
}

/// `GET /api/trends`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct TrendsParams {
    /// US or CA; US when absent.
    #[param(value_type = Option<String>)]
    pub country: Country,
    /// en, es or fr: trends of stories in this language; en when absent.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
    /// A state's or province's admin code (a city's `admin_code`): its own trends when it
    /// has enough news.
    pub state: Option<String>,
    /// Only the trend with this key.
    pub key: Option<String>,
    /// Trends answered: 1 to 20, default 10.
    #[param(value_type = Option<i64>)]
    pub size: usize,
    /// Cards per trend: 0 to 30, default 3.
    #[param(value_type = Option<i64>)]
    pub stories: usize,
}

fn bounded(params: &Params, name: &str, min: usize, max: usize, default: usize) -> Result<usize, ApiError> {
    match params.get(name).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| bad(name, &format!("must be a whole number from {min} to {max}."))),
    }
}

impl TrendsParams {
    pub fn parse(params: &Params) -> Result<TrendsParams, ApiError> {
        let country = params.country()?.unwrap_or(Country::Us);
        let lang = lang_filter(params)?.unwrap_or(Locale::DEFAULT);
        let state = match params.get("state").filter(|v| !v.is_empty()) {
            None => None,
            Some(v) if v.len() <= 8 && v.chars().all(|c| c.is_ascii_alphanumeric()) => Some(v.to_ascii_uppercase()),
            Some(_) => return Err(bad("state", "must be an admin code of letters and digits.")),
        };
        let key = params
            .get("key")
            .filter(|v| !v.is_empty())
            .map(|v| v.chars().take(200).collect());
        Ok(TrendsParams {
            country,
            lang,
            state,
            key,
            size: bounded(params, "size", 1, MAX_TRENDS_ANSWERED, DEFAULT_TRENDS)?,
            stories: bounded(params, "stories", 0, MAX_STORIES, DEFAULT_STORIES)?,
        })
    }
}

/// `GET /api/trends`'s data: the scope's trends as the reader's view leaves them (D302).
pub async fn trends(state: &AppState, p: &TrendsParams, now: i64, view: &ReaderView) -> Result<TrendsPage, ApiError> {
    let country_key = ScopeKey {
        filter_lang: p.lang.code().to_string(),
        country: p.country.iso().to_string(),
        state: String::new(),
    };
    let mut scope = TrendScope::Country;
    let mut made = None;
    if let Some(s) = &p.state {
        let key = ScopeKey {
            state: s.clone(),
            ..country_key.clone()
        };
        let m = state.trends.get(&state.store, &key, now).await?;
        if m.recent_stories >= STATE_MIN_RECENT_STORIES {
            scope = TrendScope::State;
            made = Some(m);
        }
    }
    let made = match made {
        Some(m) => m,
        None => state.trends.get(&state.store, &country_key, now).await?,
    };
    let hides = |id| made.rows.get(&id).is_none_or(|row| view.hides(row));
    let shown: Vec<Trend> = made
        .trends
        .iter()
        .filter(|t| p.key.as_ref().is_none_or(|k| *k == t.key))
        .filter_map(|t| {
            if view.hides_nothing() {
                Some(t.clone())
            } else {
                t.without(hides, made.made_ms)
            }
        })
        .take(p.size)
        .collect();
    let docs = shown
        .into_iter()
        .map(|t| {
            let rows = t
                .stories
                .iter()
                .take(p.stories)
                .filter_map(|id| made.rows.get(id).cloned())
                .collect();
            TrendDoc {
                list: items(rows, p.lang, now, view, scope.reason(), &state.image_proxy),
                phrase: t.phrase,
                key: t.key,
                recent: t.recent,
                publishers: t.publishers,
                sparkline: t.sparkline,
                news_ids: t.stories,
            }
        })
        .collect();
    Ok(TrendsPage {
        scope: scope.name(),
        made_at: made.made_ms,
        trends: docs,
    })
}

/// Makes the four product pairs' country trends in the background (D301), so the first
/// reader of each after a start is answered from kept trends instead of waiting for the
/// window's first read. A failure is logged; the first ask then tries again.
pub fn warm_up(state: &AppState) {
    for pair in domain::locale::CountryLanguage::PRODUCT_PAIRS {
        let state = state.clone();
        tokio::spawn(async move {
            let key = ScopeKey {
                filter_lang: pair.locale.code().to_string(),
                country: pair.country.iso().to_string(),
                state: String::new(),
            };
            if let Err(e) = state.trends.get(&state.store, &key, now_ms()).await {
                tracing::warn!(error = %e, scope = %pair.code(), "trends could not be made at start");
            }
        });
    }
}

/// Phrases trending in our own de-duplicated stories: more stories in the last 6 hours
/// than their own baseline of the 3 days before, from at least 3 publishers (D300). A
/// reader's blocked publishers and mutes never feed their trends (D302).
#[utoipa::path(get, path = "/api/trends", tag = "news", params(TrendsParams),
    responses((status = 200, description = "Envelope with `{scope, made_at, trends}`", body = TrendsPage),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 400, description = "A parameter is invalid; the message names it")))]
pub async fn trends_handler(
    State(state): State<AppState>,
    uri: Uri,
    headers: HeaderMap,
    query: RawQuery,
) -> Result<Response, ApiError> {
    let view = request_view(&state, &headers).await;
    kept(&state, &uri, &headers, &view, LIST_MAX_AGE, || async {
        trends(&state, &TrendsParams::parse(&Params::new(query)?)?, now_ms(), &view).await
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d385_trends_of_the_readers_state_say_trending_in_your_state() {
        assert_eq!(TrendScope::State.reason(), Reason::TrendingInYourState);
        assert_eq!(TrendScope::Country.reason(), Reason::Trending);
        assert_eq!(
            (TrendScope::State.name(), TrendScope::Country.name()),
            ("state", "country")
        );
    }
}
