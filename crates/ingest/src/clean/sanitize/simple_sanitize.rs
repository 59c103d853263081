//! What [`super::sanitize_html`]'s ammonia pass writes, for markup simple enough to
//! read without the HTML parser (D160).
//!
//! ammonia builds a DOM for every item and writes it back out; that was a quarter of
//! the cleaning CPU. For markup made only of well-formed tags from a short list, each
//! end tag closing the element opened last, and no tag the parser would move or close on
//! its own (a block inside a `<p>`, a list item outside a list, a link inside a link,
//! tables, raw text), the parser's tree is the tags as written. Then sanitising is:
//! drop tags outside the allow-list but keep their text, keep allowed attributes in the
//! order ammonia leaves them, decode entities and escape them again as html5ever's
//! serializer does. Anything else answers `None` and goes through ammonia, so this is
//! only ever a faster way to the same bytes; the differential tests below hold it to
//! that on the demo corpus and on random markup.

use super::{TAGS, is_pixel_count};
use crate::clean::markup::{is_html_space, simple_entity, tag_name};
use crate::clean::urls::{clean_url, is_tracking_pixel};
use url::Url;

/// The `rel` ammonia adds to every link (`Builder::link_rel` in [`super::SANITIZER`]).
pub(super) const LINK_REL: &str = "noopener noreferrer nofollow ugc";

/// How the HTML tree builder treats a start tag, for the tags read here.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Closes an open `<p>` (refused here) and opens.
    Block,
    /// A block that also closes an open heading (refused here).
    Heading,
    /// `<hr>`: a block without content.
    BlockVoid,
    /// `<li>`, `<dd>`, `<dt>`: must sit directly in their list, or the parser closes
    /// the item before.
    ListItem,
    /// Kept on the list of active formatting elements; `<a>` inside `<a>` is refused.
    Formatting,
    /// Any other phrasing element.
    Phrasing,
    /// `<br>`, `<img>`, `<wbr>`: no content, no end tag.
    Void,
}

fn kind(name: &str) -> Option<Kind> {
    Some(match name {
        "address" | "article" | "aside" | "blockquote" | "center" | "div" | "dl" | "figcaption" | "figure"
        | "footer" | "header" | "hgroup" | "main" | "nav" | "ol" | "p" | "section" | "ul" => Kind::Block,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" => Kind::Heading,
        "hr" => Kind::BlockVoid,
        "li" | "dd" | "dt" => Kind::ListItem,
        "a" | "b" | "big" | "code" | "em" | "i" | "s" | "small" | "strike" | "strong" | "tt" | "u" => Kind::Formatting,
        "abbr" | "bdi" | "bdo" | "cite" | "data" | "del" | "dfn" | "ins" | "kbd" | "mark" | "q" | "samp" | "span"
        | "sub" | "sup" | "time" | "var" => Kind::Phrasing,
        "br" | "img" | "wbr" => Kind::Void,
        _ => return None,
    })
}

/// One tag as the HTML tokenizer reads it: lowercase name, attributes in order (the
/// first of a repeated name wins), values decoded.
struct Tag {
    name: String,
    end: bool,
    attrs: Vec<(String, String)>,
}

/// The sanitised markup, or `None` when the parser is needed to know it.
pub(super) fn sanitize(html: &str, base: Option<&Url>) -> Option<String> {
    // The tokenizer turns CR into LF and drops a leading byte-order mark; NUL is dropped
    // or replaced. Rare in feed HTML: left to the parser.
    if html.starts_with('\u{feff}') || html.bytes().any(|b| b == b'\r' || b == 0) {
        return None;
    }
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    let mut open: Vec<String> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let special = bytes[i..]
            .iter()
            .position(|&b| matches!(b, b'<' | b'&' | b'>' | b'\xc2'))
            .map_or(bytes.len(), |p| i + p);
        out.push_str(&html[i..special]);
        i = special;
        if i == bytes.len() {
            break;
        }
        match bytes[i] {
            b'<' => {
                let (tag, end) = read_tag(html, i)?;
                write_tag(tag, &mut open, &mut out, base)?;
                i = end;
            }
            b'&' => {
                let (c, len) = simple_entity(&html[i..])?;
                push_escaped_char(&mut out, c, false);
                i += len;
            }
            _ => {
                // '>' or the first byte of a two-byte character (U+00A0 is escaped).
                let c = html[i..].chars().next()?;
                push_escaped_char(&mut out, c, false);
                i += c.len_utf8();
            }
        }
    }
    // Elements still open at the end close there, as the serializer writes the tree.
    while let Some(name) = open.pop() {
        close(&name, &mut out);
    }
    Some(out)
}

/// Apply one tag to the open elements and write what ammonia would keep of it; `None`
/// where the tree builder would not simply open or close the element as written.
fn write_tag(tag: Tag, open: &mut Vec<String>, out: &mut String, base: Option<&Url>) -> Option<()> {
    let kind = kind(&tag.name)?;
    if tag.end {
        // Only the element opened last may close; void elements have no end tag.
        if kind == Kind::Void || open.last() != Some(&tag.name) {
            return None;
        }
        open.pop();
        close(&tag.name, out);
        return Some(());
    }
    let current = open.last().map(String::as_str);
    let refused = match kind {
        Kind::Block | Kind::BlockVoid => open.iter().any(|e| e == "p"),
        Kind::Heading => open.iter().any(|e| e == "p") || current.is_some_and(|c| kind_is(c, Kind::Heading)),
        Kind::ListItem if tag.name == "li" => !matches!(current, Some("ul" | "ol")),
        Kind::ListItem => current != Some("dl"),
        Kind::Formatting => tag.name == "a" && open.iter().any(|e| e == "a"),
        Kind::Phrasing | Kind::Void => false,
    };
    if refused {
        return None;
    }
    if TAGS.contains(tag.name.as_str()) {
        out.push('<');
        out.push_str(&tag.name);
        for (name, value) in allowed_attributes(&tag.name, tag.attrs, base) {
            out.push(' ');
            out.push_str(&name);
            out.push_str("=\"");
            for c in value.chars() {
                push_escaped_char(out, c, true);
            }
            out.push('"');
        }
        out.push('>');
    }
    if !matches!(kind, Kind::Void | Kind::BlockVoid) {
        open.push(tag.name);
    }
    Some(())
}

fn kind_is(name: &str, want: Kind) -> bool {
    kind(name) == Some(want)
}

fn close(name: &str, out: &mut String) {
    if TAGS.contains(name) {
        out.push_str("</");
        out.push_str(name);
        out.push('>');
    }
}

/// The attributes ammonia keeps on an allowed element, in its order: the allow-list
/// and URL-scheme check first, then `rel` added to links, then the builder's attribute
/// filter, whose dropped attributes are removed with `swap_remove` (which moves the
/// last attribute into the gap).
fn allowed_attributes(element: &str, attrs: Vec<(String, String)>, base: Option<&Url>) -> Vec<(String, String)> {
    let mut kept: Vec<(String, String)> = attrs
        .into_iter()
        .filter(|(name, value)| match (element, name.as_str()) {
            ("a", "href") | ("img", "src") => url_scheme_allowed(value),
            ("a", "title") | ("img", "alt" | "width" | "height") => true,
            _ => false,
        })
        .collect();
    if element == "a" {
        kept.push(("rel".into(), LINK_REL.into()));
    }
    let mut dropped = Vec::new();
    for (i, (name, value)) in kept.iter_mut().enumerate() {
        let filtered = match (element, name.as_str()) {
            ("a", "href") if value.starts_with("mailto:") => continue,
            ("img", "src") if is_tracking_pixel(value) => None,
            ("a", "href") | ("img", "src") => clean_url(value, base),
            ("img", "width" | "height") if is_pixel_count(value) => continue,
            ("img", "width" | "height") => None,
            _ => continue,
        };
        match filtered {
            Some(v) => *value = v,
            None => dropped.push(i),
        }
    }
    for i in dropped.into_iter().rev() {
        kept.swap_remove(i);
    }
    kept
}

/// ammonia's URL check: a scheme on the allow-list, or a relative URL.
fn url_scheme_allowed(value: &str) -> bool {
    match Url::parse(value) {
        Ok(url) => matches!(url.scheme(), "http" | "https" | "mailto"),
        Err(e) => e == url::ParseError::RelativeUrlWithoutBase,
    }
}

/// html5ever's serializer: `&`, `<`, `>` and U+00A0 escaped, and `"` in attributes.
fn push_escaped_char(out: &mut String, c: char, attribute: bool) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '\u{a0}' => out.push_str("&nbsp;"),
        '"' if attribute => out.push_str("&quot;"),
        _ => out.push(c),
    }
}

/// The tag starting at `at` and where it ends, read as the tokenizer reads it; `None`
/// for anything but a plain start or end tag (comments, doctypes, a '<' that is text,
/// quotes or '<' where the tokenizer would report an error, a tag cut off by the end).
fn read_tag(html: &str, at: usize) -> Option<(Tag, usize)> {
    let bytes = html.as_bytes();
    let space = |i: usize| bytes.get(i).is_some_and(|&b| is_html_space(b));
    let (name, end, mut i) = tag_name(html, at)?;
    let mut attrs: Vec<(String, String)> = Vec::new();
    loop {
        match *bytes.get(i)? {
            b'>' => break,
            b'/' => i += 1,
            _ if space(i) => i += 1,
            b'=' | b'"' | b'\'' | b'<' => return None,
            _ => {
                let start = i;
                while let Some(&b) = bytes.get(i) {
                    match b {
                        b'/' | b'>' | b'=' => break,
                        b'"' | b'\'' | b'<' => return None,
                        _ if is_html_space(b) => break,
                        _ => i += 1,
                    }
                }
                let attr = html[start..i].to_ascii_lowercase();
                while space(i) {
                    i += 1;
                }
                let mut value = String::new();
                if bytes.get(i) == Some(&b'=') {
                    i += 1;
                    while space(i) {
                        i += 1;
                    }
                    match *bytes.get(i)? {
                        quote @ (b'"' | b'\'') => {
                            let len = bytes[i + 1..].iter().position(|&b| b == quote)?;
                            value = attribute_value(&html[i + 1..i + 1 + len])?;
                            i += len + 2;
                        }
                        b'>' => {}
                        _ => {
                            let start = i;
                            while let Some(&b) = bytes.get(i) {
                                match b {
                                    b'>' => break,
                                    b'"' | b'\'' | b'<' | b'=' | b'`' => return None,
                                    _ if is_html_space(b) => break,
                                    _ => i += 1,
                                }
                            }
                            value = attribute_value(&html[start..i])?;
                        }
                    }
                }
                if !attrs.iter().any(|(n, _)| *n == attr) {
                    attrs.push((attr, value));
                }
            }
        }
    }
    // The tokenizer drops an end tag's attributes; rare enough to leave to it.
    if end && !attrs.is_empty() {
        return None;
    }
    Some((Tag { name, end, attrs }, i + 1))
}

/// An attribute value with its character references decoded, as the tokenizer does in
/// attributes: `&name=` stays as written (query strings), the common references decode,
/// and anything else is left to the parser.
fn attribute_value(raw: &str) -> Option<String> {
    if !raw.contains('&') {
        return Some(raw.to_string());
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        let run = rest[1..].bytes().take_while(u8::is_ascii_alphanumeric).count();
        if run > 0 && rest.as_bytes().get(1 + run) == Some(&b'=') {
            out.push('&');
            rest = &rest[1..];
            continue;
        }
        let (c, len) = simple_entity(rest)?;
        out.push(c);
        rest = &rest[len..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::super::SANITIZER;
    use super::*;

    /// ammonia's own output, with the same builder and base.
    fn ammonia(html: &str, base: Option<&Url>) -> String {
        super::super::SANITIZE_BASE.with_borrow_mut(|slot| *slot = base.cloned());
        SANITIZER.clean(html).to_string()
    }

    fn check(html: &str, base: Option<&Url>) -> bool {
        match sanitize(html, base) {
            Some(fast) => {
                assert_eq!(fast, ammonia(html, base), "input: {html:?}");
                true
            }
            None => false,
        }
    }

    #[test]
    fn simple_markup_sanitises_to_ammonias_bytes_and_the_rest_is_left_to_it() {
        let base = Url::parse("https://paper.example/news/feed.xml").unwrap();
        let simple = [
            "<p>Hello <b>world</b> &amp; &lt;friends&gt; &nbsp;&#x27;x&#39; \u{a0} a > b</p>",
            "<figure><img src=\"/i.jpg?utm_source=x&amp;w=2\" alt=\"a &quot;q&quot; <b>\" width=\"1200\" height=675 loading=\"lazy\"/><figcaption>Cap</figcaption></figure>",
            "<p>Read <A HREF='/x?utm_medium=feed&b=1' Title=\"t\" target=_blank>more</A></p>",
            "<a href=\"mailto:desk@paper.example\">desk</a><a href=\"javascript:alert(1)\" title=\"x\">bad</a>",
            "<img src=\"https://pixel.example.com/t.gif\" alt=\"p\" width=\"1\" height=\"1\">",
            "<img src=\"/w.png\" width=\"100%\" height=\"auto\" alt=\"w\"><img src=\"/h.png\" height=\"x\" width=\"640\">",
            "<img src=\"/big.png\" width=\"123456\" height=\"\" alt=\"big\">",
            "<div class=\"story\"><span>x</span><section><h2>T</h2><ul><li>a</li><li>b</li></ul></section></div>",
            "<blockquote><p>q <em>e</em></p></blockquote><hr><p>next<br/>line<wbr>s</p>",
            "<dl><dt>t</dt><dd>d</dd></dl><p>unclosed <strong>bold",
            "<a title=\"a\"href=\"/b\">two attributes</a>",
            "<a href=\"x\" href=\"y\">dup</a><a href>empty</a><img src=\"a b.png\" alt>",
            "text only, with 'quotes' and \"double\" — and é",
            "",
        ];
        for html in simple {
            assert!(check(html, Some(&base)), "the fast path should read {html:?}");
        }
        assert!(check("<a href=\"/rel\">no base</a>", None));
        let for_the_parser = [
            "<p>a<p>b",
            "<p><div>x</div></p>",
            "<li>loose</li>",
            "<ul><li>a<li>b</ul>",
            "<a href=x>1<a href=y>2</a></a>",
            "<b>1<i>2</b>3</i>",
            "<table><tr><td>x</td></tr></table>",
            "<script>alert(1)</script>",
            "<!-- c -->x",
            "<pre>\nx</pre>",
            "a &eacute; b",
            "x\r\ny",
            "<p>a</p></p>",
            "<img src=x></img>",
            "<h2><h3>x</h3></h2>",
            "<svg><a>x</a></svg>",
            "<p>cut <b",
        ];
        for html in for_the_parser {
            assert_eq!(sanitize(html, Some(&base)), None, "{html:?} needs the parser");
        }
    }

    #[test]
    fn an_images_width_and_height_are_kept_only_as_whole_numbers() {
        let html = "<p><img src=\"https://paper.example/a.png\" width=\"640\" height=\"100%\" alt=\"a\">\
                    <img src=\"https://paper.example/b.png\" width=\"expression(alert(1))\" height=\"360\"></p>";
        for cleaned in [super::super::sanitize_html(html, None), ammonia(html, None)] {
            assert!(cleaned.contains("width=\"640\""), "{cleaned}");
            assert!(cleaned.contains("height=\"360\""), "{cleaned}");
            assert!(!cleaned.contains('%') && !cleaned.contains("expression"), "{cleaned}");
        }
        assert!(is_pixel_count("1200") && !is_pixel_count("") && !is_pixel_count("123456") && !is_pixel_count("-1"));
    }

    #[test]
    fn the_demo_corpus_sanitises_to_ammonias_bytes() {
        let base = Url::parse("https://demo.localwire.invalid/feed").unwrap();
        let (mut read, mut total) = (0, 0);
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/demo/feeds");
        for entry in std::fs::read_dir(dir).expect("the demo feeds") {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            let feed = crate::parse::parse_feed(&bytes, None).expect("demo feeds parse");
            for item in feed.items {
                for html in [item.content_html.as_deref(), item.summary_html.as_deref()]
                    .into_iter()
                    .flatten()
                {
                    total += 1;
                    read += usize::from(check(html, Some(&base)));
                }
            }
        }
        assert!(total > 400, "the demo corpus has its items ({total})");
        assert!(
            read * 10 >= total * 9,
            "the fast path reads most demo markup ({read} of {total})"
        );
    }

    /// A small deterministic generator (xorshift), so the test needs no crate.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
        fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
            from[self.below(from.len())]
        }
    }

    #[test]
    fn random_markup_sanitises_to_ammonias_bytes_whenever_the_fast_path_reads_it() {
        const TAGS: [&str; 24] = [
            "p",
            "a",
            "b",
            "i",
            "em",
            "strong",
            "span",
            "div",
            "img",
            "br",
            "hr",
            "ul",
            "ol",
            "li",
            "dl",
            "dt",
            "dd",
            "h2",
            "h3",
            "figure",
            "figcaption",
            "blockquote",
            "section",
            "code",
        ];
        const ATTRS: [&str; 10] = [
            " href=\"/a?utm_source=x&amp;k=1\"",
            " href='https://other.example/p'",
            " href=\"javascript:x()\"",
            " src=\"/i.png\"",
            " src=\"https://stats.wp.com/p.gif\"",
            " alt=\"a &quot;b&quot;\"",
            " title=x",
            " width=\"1\" height=\"1\"",
            " class=\"c\" id=\"i\"",
            " HREF=\"mailto:a@b.example\"",
        ];
        const TEXT: [&str; 12] = [
            "word", " ", "\n", "&amp;", "&nbsp;", "&#233;", "\u{a0}", "a > b", "\"q\"", "&x=1", "é", "&copy;",
        ];
        let base = Url::parse("https://paper.example/feed").unwrap();
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut read = 0;
        for _ in 0..20_000 {
            let mut html = String::new();
            let mut open: Vec<&str> = Vec::new();
            for _ in 0..rng.below(14) {
                match rng.below(5) {
                    0 | 1 => {
                        let tag = rng.pick(&TAGS);
                        html.push('<');
                        html.push_str(tag);
                        if rng.below(3) == 0 {
                            html.push_str(rng.pick(&ATTRS));
                        }
                        html.push('>');
                        open.push(tag);
                    }
                    2 => {
                        // Mostly the element opened last, sometimes another.
                        let tag = if rng.below(6) == 0 {
                            rng.pick(&TAGS)
                        } else if let Some(t) = open.pop() {
                            t
                        } else {
                            continue;
                        };
                        html.push_str("</");
                        html.push_str(tag);
                        html.push('>');
                    }
                    _ => html.push_str(rng.pick(&TEXT)),
                }
            }
            read += usize::from(check(&html, Some(&base)));
            let clean = super::super::sanitize_html(&html, Some(&base));
            let (text, story) = crate::clean::html_text::sanitized_texts(&clean);
            assert_eq!(text, crate::clean::html_text::sanitized_html_text(&clean), "{clean:?}");
            if let Some(story) = story {
                let two_passes =
                    crate::clean::html_text::sanitized_html_text(&crate::clean::html_text::without_captions(&clean));
                assert_eq!(story, two_passes, "{clean:?}");
            }
        }
        assert!(read > 2_000, "the generator should reach the fast path often ({read})");
    }
}
