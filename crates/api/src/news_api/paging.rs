//! Pages of the lists: newest-first pages by keyset with each story once, ranked pages
//! by offset, and the cards of a page.

use crate::envelope::ApiError;
use crate::news_json::{MAX_OFFSET, NewsItem, PageToken};
use crate::state::AppState;
use domain::locale::Locale;
use std::collections::HashSet;
use store::content::{After, ClusterId, ListFilter, Listing, NewsId, NewsRow};

/// Whether a row repeats an item or a story already on the page.
#[derive(Default)]
pub(super) struct OncePerPage {
    ids: HashSet<NewsId>,
    clusters: HashSet<ClusterId>,
}

impl OncePerPage {
    pub(super) fn first(&mut self, row: &NewsRow, by_cluster: bool) -> bool {
        if !self.ids.insert(row.news_id) {
            return false;
        }
        !(by_cluster && row.cluster_id != ClusterId(0) && !self.clusters.insert(row.cluster_id))
    }
}

fn key(row: &NewsRow) -> After {
    After {
        publish_time_ms: row.publish_time_ms,
        news_id: row.news_id,
    }
}

/// One page of a newest-first list with each story once: up to `size` rows, and where
/// the next page starts (the last row consumed) when more follow.
pub(super) async fn keyset_page(
    state: &AppState,
    listing: &Listing,
    filter: &ListFilter,
    after: Option<After>,
    size: usize,
) -> Result<(Vec<NewsRow>, Option<After>), ApiError> {
    // Rows of a story already shown are skipped, so read ahead a little.
    let batch = size * 2 + 1;
    let mut out = Vec::with_capacity(size);
    let mut once = OncePerPage::default();
    let mut cursor = after;
    for _ in 0..4 {
        let rows = state.store.list_news(listing, filter, cursor, batch as i64).await?;
        let full = rows.len() == batch;
        for row in rows {
            if out.len() == size {
                return Ok((out, cursor));
            }
            cursor = Some(key(&row));
            if once.first(&row, true) {
                out.push(row);
            }
        }
        if !full {
            return Ok((out, None));
        }
    }
    Ok((out, cursor))
}

/// A ranked page read with one row of look-ahead: (rows, the next offset if more follow).
pub(super) fn offset_page(
    mut rows: Vec<NewsRow>,
    offset: i64,
    size: usize,
    by_cluster: bool,
) -> (Vec<NewsRow>, String) {
    let more = rows.len() > size;
    rows.truncate(size);
    let next = offset + size as i64;
    let mut once = OncePerPage::default();
    rows.retain(|r| once.first(r, by_cluster));
    let token = if more && next <= MAX_OFFSET {
        PageToken::Offset(next).encode()
    } else {
        String::new()
    };
    (rows, token)
}

pub(super) fn items(rows: Vec<NewsRow>, lang: Locale, now: i64) -> Vec<NewsItem> {
    rows.into_iter()
        .map(|mut r| {
            r.content.clear();
            NewsItem::from_row(r, lang, now)
        })
        .collect()
}

pub(super) fn keyset_token(scope: char, next: Option<After>) -> String {
    next.map(|after| PageToken::Keyset { scope, after }.encode())
        .unwrap_or_default()
}
