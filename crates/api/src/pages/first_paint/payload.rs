//! The inlined calls' data as the first screen reads it: typed views of the read API's
//! answers (docs/api-reading.md "Shapes"; the API writes them from `news_json.rs` and
//! `news_api.rs`), with only the fields a first screen shows. Missing fields read as
//! empty, as the app's readers (`web/src/lib/news/api.ts`, `model.ts`) treat them.

use serde::Deserialize;
use std::collections::HashMap;
use store::content::{CityId, MediaId, NewsId};

/// A string field the app reads as "" when it is missing or null (`model.ts` `toText`).
fn null_as_empty<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(d)?.unwrap_or_default())
}

/// §9.5 news types.
pub const VIDEO: i64 = 3;
pub const AUDIO: i64 = 4;

/// SPEC §3 News item (`news_json::NewsItem`), the fields a screen shows.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Item {
    pub news_id: NewsId,
    #[serde(deserialize_with = "null_as_empty")]
    pub title: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub org_img_url: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub img_url: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub thumbnail_url: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub video_url: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub voice_url: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub content: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub content_type: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub description: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub summary: String,
    #[serde(rename = "type")]
    pub kind: i64,
    pub publish_time: i64,
    #[serde(deserialize_with = "null_as_empty")]
    pub link_url: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub author: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub category_id: String,
    pub tags: Vec<String>,
    pub area_list: Vec<Area>,
    pub media_id: MediaId,
    #[serde(deserialize_with = "null_as_empty")]
    pub media_name: String,
    #[serde(deserialize_with = "null_as_empty")]
    pub media_icon: String,
    pub cluster_size: i64,
}

impl Item {
    /// §3 main image: the original image, else `img_url` (web `mainImageOf`).
    pub fn main_image(&self) -> &str {
        [&self.org_img_url, &self.img_url]
            .into_iter()
            .find(|u| !u.is_empty())
            .map_or("", String::as_str)
    }

    /// §3 thumbnail: `thumbnail_url`, else the main image (web `thumbnailOf`).
    pub fn thumbnail(&self) -> &str {
        [&self.thumbnail_url, &self.org_img_url, &self.img_url]
            .into_iter()
            .find(|u| !u.is_empty())
            .map_or("", String::as_str)
    }

    /// The summary, else the description (web `item.summary || item.description`).
    pub fn summary_or_description(&self) -> &str {
        if self.summary.is_empty() {
            &self.description
        } else {
            &self.summary
        }
    }
}

/// SPEC §3 Area (`news_json::AreaDoc`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Area {
    pub id: AreaId,
    pub name: String,
    pub name_map: HashMap<String, String>,
}

/// A city's GeoNames id, or a state's code.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum AreaId {
    Number(CityId),
    Text(String),
}

impl Default for AreaId {
    fn default() -> AreaId {
        AreaId::Number(CityId(0))
    }
}

impl std::fmt::Display for AreaId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AreaId::Number(n) => write!(f, "{n}"),
            AreaId::Text(s) => f.write_str(s),
        }
    }
}

/// SPEC §3 Media source (`news_json::MediaDoc`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Media {
    pub media_id: MediaId,
    pub name: String,
    pub icon_url: String,
}

/// `GET /api/news/feed` (`news_api::FeedPage`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FeedPage {
    pub list: Vec<Item>,
    pub next_page_token: String,
    pub context: FeedContext,
}

/// A feed's `context` (`news_api::FeedContext`): how far a local feed was widened.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct FeedContext {
    pub scope: String,
    pub city: CityRef,
    pub area_name: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct CityRef {
    pub name: String,
    pub city_show: String,
}

/// `GET /api/news/detail` (`news_api::NewsDetail`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Detail {
    pub news: Item,
    pub media: Media,
    pub cluster: Vec<Item>,
}

/// `GET /api/search/news` (`news_api::SearchNewsPage`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct SearchPage {
    pub list: Vec<Item>,
    pub next_page_token: String,
    pub terms: Vec<String>,
}

/// `GET /api/news/categories` (`news_api::CategoryList`).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Categories {
    pub list: Vec<Category>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct Category {
    pub id: String,
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn items_read_what_the_api_writes_and_derive_their_images() {
        let item: Item = serde_json::from_value(json!({
            "news_id": 3, "title": "T", "type": 3, "org_img_url": "", "img_url": "/i.jpg",
            "area_list": [{ "id": 6094817, "name": "Ottawa", "name_map": { "fr": "Ottawa" } }, { "id": "ON" }],
            "unknown_field": true,
        }))
        .unwrap();
        assert_eq!(
            (item.news_id, item.kind, item.main_image(), item.thumbnail()),
            (NewsId(3), VIDEO, "/i.jpg", "/i.jpg")
        );
        assert_eq!(item.area_list[0].id.to_string(), "6094817");
        assert_eq!(item.area_list[1].id.to_string(), "ON");
        assert_eq!(item.summary_or_description(), "");
    }
}
