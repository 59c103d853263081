//! What a reader follows as an OPML file (issue 31, D377): each followed publisher and
//! topic as its feed here, so a feed reader can take them all at once.

use super::reader;
use crate::envelope::{ApiError, ok};
use crate::pages::base_url;
use crate::pages::locale::{encode_uri_component, localized_path};
use crate::signed::Signed;
use crate::state::AppState;
use crate::user::Empty;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use domain::i18n::t;
use domain::locale::Locale;
use ingest::opml::{OpmlPublisher, write_opml_titled};
use serde::Serialize;
use store::things::TopicKind;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct FollowsOpml {
    /// The name to save the file under.
    pub filename: String,
    /// OPML 2.0.
    pub opml: String,
}

/// One outline: a feed of this site, in RSS, with the page it follows.
fn outline(base: &str, locale: Locale, rest: &str, name: String, folder: &str) -> OpmlPublisher {
    let page = localized_path(locale, rest);
    OpmlPublisher {
        feed_url: format!("{base}/feeds/rss{page}"),
        html_url: Some(format!("{base}{page}")),
        feed_type: Some("rss".into()),
        name,
        lang: Some(locale.code().into()),
        folders: vec![folder.to_string()],
        ..OpmlPublisher::default()
    }
}

/// The reader's publishers (newest follow first) and topics as OPML, in `locale`.
pub async fn follows_opml(
    state: &AppState,
    headers: &HeaderMap,
    user: store::UserId,
    locale: Locale,
) -> Result<FollowsOpml, ApiError> {
    let base = base_url(state, headers);
    let publishers_folder = t(locale, "Feed_OpmlPublishers");
    let topics_folder = t(locale, "Feed_OpmlTopics");
    let mut outlines = Vec::new();
    for f in state.store.followed_media(user).await? {
        if let Some(m) = state.store.media(f.media_id).await? {
            outlines.push(outline(
                &base,
                locale,
                &format!("/media/{}", m.media_id.0),
                m.name,
                publishers_folder,
            ));
        }
    }
    for topic in state.store.followed_topics(user).await? {
        let (rest, name) = match topic.kind {
            TopicKind::Category => {
                let Some(name) = crate::news_api::categories::category_name(&topic.value, locale) else {
                    continue;
                };
                (format!("/category/{}", topic.value), name.to_string())
            }
            // A tag is followed as its search (D376).
            TopicKind::Tag => (
                format!("/search/news?q={}", encode_uri_component(&topic.value)),
                topic.value,
            ),
        };
        outlines.push(outline(&base, locale, &rest, name, topics_folder));
    }
    Ok(FollowsOpml {
        filename: "localwire-follows.opml".into(),
        opml: write_opml_titled(&outlines, t(locale, "Feed_OpmlTitle")),
    })
}

/// Everything the reader follows, publishers and topics, as an OPML file of this site's
/// feeds, in the language of the call's `base` header.
#[utoipa::path(post, path = "/api/user/follows/opml", tag = "reader", request_body = Empty,
    params(crate::openapi::SignedHeaders),
    responses((status = 200, description = "Envelope with `{filename, opml}`", body = FollowsOpml),
        (status = 401, description = "No session: the token is missing, unknown or expired")))]
pub async fn follows_opml_handler(
    State(state): State<AppState>,
    headers: HeaderMap,
    call: Signed<Empty>,
) -> Result<Response, ApiError> {
    let user = reader(&state, call.token.as_deref()).await?;
    let locale = call
        .device
        .app_lang
        .as_deref()
        .and_then(Locale::from_code)
        .unwrap_or(Locale::DEFAULT);
    Ok(ok(follows_opml(&state, &headers, user, locale).await?))
}
