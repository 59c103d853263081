//! The JSON shapes of the read API (docs/api-reading.md "Shapes"): SPEC §3 News item with
//! flat media fields, Media source, Area; and the opaque page tokens.

use crate::envelope::ApiError;
use crate::geo_api::bad;
use crate::image_proxy::ImageProxy;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use domain::locale::Locale;
use geo::CityId;
use serde::Serialize;
use std::collections::BTreeMap;
use store::content::{After, ClusterId, MediaId, MediaSource, NewsId, NewsRow};
use utoipa::ToSchema;

/// SPEC §3 Area: a city the item is about, named in every language.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AreaDoc {
    /// GeoNames id.
    #[schema(value_type = i64)]
    pub id: CityId,
    pub name: String,
    /// Keyed by en, es, fr.
    pub name_map: BTreeMap<&'static str, String>,
    /// US or CA.
    pub country: String,
    /// State or province code.
    pub admin_code: String,
}

impl AreaDoc {
    pub fn for_city(id: CityId, lang: Locale) -> Option<AreaDoc> {
        let city = geo::by_id(id)?;
        Some(AreaDoc {
            id,
            name: city.display_name(lang).to_string(),
            name_map: Locale::ALL
                .iter()
                .map(|l| (l.code(), city.display_name(*l).to_string()))
                .collect(),
            country: city.iso.iso().to_string(),
            admin_code: city.admin_code.to_string(),
        })
    }
}

/// Why a card is in its list ("Why am I seeing this?", issue 31, D385): the rule that
/// selected or ranked it, named where the list is made, never guessed from the item
/// afterwards. A list's rule is the reason of every card in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// `local`: from the list's city or within [`geo::NEARBY_KM`] of it (scope city or
    /// nearby).
    NearYou,
    /// `local` widened to the city's state or province (scope state).
    InYourState,
    /// `local` widened to the city's country (scope country).
    InYourCountry,
    /// `latest`: newest first.
    Latest,
    /// `top`: the stories most publishers covered in the last 72 hours.
    Top,
    /// `trends` of the country.
    Trending,
    /// `trends` of the reader's state, which had enough news for its own.
    TrendingInYourState,
    /// The Following feed: a publisher the reader follows.
    FollowedPublisher,
    /// The Your-topics feed: a category or tag the reader follows.
    FollowedTopic,
    /// `category`: in the list's category, newest first.
    InCategory,
    /// `location`: about the list's place or from a publisher there.
    AboutPlace,
    /// `media`: from the list's publisher.
    FromPublisher,
    /// `special`: in the collection.
    InCollection,
    /// Search: matches the words searched for.
    MatchesSearch,
    /// A story's page: another report of the same story.
    SameStory,
    /// A story's page: more from the story's place.
    SamePlace,
    /// A story's page: the story the reader opened.
    Opened,
}

/// SPEC §3 News item as the read API answers it. Every string is `""` rather than null.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct NewsItem {
    #[schema(value_type = i64)]
    pub news_id: NewsId,
    pub title: String,
    pub org_img_url: String,
    pub img_url: String,
    pub thumbnail_url: String,
    pub video_url: String,
    pub voice_url: String,
    /// `""` in lists; sanitised HTML (or text) in `news/detail`.
    pub content: String,
    /// html or text.
    pub content_type: String,
    pub content_total_length: i64,
    pub description: String,
    /// At most 300 characters (SPEC §3 summary rule).
    pub summary: String,
    pub copyrighted: i32,
    /// 1 article, 3 video, 4 audio.
    #[serde(rename = "type")]
    pub news_type: i32,
    /// Milliseconds since 1970.
    pub publish_time: i64,
    pub link_url: String,
    pub author: String,
    /// One of the 13 category ids.
    pub category_id: String,
    /// 0 or 1: the story is covered widely right now.
    pub is_hot: i32,
    pub hot_word_flag: i32,
    pub tags: Vec<String>,
    pub area_list: Vec<AreaDoc>,
    pub read_count: i64,
    pub like_count: i64,
    pub share_count: i64,
    pub comment_count: i64,
    #[schema(value_type = i64)]
    pub media_id: MediaId,
    pub media_name: String,
    pub media_icon: String,
    pub media_home_url: String,
    pub media_follow: i32,
    /// Extension: the detected language (en, es, fr).
    pub lang: String,
    /// Extension: the story cluster (0 = none).
    #[schema(value_type = i64)]
    pub cluster_id: ClusterId,
    /// Extension: items in the cluster (1 = alone).
    pub cluster_size: i64,
    /// Extension: why the item is in this list (D385).
    pub reason: Reason,
}

impl NewsItem {
    /// The API form of a stored row in a list made by the rule `reason`; `now_ms` decides
    /// `is_hot`. Its images (and the `<img>` of HTML content) are addressed through the
    /// image proxy when it is on (D382).
    pub fn from_row(row: NewsRow, lang: Locale, now_ms: i64, reason: Reason, images: &ImageProxy) -> NewsItem {
        let cluster = row.cluster;
        let hot = ingest::cluster::is_hot(
            usize::try_from(cluster.size).unwrap_or(0),
            usize::try_from(cluster.media_count).unwrap_or(0),
            cluster.newest_ms,
            now_ms,
        );
        // A feed's one picture is often all three: signed once (D433).
        let img_url = images.url(&row.img_url);
        let same_as_img = |url: &str| {
            if url == row.img_url {
                img_url.clone()
            } else {
                images.url(url)
            }
        };
        let org_img_url = same_as_img(&row.org_img_url);
        let thumbnail_url = same_as_img(&row.thumbnail_url);
        NewsItem {
            news_id: row.news_id,
            title: row.title,
            org_img_url,
            img_url,
            thumbnail_url,
            video_url: row.video_url,
            voice_url: row.voice_url,
            content: if row.content_type == "html" {
                images.html(&crate::stored_html::served(&row.content))
            } else {
                row.content
            },
            content_type: row.content_type,
            content_total_length: row.content_total_length,
            description: row.description,
            summary: row.summary,
            copyrighted: 0,
            news_type: row.news_type,
            publish_time: row.publish_time_ms,
            link_url: row.link_url,
            author: row.author,
            category_id: row.category_id,
            is_hot: i32::from(hot),
            hot_word_flag: 0,
            tags: row.tags,
            area_list: row
                .city_ids
                .iter()
                .filter_map(|id| AreaDoc::for_city(*id, lang))
                .collect(),
            read_count: row.read_count,
            like_count: row.like_count,
            share_count: row.share_count,
            comment_count: row.comment_count,
            media_id: row.media_id,
            media_name: row.media_name,
            media_icon: images.url(&row.media_icon),
            media_home_url: row.media_home_url,
            media_follow: 0,
            lang: row.lang,
            cluster_id: row.cluster_id,
            cluster_size: cluster.size.max(1),
            reason,
        }
    }
}

/// SPEC §3 Media source (publisher).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct MediaDoc {
    #[schema(value_type = i64)]
    pub media_id: MediaId,
    pub name: String,
    pub icon_url: String,
    pub home_url: String,
    pub about: String,
    pub contact: String,
    pub category_id: String,
    pub category_top_id: String,
    /// Country (US, CA).
    pub area1: String,
    /// State or province code.
    pub area2: String,
    /// City name.
    pub area3: String,
    /// 1 when the reader who asked follows it (D270), else 0.
    pub follow_status: i32,
    /// The city's GeoNames id (0 when unknown).
    #[schema(value_type = i64)]
    pub city_id: CityId,
    pub lang: String,
    /// Items stored from this publisher.
    pub item_count: i64,
}

impl MediaDoc {
    /// The API form of a stored publisher, its icon through the image proxy (D382).
    pub fn new(m: MediaSource, images: &ImageProxy) -> MediaDoc {
        MediaDoc {
            media_id: m.media_id,
            name: m.name,
            icon_url: images.url(&m.icon_url),
            home_url: m.home_url,
            about: m.about,
            contact: m.contact,
            category_id: m.category_id,
            category_top_id: m.category_top_id,
            area1: m.country,
            area2: m.admin_code,
            area3: m.city,
            follow_status: 0,
            city_id: m.city_id,
            lang: m.lang,
            item_count: m.item_count,
        }
    }
}

/// Where the next page starts. Opaque to clients: base64url of a short text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageToken {
    /// Newest-first lists: the last item consumed, and for `local` the scope in use.
    Keyset { scope: char, after: After },
    /// Ranked lists (top, search): how many rows were consumed.
    Offset(i64),
}

/// Scope letters in keyset tokens; `k` for lists without a scope.
pub const PLAIN: char = 'k';

/// Largest offset a ranked list pages to.
pub const MAX_OFFSET: i64 = 10_000;

impl PageToken {
    pub fn encode(self) -> String {
        let text = match self {
            PageToken::Keyset { scope, after } => format!("{scope}{}.{}", after.publish_time_ms, after.news_id),
            PageToken::Offset(n) => format!("o{n}"),
        };
        URL_SAFE_NO_PAD.encode(text)
    }

    /// A token from a previous page, or a 400 naming `page_token`.
    pub fn decode(raw: &str) -> Result<PageToken, ApiError> {
        let invalid = || bad("page_token", "is not a token from a previous page.");
        if raw.len() > 64 {
            return Err(invalid());
        }
        let bytes = URL_SAFE_NO_PAD.decode(raw).map_err(|_| invalid())?;
        let text = String::from_utf8(bytes).map_err(|_| invalid())?;
        let mut chars = text.chars();
        let kind = chars.next().ok_or_else(invalid)?;
        let rest = chars.as_str();
        let number = |s: &str| -> Result<i64, ApiError> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                return Err(invalid());
            }
            s.parse::<i64>().map_err(|_| invalid())
        };
        if kind == 'o' {
            let n = number(rest)?;
            return if (0..=MAX_OFFSET).contains(&n) {
                Ok(PageToken::Offset(n))
            } else {
                Err(invalid())
            };
        }
        let (time, id) = rest.split_once('.').ok_or_else(invalid)?;
        let after = After {
            publish_time_ms: number(time)?,
            news_id: NewsId(number(id)?),
        };
        if after.news_id.0 <= 0 {
            return Err(invalid());
        }
        Ok(PageToken::Keyset { scope: kind, after })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_are_opaque() {
        for t in [
            PageToken::Offset(40),
            PageToken::Keyset {
                scope: 'n',
                after: After {
                    publish_time_ms: 1_763_640_000_000,
                    news_id: NewsId(1042),
                },
            },
            PageToken::Keyset {
                scope: PLAIN,
                after: After {
                    publish_time_ms: -5,
                    news_id: NewsId(1),
                },
            },
        ] {
            let s = t.encode();
            assert!(
                s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{s}"
            );
            assert_eq!(PageToken::decode(&s).unwrap(), t);
        }
    }

    #[test]
    fn malformed_tokens_are_refused() {
        for raw in [
            "",
            "!!",
            "abc",
            &URL_SAFE_NO_PAD.encode("o-1"),
            &URL_SAFE_NO_PAD.encode("k12"),
            &URL_SAFE_NO_PAD.encode("k1.0"),
            &URL_SAFE_NO_PAD.encode("k1.x"),
            &URL_SAFE_NO_PAD.encode("o99999999"),
            &"A".repeat(100),
        ] {
            let err = PageToken::decode(raw).unwrap_err();
            assert!(err.to_string().contains("page_token"), "{raw}");
        }
    }
}
