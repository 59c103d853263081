//! Redirects that stay on this site (issue 29, D360). Every `Location` the server builds
//! from a request (the locale guard, `c`, the locale cookie, the `/user` guard, the
//! sign-in return path) goes through [`same_origin_path`]; only the operator's route
//! rules may point elsewhere (SPEC §2.22).
//!
//! A browser reads a `Location` that starts with two slashes, or a slash and a backslash
//! (`//evil.example`, `/\evil.example`, `\/evil.example`), as another host, and drops
//! tabs and newlines anywhere in it first (so `/<TAB>/evil.example` is `//evil.example`).
//! A path that starts with one `/` followed by anything else is always a path on the
//! origin it was served from. Percent-encoded slashes and backslashes (`%2F`, `%5C`,
//! `%252F`…) are harmless to a browser but not to a proxy that decodes them, so they are
//! treated like the characters they stand for.

/// `target` as a path on this site: control characters (tab, newline…) removed, and the
/// leading run of slashes, backslashes and their percent-encoded forms (with encoded
/// tabs and newlines among them) collapsed to a single `/`. The answer is `/` or starts
/// with `/` followed by a character that is neither `/` nor `\`. Idempotent.
pub fn same_origin_path(target: &str) -> String {
    let cleaned: String = target.chars().filter(|c| !c.is_control()).collect();
    let mut rest = cleaned.as_str();
    while let Some(len) = leading_separator(rest) {
        rest = &rest[len..];
    }
    format!("/{rest}")
}

/// Is `target` already a path on this site, as [`same_origin_path`] would write it?
pub fn is_same_origin_path(target: &str) -> bool {
    same_origin_path(target) == target
}

/// The length of a slash, backslash, or percent-encoded slash, backslash, tab, newline
/// or carriage return (`%2f`, `%5C`, `%09`, `%252f`…) at the start of `s`.
fn leading_separator(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    match bytes.first()? {
        b'/' | b'\\' => return Some(1),
        b'%' => {}
        _ => return None,
    }
    // `%` then any number of `25` (each a further level of encoding), then the code.
    let mut i = 1;
    while bytes.get(i..i + 2) == Some(b"25") {
        i += 2;
    }
    let code = bytes.get(i..i + 2)?;
    let code = std::str::from_utf8(code).ok()?.to_ascii_lowercase();
    matches!(code.as_str(), "2f" | "5c" | "09" | "0a" | "0d").then_some(i + 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attack_paths_become_paths_on_this_site() {
        let cases = [
            ("//evil.example/x", "/evil.example/x"),
            ("/\\evil.example", "/evil.example"),
            ("\\/evil.example", "/evil.example"),
            ("\\\\evil.example", "/evil.example"),
            ("///evil.example", "/evil.example"),
            ("/\t/evil.example", "/evil.example"),
            ("/\n/evil.example", "/evil.example"),
            ("/%09/evil.example", "/evil.example"),
            ("/%2F%2Fevil.example", "/evil.example"),
            ("/%2f%5cevil.example", "/evil.example"),
            ("/%5Cevil.example", "/evil.example"),
            ("/%252F%252Fevil.example", "/evil.example"),
            ("/%2F/%5c\\%0A/evil.example?c=en_US", "/evil.example?c=en_US"),
            ("https://evil.example/", "/https://evil.example/"),
            ("", "/"),
            ("//", "/"),
            ("//?c=fr_CA", "/?c=fr_CA"),
        ];
        for (raw, want) in cases {
            assert_eq!(same_origin_path(raw), want, "{raw:?}");
            assert!(is_same_origin_path(want), "{want:?} is already on this site");
        }
    }

    #[test]
    fn ordinary_paths_are_untouched() {
        for path in [
            "/",
            "/latest",
            "/es/?c=es_US",
            "/article/9?x=1&c=en_CA",
            "/search?q=a%2Fb",
            "/a//b",
            "/%E2%9C%93",
        ] {
            assert_eq!(same_origin_path(path), path);
            assert!(is_same_origin_path(path));
        }
    }

    #[test]
    fn the_browser_resolves_every_answer_on_this_site() {
        let ours = url::Url::parse("https://news.example.org/fr/latest").unwrap();
        for raw in [
            "//evil.example",
            "/\\evil.example",
            "\\/evil.example",
            "/\t/evil.example",
            "/%2F%2Fevil.example",
            "/%5C%5Cevil.example",
            "https://evil.example",
            "javascript:alert(1)",
            " //evil.example",
            "/ /evil.example",
        ] {
            let to = same_origin_path(raw);
            let resolved = ours.join(&to).unwrap();
            assert_eq!(resolved.origin(), ours.origin(), "{raw:?} → {to:?} → {resolved}");
        }
    }
}
