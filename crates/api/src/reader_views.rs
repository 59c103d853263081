//! Recent readers' views kept by the token they came with (D270): a read call within
//! [`VIEW_TTL_MS`] of the last asks the store for nothing but its answer, on either engine;
//! this process's writes forget them at once.

use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use store::UserId;
use store::reader_view::ReaderView;

/// A kept view is read again after this long (writes by another server process).
pub const VIEW_TTL_MS: i64 = 5_000;
/// At most this many readers' views are kept; past it the table starts over.
pub const MAX_VIEWS: usize = 10_000;

/// The views of recent readers, by the token they came with (see the module's note), so
/// that a read call within [`VIEW_TTL_MS`] of the last asks neither for the session nor for
/// the view. Tokens are kept as a digest, never as they are.
#[derive(Default)]
pub struct ReaderViews(Mutex<HashMap<[u8; 16], KeptView>>);

struct KeptView {
    user: UserId,
    view: Arc<ReaderView>,
    at_ms: i64,
}

/// The key a token is kept by.
pub fn token_digest(token: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&Sha256::digest(token.as_bytes())[..16]);
    out
}

impl ReaderViews {
    /// Forget a reader's view on every token: they blocked, muted or followed something.
    pub fn forget(&self, user: UserId) {
        if let Ok(mut map) = self.0.lock() {
            map.retain(|_, kept| kept.user != user);
        }
    }

    pub(crate) fn kept(&self, token: &[u8; 16], now_ms: i64) -> Option<Arc<ReaderView>> {
        let map = self.0.lock().ok()?;
        map.get(token)
            .filter(|kept| (0..VIEW_TTL_MS).contains(&(now_ms - kept.at_ms)))
            .map(|kept| kept.view.clone())
    }

    pub(crate) fn keep(&self, token: [u8; 16], user: UserId, view: Arc<ReaderView>, now_ms: i64) {
        if let Ok(mut map) = self.0.lock() {
            if map.len() >= MAX_VIEWS && !map.contains_key(&token) {
                map.clear();
            }
            map.insert(
                token,
                KeptView {
                    user,
                    view,
                    at_ms: now_ms,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;
    use store::content::MediaId;

    #[test]
    fn d270_views_are_kept_by_token_briefly_and_forgotten_for_every_token_of_a_reader() {
        let views = ReaderViews::default();
        let (a, b, other) = (token_digest("1.a"), token_digest("1.b"), token_digest("2.c"));
        let view = Arc::new(ReaderView::new(HashSet::from([MediaId(1)]), HashSet::new(), vec![]));
        views.keep(a, UserId(1), view.clone(), 1_000);
        views.keep(b, UserId(1), view.clone(), 1_000);
        views.keep(other, UserId(2), view, 1_000);
        assert!(views.kept(&a, 1_000 + VIEW_TTL_MS - 1).is_some());
        assert!(
            views.kept(&a, 1_000 + VIEW_TTL_MS).is_none(),
            "read again after the TTL"
        );
        views.forget(UserId(1));
        assert!(views.kept(&a, 1_001).is_none() && views.kept(&b, 1_001).is_none());
        assert!(views.kept(&other, 1_001).is_some(), "another reader's view stays");
    }
}
