//! The view of the reader behind a request (D270): their token, its session, and their
//! blocks, mutes and follows ([`store::reader_view`]), kept briefly by the token they came
//! with ([`crate::reader_views`]).

use crate::reader_views::token_digest;
use crate::session::require_session;
use crate::state::AppState;
use std::sync::Arc;
use store::UserId;
use store::reader_view::{ReaderView, view_of};

/// The view of the reader behind `token`. No token, a token that is not (or no longer) a
/// session, or a store that fails: the public view. Public answers never fail for it. A
/// token seen in the last [`VIEW_TTL_MS`](crate::reader_views::VIEW_TTL_MS) is answered from
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
