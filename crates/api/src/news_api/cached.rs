//! Public read answers through the read cache (D140), shared by the read calls' handlers.

use crate::envelope::ApiError;
use crate::read_cache::CacheControl;
use crate::state::{AppState, now_ms};
use crate::viewer::view_for;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use serde::Serialize;
use std::future::Future;
use std::sync::Arc;
use store::reader_view::ReaderView;

/// Cache lifetimes (seconds) of lists and of details.
pub const LIST_MAX_AGE: u32 = 30;
pub const DETAIL_MAX_AGE: u32 = 60;

pub(super) type RawQuery = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The view of the reader whose `token` header came with a read call (D270).
pub(super) async fn request_view(state: &AppState, headers: &HeaderMap) -> Arc<ReaderView> {
    let token = headers.get("token").and_then(|v| v.to_str().ok());
    view_for(state, token, now_ms()).await
}

/// A public read answer for a reader's view, through the read cache (D140): the request's
/// path and query are the key, with the view's fingerprint when it has one (D270).
pub(super) async fn kept<T, Fut>(
    state: &AppState,
    uri: &Uri,
    headers: &HeaderMap,
    view: &ReaderView,
    max_age: u32,
    make: impl FnOnce() -> Fut,
) -> Result<Response, ApiError>
where
    T: Serialize,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let path_and_query = uri.path_and_query().map_or(uri.path(), |pq| pq.as_str());
    let key = match view.fingerprint() {
        "" => path_and_query.to_string(),
        fingerprint => format!("{path_and_query}\n{fingerprint}"),
    };
    // A reader's answer may change with their next block or mute: their browser asks
    // again each time (a 304 when nothing changed), and no shared cache keeps it.
    let cache_control = if headers.contains_key("token") {
        CacheControl::Private
    } else {
        CacheControl::Public { max_age }
    };
    let generation = state.store.content_generation();
    let (res, lookup) = state
        .read_cache
        .answer(&key, generation, now_ms(), headers, cache_control, make)
        .await?;
    state.metrics.read_cache(lookup);
    Ok(res)
}
