//! The reader's own feeds (issue 18, D271): Following (the stories of the publishers they
//! follow) and Your topics (stories in the categories and with the tags they follow).
//! Signed POSTs with the reader's token, answered fresh: nobody else has the same list.
//! Both answer `GET /api/news/feed`'s page, and leave out what the reader's view hides.

use super::feed_page::{FeedContext, FeedPage};
use super::paging::{Reading, items, keyset_page, keyset_page_where, keyset_token};
use super::params::{Common, DEFAULT_SIZE, MAX_SIZE};
use crate::envelope::{ApiError, ok};
use crate::news_json::{PLAIN, PageToken, Reason};
use crate::session::reader;
use crate::signed::Signed;
use crate::state::{AppState, now_ms};
use crate::viewer::view_for;
use axum::extract::State;
use axum::response::Response;
use domain::locale::Locale;
use serde::Deserialize;
use std::collections::HashSet;
use store::UserId;
use store::content::{ListFilter, Listing, NewsRow};
use store::reader_view::ReaderView;
use store::things::TopicKind;
use utoipa::ToSchema;

/// Your topics reads the newest stories in batches of this many…
pub const TOPICS_BATCH: usize = 200;
/// …at most this many times per page asked: a page looks through 2 000 stories, and a
/// reader whose topics are rarer gets a short page with a token to go on.
pub const TOPICS_BATCHES: usize = 10;

/// A page of one of the reader's feeds.
#[derive(Deserialize, ToSchema, Default)]
pub struct PersonalFeedRequest {
    /// The previous answer's `next_page_token`; absent for the first page.
    #[serde(default)]
    pub page_token: Option<String>,
    /// 1 to 50; default 20.
    #[serde(default)]
    pub size: Option<u32>,
    /// en (default), es or fr: the language of place names. Every language's stories are
    /// listed: the reader chose these publishers and topics themselves.
    #[serde(default)]
    pub lang: Option<String>,
}

impl PersonalFeedRequest {
    fn common(&self) -> Result<Common, ApiError> {
        let size = match self.size {
            None => DEFAULT_SIZE,
            Some(n) if (1..=MAX_SIZE as u32).contains(&n) => n as usize,
            Some(_) => {
                return Err(ApiError::BadRequest(format!(
                    "Field `size`: must be a whole number from 1 to {MAX_SIZE}."
                )));
            }
        };
        let lang = match self.lang.as_deref().filter(|l| !l.is_empty()) {
            None => None,
            Some(l) => Some(
                Locale::from_code(&l.to_ascii_lowercase())
                    .ok_or_else(|| ApiError::BadRequest("Field `lang`: must be one of en, es, fr.".into()))?,
            ),
        };
        let token = match self.page_token.as_deref().filter(|t| !t.is_empty()) {
            None => None,
            Some(raw) => Some(PageToken::decode(raw)?),
        };
        Ok(Common {
            lang,
            country: None,
            size,
            token,
        })
    }
}

/// The Following feed's data: the followed publishers' stories, newest first.
pub(super) async fn following_feed(
    state: &AppState,
    user: UserId,
    c: &Common,
    view: &ReaderView,
    now: i64,
) -> Result<FeedPage, ApiError> {
    let after = c.after(&[PLAIN])?.map(|(_, a)| a);
    let followed: Vec<_> = state
        .store
        .followed_media(user)
        .await?
        .into_iter()
        .map(|f| f.media_id)
        .collect();
    if followed.is_empty() {
        return Ok(FeedPage {
            list: Vec::new(),
            next_page_token: String::new(),
            context: FeedContext::default(),
        });
    }
    let listing = Listing::Publishers(followed);
    let (rows, next) = keyset_page(state, &listing, &ListFilter::default(), after, c.size, view).await?;
    Ok(FeedPage {
        list: items(
            rows,
            c.names(),
            now,
            view,
            Reason::FollowedPublisher,
            &state.image_proxy,
        ),
        next_page_token: keyset_token(PLAIN, next),
        context: FeedContext::default(),
    })
}

/// The reader's followed categories and tags (tags folded), to match stories against.
struct Topics {
    categories: HashSet<String>,
    tags: HashSet<String>,
}

impl Topics {
    fn matches(&self, row: &NewsRow) -> bool {
        self.categories.contains(&row.category_id) || row.tags.iter().any(|t| self.tags.contains(&geo::fold(t)))
    }

    fn is_empty(&self) -> bool {
        self.categories.is_empty() && self.tags.is_empty()
    }
}

/// The Your-topics feed's data: stories in a followed category or with a followed tag,
/// newest first.
pub(super) async fn topics_feed(
    state: &AppState,
    user: UserId,
    c: &Common,
    view: &ReaderView,
    now: i64,
) -> Result<FeedPage, ApiError> {
    let after = c.after(&[PLAIN])?.map(|(_, a)| a);
    let mut topics = Topics {
        categories: HashSet::new(),
        tags: HashSet::new(),
    };
    for t in state.store.followed_topics(user).await? {
        match t.kind {
            TopicKind::Category => topics.categories.insert(t.value),
            TopicKind::Tag => topics.tags.insert(geo::fold(&t.value)),
        };
    }
    if topics.is_empty() {
        return Ok(FeedPage {
            list: Vec::new(),
            next_page_token: String::new(),
            context: FeedContext::default(),
        });
    }
    let reading = Reading {
        batch: TOPICS_BATCH,
        batches: TOPICS_BATCHES,
    };
    let (rows, next) = keyset_page_where(
        state,
        &Listing::Latest,
        &ListFilter::default(),
        after,
        c.size,
        view,
        reading,
        |row| topics.matches(row),
    )
    .await?;
    Ok(FeedPage {
        list: items(rows, c.names(), now, view, Reason::FollowedTopic, &state.image_proxy),
        next_page_token: keyset_token(PLAIN, next),
        context: FeedContext::default(),
    })
}

/// The stories of the publishers the reader follows, newest first (`/user/following`).
#[utoipa::path(post, path = "/api/user/news/followingFeed", tag = "reader", request_body = PersonalFeedRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, next_page_token, context}`", body = FeedPage),
        (status = 400, description = "A field is invalid; the message names it"),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn following_handler(
    State(state): State<AppState>,
    call: Signed<PersonalFeedRequest>,
) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let c = call.body.common()?;
    let now = now_ms();
    let view = view_for(&state, call.token.as_deref(), now).await;
    Ok(ok(following_feed(&state, user, &c, &view, now).await?))
}

/// Stories in the categories and with the tags the reader follows, newest first.
#[utoipa::path(post, path = "/api/user/news/topicsFeed", tag = "reader", request_body = PersonalFeedRequest,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{list, next_page_token, context}`", body = FeedPage),
        (status = 400, description = "A field is invalid; the message names it"),
        (status = 401, description = "Missing, unknown or expired token")))]
pub async fn topics_handler(
    State(state): State<AppState>,
    call: Signed<PersonalFeedRequest>,
) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let c = call.body.common()?;
    let now = now_ms();
    let view = view_for(&state, call.token.as_deref(), now).await;
    Ok(ok(topics_feed(&state, user, &c, &view, now).await?))
}
