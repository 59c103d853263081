//! Raw items → clean items: sanitised HTML (allow-list), absolute URLs without
//! tracking parameters or pixels, plain-text title and the SPEC §3 summary, the
//! images, video and audio of SPEC §3, a language, and a stable identity.

use crate::parse::RawItem;
use domain::constants::{NEWS_TYPE_AUDIO, NEWS_TYPE_VIDEO, SUMMARY_MAX_CHARS};
use std::collections::HashSet;
use std::sync::LazyLock;
use url::Url;

/// News type of a plain article (SPEC §9.3 names only video 3 and audio 4).
pub const NEWS_TYPE_ARTICLE: i32 = 1;
const MAX_TITLE_CHARS: usize = 300;
const MAX_TAGS: usize = 20;

/// What the pipeline knows around an item.
#[derive(Debug, Clone)]
pub struct CleanContext<'a> {
    /// The feed's address, to resolve relative links.
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

/// Query parameters that only track readers; dropped from every URL we keep.
const TRACKING_PARAMS: [&str; 16] = [
    "fbclid",
    "gclid",
    "gbraid",
    "wbraid",
    "dclid",
    "msclkid",
    "mc_cid",
    "mc_eid",
    "_hsenc",
    "_hsmi",
    "igshid",
    "yclid",
    "twclid",
    "ttclid",
    "mkt_tok",
    "oly_enc_id",
];

fn is_tracking_param(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("utm_") || TRACKING_PARAMS.contains(&lower.as_str())
}

/// An absolute http(s) URL without tracking parameters or fragment-only noise;
/// `None` for anything else (javascript:, data:, garbage).
pub fn clean_url(raw: &str, base: Option<&Url>) -> Option<String> {
    let raw = raw.trim();
    if raw.is_empty() || raw.len() > 2048 {
        return None;
    }
    let url = match base {
        Some(base) => base.join(raw).ok()?,
        None => Url::parse(raw).ok()?,
    };
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return None;
    }
    let mut url = url;
    let kept: Vec<(String, String)> = url
        .query_pairs()
        .filter(|(k, _)| !is_tracking_param(k))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    if kept.is_empty() {
        url.set_query(None);
    } else if url.query_pairs().count() != kept.len() {
        url.query_pairs_mut().clear().extend_pairs(kept);
    }
    Some(url.to_string())
}

/// Known tracking-pixel hosts and paths.
fn is_tracking_pixel(src: &str) -> bool {
    const MARKERS: [&str; 9] = [
        "feeds.feedburner.com/~r/",
        "feedburner.com/~ff/",
        "doubleclick.net",
        "google-analytics.com",
        "stats.wp.com",
        "/pixel",
        "pixel.",
        "/track/open",
        "/beacon",
    ];
    let lower = src.to_ascii_lowercase();
    MARKERS.iter().any(|m| lower.contains(m))
}

static TAGS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    [
        "a",
        "abbr",
        "b",
        "blockquote",
        "br",
        "caption",
        "cite",
        "code",
        "dd",
        "del",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "ins",
        "kbd",
        "li",
        "mark",
        "ol",
        "p",
        "pre",
        "q",
        "s",
        "small",
        "strong",
        "sub",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "time",
        "tr",
        "u",
        "ul",
    ]
    .into_iter()
    .collect()
});

/// Sanitise feed HTML: an allow-list of tags and attributes, absolute URLs, links that
/// open safely, no tracking parameters, no tracking pixels.
pub fn sanitize_html(html: &str, base: Option<&Url>) -> String {
    let base_for_filter = base.cloned();
    let mut builder = ammonia::Builder::default();
    builder
        .tags(TAGS.clone())
        .tag_attributes(
            [
                ("a", ["href", "title"].into_iter().collect()),
                ("img", ["src", "alt", "width", "height"].into_iter().collect()),
            ]
            .into_iter()
            .collect(),
        )
        .generic_attributes(HashSet::new())
        .url_schemes(["http", "https", "mailto"].into_iter().collect())
        .link_rel(Some("noopener noreferrer nofollow ugc"))
        .attribute_filter(move |element, attribute, value| match (element, attribute) {
            ("a", "href") if value.starts_with("mailto:") => Some(value.into()),
            ("a", "href") => clean_url(value, base_for_filter.as_ref()).map(Into::into),
            ("img", "src") if is_tracking_pixel(value) => None,
            ("img", "src") => clean_url(value, base_for_filter.as_ref()).map(Into::into),
            _ => Some(value.into()),
        });
    let cleaned = builder.clean(html).to_string();
    drop_empty_images(&cleaned)
}

/// Remove `<img>` elements left without a source (pixels, bad URLs) or sized 1×1.
fn drop_empty_images(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<img") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find('>') else {
            rest = &rest[start..];
            break;
        };
        let tag = &rest[start..start + len + 1];
        let pixel = tag.contains("width=\"1\"") && tag.contains("height=\"1\"");
        if tag.contains(" src=\"") && !pixel {
            out.push_str(tag);
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// Plain text of (sanitised or raw) HTML: tags removed (their text kept, except
/// script and style), block boundaries as spaces, entities decoded, whitespace
/// collapsed.
pub fn html_to_text(html: &str) -> String {
    let stripped = ammonia::Builder::empty()
        .clean(&mark_block_boundaries(html))
        .to_string();
    collapse_whitespace(&decode_entities(&stripped))
}

/// A space before every block-level tag, so "<p>a</p><p>b</p>" reads "a b".
fn mark_block_boundaries(html: &str) -> String {
    const BLOCKS: [&str; 22] = [
        "p",
        "br",
        "div",
        "li",
        "ul",
        "ol",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "tr",
        "td",
        "th",
        "blockquote",
        "section",
        "article",
        "figure",
        "figcaption",
        "table",
        "hr",
    ];
    let mut out = String::with_capacity(html.len() + 32);
    for (i, c) in html.char_indices() {
        if c == '<' {
            let name: String = html[i + 1..]
                .trim_start_matches('/')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect::<String>()
                .to_ascii_lowercase();
            if BLOCKS.contains(&name.as_str()) {
                out.push(' ');
            }
        }
        out.push(c);
    }
    out
}

/// Decode the entities an HTML serializer emits, plus numeric ones.
pub fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let end = after.find(';').filter(|&e| e <= 10);
        let decoded = end.and_then(|e| {
            let name = &after[..e];
            let ch = match name {
                "amp" => Some('&'),
                "lt" => Some('<'),
                "gt" => Some('>'),
                "quot" => Some('"'),
                "apos" | "#39" => Some('\''),
                "nbsp" => Some(' '),
                _ => name
                    .strip_prefix("#x")
                    .or_else(|| name.strip_prefix("#X"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .or_else(|| name.strip_prefix('#').and_then(|d| d.parse().ok()))
                    .and_then(char::from_u32),
            };
            ch.map(|c| (c, e))
        });
        match decoded {
            Some((c, e)) => {
                out.push(c);
                rest = &after[e + 1..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

pub fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// SPEC §3 / §9.6: at most `max` characters, cut on a word boundary with an ellipsis
/// when shortened (the ellipsis counts towards the limit).
pub fn cut_on_word(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let room: String = text.chars().take(max.saturating_sub(1)).collect();
    let cut = match room.rfind(char::is_whitespace) {
        Some(i) if i > room.len() / 2 => room[..i].trim_end().to_string(),
        _ => room.trim_end().to_string(),
    };
    let cut = cut.trim_end_matches([',', ';', ':', '-', '–', '—']).to_string();
    format!("{cut}…")
}

/// SPEC §3 summary rule.
pub fn summary_of(content_text: &str) -> String {
    cut_on_word(&collapse_whitespace(content_text), SUMMARY_MAX_CHARS)
}

fn detect_language(text: &str, hint: Option<&str>) -> String {
    let hint = hint
        .map(|h| h.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase())
        .filter(|h| matches!(h.as_str(), "en" | "es" | "fr"));
    let detected = whatlang::detect(text).and_then(|info| {
        let code = match info.lang() {
            whatlang::Lang::Eng => "en",
            whatlang::Lang::Spa => "es",
            whatlang::Lang::Fra => "fr",
            _ => return None,
        };
        // Short texts are unreliable: trust the detector over the hint only when sure.
        (info.is_reliable() || hint.is_none()).then(|| code.to_string())
    });
    detected.or(hint).unwrap_or_else(|| "en".to_string())
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
    let start = html.find("<img")?;
    let tag = &html[start..start + html[start..].find('>')?];
    let src = tag.split(" src=\"").nth(1)?;
    Some(decode_entities(&src[..src.find('"')?]))
}

/// Clean one item; `None` when it has neither a usable title nor a link.
pub fn clean_item(raw: &RawItem, ctx: &CleanContext<'_>) -> Option<CleanItem> {
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
    let content_text = html_to_text(&content);
    let description = raw.summary_html.as_deref().map(html_to_text).unwrap_or_default();
    let summary_source = if content_text.is_empty() {
        description.as_str()
    } else {
        content_text.as_str()
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
    Some(CleanItem {
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
    })
}
