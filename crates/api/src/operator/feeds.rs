//! The operator's feeds from the browser (issue 21, D336): what `localwire feeds list`
//! shows, and add, pause, resume, remove and OPML import. Operators only, signed POSTs.
//! The checks are the command line's (`ingest::adding`, `ingest::publishers`); the browser
//! may add http(s) feeds only, each read once before it is kept, through the fetcher's SSRF
//! guard, so a typo is a clear 400 rather than a feed that fails forever.

use super::require_operator;
use crate::envelope::{ApiError, ok};
use crate::signed::Signed;
use crate::state::AppState;
use crate::state::now_ms;
use axum::extract::State;
use axum::response::Response;
use ingest::adding;
use ingest::fetch::Fetcher;
use ingest::opml::parse_opml_with_base;
use ingest::publishers::{self, Location, PublisherInput};
use serde::{Deserialize, Serialize};
use store::content::{FeedId, FeedStatus};
use url::Url;
use utoipa::ToSchema;

/// Largest OPML file the import takes, in bytes.
pub const MAX_OPML_BYTES: usize = 1024 * 1024;

/// One feed and its health, as `localwire feeds list --json` prints it.
#[derive(Serialize, ToSchema)]
pub struct FeedRow {
    pub feed_id: i64,
    pub media_id: i64,
    pub publisher: String,
    pub url: String,
    pub lang: String,
    /// Last fetch, ms since 1970; null before the first.
    pub last_fetch: Option<i64>,
    /// HTTP status of the last fetch.
    pub last_status: Option<i32>,
    /// Items in the last fetch.
    pub last_items: i64,
    /// Stories kept from this feed.
    pub items: i64,
    pub last_error: String,
    /// When it is fetched next, ms since 1970.
    pub next_due: i64,
    pub consecutive_errors: i32,
    pub paused: bool,
}

impl From<FeedStatus> for FeedRow {
    fn from(f: FeedStatus) -> Self {
        FeedRow {
            feed_id: f.feed_id.0,
            media_id: f.media_id.0,
            publisher: f.media_name,
            url: f.url,
            lang: f.lang,
            last_fetch: f.last_fetch_ms,
            last_status: f.last_status,
            last_items: f.last_items,
            items: f.item_count,
            last_error: f.last_error,
            next_due: f.next_due_ms,
            consecutive_errors: f.consecutive_errors,
            paused: f.paused,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct FeedList {
    pub list: Vec<FeedRow>,
}

#[derive(Serialize, ToSchema)]
pub struct FeedAnswer {
    pub feed: FeedRow,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct NoFields {}

async fn feed_row(state: &AppState, pick: impl Fn(&FeedStatus) -> bool) -> Result<FeedRow, ApiError> {
    let feeds = state.store.feeds().await?;
    feeds
        .into_iter()
        .find(|f| pick(f))
        .map(FeedRow::from)
        .ok_or(ApiError::NotFound)
}

/// Every feed with its last fetch, status, items, last error, next due time and whether it
/// is paused.
#[utoipa::path(post, path = "/api/admin/feeds", tag = "admin", request_body = NoFields,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list}` of feeds", body = FeedList),
        (status = 401, description = "Missing, unknown or expired token"),
        (status = 403, description = "Not an operator (--admin-emails)")))]
pub async fn list(State(state): State<AppState>, call: Signed<NoFields>) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    let list = state.store.feeds().await?.into_iter().map(FeedRow::from).collect();
    Ok(ok(FeedList { list }))
}

/// A feed to add, with its publisher's details (the command line's `feeds add` flags).
#[derive(Debug, Deserialize, ToSchema)]
pub struct AddFeedRequest {
    /// http(s) address of an RSS, Atom or JSON feed.
    pub url: String,
    /// The publisher's name; the feed's own title when empty.
    #[serde(default)]
    pub name: String,
    /// US or CA (US when empty).
    #[serde(default)]
    pub country: String,
    /// State or province code, e.g. DC, ON.
    #[serde(default)]
    pub state: String,
    /// A city of the gazetteer; empty for a publisher of a whole state or country.
    #[serde(default)]
    pub city: String,
    /// en, es or fr (en when empty).
    #[serde(default)]
    pub lang: String,
    /// A category id (local when empty).
    #[serde(default)]
    pub category: String,
    #[serde(default)]
    pub home_url: String,
}

/// The browser adds web feeds only: file:// is the command line's.
fn web_feed_url(raw: &str) -> Result<Url, ApiError> {
    let bad = || {
        ApiError::BadRequest(
            "Field `url`: the http or https address of an RSS, Atom or JSON feed, e.g. https://news.example.org/feed.xml."
                .into(),
        )
    };
    let url = Url::parse(raw.trim()).map_err(|_| bad())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(bad());
    }
    Ok(url)
}

fn fetcher(state: &AppState) -> Result<Fetcher, ApiError> {
    Fetcher::new(state.config.feed_fetch.clone()).map_err(|e| ApiError::Internal(e.to_string()))
}

/// Add a feed: its details are checked, then it is read once (to check it and learn its
/// title when no name is given), then fetched with the others from the next ingestion round.
#[utoipa::path(post, path = "/api/admin/feeds/add", tag = "admin", request_body = AddFeedRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the added `{feed}`", body = FeedAnswer),
        (status = 400, description = "Not an http(s) feed, unreadable, an unknown city or category, or already here"),
        (status = 403, description = "Not an operator (--admin-emails)")))]
pub async fn add(State(state): State<AppState>, call: Signed<AddFeedRequest>) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    let req = call.body;
    let url = web_feed_url(&req.url)?;
    let mut input = PublisherInput {
        feed_url: url.to_string(),
        name: req.name.trim().to_string(),
        home_url: req.home_url,
        location: Location {
            country: req.country,
            state: req.state,
            city: req.city,
        },
        lang: req.lang,
        category: req.category,
        ..PublisherInput::default()
    };
    // Everything that can be checked without the network first: a wrong city or a known
    // address is said at once, and nothing is fetched for it.
    let checked = PublisherInput {
        name: if input.name.is_empty() {
            "unnamed".into()
        } else {
            input.name.clone()
        },
        ..input.clone()
    };
    publishers::to_store(&checked).map_err(|e| ApiError::BadRequest(format!("Not added: {e}.")))?;
    let known = url.to_string();
    if state.store.feeds().await?.iter().any(|f| f.url == known) {
        return Err(ApiError::BadRequest(format!(
            "Not added: {known}: the feed is already registered."
        )));
    }
    let title = adding::feed_title(&fetcher(&state)?, &url)
        .await
        .map_err(|e| ApiError::BadRequest(format!("The feed could not be read: {e}")))?;
    if input.name.is_empty() {
        input.name = title;
    }
    let publisher = publishers::to_store(&input).map_err(|e| ApiError::BadRequest(format!("Not added: {e}.")))?;
    let report = state
        .store
        .import_publishers(std::slice::from_ref(&publisher), now_ms())
        .await?;
    if let Some((url, why)) = report.skipped.first() {
        return Err(ApiError::BadRequest(format!("Not added: {url}: {why}.")));
    }
    let url = url.to_string();
    let feed = feed_row(&state, |f| f.url == url).await?;
    Ok(ok(FeedAnswer { feed }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct PauseRequest {
    pub feed_id: i64,
    /// true pauses, false resumes (due at once).
    pub paused: bool,
}

/// Pause a feed (kept with its stories, not fetched) or resume it (fetched at once).
#[utoipa::path(post, path = "/api/admin/feeds/pause", tag = "admin", request_body = PauseRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with the `{feed}` as it is now", body = FeedAnswer),
        (status = 403, description = "Not an operator (--admin-emails)"),
        (status = 404, description = "No such feed")))]
pub async fn pause(State(state): State<AppState>, call: Signed<PauseRequest>) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    let id = FeedId(call.body.feed_id);
    if !state.store.set_feed_paused(id, call.body.paused, now_ms()).await? {
        return Err(ApiError::NotFound);
    }
    let feed = feed_row(&state, |f| f.feed_id == id).await?;
    Ok(ok(FeedAnswer { feed }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RemoveRequest {
    pub feed_id: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Removed {
    pub removed: bool,
}

/// Remove a feed and its stories (and its publisher when it has no other feed).
#[utoipa::path(post, path = "/api/admin/feeds/remove", tag = "admin", request_body = RemoveRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{removed: true}`", body = Removed),
        (status = 403, description = "Not an operator (--admin-emails)"),
        (status = 404, description = "No such feed")))]
pub async fn remove(State(state): State<AppState>, call: Signed<RemoveRequest>) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    if !state.store.remove_feed(&call.body.feed_id.to_string()).await? {
        return Err(ApiError::NotFound);
    }
    Ok(ok(Removed { removed: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ImportOpmlRequest {
    /// The OPML file's text (at most 1 MB).
    pub opml: String,
}

#[derive(Serialize, ToSchema)]
pub struct SkippedFeed {
    /// The feed's URL, or the outline's line and title.
    pub url: String,
    pub why: String,
}

#[derive(Serialize, ToSchema)]
pub struct ImportAnswer {
    pub media_added: usize,
    pub feeds_added: usize,
    pub skipped: Vec<SkippedFeed>,
}

/// Import an OPML list of publishers (the `import-opml` command's checks): any invalid
/// publisher fails the whole file; known feed URLs and unusable outlines are skipped and
/// listed. Feeds are fetched from the next ingestion round.
#[utoipa::path(post, path = "/api/admin/feeds/importOpml", tag = "admin", request_body = ImportOpmlRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with what was imported and skipped", body = ImportAnswer),
        (status = 400, description = "Not OPML, or an outline to fix (nothing imported)"),
        (status = 403, description = "Not an operator (--admin-emails)"),
        (status = 413, description = "Larger than 1 MB")))]
pub async fn import_opml(
    State(state): State<AppState>,
    call: Signed<ImportOpmlRequest, MAX_OPML_BYTES>,
) -> Result<Response, ApiError> {
    require_operator(&state, call.token.as_deref()).await?;
    let parsed = parse_opml_with_base(call.body.opml.as_bytes(), None)
        .map_err(|e| ApiError::BadRequest(format!("The file is not an OPML list we can read: {e}.")))?;
    let mut skipped: Vec<SkippedFeed> = parsed
        .skipped
        .iter()
        .map(|s| SkippedFeed {
            url: format!("line {}: {}", s.line, s.label),
            why: s.reason.to_string(),
        })
        .collect();
    let (web, local): (Vec<_>, Vec<_>) = parsed
        .publishers
        .into_iter()
        .partition(|p| p.feed_url.starts_with("http://") || p.feed_url.starts_with("https://"));
    skipped.extend(local.into_iter().map(|p| SkippedFeed {
        url: p.feed_url,
        why: "only http and https feeds can be added from the browser (use `localwire import-opml` for files)".into(),
    }));
    let list = adding::publishers_from_opml(&web).map_err(ApiError::BadRequest)?;
    let report = state.store.import_publishers(&list, now_ms()).await?;
    skipped.extend(report.skipped.into_iter().map(|(url, why)| SkippedFeed { url, why }));
    Ok(ok(ImportAnswer {
        media_added: report.media_added,
        feeds_added: report.feeds_added,
        skipped,
    }))
}
