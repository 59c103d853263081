//! Where image addresses leave the server: one address at a time, and every `<img src>`
//! of an article's sanitised HTML (D382).

use ingest::clean::decode_entities;

/// `html` with each `<img>`'s `src` replaced by what `proxied` makes of it (decoded from
/// the attribute first); everything else byte for byte. Tags are read with their quotes,
/// so a `>` or an `<img` inside an attribute value (an `alt` may hold markup as text) is
/// never taken for a tag.
pub fn rewrite_img_srcs(html: &str, proxied: impl Fn(&str) -> Option<String>) -> String {
    if !html.contains("<img") && !html.contains("<IMG") {
        return html.to_string();
    }
    let mut out = String::with_capacity(html.len() + html.len() / 4);
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let tag_and_after = &rest[open..];
        let Some(len) = tag_end(tag_and_after) else {
            // An unclosed tag: left as it is (the browser would not make an element of it).
            out.push_str(tag_and_after);
            return out;
        };
        let tag = &tag_and_after[..len];
        if is_img(tag) {
            rewrite_tag(tag, &proxied, &mut out);
        } else {
            out.push_str(tag);
        }
        rest = &tag_and_after[len..];
    }
    out.push_str(rest);
    out
}

/// The length of the tag at the start of `s` (through its `>`), quotes respected.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote: Option<u8> = None;
    for (i, b) in s.bytes().enumerate().skip(1) {
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return Some(i + 1),
            None => {}
        }
    }
    None
}

fn is_img(tag: &str) -> bool {
    let bytes = tag.as_bytes();
    bytes.len() > 4
        && bytes[1..4].eq_ignore_ascii_case(b"img")
        && matches!(bytes[4], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>')
}

/// Copies `tag`, replacing the value of its first `src` attribute.
fn rewrite_tag(tag: &str, proxied: &impl Fn(&str) -> Option<String>, out: &mut String) {
    let bytes = tag.as_bytes();
    let end = bytes.len() - 1; // the `>`
    let mut i = 4;
    while i < end {
        while i < end && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/') {
            i += 1;
        }
        let name_start = i;
        while i < end && !matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'=') {
            i += 1;
        }
        let name = &tag[name_start..i];
        while i < end && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') {
            i += 1;
        }
        if i >= end || bytes[i] != b'=' {
            continue;
        }
        i += 1;
        while i < end && matches!(bytes[i], b' ' | b'\t' | b'\n' | b'\r' | b'\x0c') {
            i += 1;
        }
        let (value_start, value_end, next) = match bytes.get(i) {
            Some(&q @ (b'"' | b'\'')) => match tag[i + 1..].find(q as char) {
                Some(len) => (i + 1, i + 1 + len, i + 2 + len),
                None => (i + 1, end, end),
            },
            _ => {
                let len = tag[i..end].find([' ', '\t', '\n', '\r', '\x0c']).unwrap_or(end - i);
                (i, i + len, i + len)
            }
        };
        if name.eq_ignore_ascii_case("src")
            && let Some(new) = proxied(&decode_entities(&tag[value_start..value_end]))
        {
            let attr_start = if bytes
                .get(value_start.wrapping_sub(1))
                .is_some_and(|b| *b == b'"' || *b == b'\'')
            {
                value_start - 1
            } else {
                value_start
            };
            let attr_end = next.max(value_end);
            out.push_str(&tag[..attr_start]);
            out.push('"');
            out.push_str(&new.replace('&', "&amp;").replace('"', "&quot;"));
            out.push('"');
            out.push_str(&tag[attr_end..]);
            return;
        }
        i = next;
    }
    out.push_str(tag);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proxy(url: &str) -> Option<String> {
        url.starts_with("https://").then(|| format!("/p/{}", url.len()))
    }

    #[test]
    fn d382_every_img_src_of_sanitised_html_is_rewritten_and_nothing_else() {
        let html = "<p>A &lt;b&gt; <a href=\"https://x.example/a?b=1&amp;c=2\">link</a></p>\
                    <figure><img src=\"https://p.example/i.jpg?a=1&amp;b=2\" alt=\"x\"></figure>\
                    <img alt=\"second\" src=\"https://p.example/2.png\">";
        let out = rewrite_img_srcs(html, proxy);
        assert_eq!(
            out,
            "<p>A &lt;b&gt; <a href=\"https://x.example/a?b=1&amp;c=2\">link</a></p>\
             <figure><img src=\"/p/31\" alt=\"x\"></figure>\
             <img alt=\"second\" src=\"/p/23\">"
        );
    }

    #[test]
    fn d382_markup_inside_an_attribute_is_text_not_a_tag() {
        // What the sanitiser writes for alt="<img src='https://evil.example/x'>".
        let html = "<img src=\"https://p.example/i.jpg\" alt=\"<img src=&quot;https://evil.example/x&quot;>\">tail";
        let out = rewrite_img_srcs(html, proxy);
        assert_eq!(
            out,
            "<img src=\"/p/23\" alt=\"<img src=&quot;https://evil.example/x&quot;>\">tail"
        );
    }

    #[test]
    fn d382_addresses_the_proxy_does_not_take_stay_and_odd_markup_survives() {
        for html in [
            "<img src=\"/demo/media/images/a.jpg\">",
            "<imgx src=\"https://p.example/a\">",
            "<img src=\"https://p.example/a\"",
            "no tags at all",
            "<p>unclosed <",
        ] {
            assert_eq!(rewrite_img_srcs(html, proxy), html);
        }
        assert_eq!(
            rewrite_img_srcs("<IMG SRC='https://p.example/a'/>", proxy),
            "<IMG SRC=\"/p/19\"/>"
        );
        assert_eq!(
            rewrite_img_srcs("<img src=https://p.example/a width=3>", proxy),
            "<img src=\"/p/19\" width=3>"
        );
    }
}
