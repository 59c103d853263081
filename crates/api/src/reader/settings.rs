//! The reader's settings (issue 18, SPEC §1.5, §2 /setting/*): followed topics (tags and
//! categories), the home page's channel tabs and their order, and mutes (a keyword, tag or
//! author) with a preview of how many of today's stories a mute would hide.

use super::{reader, refused};
use crate::envelope::{ApiError, ok};
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::user::Empty;
use axum::extract::State;
use axum::response::Response;
use ingest::categorize::CATEGORIES;
use serde::{Deserialize, Serialize};
use store::content::{ListFilter, Listing, NewsRow};
use store::reader_view::MuteRule;
use store::things::{MuteKind, TopicKind, clean_text};
use utoipa::ToSchema;

fn topic_kind(name: &str) -> Result<TopicKind, ApiError> {
    TopicKind::parse(name).ok_or_else(|| ApiError::BadRequest("Field `kind`: must be tag or category.".into()))
}

fn mute_kind(name: &str) -> Result<MuteKind, ApiError> {
    MuteKind::parse(name).ok_or_else(|| ApiError::BadRequest("Field `kind`: must be keyword, tag or author.".into()))
}

#[derive(Deserialize, ToSchema)]
pub struct TopicRequest {
    /// tag or category.
    pub kind: String,
    /// The tag's text, or one of the 13 category ids.
    pub value: String,
}

#[derive(Serialize, ToSchema)]
pub struct TopicDoc {
    pub kind: String,
    pub value: String,
    /// Milliseconds since 1970.
    pub followed_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct TopicList {
    pub list: Vec<TopicDoc>,
}

async fn topics(state: &AppState, user: store::UserId) -> Result<TopicList, ApiError> {
    let list = state
        .store
        .followed_topics(user)
        .await?
        .into_iter()
        .map(|t| TopicDoc {
            kind: t.kind.as_str().to_string(),
            value: t.value,
            followed_at: t.followed_at_ms,
        })
        .collect();
    Ok(TopicList { list })
}

/// Follow a tag or a category; answers the reader's topics.
#[utoipa::path(post, path = "/api/user/topics/follow", tag = "reader", request_body = TopicRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of followed topics", body = TopicList),
        (status = 400, description = "An unknown kind or category, an empty or too long tag, or past the limit")))]
pub async fn follow_topic(State(state): State<AppState>, call: Signed<TopicRequest>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let kind = topic_kind(&call.body.kind)?;
    if kind == TopicKind::Category && !CATEGORIES.iter().any(|(id, _)| *id == call.body.value.trim()) {
        return Err(ApiError::BadRequest(
            "Field `value`: not one of the 13 category ids.".into(),
        ));
    }
    refused(state.store.follow_topic(user, kind, &call.body.value, now_ms()).await?)?;
    Ok(ok(topics(&state, user).await?))
}

/// Stop following a tag or a category; answers the reader's topics.
#[utoipa::path(post, path = "/api/user/topics/unfollow", tag = "reader", request_body = TopicRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of followed topics", body = TopicList)))]
pub async fn unfollow_topic(State(state): State<AppState>, call: Signed<TopicRequest>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let kind = topic_kind(&call.body.kind)?;
    state.store.unfollow_topic(user, kind, &call.body.value).await?;
    Ok(ok(topics(&state, user).await?))
}

/// The reader's followed topics.
#[utoipa::path(post, path = "/api/user/topics/list", tag = "reader", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of followed topics", body = TopicList)))]
pub async fn topic_list(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    Ok(ok(topics(&state, user).await?))
}

/// The channels home can show as tabs: local, latest, top and the 13 categories.
pub fn known_channel(id: &str) -> bool {
    matches!(id, "local" | "latest" | "top") || CATEGORIES.iter().any(|(c, _)| *c == id)
}

#[derive(Deserialize, Serialize, ToSchema)]
pub struct Channels {
    /// Channel ids in the order home shows them (an empty list: the default tabs).
    pub channels: Vec<String>,
}

/// Set which channel tabs home shows and in what order.
#[utoipa::path(post, path = "/api/user/channels/set", tag = "reader", request_body = Channels,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the stored `{channels}`", body = Channels),
        (status = 400, description = "An unknown or repeated channel, or more than 30")))]
pub async fn set_channels(State(state): State<AppState>, call: Signed<Channels>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    if let Some(bad) = call.body.channels.iter().find(|c| !known_channel(c.trim())) {
        return Err(ApiError::BadRequest(format!(
            "Field `channels`: '{}' is not a channel (local, latest, top or a category id).",
            bad.chars().take(40).collect::<String>()
        )));
    }
    refused(state.store.set_home_channels(user, &call.body.channels).await?)?;
    let channels = state.store.home_channels(user).await?;
    Ok(ok(Channels { channels }))
}

/// The reader's channel tabs, in order (empty: the default tabs).
#[utoipa::path(post, path = "/api/user/channels/list", tag = "reader", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{channels}`", body = Channels)))]
pub async fn channel_list(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let channels = state.store.home_channels(user).await?;
    Ok(ok(Channels { channels }))
}

#[derive(Deserialize, ToSchema)]
pub struct MuteRequest {
    /// keyword, tag or author.
    pub kind: String,
    pub value: String,
}

#[derive(Serialize, ToSchema)]
pub struct MuteDoc {
    pub kind: String,
    pub value: String,
    /// Milliseconds since 1970.
    pub muted_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct MuteList {
    pub list: Vec<MuteDoc>,
}

async fn mutes(state: &AppState, user: store::UserId) -> Result<MuteList, ApiError> {
    let list = state
        .store
        .mutes(user)
        .await?
        .into_iter()
        .map(|m| MuteDoc {
            kind: m.kind.as_str().to_string(),
            value: m.value,
            muted_at: m.muted_at_ms,
        })
        .collect();
    Ok(MuteList { list })
}

/// Mute a keyword, tag or author; answers the reader's mutes.
#[utoipa::path(post, path = "/api/user/mutes/add", tag = "reader", request_body = MuteRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of mutes", body = MuteList),
        (status = 400, description = "An unknown kind, an empty or too long value, or past the limit of 1 000")))]
pub async fn add_mute(State(state): State<AppState>, call: Signed<MuteRequest>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let kind = mute_kind(&call.body.kind)?;
    refused(state.store.add_mute(user, kind, &call.body.value, now_ms()).await?)?;
    state.reader_views.forget(user);
    Ok(ok(mutes(&state, user).await?))
}

/// Take a mute back; answers the reader's mutes.
#[utoipa::path(post, path = "/api/user/mutes/remove", tag = "reader", request_body = MuteRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of mutes", body = MuteList)))]
pub async fn remove_mute(State(state): State<AppState>, call: Signed<MuteRequest>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let kind = mute_kind(&call.body.kind)?;
    state.store.remove_mute(user, kind, &call.body.value).await?;
    state.reader_views.forget(user);
    Ok(ok(mutes(&state, user).await?))
}

/// The reader's mutes.
#[utoipa::path(post, path = "/api/user/mutes/list", tag = "reader", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of mutes", body = MuteList)))]
pub async fn mute_list(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    Ok(ok(mutes(&state, user).await?))
}

/// How many of the last day's newest stories the preview looks at.
pub const PREVIEW_STORIES: i64 = 500;
const DAY_MS: i64 = 24 * 3600 * 1000;

#[derive(Serialize, ToSchema)]
pub struct MutePreview {
    /// Stories of the last 24 hours (among the newest 500) this mute would hide.
    pub hidden_today: u64,
    /// How many stories were looked at.
    pub looked_at: u64,
}

/// Before saving a mute: how many of today's stories it would hide.
#[utoipa::path(post, path = "/api/user/mutes/preview", tag = "reader", request_body = MuteRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{hidden_today, looked_at}`", body = MutePreview),
        (status = 400, description = "An unknown kind, or an empty or too long value")))]
pub async fn preview_mute(State(state): State<AppState>, call: Signed<MuteRequest>) -> Result<Response, ApiError> {
    reader(&state, call.token.as_deref()).await?;
    let kind = mute_kind(&call.body.kind)?;
    let value = clean_text(&call.body.value)
        .map_err(|_| ApiError::BadRequest("Field `value`: give 1 to 100 characters.".into()))?;
    let since = now_ms() - DAY_MS;
    let rows = state
        .store
        .list_news(&Listing::Latest, &ListFilter::default(), None, PREVIEW_STORIES)
        .await?;
    let today: Vec<&NewsRow> = rows.iter().filter(|r| r.publish_time_ms >= since).collect();
    let rule = MuteRule::new(kind, value);
    let hidden = today.iter().filter(|r| rule.hides(r)).count();
    Ok(ok(MutePreview {
        hidden_today: hidden as u64,
        looked_at: today.len() as u64,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_channels_are_local_latest_top_and_the_categories() {
        for id in ["local", "latest", "top", "sports", "opinion"] {
            assert!(known_channel(id), "{id}");
        }
        assert!(!known_channel("casino") && !known_channel(""));
    }
}
