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

/// Does this HTML hold a forbidden element, an event handler attribute (` on…=` inside a
/// tag) or a `javascript:` URL?
fn leaves_the_allow_list(html: &str) -> bool {
    let lower = html.to_ascii_lowercase();
    if NEVER_ALLOWED.iter().any(|tag| lower.contains(tag)) || lower.contains("javascript:") {
        return true;
    }
    lower.split('<').skip(1).any(|tag| {
        let tag = tag.split('>').next().unwrap_or_default();
        tag.split(|c: char| c.is_ascii_whitespace() || c == '/')
            .skip(1)
            .any(|attr| attr.starts_with("on") && attr.contains('='))
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
