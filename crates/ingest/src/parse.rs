//! Feed bytes → raw items. RSS 0.9x/1.0/2.0, Atom and JSON Feed via feed-rs, with
//! Media RSS, enclosures and iTunes tags folded into image/video/audio candidates.
//! Nothing here is trusted yet: `clean` sanitises every field.

use crate::feed_base;
use feed_rs::model::{Entry, Feed, FeedType, Link, MediaObject, Text};

/// Which format a feed came in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FeedFormat {
    Atom,
    Json,
    Rss0,
    Rss1,
    Rss2,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ParsedFeed {
    pub format: FeedFormat,
    pub title: String,
    /// The feed's declared language, if any (a hint for detection).
    pub language: Option<String>,
    /// The site the feed belongs to.
    pub home_url: Option<String>,
    /// What the feed's relative references resolve against (D170): the feed-level
    /// `xml:base`, else the site link when absolute, else the fetch address. Links
    /// and media are already resolved; cleaning resolves the content's with it.
    pub base_url: Option<String>,
    pub items: Vec<RawItem>,
}

/// One entry as the feed states it. HTML fields are unsanitised.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RawItem {
    /// The feed's own id/GUID; `None` when the feed gave none.
    pub guid: Option<String>,
    /// Title as given (may contain markup or entities).
    pub title: String,
    pub title_is_html: bool,
    pub link: Option<String>,
    pub published_ms: Option<i64>,
    pub updated_ms: Option<i64>,
    pub author: Option<String>,
    pub summary_html: Option<String>,
    pub content_html: Option<String>,
    pub categories: Vec<String>,
    /// Thumbnails (media:thumbnail, iTunes image), in feed order.
    pub thumbnails: Vec<String>,
    /// Full-size images (media:content / enclosures of an image type).
    pub images: Vec<String>,
    pub videos: Vec<String>,
    pub audios: Vec<String>,
    pub language: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("not a feed this reader understands (RSS, Atom or JSON Feed): {0}")]
    Unreadable(String),
    #[error("refused: the feed declares XML entities (<!ENTITY>), the shape of an entity-expansion attack")]
    EntityDeclaration,
}

/// A document type declaration with entities before the root element. No feed needs
/// one, and expanding them is how "billion laughs" attacks work, so such feeds are
/// refused outright rather than parsed with entities left literal.
fn declares_entities(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    let Some(doctype) = head.windows(9).position(|w| w.eq_ignore_ascii_case(b"<!DOCTYPE")) else {
        return false;
    };
    head[doctype..].windows(8).any(|w| w.eq_ignore_ascii_case(b"<!ENTITY"))
}

/// Parse feed bytes fetched from `fetched_from`. Relative links resolve by D170's
/// rule (see [`crate::feed_base`]); [`ParsedFeed::base_url`] carries the base on.
pub fn parse_feed(bytes: &[u8], fetched_from: Option<&str>) -> Result<ParsedFeed, ParseError> {
    if declares_entities(bytes) {
        return Err(ParseError::EntityDeclaration);
    }
    let is_json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let declared = if is_json {
        feed_base::Declared::default()
    } else {
        feed_base::declared(bytes)
    };
    let site_base = feed_base::site_or_fetched(declared.site_link.as_deref(), fetched_from);
    // A missing id must stay missing: feed-rs would otherwise invent one, sometimes a
    // random UUID, which would defeat de-duplication across fetches.
    let parser = feed_rs::parser::Builder::new()
        .base_uri(site_base.as_deref())
        .id_generator(|_, _, _| String::new())
        .sanitize_content(false)
        .build();
    let feed = parser.parse(bytes).map_err(|e| ParseError::Unreadable(e.to_string()))?;
    let mut parsed = convert(feed);
    // JSON Feed has no xml:base and feed-rs resolves none of its links: its items are
    // resolved while cleaning, against `home_page_url` when that is absolute.
    parsed.base_url = match parsed.format {
        FeedFormat::Json => feed_base::site_or_fetched(parsed.home_url.as_deref(), fetched_from),
        _ => feed_base::with_xml_base(site_base, declared.xml_base.as_deref()),
    };
    let extras = match parsed.format {
        FeedFormat::Json => crate::media_extras::json_images(bytes),
        _ => crate::media_extras::xml_thumbnails(bytes),
    };
    if let Some(extras) = extras.filter(|e| e.len() == parsed.items.len()) {
        for (item, urls) in parsed.items.iter_mut().zip(extras) {
            for url in urls {
                if !item.thumbnails.contains(&url) {
                    item.thumbnails.push(url);
                }
            }
        }
    }
    Ok(parsed)
}

fn text(t: &Option<Text>) -> Option<String> {
    t.as_ref()
        .map(|t| t.content.trim().to_string())
        .filter(|s| !s.is_empty())
}

fn convert(feed: Feed) -> ParsedFeed {
    let format = match feed.feed_type {
        FeedType::Atom => FeedFormat::Atom,
        FeedType::JSON => FeedFormat::Json,
        FeedType::RSS0 => FeedFormat::Rss0,
        FeedType::RSS1 => FeedFormat::Rss1,
        FeedType::RSS2 => FeedFormat::Rss2,
    };
    let home_url = feed
        .links
        .iter()
        .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate"))
        .map(|l| l.href.clone());
    ParsedFeed {
        format,
        title: text(&feed.title).unwrap_or_default(),
        language: feed.language.clone().filter(|l| !l.trim().is_empty()),
        home_url,
        base_url: None,
        items: feed.entries.into_iter().map(|e| convert_entry(e, format)).collect(),
    }
}

/// A link that carries the entry's media rather than pointing at its page: Atom and
/// RSS enclosures, and JSON Feed attachments (which feed-rs gives as links with a MIME
/// type; an item's `url` and `external_url` have none).
fn is_attachment(link: &Link, format: FeedFormat) -> bool {
    link.rel.as_deref() == Some("enclosure") || (format == FeedFormat::Json && link.media_type.is_some())
}

fn convert_entry(entry: Entry, format: FeedFormat) -> RawItem {
    let mut item = RawItem {
        guid: Some(entry.id.trim().to_string()).filter(|id| !id.is_empty()),
        title_is_html: entry
            .title
            .as_ref()
            .is_some_and(|t| t.content_type.subty().as_str() == "html"),
        title: text(&entry.title).unwrap_or_default(),
        link: entry
            .links
            .iter()
            .find(|l| l.rel.as_deref().is_none_or(|r| r == "alternate") && !is_attachment(l, format))
            .map(|l| l.href.trim().to_string())
            .filter(|h| !h.is_empty()),
        published_ms: entry.published.map(|d| d.timestamp_millis()),
        updated_ms: entry.updated.map(|d| d.timestamp_millis()),
        author: entry
            .authors
            .iter()
            .find_map(|p| p.name.clone())
            .map(|n| n.trim().to_string())
            .filter(|n| !n.is_empty()),
        summary_html: text(&entry.summary),
        content_html: entry
            .content
            .as_ref()
            .and_then(|c| c.body.clone())
            .filter(|b| !b.trim().is_empty()),
        categories: entry
            .categories
            .iter()
            .map(|c| c.label.clone().unwrap_or_else(|| c.term.clone()).trim().to_string())
            .filter(|c| !c.is_empty())
            .collect(),
        language: entry.language.clone(),
        ..RawItem::default()
    };
    for media in &entry.media {
        collect_media(media, &mut item);
    }
    // Atom enclosures and JSON Feed attachments arrive as links: the same rule as
    // Media RSS and RSS enclosures (SPEC §3: a video makes type 3, audio type 4).
    for link in entry.links.iter().filter(|l| is_attachment(l, format)) {
        push_by_type(link.media_type.as_deref().unwrap_or(""), &link.href, &mut item);
    }
    item
}

/// File `url` under images, videos or audios by its declared type, or by its
/// extension when the type is missing or says nothing (`application/octet-stream`).
fn push_by_type(content_type: &str, url: &str, item: &mut RawItem) {
    let url = url.trim().to_string();
    if url.is_empty() {
        return;
    }
    let declared = content_type.trim().split('/').next().unwrap_or("").to_ascii_lowercase();
    let kind = if matches!(declared.as_str(), "image" | "video" | "audio") {
        declared
    } else {
        guess_type(&url).split('/').next().unwrap_or("").to_string()
    };
    let bucket = match kind.as_str() {
        "image" => &mut item.images,
        "video" => &mut item.videos,
        "audio" => &mut item.audios,
        _ => return,
    };
    if !bucket.contains(&url) {
        bucket.push(url);
    }
}

fn collect_media(media: &MediaObject, item: &mut RawItem) {
    for thumb in &media.thumbnails {
        let uri = thumb.image.uri.trim().to_string();
        if !uri.is_empty() && !item.thumbnails.contains(&uri) {
            item.thumbnails.push(uri);
        }
    }
    for content in &media.content {
        let Some(url) = &content.url else { continue };
        let kind = content.content_type.as_ref().map(|t| t.to_string()).unwrap_or_default();
        push_by_type(&kind, url.as_str(), item);
    }
}

/// A content type from a file extension, for media given without one.
fn guess_type(url: &str) -> String {
    let path = url.split(['?', '#']).next().unwrap_or("").to_ascii_lowercase();
    let ext = path.rsplit('.').next().unwrap_or("");
    match ext {
        "jpg" | "jpeg" | "png" | "gif" | "webp" | "avif" | "svg" => "image/*",
        "mp4" | "webm" | "m4v" | "mov" => "video/*",
        "mp3" | "m4a" | "ogg" | "oga" | "opus" | "aac" | "wav" => "audio/*",
        _ => "",
    }
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const RSS: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
<channel><title>Capitol Ledger</title><link>https://ledger.example/</link><language>en-us</language>
<item><title>Council votes</title><link>https://ledger.example/a</link><guid>a-1</guid>
  <pubDate>Fri, 20 Nov 2026 12:00:00 GMT</pubDate><category>Politics</category>
  <description>Short &lt;b&gt;summary&lt;/b&gt;</description>
  <content:encoded><![CDATA[<p>Full <a href="/b">story</a></p>]]></content:encoded>
  <media:content url="https://img.example/full.jpg" type="image/jpeg" medium="image"/>
  <media:thumbnail url="https://img.example/thumb.jpg"/></item>
<item><title>Clip</title><link>https://ledger.example/v</link>
  <media:content url="https://cdn.example/clip.mp4" type="video/mp4" medium="video"/></item>
<item><title>Episode 4</title><guid>ep-4</guid>
  <enclosure url="https://cdn.example/ep4.mp3" length="1000" type="audio/mpeg"/>
  <itunes:image href="https://img.example/ep4.png"/></item>
</channel></rss>"#;

    #[test]
    fn rss_with_media_rss_enclosures_and_itunes() {
        let feed = parse_feed(RSS.as_bytes(), None).unwrap();
        assert_eq!(
            (feed.format, feed.title.as_str(), feed.language.as_deref()),
            (FeedFormat::Rss2, "Capitol Ledger", Some("en-us"))
        );
        assert_eq!(feed.items.len(), 3);
        let a = &feed.items[0];
        assert_eq!((a.guid.as_deref(), a.title.as_str()), (Some("a-1"), "Council votes"));
        assert_eq!(a.published_ms, Some(1_795_176_000_000));
        assert_eq!(a.categories, vec!["Politics".to_string()]);
        assert_eq!(a.images, vec!["https://img.example/full.jpg".to_string()]);
        assert_eq!(a.thumbnails, vec!["https://img.example/thumb.jpg".to_string()]);
        assert!(a.content_html.as_deref().unwrap().contains("<a href="));
        assert_eq!(feed.items[1].videos, vec!["https://cdn.example/clip.mp4".to_string()]);
        assert_eq!(feed.items[1].guid, None, "no GUID stays none");
        assert_eq!(feed.items[2].audios, vec!["https://cdn.example/ep4.mp3".to_string()]);
    }

    #[test]
    fn atom_and_json_feed() {
        let atom = r#"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">
<title>Le Fil</title><link href="https://fil.example/"/><id>urn:fil</id><updated>2026-11-20T12:00:00Z</updated>
<entry><title type="html">Pont &lt;em&gt;ferm&#233;&lt;/em&gt;</title><id>urn:fil:1</id><link href="https://fil.example/1"/>
<updated>2026-11-20T12:00:00Z</updated><content type="html">&lt;p&gt;Texte&lt;/p&gt;</content>
<link rel="enclosure" type="audio/mpeg" href="https://fil.example/1.mp3"/><author><name>Anne</name></author></entry></feed>"#;
        let feed = parse_feed(atom.as_bytes(), None).unwrap();
        assert_eq!(feed.format, FeedFormat::Atom);
        let e = &feed.items[0];
        assert!(e.title_is_html);
        assert_eq!(e.title, "Pont <em>fermé</em>");
        assert_eq!(e.author.as_deref(), Some("Anne"));
        assert_eq!(e.audios, vec!["https://fil.example/1.mp3".to_string()]);

        let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"Río Diario","home_page_url":"https://rio.example/",
            "language":"es","items":[{"id":"r1","url":"https://rio.example/r1","title":"Lluvia","content_html":"<p>Hola</p>",
            "image":"https://rio.example/r1.jpg","date_published":"2026-11-20T12:00:00Z","tags":["Clima"]}]}"#;
        let feed = parse_feed(json.as_bytes(), None).unwrap();
        assert_eq!((feed.format, feed.language.as_deref()), (FeedFormat::Json, Some("es")));
        assert_eq!(feed.items[0].categories, vec!["Clima".to_string()]);
        assert_eq!(feed.items[0].guid.as_deref(), Some("r1"));
    }

    #[test]
    fn not_a_feed_is_a_clear_error() {
        let err = parse_feed(b"<html><body>hello</body></html>", None).unwrap_err();
        assert!(err.to_string().starts_with("not a feed this reader understands"));
        assert!(parse_feed(b"", None).is_err());
        assert!(parse_feed(b"{\"nope\":1}", None).is_err());
    }

    #[test]
    fn guesses_media_types_from_extensions() {
        assert_eq!(guess_type("https://x/a.MP4?x=1"), "video/*");
        assert_eq!(guess_type("https://x/a.mp3"), "audio/*");
        assert_eq!(guess_type("https://x/a.webp"), "image/*");
        assert_eq!(guess_type("https://x/a"), "");
    }
}
