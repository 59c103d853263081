//! `GET /api/news/categories`: the 13 categories, named in the reader's language.

use super::cached::{LIST_MAX_AGE, RawQuery};
use crate::envelope::{ApiError, ok_cached};
use crate::geo_api::Params;
use axum::http::{HeaderMap, header};
use axum::response::Response;
use domain::locale::Locale;
use ingest::categorize::CATEGORIES;
use serde::Serialize;
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryDoc {
    pub id: &'static str,
    pub name: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CategoryList {
    pub list: Vec<CategoryDoc>,
}

/// `GET /api/news/categories`'s parameters, as parsed and as documented (D228).
#[derive(Debug, Clone, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CategoriesParams {
    /// en (default), es or fr.
    #[param(value_type = Option<String>)]
    pub lang: Locale,
}

impl CategoriesParams {
    pub fn parse(params: &Params) -> Result<CategoriesParams, ApiError> {
        Ok(CategoriesParams { lang: params.lang()? })
    }
}

/// `GET /api/news/categories`'s data.
pub fn categories(p: &CategoriesParams) -> CategoryList {
    let lang = p.lang;
    let i = Locale::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    CategoryList {
        list: CATEGORIES
            .iter()
            .map(|(id, names)| CategoryDoc { id, name: names[i] })
            .collect(),
    }
}

/// The display name of a category in a language (for page titles).
pub fn category_name(id: &str, lang: Locale) -> Option<&'static str> {
    let i = Locale::ALL.iter().position(|l| *l == lang).unwrap_or(0);
    CATEGORIES.iter().find(|(c, _)| *c == id).map(|(_, names)| names[i])
}

/// The 13 categories in display order, named in the reader's language.
#[utoipa::path(get, path = "/api/news/categories", tag = "news", params(CategoriesParams),
    responses((status = 200, description = "Envelope with `{list}`", body = CategoryList),
        (status = 400, description = "A parameter is invalid; the message names it")))]
pub async fn categories_handler(headers: HeaderMap, query: RawQuery) -> Result<Response, ApiError> {
    let params = CategoriesParams::parse(&Params::new(query)?)?;
    Ok(ok_cached(
        categories(&params),
        headers.get(header::IF_NONE_MATCH),
        LIST_MAX_AGE,
    ))
}
