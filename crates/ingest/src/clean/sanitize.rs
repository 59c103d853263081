//! Sanitising feed HTML: an allow-list of tags and attributes, absolute links that open
//! safely, no tracking parameters or pixels. Simple markup takes the fast path of
//! [`simple_sanitize`] to the same bytes (D160).

use super::urls::{clean_url, is_tracking_pixel};
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::LazyLock;
use url::Url;

mod simple_sanitize;

/// The tags sanitised HTML may keep (the fuzz target `feed_parse_clean` holds the
/// sanitiser's output to this list).
pub const ALLOWED_TAGS: [&str; 46] = [
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
];

pub(super) static TAGS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| ALLOWED_TAGS.into_iter().collect());

thread_local! {
    /// The base URL of the item being sanitised, for the shared builder's URL filter.
    static SANITIZE_BASE: RefCell<Option<Url>> = const { RefCell::new(None) };
}

/// The sanitiser's allow-list, built once: building it per item cost more than some
/// of the items it cleaned. The base URL differs per feed, so the URL filter reads it
/// from [`SANITIZE_BASE`], set by [`sanitize_html`] around each call.
static SANITIZER: LazyLock<ammonia::Builder<'static>> = LazyLock::new(|| {
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
        .link_rel(Some(simple_sanitize::LINK_REL))
        .attribute_filter(|element, attribute, value| match (element, attribute) {
            ("a", "href") if value.starts_with("mailto:") => Some(value.into()),
            ("a", "href") => SANITIZE_BASE
                .with_borrow(|base| clean_url(value, base.as_ref()))
                .map(Into::into),
            ("img", "src") if is_tracking_pixel(value) => None,
            ("img", "src") => SANITIZE_BASE
                .with_borrow(|base| clean_url(value, base.as_ref()))
                .map(Into::into),
            ("img", "width" | "height") => is_pixel_count(value).then(|| value.into()),
            _ => Some(value.into()),
        });
    builder
});

/// An image's width or height is kept only as a whole number of pixels (what HTML's
/// attributes hold): anything else (`100%`, `auto`, a script's text) is the feed's
/// layout, not ours, and a reader's browser would try to read it.
pub(super) fn is_pixel_count(value: &str) -> bool {
    (1..=5).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit())
}

/// Sanitise feed HTML: an allow-list of tags and attributes, absolute URLs, links that
/// open safely, no tracking parameters, no tracking pixels. Simple markup skips the
/// HTML parser for the same result (D160).
pub fn sanitize_html(html: &str, base: Option<&Url>) -> String {
    if let Some(cleaned) = simple_sanitize::sanitize(html, base) {
        return drop_empty_images(&cleaned);
    }
    drop_empty_images(&sanitize_with_parser(html, base))
}

/// The ammonia pass of [`sanitize_html`]: right for any input.
pub(super) fn sanitize_with_parser(html: &str, base: Option<&Url>) -> String {
    SANITIZE_BASE.with_borrow_mut(|slot| {
        if slot.as_ref() != base {
            *slot = base.cloned();
        }
    });
    SANITIZER.clean(html).to_string()
}

/// Remove `<img>` elements left without a source (pixels, bad URLs) or sized 1×1.
pub(super) fn drop_empty_images(html: &str) -> String {
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
