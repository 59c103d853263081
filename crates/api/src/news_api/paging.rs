//! Pages of the lists: newest-first pages by keyset with each story once, ranked pages
//! by offset, and the cards of a page.

use crate::envelope::ApiError;
use crate::news_json::{MAX_OFFSET, NewsItem, PageToken, Reason};
use crate::state::AppState;
use domain::locale::Locale;
use std::collections::HashSet;
use store::content::{After, ClusterId, ListFilter, Listing, NewsId, NewsRow};
use store::reader_view::ReaderView;

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

/// How a newest-first page of `size` reads its list (D433): a batch is the page, one row
/// to tell whether more follow, and spare rows for those skipped (a story already shown:
/// a quarter of the page). For a reader whose blocks and mutes hide rows (D270), as many
/// more as the share of stories their view hid lately asks (D446; a third for a new view),
/// never more than D270's page more: a view that hides nearly everything reads no more
/// rows for a page than it did before D446. Every row read is made whole (its text, its
/// publisher, its story), so spare rows are most of a list's cost when nothing is
/// skipped. At most this many batches before the page is given short, with a token to go
/// on: about six pages of rows.
fn reading(size: usize, view: &ReaderView) -> Reading {
    let plain = size + 1 + size / 4;
    if view.hides_nothing() {
        Reading {
            batch: plain,
            batches: 6,
        }
    } else {
        let shown = 1000 - view.hidden_share().min(999) as usize;
        Reading {
            batch: (plain * 1000).div_ceil(shown).min(size * 2 + 1),
            batches: 8,
        }
    }
}

/// One page of a newest-first list with each story once and nothing the reader's view
/// hides: up to `size` rows, and where the next page starts (the last row consumed) when
/// more follow.
pub(crate) async fn keyset_page(
    state: &AppState,
    listing: &Listing,
    filter: &ListFilter,
    after: Option<After>,
    size: usize,
    view: &ReaderView,
) -> Result<(Vec<NewsRow>, Option<After>), ApiError> {
    keyset_page_where(state, listing, filter, after, size, view, reading(size, view), |_| true).await
}

/// How a newest-first page reads its list: rows per read, and reads at most.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Reading {
    pub batch: usize,
    pub batches: usize,
}

/// [`keyset_page`] of the rows `keep` accepts (a reader's topics, D271).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn keyset_page_where(
    state: &AppState,
    listing: &Listing,
    filter: &ListFilter,
    after: Option<After>,
    size: usize,
    view: &ReaderView,
    reading: Reading,
    keep: impl Fn(&NewsRow) -> bool,
) -> Result<(Vec<NewsRow>, Option<After>), ApiError> {
    let mut out = Vec::with_capacity(size);
    let mut once = OncePerPage::default();
    let mut cursor = after;
    // Rows looked at and rows the view hid, for the view's share (D446).
    let (mut looked, mut hidden) = (0, 0);
    for _ in 0..reading.batches {
        let rows = state
            .store
            .list_news(listing, filter, cursor, reading.batch as i64)
            .await?;
        let full = rows.len() == reading.batch;
        for row in rows {
            if out.len() == size {
                view.saw(looked, hidden);
                return Ok((out, cursor));
            }
            cursor = Some(key(&row));
            if !keep(&row) {
                continue;
            }
            looked += 1;
            if view.hides(&row) {
                hidden += 1;
            } else if once.first(&row, true) {
                out.push(row);
            }
        }
        if !full {
            view.saw(looked, hidden);
            return Ok((out, None));
        }
    }
    view.saw(looked, hidden);
    Ok((out, cursor))
}

/// How many rows to read for a ranked page of `size`: one of look-ahead, and for a reader
/// whose view hides rows, two pages more to fill in for them (D270).
pub(crate) fn offset_limit(size: usize, view: &ReaderView) -> i64 {
    let extra = if view.hides_nothing() { 0 } else { size * 2 };
    (size + 1 + extra) as i64
}

/// A ranked page read at `offset` with [`offset_limit`] rows: the first `size` rows the view
/// does not hide, and the next offset (after the last row consumed) if more follow.
pub(super) fn offset_page(
    rows: Vec<NewsRow>,
    offset: i64,
    size: usize,
    by_cluster: bool,
    view: &ReaderView,
) -> (Vec<NewsRow>, String) {
    let read = rows.len();
    let mut consumed = 0;
    let mut out = Vec::with_capacity(size);
    let mut once = OncePerPage::default();
    for row in rows {
        // Without a view this is the first `size` rows, repeats dropped (as before D270).
        if consumed == size && view.hides_nothing() || out.len() == size {
            break;
        }
        consumed += 1;
        if !view.hides(&row) && once.first(&row, by_cluster) {
            out.push(row);
        }
    }
    let more = read > consumed;
    let next = offset + consumed as i64;
    let token = if more && next <= MAX_OFFSET {
        PageToken::Offset(next).encode()
    } else {
        String::new()
    };
    (out, token)
}

/// The cards of a page made by the rule `reason` (D385), marked with the publishers the
/// reader follows; their images through the image proxy when it is on (D382).
pub(crate) fn items(
    rows: Vec<NewsRow>,
    lang: Locale,
    now: i64,
    view: &ReaderView,
    reason: Reason,
    images: &crate::image_proxy::ImageProxy,
) -> Vec<NewsItem> {
    rows.into_iter()
        .map(|mut r| {
            r.content.clear();
            let follow = view.follow_status(r.media_id);
            NewsItem {
                media_follow: follow,
                ..NewsItem::from_row(r, lang, now, reason, images)
            }
        })
        .collect()
}

pub(crate) fn keyset_token(scope: char, next: Option<After>) -> String {
    next.map(|after| PageToken::Keyset { scope, after }.encode())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::content::MediaId;

    #[test]
    fn d446_a_views_batch_grows_with_the_share_it_hid_lately() {
        let plain = reading(20, &ReaderView::none());
        assert_eq!(
            (plain.batch, plain.batches),
            (26, 6),
            "a page, one more, a quarter spare"
        );
        let view = ReaderView::new(HashSet::from([MediaId(1)]), HashSet::new(), vec![]);
        assert_eq!(reading(20, &view).batch, 39, "a new view guesses it hides a third");
        for _ in 0..30 {
            view.saw(100, 10);
        }
        assert_eq!(reading(20, &view).batch, 29, "a tenth hidden: a tenth more");
        for _ in 0..30 {
            view.saw(26, 26);
        }
        assert_eq!(
            (reading(20, &view).batch, reading(20, &view).batches),
            (41, 8),
            "a view that hides nearly everything reads no more than D270's page more a batch"
        );
    }
}
