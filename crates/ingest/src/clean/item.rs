//! One raw item to a clean item: the plain-text title and the SPEC §3 summary, sanitised
//! content, the images, video and audio of SPEC §3, a language, and a stable identity.

use super::html_text::{html_to_text, sanitized_texts};
use super::language::detect_language;
use super::markup::decode_entities;
use super::sanitize::sanitize_html;
use super::urls::clean_url;
use crate::parse::RawItem;
use domain::constants::{NEWS_TYPE_AUDIO, NEWS_TYPE_VIDEO};
use domain::text::{collapse_whitespace, cut_on_word, summary_of};
use std::collections::HashSet;
use url::Url;

/// News type of a plain article (SPEC §9.3 names only video 3 and audio 4).
pub const NEWS_TYPE_ARTICLE: i32 = 1;
const MAX_TITLE_CHARS: usize = 300;
const MAX_TAGS: usize = 20;

/// What the pipeline knows around an item.
#[derive(Debug, Clone)]
pub struct CleanContext<'a> {
    /// What relative links resolve against: the parsed feed's `base_url` (D170).
    pub base_url: Option<&'a Url>,
    /// The feed's or publisher's language (en, es, fr), a hint for detection.
    pub language_hint: Option<&'a str>,
    /// When the item was fetched: its publish time if the feed gives none.
    pub fetched_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct CleanItem {
    /// Stable identity within a feed: the GUID, else the canonical link, else a hash
    /// of title and date.
    pub identity: String,
    pub title: String,
    pub link_url: Option<String>,
    pub author: String,
    /// Sanitised HTML, safe to render.
    pub content: String,
    /// Length of the content's text, in characters (SPEC content_total_length).
    pub content_total_length: usize,
    /// The feed's own description as plain text.
    pub description: String,
    /// SPEC §3: from the content (else the description), tags stripped, whitespace
    /// collapsed, at most 300 characters, cut on a word.
    pub summary: String,
    pub org_img_url: Option<String>,
    pub img_url: Option<String>,
    pub thumbnail_url: Option<String>,
    pub video_url: Option<String>,
    pub voice_url: Option<String>,
    pub news_type: i32,
    pub publish_time_ms: i64,
    pub tags: Vec<String>,
    pub lang: String,
}

/// A stable identity for an item whose feed gives no GUID.
fn fallback_identity(link: Option<&str>, title: &str, published_ms: Option<i64>) -> String {
    match link {
        Some(link) => format!("link:{link}"),
        None => {
            // FNV-1a: stable across runs and versions, unlike std's hasher.
            let mut h: u64 = 0xcbf2_9ce4_8422_2325;
            for b in title.bytes().chain(published_ms.unwrap_or(0).to_le_bytes()) {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
            format!("hash:{h:016x}")
        }
    }
}

fn first_content_image(html: &str) -> Option<String> {
    // The sanitiser writes every attribute as name="value", with quotes escaped inside
    // values: reading the tag attribute by attribute is exact, where looking for ` src="`
    // was not (another attribute's value may end in "src=": found by fuzzing, issue 29).
    let start = html.find("<img ")?;
    let mut rest = &html[start + "<img ".len()..];
    loop {
        rest = rest.trim_start_matches(' ');
        let name_end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))?;
        let (name, after) = rest.split_at(name_end);
        let value = after.strip_prefix("=\"")?;
        let value_end = value.find('"')?;
        if name == "src" {
            return Some(decode_entities(&value[..value_end]));
        }
        rest = &value[value_end + 1..];
    }
}

/// Clean one item; `None` when it has neither a usable title nor a link.
pub fn clean_item(raw: &RawItem, ctx: &CleanContext<'_>) -> Option<CleanItem> {
    clean_item_with_text(raw, ctx).map(|(item, _)| item)
}

/// [`clean_item`], plus the plain text of the cleaned content (what `html_to_text` gives
/// for `item.content`), for the stages after cleaning (geotagging) to reuse.
pub fn clean_item_with_text(raw: &RawItem, ctx: &CleanContext<'_>) -> Option<(CleanItem, String)> {
    let base = ctx.base_url;
    let title = if raw.title_is_html || raw.title.contains('<') || raw.title.contains('&') {
        html_to_text(&raw.title)
    } else {
        collapse_whitespace(&raw.title)
    };
    let title = cut_on_word(&title, MAX_TITLE_CHARS);
    let link_url = raw.link.as_deref().and_then(|l| clean_url(l, base));
    if title.is_empty() && link_url.is_none() {
        return None;
    }
    let content_source = raw
        .content_html
        .as_deref()
        .or(raw.summary_html.as_deref())
        .unwrap_or("");
    let content = sanitize_html(content_source, base);
    // A summary reads the story, not its image captions.
    let (content_text, uncaptioned) = sanitized_texts(&content);
    let description = raw.summary_html.as_deref().map(html_to_text).unwrap_or_default();
    let summary_source = if content_text.is_empty() {
        description.as_str()
    } else {
        uncaptioned.as_deref().unwrap_or(content_text.as_str())
    };
    let summary = summary_of(summary_source);

    let url = |u: &String| clean_url(u, base);
    let org_img_url = raw.images.iter().find_map(url);
    let thumbnail_url = raw.thumbnails.iter().find_map(url);
    let img_url = first_content_image(&content)
        .or_else(|| org_img_url.clone())
        .or_else(|| thumbnail_url.clone());
    let video_url = raw.videos.iter().find_map(url);
    let voice_url = raw.audios.iter().find_map(url);
    let news_type = if video_url.is_some() {
        NEWS_TYPE_VIDEO
    } else if voice_url.is_some() {
        NEWS_TYPE_AUDIO
    } else {
        NEWS_TYPE_ARTICLE
    };

    let mut seen = HashSet::new();
    let tags: Vec<String> = raw
        .categories
        .iter()
        .map(|c| cut_on_word(&collapse_whitespace(&decode_entities(c)), 60))
        .filter(|c| !c.is_empty() && seen.insert(c.to_lowercase()))
        .take(MAX_TAGS)
        .collect();
    let lang_sample = format!("{title} {}", summary);
    let lang = detect_language(&lang_sample, raw.language.as_deref().or(ctx.language_hint));
    let identity = match &raw.guid {
        Some(g) => format!("guid:{}", g.chars().take(512).collect::<String>()),
        None => fallback_identity(link_url.as_deref(), &title, raw.published_ms),
    };
    let item = CleanItem {
        identity,
        title,
        link_url,
        author: collapse_whitespace(&decode_entities(raw.author.as_deref().unwrap_or(""))),
        content_total_length: content_text.chars().count(),
        content,
        description,
        summary,
        org_img_url,
        img_url,
        thumbnail_url,
        video_url,
        voice_url,
        news_type,
        publish_time_ms: raw.published_ms.or(raw.updated_ms).unwrap_or(ctx.fetched_at_ms),
        tags,
        lang,
    };
    Some((item, content_text))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by `feed_parse_clean` (issue 29): a height whose value ends in "src=" gave
    /// the story the image address `" width="`.
    #[test]
    fn the_first_image_is_read_from_its_src_attribute_not_from_text_in_another_value() {
        let sanitised = "<p></p><img height=\"//paper.example/&lt;title&gt;Plan&lt;/timg src=\" width=\"1\">";
        assert_eq!(first_content_image(sanitised), None);
        assert_eq!(
            first_content_image("<img alt=\"a src=&quot;x\" src=\"https://p.example/a.jpg?w=1&amp;h=2\" width=\"3\">"),
            Some("https://p.example/a.jpg?w=1&h=2".into())
        );
        assert_eq!(first_content_image("<p>no image</p>"), None);
        assert_eq!(
            first_content_image("<img src=\"https://p.example/b.png\">"),
            Some("https://p.example/b.png".into())
        );
    }
}
