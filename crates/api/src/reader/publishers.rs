//! Followed and blocked publishers (SPEC §3 follow_status and Blocked media, §4.7, §7.10).

use super::{MediaRef, PageParams, known_media, next_token, page, reader, refused};
use crate::envelope::{ApiError, ok};
use crate::news_json::MediaDoc;
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::user::Empty;
use axum::extract::State;
use axum::response::Response;
use domain::ids::MediaId;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct FollowState {
    /// §3 follow_status: 1 followed, 0 not.
    pub follow_status: i32,
}

/// Follow a publisher (§4.7). Following twice is once.
#[utoipa::path(post, path = "/api/user/media/follow", tag = "reader", request_body = MediaRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{follow_status: 1}`", body = FollowState),
        (status = 400, description = "Past the limit of followed publishers"),
        (status = 404, description = "No such publisher")))]
pub async fn follow(State(state): State<AppState>, call: Signed<MediaRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    known_media(&state, call.body.media_id).await?;
    refused(state.store.follow_media(user, call.body.media_id, now_ms()).await?)?;
    state.reader_views.forget(user);
    Ok(ok(FollowState { follow_status: 1 }))
}

/// Stop following a publisher.
#[utoipa::path(post, path = "/api/user/media/unfollow", tag = "reader", request_body = MediaRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{follow_status: 0}`", body = FollowState)))]
pub async fn unfollow(State(state): State<AppState>, call: Signed<MediaRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    state.store.unfollow_media(user, call.body.media_id).await?;
    state.reader_views.forget(user);
    Ok(ok(FollowState { follow_status: 0 }))
}

#[derive(Serialize, ToSchema)]
pub struct FollowedDoc {
    #[serde(flatten)]
    pub media: MediaDoc,
    /// When the reader followed it: milliseconds since 1970.
    pub followed_at: i64,
}

#[derive(Serialize, ToSchema)]
pub struct FollowList {
    pub list: Vec<FollowedDoc>,
}

/// The publishers the reader follows, newest first.
#[utoipa::path(post, path = "/api/user/media/followList", tag = "reader", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}`", body = FollowList)))]
pub async fn follow_list(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let mut list = Vec::new();
    for f in state.store.followed_media(user).await? {
        if let Some(m) = state.store.media(f.media_id).await? {
            let mut media = MediaDoc::new(m, &state.image_proxy);
            media.follow_status = 1;
            list.push(FollowedDoc {
                media,
                followed_at: f.followed_at_ms,
            });
        }
    }
    Ok(ok(FollowList { list }))
}

#[derive(Serialize, ToSchema)]
pub struct BlockState {
    pub blocked: bool,
}

/// Block a publisher: its stories are hidden from the reader.
#[utoipa::path(post, path = "/api/user/media/block", tag = "reader", request_body = MediaRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{blocked: true}`", body = BlockState),
        (status = 400, description = "Past the limit of blocked publishers"),
        (status = 404, description = "No such publisher")))]
pub async fn block(State(state): State<AppState>, call: Signed<MediaRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    known_media(&state, call.body.media_id).await?;
    refused(state.store.block_media(user, call.body.media_id, now_ms()).await?)?;
    state.reader_views.forget(user);
    Ok(ok(BlockState { blocked: true }))
}

/// Unblock a publisher.
#[utoipa::path(post, path = "/api/user/media/unblock", tag = "reader", request_body = MediaRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{blocked: false}`", body = BlockState)))]
pub async fn unblock(State(state): State<AppState>, call: Signed<MediaRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    state.store.unblock_media(user, call.body.media_id).await?;
    state.reader_views.forget(user);
    Ok(ok(BlockState { blocked: false }))
}

/// SPEC §3 Blocked media.
#[derive(Serialize, ToSchema)]
pub struct BlockedDoc {
    #[schema(value_type = i64)]
    pub media_id: MediaId,
    pub media_name: String,
    pub icon_url: String,
    pub home_url: String,
    /// When blocked: milliseconds since 1970.
    pub update_time: i64,
}

#[derive(Serialize, ToSchema)]
pub struct BlockList {
    pub list: Vec<BlockedDoc>,
    /// Give it back as `page_no` for the next page; `""` on the last page (§7.10).
    pub token: String,
}

/// The reader's blocked publishers, newest first (§7.10).
#[utoipa::path(post, path = "/api/user/media/blockList", tag = "reader", request_body = PageParams,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, token}`", body = BlockList)))]
pub async fn block_list(State(state): State<AppState>, call: Signed<PageParams>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let page = page(call.body.page_no.as_deref(), call.body.size)?;
    let blocked = state.store.blocked_media(user, page).await?;
    let mut list = Vec::with_capacity(blocked.items.len());
    for b in &blocked.items {
        if let Some(m) = state.store.media(b.media_id).await? {
            list.push(BlockedDoc {
                media_id: m.media_id,
                media_name: m.name,
                icon_url: state.image_proxy.url(&m.icon_url),
                home_url: m.home_url,
                update_time: b.blocked_at_ms,
            });
        }
    }
    Ok(ok(BlockList {
        list,
        token: next_token(blocked.next),
    }))
}
