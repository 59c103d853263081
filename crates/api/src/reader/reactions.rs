//! Reactions (issue 18, SPEC §7.7): one per reader per story from a fixed set
//! (`domain::reactions`), counts per story, the reader's list.

use super::{AltNews, NewsRef, PageParams, alt_news, known_news, next_token, page, reader};
use crate::envelope::{ApiError, ok};
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use axum::extract::State;
use axum::response::Response;
use domain::ids::NewsId;
use domain::reactions::Reaction;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
pub struct ReactRequest {
    #[schema(value_type = i64)]
    pub news_id: NewsId,
    /// like, love, insightful, funny, sad or angry; null removes the reader's reaction.
    #[serde(default)]
    pub reaction: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ReactionSummary {
    /// The reader's reaction, or null.
    pub mine: Option<String>,
    /// Readers per reaction (only reactions someone gave).
    pub counts: BTreeMap<String, u64>,
    /// All reactions together (what `like_count` shows).
    pub total: u64,
}

/// How old a guest must be before its reactions count for other readers (D353): a day,
/// which a script making throwaway guests must wait out, each guest within its address's
/// guest budget (D351). Signed-in readers count at once.
pub const GUEST_COUNTS_AFTER_MS: i64 = 86_400_000;

/// How often the stories reacted to lately have their `like_count` counted again (D394):
/// a guest's reaction starts to count a day after the guest joined, with no call to
/// notice it, so the count is looked at again within this long of that moment.
pub const RECOUNT_EVERY: std::time::Duration = std::time::Duration::from_secs(3600);
/// Stories with a reaction this recent are counted again: longer than a guest's wait
/// plus one [`RECOUNT_EVERY`], so no reaction's turn to count is missed.
pub const RECOUNT_WINDOW_MS: i64 = 2 * GUEST_COUNTS_AFTER_MS;

/// Writes these stories' public reaction counts (D353's rule, no viewer) into their
/// `like_count`, which feeds, the article and syndication show (D394).
pub async fn publish_like_counts(store: &dyn store::Store, news: &[NewsId], now_ms: i64) -> store::Result<()> {
    let public = store::things::ReactionCounting {
        guests_joined_before_ms: now_ms.saturating_sub(GUEST_COUNTS_AFTER_MS),
        viewer: None,
    };
    for chunk in news.chunks(500) {
        let counts = store.reaction_counts(chunk, &public).await?;
        let rows: Vec<(NewsId, i64)> = chunk
            .iter()
            .map(|n| (*n, counts.get(n).map_or(0, |c| c.total() as i64)))
            .collect();
        store.set_like_counts(&rows).await?;
    }
    Ok(())
}

/// One recount: every story reacted to within [`RECOUNT_WINDOW_MS`].
pub async fn recount_once(store: &dyn store::Store, now_ms: i64) -> store::Result<usize> {
    let news = store.reacted_since(now_ms - RECOUNT_WINDOW_MS).await?;
    publish_like_counts(store, &news, now_ms).await?;
    Ok(news.len())
}

/// Run [`recount_once`] now and then every [`RECOUNT_EVERY`], for ever.
pub async fn recount_forever(store: std::sync::Arc<dyn store::Store>) {
    let mut tick = tokio::time::interval(RECOUNT_EVERY);
    loop {
        tick.tick().await;
        if let Err(error) = recount_once(store.as_ref(), domain::clock::now_ms()).await {
            tracing::warn!(error = %error, "recounting stories' reactions failed; trying again in an hour");
        }
    }
}

async fn summary(state: &AppState, user: store::UserId, news: NewsId) -> Result<ReactionSummary, ApiError> {
    let counting = store::things::ReactionCounting {
        guests_joined_before_ms: now_ms().saturating_sub(GUEST_COUNTS_AFTER_MS),
        viewer: Some(user),
    };
    let counts = state
        .store
        .reaction_counts(&[news], &counting)
        .await?
        .remove(&news)
        .unwrap_or_default();
    let mine = state.store.my_reactions(user, &[news]).await?.remove(&news);
    Ok(ReactionSummary {
        mine: mine.map(|r| r.as_str().to_string()),
        total: counts.total(),
        counts: counts.given().map(|(r, n)| (r.as_str().to_string(), n)).collect(),
    })
}

/// React to a story, change the reaction, or take it back (`reaction: null`).
#[utoipa::path(post, path = "/api/ugc/react", tag = "reader", request_body = ReactRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the story's reactions now", body = ReactionSummary),
        (status = 400, description = "A reaction outside the set"),
        (status = 404, description = "No such story")))]
pub async fn react(State(state): State<AppState>, call: Signed<ReactRequest>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let reaction = match call.body.reaction.as_deref() {
        None => None,
        Some(name) => Some(Reaction::parse(name).ok_or_else(|| {
            let names: Vec<_> = Reaction::ALL.iter().map(|r| r.as_str()).collect();
            ApiError::BadRequest(format!(
                "Field `reaction`: must be one of {} or null.",
                names.join(", ")
            ))
        })?),
    };
    known_news(&state, call.body.news_id).await?;
    let now = now_ms();
    state.store.set_reaction(user, call.body.news_id, reaction, now).await?;
    // The story's own count follows (D394); the reaction is kept even if this fails.
    if let Err(error) = publish_like_counts(state.store.as_ref(), &[call.body.news_id], now).await {
        tracing::warn!(error = %error, news_id = call.body.news_id.0, "like_count not updated");
    }
    Ok(ok(summary(&state, user, call.body.news_id).await?))
}

/// A story's reactions and the reader's own (for the article page).
#[utoipa::path(post, path = "/api/ugc/reactions", tag = "reader", request_body = NewsRef,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the story's reactions", body = ReactionSummary)))]
pub async fn reactions(State(state): State<AppState>, call: Signed<NewsRef>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    Ok(ok(summary(&state, user, call.body.news_id).await?))
}

#[derive(Serialize, ToSchema)]
pub struct ReactedNews {
    #[serde(flatten)]
    pub news: AltNews,
    pub reaction: String,
}

#[derive(Serialize, ToSchema)]
pub struct ReactionList {
    /// Newest first; `create_time` is when the reader reacted.
    pub list: Vec<ReactedNews>,
    /// Give it back as `page_no` for the next page; `""` on the last page (§7.7).
    pub next_max_id: String,
}

/// The reader's reactions (§7.7).
#[utoipa::path(post, path = "/api/ugc/reactionList", tag = "reader", request_body = PageParams,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, next_max_id}`", body = ReactionList)))]
pub async fn reaction_list(State(state): State<AppState>, call: Signed<PageParams>) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let page = page(call.body.page_no.as_deref(), call.body.size)?;
    let given = state.store.reactions_of(user, page).await?;
    let entries: Vec<_> = given.items.iter().map(|r| (r.news_id, r.reacted_at_ms)).collect();
    let reaction_of: std::collections::HashMap<_, _> = given.items.iter().map(|r| (r.news_id, r.reaction)).collect();
    let list = alt_news(&state, &entries)
        .await?
        .into_iter()
        // Every story listed came from `given`, so each has its reaction.
        .filter_map(|news| {
            let reaction = reaction_of.get(&news.news_id)?.as_str().to_string();
            Some(ReactedNews { reaction, news })
        })
        .collect();
    Ok(ok(ReactionList {
        list,
        next_max_id: next_token(given.next),
    }))
}
