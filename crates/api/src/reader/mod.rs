//! The reader's own things (issue 18, SPEC §4.6, §4.7, §7.5, §7.7–7.10): saved stories,
//! reading history, reactions, followed and blocked publishers. Every call works for a
//! guest too (their things follow them when they sign in, D250); they are signed POSTs
//! carrying the reader's token, and thin: validate, call the store, shape the answer.
//!
//! Lists answer the SPEC §3 alternative news shape (`id, news_id, news_title,
//! news_content, news_img_url, create_time, media`): it is the shape that has a time of
//! the reader's own (`create_time`: when saved, read or reacted), where a feed's item has
//! only its publish time (D261).

pub mod follows_opml;
pub mod history;
pub mod publishers;
pub mod reactions;
pub mod saved;
pub mod settings;

use crate::envelope::ApiError;
use crate::news_json::MediaDoc;
pub use crate::session::reader;
use crate::state::AppState;
use domain::ids::{MediaId, NewsId};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use store::content::{ListFilter, Listing};
use store::things::{Cursor, MAX_PAGE, Outcome, Page, Refusal};
use utoipa::ToSchema;

/// `{news_id}`: the payload of the calls about one story.
#[derive(Deserialize, ToSchema)]
pub struct NewsRef {
    #[schema(value_type = i64)]
    pub news_id: NewsId,
}

/// `{media_id}`: the payload of the calls about one publisher.
#[derive(Deserialize, ToSchema)]
pub struct MediaRef {
    #[schema(value_type = i64)]
    pub media_id: MediaId,
}

/// Paging for the reader's lists: the previous answer's token, and a size (default 20).
#[derive(Deserialize, ToSchema, Default)]
pub struct PageParams {
    /// The previous answer's `next_page_no` / `next_max_id` / `token`; absent for the first page.
    #[serde(default)]
    pub page_no: Option<String>,
    /// 1 to 100; default 20.
    #[serde(default)]
    pub size: Option<u32>,
}

pub const DEFAULT_PAGE: u32 = 20;

/// A page from the call's paging fields; a token that is not ours is a 400.
pub fn page(token: Option<&str>, size: Option<u32>) -> Result<Page, ApiError> {
    let size = size.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&size) {
        return Err(ApiError::BadRequest(format!("Field `size`: must be 1 to {MAX_PAGE}.")));
    }
    let before = match token.map(str::trim).filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => Some(Cursor::parse_token(t).ok_or_else(|| {
            ApiError::BadRequest("The page token is not one this server gave; start from the first page.".into())
        })?),
    };
    Ok(Page { limit: size, before })
}

pub fn next_token(next: Option<Cursor>) -> String {
    next.map(Cursor::token).unwrap_or_default()
}

/// A store refusal as the message a person can act on.
pub fn refused(outcome: Outcome) -> Result<bool, ApiError> {
    match outcome {
        Outcome::Refused(Refusal::TooMany { limit }) => Err(ApiError::BadRequest(format!(
            "You have reached the limit of {limit}; remove some first."
        ))),
        Outcome::Refused(Refusal::TooLong { max_chars }) => Err(ApiError::BadRequest(format!(
            "Too long: at most {max_chars} characters."
        ))),
        Outcome::Refused(Refusal::Empty) => Err(ApiError::BadRequest("Empty: give a value.".into())),
        Outcome::Refused(Refusal::Duplicate) => Err(ApiError::BadRequest("The same value twice.".into())),
        other => Ok(other.changed()),
    }
}

/// 404 unless the story exists. Read as a list row (no content): `news` would load the
/// whole article to answer yes or no. Stories found are remembered ([`crate::known_news::KnownNews`]).
pub async fn known_news(state: &AppState, id: NewsId) -> Result<(), ApiError> {
    if id.0 <= 0 {
        return Err(ApiError::NotFound);
    }
    if state.known_news.contains(id) {
        return Ok(());
    }
    let found = state
        .store
        .list_news(&Listing::Ids(vec![id]), &ListFilter::default(), None, 1)
        .await?;
    if found.is_empty() {
        return Err(ApiError::NotFound);
    }
    state.known_news.insert(id);
    Ok(())
}

/// 404 unless the publisher exists.
pub async fn known_media(state: &AppState, id: MediaId) -> Result<store::content::MediaSource, ApiError> {
    if id.0 <= 0 {
        return Err(ApiError::NotFound);
    }
    state.store.media(id).await?.ok_or(ApiError::NotFound)
}

/// SPEC §3 the alternative news shape.
#[derive(Serialize, ToSchema, Clone)]
pub struct AltNews {
    /// The same as `news_id`.
    #[schema(value_type = i64)]
    pub id: NewsId,
    #[schema(value_type = i64)]
    pub news_id: NewsId,
    pub news_title: String,
    /// The summary (at most 300 characters).
    pub news_content: String,
    /// The thumbnail (SPEC §3: thumbnail, else original image, else image).
    pub news_img_url: String,
    /// When the reader saved, read or reacted: milliseconds since 1970.
    pub create_time: i64,
    /// Extension: the story's own publish time.
    pub publish_time: i64,
    /// Extension: 3 video, 4 audio, else an article.
    #[serde(rename = "type")]
    pub news_type: i32,
    pub media: MediaDoc,
}

/// The stories of `entries` (id, the reader's time), in that order, in the alternative
/// shape; stories removed since are left out.
pub async fn alt_news(state: &AppState, entries: &[(NewsId, i64)]) -> Result<Vec<AltNews>, ApiError> {
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let ids: Vec<NewsId> = entries.iter().map(|(id, _)| *id).collect();
    let rows = state
        .store
        .list_news(
            &Listing::Ids(ids.clone()),
            &ListFilter::default(),
            None,
            ids.len() as i64,
        )
        .await?;
    let mut by_id: HashMap<NewsId, store::content::NewsRow> = rows.into_iter().map(|r| (r.news_id, r)).collect();
    let mut media_cache: HashMap<MediaId, MediaDoc> = HashMap::new();
    let mut out = Vec::with_capacity(entries.len());
    for (id, at) in entries {
        let Some(row) = by_id.remove(id) else { continue };
        let media = match media_cache.get(&row.media_id) {
            Some(m) => m.clone(),
            None => {
                let doc = match state.store.media(row.media_id).await? {
                    Some(m) => MediaDoc::new(m, &state.image_proxy),
                    None => continue,
                };
                media_cache.insert(row.media_id, doc.clone());
                doc
            }
        };
        let image = [&row.thumbnail_url, &row.org_img_url, &row.img_url]
            .into_iter()
            .find(|u| !u.is_empty())
            .cloned()
            .unwrap_or_default();
        out.push(AltNews {
            id: row.news_id,
            news_id: row.news_id,
            news_title: row.title,
            news_content: row.summary,
            news_img_url: state.image_proxy.url(&image),
            create_time: *at,
            publish_time: row.publish_time_ms,
            news_type: row.news_type,
            media,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paging_fields_are_checked() {
        assert_eq!(page(None, None).unwrap().limit, DEFAULT_PAGE);
        assert!(page(None, Some(0)).is_err());
        assert!(page(None, Some(101)).is_err());
        assert!(page(Some("junk"), None).is_err());
        let token = Cursor { at_ms: 5, id: 9 }.token();
        assert_eq!(
            page(Some(&token), Some(3)).unwrap().before,
            Some(Cursor { at_ms: 5, id: 9 })
        );
        assert_eq!(next_token(None), "");
    }
}
