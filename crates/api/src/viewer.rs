//! The view of the reader behind a request (D270): their token, its session, and their
//! blocks, mutes and follows as [`crate::reader_view`] keeps them.

use crate::reader_view::{MuteRule, ReaderView, token_digest};
use crate::session::require_session;
use crate::state::AppState;
use std::sync::Arc;
use store::UserId;

/// The view of the reader behind `token`. No token, a token that is not (or no longer) a
/// session, or a store that fails: the public view. Public answers never fail for it. A
/// token seen in the last [`VIEW_TTL_MS`](crate::reader_view::VIEW_TTL_MS) is answered from
/// memory: a session ended meanwhile only changes which public answer it gets.
pub async fn view_for(state: &AppState, token: Option<&str>, now_ms: i64) -> Arc<ReaderView> {
    let Some(token) = token.filter(|t| !t.is_empty() && t.len() <= 256) else {
        return ReaderView::none();
    };
    let digest = token_digest(token);
    if let Some(view) = state.reader_views.kept(&digest, now_ms) {
        return view;
    }
    let Ok(session) = require_session(state, Some(token), now_ms).await else {
        return ReaderView::none();
    };
    let user = UserId(session.user.id);
    match view_of(&*state.store, user).await {
        Ok(view) => {
            let view = if view.fingerprint().is_empty() {
                ReaderView::none()
            } else {
                Arc::new(view)
            };
            state.reader_views.keep(digest, user, view.clone(), now_ms);
            view
        }
        Err(e) => {
            tracing::warn!(error = %e, "could not read a reader's blocks and mutes");
            ReaderView::none()
        }
    }
}

/// A reader's view read from the store, unkept: for work with no request behind it (the
/// notifier, D311), which must see a block or mute the moment it is stored.
pub async fn view_of(store: &dyn store::Store, user: UserId) -> store::Result<ReaderView> {
    let blocked = store.blocked_media_ids(user).await?;
    let followed = store
        .followed_media(user)
        .await?
        .into_iter()
        .map(|f| f.media_id)
        .collect();
    let mutes = store
        .mutes(user)
        .await?
        .into_iter()
        .map(|m| MuteRule::new(m.kind, &m.value))
        .collect();
    Ok(ReaderView::new(blocked, followed, mutes))
}
