//! Reading history (issue 18): opening a story records it once per story per day; the
//! reader lists it on /user/read, removes one or clears it.

use super::{AltNews, NewsRef, PageParams, alt_news, known_news, next_token, page, reader};
use crate::envelope::{ApiError, ok};
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::user::Empty;
use axum::extract::State;
use axum::response::Response;
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct Recorded {
    /// False when the story was already in today's history.
    pub recorded: bool,
}

/// Record that the reader opened a story (once per story per UTC day).
#[utoipa::path(post, path = "/api/user/news/read", tag = "reader", request_body = NewsRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{recorded}`", body = Recorded),
        (status = 404, description = "No such story")))]
pub async fn read(State(state): State<AppState>, call: Signed<NewsRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    known_news(&state, call.body.news_id).await?;
    let recorded = state.store.record_read(user, call.body.news_id, now_ms()).await?;
    Ok(ok(Recorded { recorded }))
}

#[derive(Serialize, ToSchema)]
pub struct HistoryList {
    /// Newest read first, in the §3 alternative news shape; `create_time` is when read.
    pub list: Vec<AltNews>,
    pub next_page_no: String,
}

/// The reader's history, newest first.
#[utoipa::path(post, path = "/api/user/news/readList", tag = "reader", request_body = PageParams,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, next_page_no}`", body = HistoryList)))]
pub async fn read_list(State(state): State<AppState>, call: Signed<PageParams>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let page = page(call.body.page_no.as_deref(), call.body.size)?;
    let history = state.store.read_history(user, page).await?;
    let entries: Vec<_> = history.items.iter().map(|r| (r.news_id, r.read_at_ms)).collect();
    Ok(ok(HistoryList {
        list: alt_news(&state, &entries).await?,
        next_page_no: next_token(history.next),
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Removed {
    pub removed: u64,
}

/// Remove one story from the history (every day it was read).
#[utoipa::path(post, path = "/api/user/news/readRemove", tag = "reader", request_body = NewsRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{removed}` (0 or 1)", body = Removed)))]
pub async fn read_remove(State(state): State<AppState>, call: Signed<NewsRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let removed = u64::from(state.store.remove_read(user, call.body.news_id).await?);
    Ok(ok(Removed { removed }))
}

/// Clear the whole history.
#[utoipa::path(post, path = "/api/user/news/readClear", tag = "reader", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with how many entries went", body = Removed)))]
pub async fn read_clear(State(state): State<AppState>, call: Signed<Empty>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let removed = state.store.clear_history(user).await?;
    Ok(ok(Removed { removed }))
}
