//! Stored article HTML as the API and the pages serve it again. It was sanitised when it
//! was ingested; what is read back is checked before it leaves, so a row written another
//! way (an older version, a restore, a bug) can never put a script or handler in an
//! answer or in a page's first screen (D424). The check is a scan; the sanitiser runs
//! only when the scan finds markup its allow-list never leaves.

use std::borrow::Cow;

/// Elements the ingest sanitiser's allow-list never lets through.
const NEVER_ALLOWED: [&str; 12] = [
    "<script", "<style", "<iframe", "<frame", "<object", "<embed", "<link", "<meta", "<base", "<form", "<svg", "<math",
];

/// `html`, cleaned again when it holds anything the sanitiser would have removed.
pub fn served(html: &str) -> Cow<'_, str> {
    if leaves_the_allow_list(html) {
        Cow::Owned(ingest::clean::sanitize_html(html, None))
    } else {
        Cow::Borrowed(html)
    }
}

/// Does this HTML hold a forbidden element, an event handler attribute, a `javascript:`
/// URL, or a character reference inside a tag (how `java&#115;cript:` hides)?
fn leaves_the_allow_list(html: &str) -> bool {
    let lower = html.to_ascii_lowercase();
    if NEVER_ALLOWED.iter().any(|tag| lower.contains(tag)) || lower.contains("javascript:") {
        return true;
    }
    lower.split('<').skip(1).any(|rest| {
        let tag = tag_text(rest);
        tag.contains("&#")
            || tag.contains("&colon")
            || tag.contains("&tab")
            || tag.contains("&newline")
            || has_handler(tag)
    })
}

/// A tag's text up to its closing `>`, a `>` inside a quoted value not counting.
fn tag_text(rest: &str) -> &str {
    let mut quote = None;
    for (i, c) in rest.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return &rest[..i],
            _ => {}
        }
    }
    rest
}

/// An attribute named `on…` followed by `=` (spaces allowed), however it is separated from
/// what comes before it (space, slash or a closing quote).
fn has_handler(tag: &str) -> bool {
    let bytes = tag.as_bytes();
    (1..bytes.len().saturating_sub(1)).any(|i| {
        if !(bytes[i] == b'o' && bytes[i + 1] == b'n') {
            return false;
        }
        if !matches!(
            bytes[i - 1],
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'"' | b'\''
        ) {
            return false;
        }
        let mut j = i + 2;
        while j < bytes.len() && (bytes[j].is_ascii_alphanumeric() || bytes[j] == b'-' || bytes[j] == b'_') {
            j += 1;
        }
        while j < bytes.len() && bytes[j].is_ascii_whitespace() {
            j += 1;
        }
        bytes.get(j) == Some(&b'=')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_the_sanitiser_never_leaves_is_found() {
        assert!(!leaves_the_allow_list(
            r#"<p>Fine <a href="/x" rel="noopener">link</a> <img src="/a.svg" alt="" width="6"></p><figure></figure>"#
        ));
        assert!(
            !leaves_the_allow_list("<p>Ontario online: one=1</p>"),
            "words, not attributes"
        );
        for bad in [
            "<p>x</p><SCRIPT>alert(1)</SCRIPT>",
            r#"<img src="x" onerror="alert(1)">"#,
            r#"<img src=x ONLOAD=alert(1)>"#,
            r#"<a href="JavaScript:alert(1)">x</a>"#,
            "<iframe src=//evil></iframe>",
            "<style>body{}</style>",
            // What a plain split on spaces and `>` missed (review of D424).
            r#"<img src=x onerror =alert(1)>"#,
            r#"<img src="x"onerror=alert(1)>"#,
            r#"<img alt=">" onerror=alert(1)>"#,
            r#"<a href="java&#115;cript:alert(1)">x</a>"#,
            r#"<a href="javascript&colon;alert(1)">x</a>"#,
        ] {
            assert!(leaves_the_allow_list(bad), "{bad}");
        }
    }

    #[test]
    fn clean_html_is_served_as_stored_and_the_rest_cleaned() {
        let clean = "<p>Council votes</p>";
        assert!(matches!(served(clean), Cow::Borrowed(s) if s == clean));
        let hostile = r#"<p>Council </script><script>alert(1)</script> vote</p><img src="/a.png" onerror="x()">"#;
        let out = served(hostile);
        assert!(
            !out.to_ascii_lowercase().contains("<script") && !out.contains("onerror"),
            "{out}"
        );
        assert!(out.contains("Council"), "{out}");
    }
}
