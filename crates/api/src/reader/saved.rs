//! Saved stories (SPEC §4.6, §7.5, §7.8, §7.9): collect, unCollect, collectList.

use super::{AltNews, NewsRef, PageParams, alt_news, known_news, next_token, page, reader};
use crate::envelope::{ApiError, ok};
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct SavedState {
    /// Whether the story is in the reader's saved list now.
    pub saved: bool,
}

/// Save a story (§4.6 collect). Saving a saved story changes nothing.
#[utoipa::path(post, path = "/api/user/news/collect", tag = "reader", request_body = NewsRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{saved: true}`", body = SavedState),
        (status = 401, description = "Missing, unknown or expired token"),
        (status = 404, description = "No such story")))]
pub async fn collect(State(state): State<AppState>, call: Signed<NewsRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    known_news(&state, call.body.news_id).await?;
    state.store.save_news(user, call.body.news_id, now_ms()).await?;
    Ok(ok(SavedState { saved: true }))
}

/// Unsave a story (§4.6 unCollect). Unsaving a story that is not saved is fine.
#[utoipa::path(post, path = "/api/user/news/unCollect", tag = "reader", request_body = NewsRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{saved: false}`", body = SavedState),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn uncollect(State(state): State<AppState>, call: Signed<NewsRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    state.store.unsave_news(user, call.body.news_id).await?;
    Ok(ok(SavedState { saved: false }))
}

#[derive(Serialize, ToSchema)]
pub struct SavedList {
    /// Newest saved first, in the §3 alternative news shape; `create_time` is when saved.
    pub list: Vec<AltNews>,
    /// Give it back as `page_no` for the next page; `""` on the last page.
    pub next_page_no: String,
}

/// The reader's saved stories (§7.5).
#[utoipa::path(post, path = "/api/user/news/collectList", tag = "reader", request_body = PageParams,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, next_page_no}`", body = SavedList),
        (status = 400, description = "A page token this server did not give, or a size out of 1–100")))]
pub async fn collect_list(State(state): State<AppState>, call: Signed<PageParams>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let page = page(call.body.page_no.as_deref(), call.body.size)?;
    let saved = state.store.saved_news(user, page).await?;
    let entries: Vec<_> = saved.items.iter().map(|s| (s.news_id, s.saved_at_ms)).collect();
    Ok(ok(SavedList {
        list: alt_news(&state, &entries).await?,
        next_page_no: next_token(saved.next),
    }))
}
