//! A feed as the three formats share it: what a page's list says, in the page's language.

use crate::news_api::categories::category_name;
use crate::pages::data::{absolute_url, main_image_of};
use crate::pages::locale::localized_path;
use domain::i18n::t;
use domain::locale::Locale;
use serde_json::Value;

/// One list, ready to be written as RSS, Atom or JSON Feed.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedDoc {
    /// "Latest news · Localwire".
    pub title: String,
    pub description: String,
    pub language: Locale,
    /// The page the feed follows, absolute.
    pub page_url: String,
    /// The feed's own address, absolute.
    pub feed_url: String,
    /// This site's address (icons).
    pub base: String,
    /// The newest entry's time; the time it was made when it has none.
    pub updated_ms: i64,
    pub entries: Vec<Entry>,
}

/// One story of the list.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The story's page on this site: its link and its stable id.
    pub url: String,
    pub title: String,
    pub summary: String,
    pub published_ms: i64,
    /// The writer when the publisher names one.
    pub author: Option<String>,
    pub publisher: String,
    /// The publisher's own page of the story.
    pub source_url: Option<String>,
    pub image: Option<String>,
    /// The category's name in the feed's language.
    pub category: Option<String>,
    pub tags: Vec<String>,
    /// A video or audio story's file.
    pub enclosure: Option<Enclosure>,
    pub language: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Enclosure {
    pub url: String,
    pub mime: &'static str,
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().trim().to_string()
}

/// The media type of a story's file, by its extension, else by the story's type.
fn media_type(url: &str, video: bool) -> &'static str {
    let path = url.split(['?', '#']).next().unwrap_or_default().to_ascii_lowercase();
    let ext = path.rsplit('.').next().unwrap_or_default();
    match ext {
        "mp4" | "m4v" => "video/mp4",
        "webm" => "video/webm",
        "mov" => "video/quicktime",
        "mp3" => "audio/mpeg",
        "m4a" | "aac" => "audio/mp4",
        "ogg" | "oga" | "opus" => "audio/ogg",
        "wav" => "audio/wav",
        _ if video => "video/mp4",
        _ => "audio/mpeg",
    }
}

/// A feed entry from a news item as the read API answers it (§3 fields).
pub fn entry(news: &Value, base: &str, language: Locale) -> Option<Entry> {
    let id = news["news_id"].as_i64().filter(|id| *id > 0)?;
    let url = format!("{base}{}", localized_path(language, &format!("/article/{id}")));
    let author = Some(text(&news["author"])).filter(|a| !a.is_empty());
    let category = news["category_id"]
        .as_str()
        .and_then(|c| category_name(c, language))
        .map(str::to_string);
    // §3: video when type is 3, audio when 4.
    let enclosure = match news["type"].as_i64() {
        Some(3) => Some((text(&news["video_url"]), true)),
        Some(4) => Some((text(&news["voice_url"]), false)),
        _ => None,
    }
    .and_then(|(file, video)| {
        let url = absolute_url(&file, base)?;
        Some(Enclosure {
            mime: media_type(&url, video),
            url,
        })
    });
    Some(Entry {
        url,
        title: text(&news["title"]),
        summary: text(&news["summary"]),
        published_ms: news["publish_time"].as_i64().unwrap_or_default(),
        author,
        publisher: text(&news["media_name"]),
        source_url: absolute_url(&text(&news["link_url"]), base),
        image: absolute_url(main_image_of(news), base),
        category,
        tags: news["tags"]
            .as_array()
            .map(|tags| tags.iter().map(text).filter(|t| !t.is_empty()).collect())
            .unwrap_or_default(),
        enclosure,
        language: text(&news["lang"]),
    })
}

/// "{name} · Localwire", as the page's `<title>` reads.
pub fn titled(name: &str, language: Locale) -> String {
    format!("{name} · {}", t(language, "App_Name"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn d376_an_entry_links_the_story_on_this_site_in_the_feeds_language() {
        let news = json!({
            "news_id": 42, "title": " Council votes ", "summary": "It passed.", "publish_time": 1_000,
            "author": "", "media_name": "The Ledger", "link_url": "https://ledger.example/a",
            "org_img_url": "", "img_url": "/demo/media/images/a.jpg", "category_id": "politics",
            "tags": ["Budget", ""], "type": 1, "lang": "es"
        });
        let e = entry(&news, "https://news.example", Locale::Es).unwrap();
        assert_eq!(e.url, "https://news.example/es/article/42");
        assert_eq!(e.title, "Council votes");
        assert_eq!(e.author, None);
        assert_eq!(e.source_url.as_deref(), Some("https://ledger.example/a"));
        assert_eq!(e.image.as_deref(), Some("https://news.example/demo/media/images/a.jpg"));
        assert_eq!(e.category.as_deref(), Some("Política"));
        assert_eq!(e.tags, ["Budget"]);
        assert_eq!(e.enclosure, None);
    }

    #[test]
    fn d376_video_and_audio_stories_carry_their_file_with_its_media_type() {
        let video = json!({"news_id": 1, "type": 3, "video_url": "https://v.example/a.webm?x=1"});
        let e = entry(&video, "https://news.example", Locale::En).unwrap();
        assert_eq!(
            e.enclosure,
            Some(Enclosure {
                url: "https://v.example/a.webm?x=1".into(),
                mime: "video/webm"
            })
        );
        let audio = json!({"news_id": 2, "type": 4, "voice_url": "/demo/media/audio/b"});
        let e = entry(&audio, "https://news.example", Locale::En).unwrap();
        assert_eq!(e.enclosure.unwrap().mime, "audio/mpeg");
        assert!(entry(&json!({"news_id": 0}), "https://news.example", Locale::En).is_none());
    }
}
