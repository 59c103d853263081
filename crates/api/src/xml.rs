//! Text for the XML documents the server writes (sitemaps, feeds, OpenSearch).

/// `text` escaped for XML content and attribute values, without the characters XML 1.0
/// cannot hold at all, escaped or not (controls other than tab, newline and return;
/// U+FFFE and U+FFFF): a feed with one of them in a title is not XML, and a reader's
/// parser would refuse the whole document.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if c < ' ' || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_and_drops_what_xml_cannot_hold() {
        assert_eq!(escape(r#"a<b>&"c"'d"#), "a&lt;b&gt;&amp;&quot;c&quot;&apos;d");
        assert_eq!(escape("bell\u{7} tab\t nul\u{0} \u{FFFE}end"), "bell tab\t nul end");
        assert_eq!(escape("Montréal 📰"), "Montréal 📰");
    }
}
