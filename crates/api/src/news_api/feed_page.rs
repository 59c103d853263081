//! The answer of `GET /api/news/feed`: a page of cards and what the list is about.

use crate::geo_api::CityDoc;
use crate::news_json::{MediaDoc, NewsItem};
use geo::CityId;
use serde::Serialize;
use utoipa::ToSchema;

/// A page of news items and what the list is about.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeedPage {
    pub list: Vec<NewsItem>,
    /// `""` on the last page.
    pub next_page_token: String,
    /// local: scope, city, area_name; location: area; media: media; special: special;
    /// others: `{}`.
    pub context: FeedContext,
}

#[derive(Debug, Default, Serialize, ToSchema)]
pub struct FeedContext {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub scope: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub city: Option<CityDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub area_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub area: Option<AreaRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub media: Option<MediaDoc>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub special: Option<SpecialDoc>,
}

/// The place of a `location` feed.
#[derive(Debug, Serialize, ToSchema)]
pub struct AreaRef {
    pub id: AreaId,
    pub name: String,
    /// city or state.
    pub kind: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(untagged)]
pub enum AreaId {
    #[schema(value_type = i64)]
    City(CityId),
    State(String),
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SpecialDoc {
    pub slug: String,
    pub title: String,
    pub description: String,
}
