//! Feed bytes → `parse_feed` → `clean_item_with_text` → `places`, as the pipeline runs
//! them (crates/ingest/src/pipeline.rs), with the invariants a reader's safety rests on:
//! sanitised HTML holds only allow-listed tags and attributes, links and images are
//! absolute http(s) (links may also be mailto:), and the SPEC §3 length caps hold.
//! Bytes that are not a feed are cleaned as one item's HTML, and the sanitiser's and the
//! text reader's fast paths (D160) must give the parser's bytes.
#![no_main]

use ingest::clean::{CleanContext, clean_item_with_text, html_to_text, parser_paths, sanitize_html};
use ingest::parse::parse_feed;
use ingest::place::{PublisherArea, places};
use libfuzzer_sys::fuzz_target;
use url::Url;

const FETCHED_FROM: &str = "https://paper.example/news/feed.xml";
const NOW_MS: i64 = 1_763_640_000_000;

/// The sanitiser's own allow-list: its output may hold no other tag.
use ingest::clean::ALLOWED_TAGS as TAGS;
const LINK_REL: &str = "noopener noreferrer nofollow ugc";

fn decode_attribute(v: &str) -> String {
    v.replace("&quot;", "\"")
        .replace("&nbsp;", "\u{a0}")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn absolute_http(url: &str) -> bool {
    let lower = url.to_ascii_lowercase();
    (lower.starts_with("http://") || lower.starts_with("https://")) && Url::parse(url).is_ok()
}

/// Every `<` in sanitised HTML opens an allow-listed tag whose attributes are allowed
/// and whose URLs are safe; text never holds a raw `<`.
fn assert_safe_html(html: &str) {
    let bytes = html.as_bytes();
    let mut i = 0;
    while let Some(off) = html[i..].find('<') {
        let at = i + off;
        let rest = &html[at + 1..];
        let closing = rest.starts_with('/');
        let name_start = at + 1 + usize::from(closing);
        let name_len = html[name_start..].bytes().take_while(u8::is_ascii_alphanumeric).count();
        let name = &html[name_start..name_start + name_len];
        assert!(TAGS.contains(&name), "tag <{name}> outside the allow-list in {html:?}");
        let mut j = name_start + name_len;
        loop {
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            assert!(j < bytes.len(), "unterminated tag in {html:?}");
            if bytes[j] == b'>' {
                j += 1;
                break;
            }
            assert!(!closing, "attributes on an end tag in {html:?}");
            let attr_len = html[j..]
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-')
                .count();
            let attr = &html[j..j + attr_len];
            j += attr_len;
            assert!(
                html[j..].starts_with("=\""),
                "attribute {attr} without a quoted value in {html:?}"
            );
            j += 2;
            let end = j + html[j..].find('"').expect("closing quote");
            let value = decode_attribute(&html[j..end]);
            j = end + 1;
            match (name, attr) {
                ("a", "href") => assert!(
                    absolute_http(&value) || value.starts_with("mailto:"),
                    "unsafe href {value:?} in {html:?}"
                ),
                ("img", "src") => assert!(absolute_http(&value), "unsafe src {value:?} in {html:?}"),
                ("a", "rel") => assert_eq!(value, LINK_REL),
                ("a", "title") | ("img", "alt" | "width" | "height") => {}
                _ => panic!("attribute {attr} on <{name}> outside the allow-list in {html:?}"),
            }
        }
        i = j;
    }
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script") && !lower.contains("<style") && !lower.contains("<iframe"));
}

fn clean_html(html: &str, base: &Url) {
    let fast = sanitize_html(html, Some(base));
    assert_safe_html(&fast);
    assert_eq!(
        fast,
        parser_paths::sanitize_html(html, Some(base)),
        "fast sanitiser differs for {html:?}"
    );
    assert_eq!(
        parser_paths::sanitized_html_text(&fast),
        parser_paths::html_to_text(&fast),
        "fast text of sanitised HTML differs for {fast:?}"
    );
    assert_eq!(
        html_to_text(html),
        parser_paths::html_to_text(html),
        "fast text differs for {html:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(fallback) = Url::parse(FETCHED_FROM) else { return };
    let parsed = match parse_feed(data, Some(FETCHED_FROM)) {
        Ok(parsed) => parsed,
        Err(_) => {
            if let Ok(html) = std::str::from_utf8(data) {
                clean_html(html, &fallback);
            }
            return;
        }
    };
    let content_base = parsed.base_url.as_deref().and_then(|b| Url::parse(b).ok());
    let ctx = CleanContext {
        base_url: content_base.as_ref().or(Some(&fallback)),
        language_hint: Some("en"),
        fetched_at_ms: NOW_MS,
    };
    let area = PublisherArea {
        city: "Ottawa",
        admin_code: "ON",
        country: "CA",
    };
    for raw in &parsed.items {
        let Some((item, text)) = clean_item_with_text(raw, &ctx) else {
            continue;
        };
        assert_safe_html(&item.content);
        assert!(item.title.chars().count() <= 300, "title over 300 characters");
        assert!(item.summary.chars().count() <= 300, "summary over 300 characters");
        assert!(item.tags.len() <= 20 && item.tags.iter().all(|t| !t.is_empty() && t.chars().count() <= 60));
        assert_eq!(item.content_total_length, text.chars().count());
        assert!(!item.identity.is_empty() && !item.lang.is_empty());
        for url in [
            &item.link_url,
            &item.org_img_url,
            &item.thumbnail_url,
            &item.video_url,
            &item.voice_url,
        ]
        .into_iter()
        .flatten()
        {
            assert!(absolute_http(url), "unsafe URL kept: {url:?}");
        }
        if let Some(img) = &item.img_url {
            assert!(absolute_http(img), "unsafe image URL kept: {img:?}");
        }
        let place_text = if item.summary.is_empty() {
            &item.description
        } else {
            &item.summary
        };
        let _ = places(&item.title, place_text, &area);
    }
});
