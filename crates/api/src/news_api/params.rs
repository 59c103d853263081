//! The read calls' query parameters: what every list shares (filters, page size and
//! token) and the checks each parameter gets, so a mistake is a 400 naming it.

use crate::envelope::ApiError;
use crate::geo_api::{Params, bad};
use crate::news_json::PageToken;
use domain::geo::Country;
use domain::locale::Locale;
use domain::text::search_words;
use ingest::categorize::CATEGORIES;
use std::collections::HashSet;
use store::content::{After, ListFilter};

/// Items per page unless `size` says otherwise (1 to [`MAX_SIZE`]).
pub const DEFAULT_SIZE: usize = 20;
pub const MAX_SIZE: usize = 50;
/// Search query length bounds, after trimming.
pub const QUERY_MAX_CHARS: usize = 200;

/// What every list call shares: filters, page size and token.
#[derive(Debug, Clone, Copy)]
pub(super) struct Common {
    /// The `lang` filter, when given.
    pub(super) lang: Option<Locale>,
    pub(super) country: Option<Country>,
    pub(super) size: usize,
    pub(super) token: Option<PageToken>,
}

impl Common {
    /// `lang`, `country`, `size` and `page_token`, checked in that order.
    pub(super) fn parse(params: &Params) -> Result<Common, ApiError> {
        Ok(Common {
            lang: lang_filter(params)?,
            country: params.country()?,
            size: page_size(params)?,
            token: page_token(params)?,
        })
    }

    pub(super) fn filter(&self) -> ListFilter {
        ListFilter {
            lang: self.lang.map(|l| l.code().to_string()),
            country: self.country.map(|c| c.iso().to_string()),
        }
    }

    /// The language place names are given in.
    pub(super) fn names(&self) -> Locale {
        self.lang.unwrap_or(Locale::DEFAULT)
    }

    /// The offset of a ranked list's token (a keyset token is someone else's).
    pub(super) fn offset(&self) -> Result<i64, ApiError> {
        match self.token {
            None => Ok(0),
            Some(PageToken::Offset(n)) => Ok(n),
            Some(PageToken::Keyset { .. }) => Err(bad_token()),
        }
    }

    /// The position of a newest-first list's token with the scope letters it accepts.
    pub(super) fn after(&self, scopes: &[char]) -> Result<Option<(char, After)>, ApiError> {
        match self.token {
            None => Ok(None),
            Some(PageToken::Keyset { scope, after }) if scopes.contains(&scope) => Ok(Some((scope, after))),
            Some(_) => Err(bad_token()),
        }
    }
}

/// `lang` as a filter: en, es or fr (any case) when given.
pub(super) fn lang_filter(params: &Params) -> Result<Option<Locale>, ApiError> {
    match params.get("lang").filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => Locale::from_code(&v.to_ascii_lowercase())
            .map(Some)
            .ok_or_else(|| bad("lang", "must be one of en, es, fr.")),
    }
}

/// `size`: 1 to [`MAX_SIZE`], [`DEFAULT_SIZE`] when absent.
pub(super) fn page_size(params: &Params) -> Result<usize, ApiError> {
    match params.get("size").filter(|v| !v.is_empty()) {
        None => Ok(DEFAULT_SIZE),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_SIZE).contains(n))
            .ok_or_else(|| bad("size", &format!("must be a whole number from 1 to {MAX_SIZE}."))),
    }
}

/// `page_token`: a token from a previous page, when given.
pub(super) fn page_token(params: &Params) -> Result<Option<PageToken>, ApiError> {
    match params.get("page_token").filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(raw) => PageToken::decode(raw).map(Some),
    }
}

/// A whole number parameter when given (not empty).
pub(super) fn optional_whole_number(params: &Params, name: &str) -> Result<Option<i64>, ApiError> {
    match params.get(name).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(_) => whole_number(params, name).map(Some),
    }
}

/// A parameter its channel needs.
pub(super) fn present<T>(value: Option<T>, name: &str) -> Result<T, ApiError> {
    value.ok_or_else(|| bad(name, "is required."))
}

pub(super) fn bad_token() -> ApiError {
    bad("page_token", "is not a token from a previous page of this list.")
}

pub(super) fn whole_number(params: &Params, name: &str) -> Result<i64, ApiError> {
    params
        .required(name)?
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| bad(name, "must be a whole number."))
}

pub(super) fn category_param(params: &Params, name: &str) -> Result<Option<&'static str>, ApiError> {
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
pub(super) fn query_param(params: &Params) -> Result<String, ApiError> {
    let q = params.required("q")?;
    if q.chars().count() > QUERY_MAX_CHARS {
        return Err(bad("q", &format!("must be 1 to {QUERY_MAX_CHARS} characters.")));
    }
    Ok(q.to_string())
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
