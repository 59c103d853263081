//! Plain text of HTML: tags removed (their text kept, except script and style), block
//! boundaries as spaces, entities decoded, whitespace collapsed. Simple markup is read
//! without the HTML parser for the same text (D160).

use super::markup::{decode_entities, simple_entity, simple_tag};
use domain::text::collapse_whitespace;

/// Plain text of (sanitised or raw) HTML: tags removed (their text kept, except
/// script and style), block boundaries as spaces, entities decoded, whitespace
/// collapsed.
pub fn html_to_text(html: &str) -> String {
    simple_html_text(html, false).unwrap_or_else(|| html_to_text_parsed(html))
}

/// [`html_to_text`] through the HTML parser: right for any input, but slow.
pub(super) fn html_to_text_parsed(html: &str) -> String {
    let stripped = ammonia::Builder::empty()
        .clean(&mark_block_boundaries(html))
        .to_string();
    collapse_whitespace(&decode_entities(&stripped))
}

/// Plain text of HTML that [`sanitize_html`] wrote, as [`html_to_text`] gives it.
pub(super) fn sanitized_html_text(html: &str) -> String {
    simple_html_text(html, true).unwrap_or_else(|| html_to_text_parsed(html))
}

/// [`sanitized_html_text`] of sanitised HTML and, when it has image captions, of the
/// same HTML [`without_captions`]; simple markup gives both from one pass.
pub(super) fn sanitized_texts(html: &str) -> (String, Option<String>) {
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

/// Sanitised HTML without its `<figcaption>` elements (captions name the photographer or
/// the picture, not the story).
pub(super) fn without_captions(html: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::sanitize_html;
    use url::Url;

    #[test]
    fn spec_3_summary_leaves_out_image_captions() {
        assert_eq!(
            without_captions("<p>A</p><figure><img src=\"x\"><figcaption>Photo: Ledger</figcaption></figure><p>B</p>"),
            "<p>A</p><figure><img src=\"x\"></figure><p>B</p>"
        );
        assert_eq!(without_captions("<figcaption>open"), "");
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
}
