//! Raw items → clean items: sanitised HTML (allow-list), absolute URLs without
//! tracking parameters or pixels, plain-text title and the SPEC §3 summary, the
//! images, video and audio of SPEC §3, a language, and a stable identity.

use crate::parse::RawItem;
use domain::constants::{NEWS_TYPE_AUDIO, NEWS_TYPE_VIDEO};
use domain::text::function_word_language;
/// The text rules of SPEC §3.18 / §9.6 live in `domain` (D226); named here too for
/// the callers that clean items.
pub use domain::text::{collapse_whitespace, cut_on_word, summary_of};
use std::cell::RefCell;
use std::collections::HashSet;
use std::sync::LazyLock;
use url::Url;

mod simple_sanitize;

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

static TAGS: LazyLock<HashSet<&'static str>> = LazyLock::new(|| ALLOWED_TAGS.into_iter().collect());

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
            _ => Some(value.into()),
        });
    builder
});

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
fn sanitize_with_parser(html: &str, base: Option<&Url>) -> String {
    SANITIZE_BASE.with_borrow_mut(|slot| {
        if slot.as_ref() != base {
            *slot = base.cloned();
        }
    });
    SANITIZER.clean(html).to_string()
}

/// The parser-only paths behind [`sanitize_html`] and [`html_to_text`], for the fuzz
/// target `feed_parse_clean` to hold the fast paths (D160) to them on any input, as the
/// unit tests do on chosen ones. Only built with the `fuzzing` feature (fuzz/).
#[cfg(feature = "fuzzing")]
pub mod parser_paths {
    use url::Url;

    /// [`super::sanitize_html`] without the fast path.
    pub fn sanitize_html(html: &str, base: Option<&Url>) -> String {
        super::drop_empty_images(&super::sanitize_with_parser(html, base))
    }

    /// [`super::html_to_text`] without the fast path.
    pub fn html_to_text(html: &str) -> String {
        super::html_to_text_parsed(html)
    }

    /// The text the pipeline reads from sanitised HTML (fast path where it applies).
    pub fn sanitized_html_text(html: &str) -> String {
        super::sanitized_html_text(html)
    }
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
    simple_html_text(html, false).unwrap_or_else(|| html_to_text_parsed(html))
}

/// [`html_to_text`] through the HTML parser: right for any input, but slow.
fn html_to_text_parsed(html: &str) -> String {
    let stripped = ammonia::Builder::empty()
        .clean(&mark_block_boundaries(html))
        .to_string();
    collapse_whitespace(&decode_entities(&stripped))
}

/// Plain text of HTML that [`sanitize_html`] wrote, as [`html_to_text`] gives it.
fn sanitized_html_text(html: &str) -> String {
    simple_html_text(html, true).unwrap_or_else(|| html_to_text_parsed(html))
}

/// [`sanitized_html_text`] of sanitised HTML and, when it has image captions, of the
/// same HTML [`without_captions`]; simple markup gives both from one pass.
fn sanitized_texts(html: &str) -> (String, Option<String>) {
    if !html.contains("<figcaption") {
        return (sanitized_html_text(html), None);
    }
    simple_html_texts(html, true, true).unwrap_or_else(|| {
        (
            sanitized_html_text(html),
            Some(sanitized_html_text(&without_captions(html))),
        )
    })
}

/// Block-level tags: a space before each, so "<p>a</p><p>b</p>" reads "a b".
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

/// Tags whose text the HTML parser keeps in document order whatever their nesting (no
/// raw text, no foreign content, no table foster-parenting, no leading-newline rule):
/// markup made only of these is turned into text without the parser.
const SIMPLE_TAGS: [&str; 48] = [
    "a",
    "abbr",
    "article",
    "aside",
    "b",
    "blockquote",
    "br",
    "cite",
    "code",
    "dd",
    "del",
    "div",
    "dl",
    "dt",
    "em",
    "figcaption",
    "figure",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "i",
    "img",
    "ins",
    "kbd",
    "li",
    "mark",
    "ol",
    "p",
    "q",
    "s",
    "section",
    "small",
    "span",
    "strong",
    "sub",
    "sup",
    "time",
    "u",
    "ul",
    "main",
    "nav",
    "wbr",
];

/// Table tags: simple in what [`sanitize_html`] wrote (its parser already moved any
/// text out of table structure), not in raw feed HTML.
const TABLE_TAGS: [&str; 8] = ["caption", "table", "tbody", "td", "tfoot", "th", "thead", "tr"];

/// Collapsing-whitespace text builder: the result of `collapse_whitespace` on
/// everything pushed.
struct CollapsedText {
    out: String,
    pending_space: bool,
}

impl CollapsedText {
    fn with_capacity(capacity: usize) -> Self {
        Self {
            out: String::with_capacity(capacity),
            pending_space: false,
        }
    }

    fn space(&mut self) {
        self.pending_space = !self.out.is_empty();
    }

    fn push(&mut self, c: char) {
        if c.is_whitespace() {
            self.space();
        } else {
            if self.pending_space {
                self.out.push(' ');
                self.pending_space = false;
            }
            self.out.push(c);
        }
    }

    /// Text without markup characters (`<`, `&`, NUL), pushed a word at a time. Reads
    /// bytes, decoding only non-ASCII characters (`char::is_whitespace` per character
    /// was a tenth of cleaning).
    fn push_run(&mut self, run: &str) {
        let bytes = run.as_bytes();
        let mut word_start = None;
        let mut i = 0;
        while i < bytes.len() {
            let (space, len) = if bytes[i] < 0x80 {
                // char::is_whitespace for ASCII: tab, LF, VT, FF, CR and space.
                (matches!(bytes[i], b'\t'..=b'\r' | b' '), 1)
            } else {
                let c = run[i..].chars().next().unwrap_or_default();
                (c.is_whitespace(), c.len_utf8())
            };
            if space {
                if let Some(start) = word_start.take() {
                    self.push_word(&run[start..i]);
                }
                self.space();
            } else if word_start.is_none() {
                word_start = Some(i);
            }
            i += len;
        }
        if let Some(start) = word_start {
            self.push_word(&run[start..]);
        }
    }

    fn push_word(&mut self, word: &str) {
        if self.pending_space {
            self.out.push(' ');
            self.pending_space = false;
        }
        self.out.push_str(word);
    }
}

/// HTML whitespace inside tags (the tokenizer's; CR reads as LF).
fn is_html_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// The text [`html_to_text_parsed`] gives, for markup that keeps to [`SIMPLE_TAGS`]
/// (and [`TABLE_TAGS`] when `sanitized`), well-formed tags and the common entities;
/// `None` for anything else, which then goes through the parser.
fn simple_html_text(html: &str, sanitized: bool) -> Option<String> {
    simple_html_texts(html, sanitized, false).map(|(text, _)| text)
}

/// [`simple_html_text`], and with `uncaptioned` also the text of
/// [`without_captions`]`(html)` from the same pass: what lies from a `<figcaption` tag to
/// the first `</figcaption>` after it (or to the end) is left out of the second text,
/// as `without_captions` cuts it out of the markup.
fn simple_html_texts(html: &str, sanitized: bool, uncaptioned: bool) -> Option<(String, Option<String>)> {
    // The tokenizer drops a leading byte-order mark (and cutting out a caption could
    // bring one to the front).
    if html.starts_with('\u{feff}') || (uncaptioned && html.contains('\u{feff}')) {
        return None;
    }
    let bytes = html.as_bytes();
    let mut text = CollapsedText::with_capacity(html.len());
    let mut story = uncaptioned.then(|| CollapsedText::with_capacity(html.len()));
    let mut in_caption = false;
    let mut i = 0;
    while i < bytes.len() {
        let run_end = bytes[i..]
            .iter()
            .position(|&b| matches!(b, b'<' | b'&' | 0))
            .map_or(bytes.len(), |p| i + p);
        if run_end > i {
            text.push_run(&html[i..run_end]);
            if let Some(story) = story.as_mut().filter(|_| !in_caption) {
                story.push_run(&html[i..run_end]);
            }
            i = run_end;
            continue;
        }
        match bytes[i] {
            b'<' => {
                let (name, end) = simple_tag(html, i)?;
                let simple = SIMPLE_TAGS.contains(&name.as_str()) || (sanitized && TABLE_TAGS.contains(&name.as_str()));
                if !simple {
                    return None;
                }
                let block = BLOCKS.contains(&name.as_str());
                if block {
                    text.space();
                }
                if name == "figcaption" && !in_caption && bytes[i + 1] != b'/' {
                    in_caption = true;
                } else if in_caption {
                    in_caption = !(name == "figcaption" && bytes[i + 1] == b'/');
                } else if let Some(story) = story.as_mut().filter(|_| block) {
                    story.space();
                }
                i = end;
            }
            b'&' => {
                let (c, len) = simple_entity(&html[i..])?;
                text.push(c);
                if let Some(story) = story.as_mut().filter(|_| !in_caption) {
                    story.push(c);
                }
                i += len;
            }
            _ => return None,
        }
    }
    Some((text.out, story.map(|s| s.out)))
}

/// The lowercase name of the tag starting at `at` (`<name` or `</name`), whether it is
/// an end tag, and where the name ends; `None` unless the name is ASCII letters and
/// digits and ends where the tokenizer ends it (whitespace, '/' or '>').
fn tag_name(html: &str, at: usize) -> Option<(String, bool, usize)> {
    let bytes = html.as_bytes();
    let mut i = at + 1;
    let end = bytes.get(i) == Some(&b'/');
    if end {
        i += 1;
    }
    if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    let name_start = i;
    while bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) {
        i += 1;
    }
    let name = html[name_start..i].to_ascii_lowercase();
    let ended = bytes
        .get(i)
        .is_some_and(|&b| is_html_space(b) || b == b'/' || b == b'>');
    ended.then_some((name, end, i))
}

/// The lowercase name of the start or end tag at `at` and where it ends, when it is a
/// plain tag: a name of ASCII letters and digits, attributes as the HTML tokenizer
/// reads them (quoted values may hold '>'), and a closing `>`. A '<' inside the tag
/// outside quotes is left to the parser: the block-boundary spaces would split it.
fn simple_tag(html: &str, at: usize) -> Option<(String, usize)> {
    let bytes = html.as_bytes();
    let space = |i: usize| bytes.get(i).is_some_and(|&b| is_html_space(b));
    let (name, _, mut i) = tag_name(html, at)?;
    loop {
        match *bytes.get(i)? {
            b'>' => return Some((name, i + 1)),
            b'<' => return None,
            b'/' => i += 1,
            _ if space(i) => i += 1,
            _ => {
                // An attribute name (its first character may be '=').
                i += 1;
                while let Some(&b) = bytes.get(i) {
                    match b {
                        b'/' | b'>' | b'=' => break,
                        b'<' => return None,
                        _ if is_html_space(b) => break,
                        _ => i += 1,
                    }
                }
                while space(i) {
                    i += 1;
                }
                if bytes.get(i) != Some(&b'=') {
                    continue;
                }
                i += 1;
                while space(i) {
                    i += 1;
                }
                match *bytes.get(i)? {
                    quote @ (b'"' | b'\'') => i += 1 + bytes[i + 1..].iter().position(|&b| b == quote)? + 1,
                    b'>' => {}
                    _ => {
                        while let Some(&b) = bytes.get(i) {
                            match b {
                                b'>' => break,
                                b'<' => return None,
                                _ if is_html_space(b) => break,
                                _ => i += 1,
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The character a common entity at the start of `text` stands for, and its length;
/// `&` before anything but a letter, digit or '#' is a plain '&'. `None` for entities
/// outside the short list (the parser knows two thousand).
fn simple_entity(text: &str) -> Option<(char, usize)> {
    let rest = &text[1..];
    if !rest
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'#')
    {
        return Some(('&', 1));
    }
    let end = rest.bytes().take(12).position(|b| b == b';')?;
    let name = &rest[..end];
    let c = match name {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => '\u{a0}',
        _ => {
            let (digits, radix) = match name.strip_prefix("#x").or_else(|| name.strip_prefix("#X")) {
                Some(hex) => (hex, 16),
                None => (name.strip_prefix('#')?, 10),
            };
            if digits.is_empty() || digits.len() > 8 || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            let code = u32::from_str_radix(digits, radix).ok()?;
            // Where the parser substitutes or warns (NUL, C0/C1 controls, surrogates,
            // noncharacters), leave it to the parser.
            let plain = matches!(code, 0x09 | 0x0a | 0x20..=0x7e | 0xa0..=0xd7ff | 0xe000..=0xfdcf | 0xfdf0..=0x10ffff)
                && code & 0xfffe != 0xfffe;
            if !plain {
                return None;
            }
            char::from_u32(code)?
        }
    };
    Some((c, end + 2))
}

/// A space before every block-level tag, so "<p>a</p><p>b</p>" reads "a b".
fn mark_block_boundaries(html: &str) -> String {
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

/// Sanitised HTML without its `<figcaption>` elements (captions name the photographer or
/// the picture, not the story).
fn without_captions(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<figcaption") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</figcaption>") {
            Some(end) => rest = &rest[start + end + "</figcaption>".len()..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The hint as one of our languages (en, es, fr), if it is one.
fn language_of_hint(hint: Option<&str>) -> Option<String> {
    hint.map(|h| h.trim().split(['-', '_']).next().unwrap_or("").to_ascii_lowercase())
        .filter(|h| matches!(h.as_str(), "en" | "es" | "fr"))
}

fn detect_language(text: &str, hint: Option<&str>) -> String {
    let hint = language_of_hint(hint);
    // Detection costs more than the rest of cleaning together; when the feed names a
    // language and the text plainly reads as it, the detector would only agree (D90).
    if let Some(hint) = &hint
        && stop_words_confirm(text, hint)
    {
        return hint.clone();
    }
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

/// Whether `text` reads plainly as `lang` by its function words: at least six of them,
/// and four times as many as of either other language.
fn stop_words_confirm(text: &str, lang: &str) -> bool {
    let want = match lang {
        "en" => 0,
        "es" => 1,
        _ => 2,
    };
    let mut counts = [0usize; 3];
    let mut lower = String::new();
    for word in text
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty() && w.len() <= 12)
    {
        lower.clear();
        lower.extend(word.chars().flat_map(char::to_lowercase));
        if let Some(l) = function_word_language(&lower) {
            counts[l] += 1;
        }
    }
    let others = (0..3).filter(|&l| l != want).map(|l| counts[l]).max().unwrap_or(0);
    counts[want] >= 6 && counts[want] >= 4 * others
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
    #[test]
    fn spec_3_summary_leaves_out_image_captions() {
        assert_eq!(
            super::without_captions(
                "<p>A</p><figure><img src=\"x\"><figcaption>Photo: Ledger</figcaption></figure><p>B</p>"
            ),
            "<p>A</p><figure><img src=\"x\"></figure><p>B</p>"
        );
        assert_eq!(super::without_captions("<figcaption>open"), "");
    }

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

    #[test]
    fn simple_markup_gives_the_parsers_text_and_the_rest_goes_to_the_parser() {
        let cases = [
            "<p>Hello <b>world</b></p><p>again&nbsp;&amp; &lt;b&gt; &#x27;x&#39;</p>",
            "<figure><img src=\"a.jpg\" alt=\"<p>x</p>\"><figcaption>Cap</figcaption></figure>tail",
            "<a href=x title='a>b'>link</a><br/>next<hr>last",
            "<b>1<div>2</b>3</div> <a>4<a>5</a> & AT&T",
            "<table><tr><td>a</td></tr></table><script>x()</script><!-- c --><pre>\nq</pre>",
            "a < b, <3, &eacute; &#0; &#128; &#+65; \u{feff}",
            "  \n\t ",
            "",
        ];
        for html in cases {
            assert_eq!(html_to_text(html), html_to_text_parsed(html), "{html:?}");
        }
        assert!(simple_html_text("<p>a &amp; b</p>", false).is_some());
        assert!(simple_html_text("<table><tr><td>a</td></tr></table>", false).is_none());
        assert!(simple_html_text("<script>x</script>", false).is_none());
        assert!(simple_html_text("a&eacute;", false).is_none());
    }

    #[test]
    fn sanitized_content_reads_the_same_through_either_path() {
        let raw = "<p>Budget <a href=\"/x?utm_source=a\">plan</a></p><table><tr><td>1</td><td>2</td></tr></table>\
                   <ul><li>one<li>two</ul><img src=\"https://p.example/i.jpg\" alt='\"q\" <b>'>";
        let base = Url::parse("https://paper.example/feed").unwrap();
        let clean = sanitize_html(raw, Some(&base));
        assert_eq!(sanitized_html_text(&clean), html_to_text_parsed(&clean));
        assert!(clean.contains("https://paper.example/x"), "{clean}");
    }

    #[test]
    fn text_runs_collapse_whitespace_as_collapse_whitespace_does() {
        let runs = [
            "  a  b\t\nc ",
            "\u{a0}é\u{2003}word\u{3000}\u{85}x\u{b}y\u{c}z\r",
            "naïve café—ok",
            "",
            " \u{2028} ",
        ];
        for run in runs {
            let mut text = CollapsedText::with_capacity(0);
            text.push_run(run);
            assert_eq!(text.out, collapse_whitespace(run), "{run:?}");
        }
    }

    #[test]
    fn one_pass_reads_the_text_with_and_without_captions_as_two_passes_do() {
        let cases = [
            "<p>A</p><figure><img src=\"x\"><figcaption>Photo: Ledger</figcaption></figure><p>B</p>",
            "words<figcaption>cap</figcaption>joined &amp; more",
            "<figcaption>a<figcaption>b</figcaption>c</figcaption>d</figcaption> e",
            "x</figcaption>y<figcaption>open to the end &lt;",
            "<p>a</p><figcaption>c</figcaption><table><tr><td>t</td></tr></table>",
            "<p>no caption</p>",
        ];
        for html in cases {
            let clean = sanitize_html(html, None);
            let two_passes = (
                sanitized_html_text(&clean),
                clean
                    .contains("<figcaption")
                    .then(|| sanitized_html_text(&without_captions(&clean))),
            );
            assert_eq!(sanitized_texts(&clean), two_passes, "{clean:?}");
        }
    }

    #[test]
    fn the_feed_language_stands_when_function_words_plainly_agree() {
        let en = "The council said that the plan for the bridge was approved by the board and will start in May";
        assert!(stop_words_confirm(en, "en"));
        assert!(!stop_words_confirm(en, "fr"));
        assert!(!stop_words_confirm("Ok", "en"), "too few words to tell");
        let es = "El ayuntamiento aprobó el presupuesto para las escuelas y los parques de la ciudad con el apoyo del alcalde";
        assert!(stop_words_confirm(es, "es") && !stop_words_confirm(es, "en"));
        assert_eq!(
            detect_language(es, Some("en")),
            "es",
            "a clear other language still wins"
        );
    }
}
