//! Public read answers through the read cache (D140), shared by the read calls' handlers.

use crate::envelope::ApiError;
use crate::state::{AppState, now_ms};
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use serde::Serialize;
use std::future::Future;

/// Cache lifetimes (seconds) of lists and of details.
pub const LIST_MAX_AGE: u32 = 30;
pub const DETAIL_MAX_AGE: u32 = 60;

pub(super) type RawQuery = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// A public read answer, through the read cache (D140): the request's path and query
/// are the key.
pub(super) async fn kept<T, Fut>(
    state: &AppState,
    uri: &Uri,
    headers: &HeaderMap,
    max_age: u32,
    make: impl FnOnce() -> Fut,
) -> Result<Response, ApiError>
where
    T: Serialize,
    Fut: Future<Output = Result<T, ApiError>>,
{
    let key = uri.path_and_query().map_or(uri.path(), |pq| pq.as_str());
    let generation = state.store.content_generation();
    let (res, lookup) = state
        .read_cache
        .answer(key, generation, now_ms(), headers, max_age, make)
        .await?;
    state.metrics.read_cache(lookup);
    Ok(res)
}
