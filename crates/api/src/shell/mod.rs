//! The SPA shell (`web/dist/index.html`), split once at its markers so each page
//! answer is a few string copies: `<html lang dir>`, `<!--lw:head-->` (title, meta,
//! links) and `<!--lw:payload-->` (the first data as JSON).

pub mod preload;

use crate::assets::WebDist;
use preload::Preloads;
use sha2::{Digest, Sha256};

const HTML_TAG: &str = r#"<html lang="en" dir="ltr">"#;
const HEAD_MARK: &str = "<!--lw:head-->";
const PAYLOAD_MARK: &str = "<!--lw:payload-->";
/// Where the server's first screen goes (D156).
const ROOT_OPEN: &str = r#"<div id="root">"#;

/// Used when the web app was not built (e.g. `cargo test` alone): same markers, so
/// the server behaves the same, and it says how to build the real one.
const FALLBACK: &str = concat!(
    "<!doctype html>\n",
    r#"<html lang="en" dir="ltr">"#,
    "<head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">",
    "<!--lw:head--></head><body><main><p>The web app is not built into this binary. ",
    "Run <code>npm run build</code> in <code>web/</code>, then rebuild.</p></main><!--lw:payload--></body></html>\n"
);

pub struct Shell {
    before_html: String,
    html_to_head: String,
    /// Up to and with `<div id="root">`, then the rest up to the payload. A shell
    /// without the root element (the fallback) takes no first screen.
    head_to_root: String,
    root_to_payload: Option<String>,
    after_payload: String,
    /// Hash of the shell, which names every content-hashed asset (decision D7).
    pub build_id: String,
    pub built: bool,
    /// Each screen's and locale's chunks, for the head (D147).
    pub preloads: Preloads,
}

impl Shell {
    pub fn load() -> Shell {
        let built = WebDist::get("index.html").and_then(|f| String::from_utf8(f.data.into_owned()).ok());
        match built.as_deref().and_then(|t| Shell::parse(t, true)) {
            Some(shell) => Shell {
                preloads: Preloads::load(),
                ..shell
            },
            None => {
                if built.is_some() {
                    tracing::error!("web/dist/index.html lacks the lw markers; serving the fallback shell");
                }
                Shell::parse(FALLBACK, false).unwrap_or_else(|| unreachable!("the fallback has every marker"))
            }
        }
    }

    fn parse(template: &str, built: bool) -> Option<Shell> {
        let (before_html, rest) = template.split_once(HTML_TAG)?;
        let (html_to_head, rest) = rest.split_once(HEAD_MARK)?;
        let (head_to_payload, after_payload) = rest.split_once(PAYLOAD_MARK)?;
        let (head_to_root, root_to_payload) = match head_to_payload.split_once(ROOT_OPEN) {
            Some((before, after)) => (format!("{before}{ROOT_OPEN}"), Some(after.to_string())),
            None => (head_to_payload.to_string(), None),
        };
        let build_id = hex::encode(&Sha256::digest(template.as_bytes())[..8]);
        Some(Shell {
            before_html: before_html.into(),
            html_to_head: html_to_head.into(),
            head_to_root,
            root_to_payload,
            after_payload: after_payload.into(),
            build_id,
            built,
            preloads: Preloads::default(),
        })
    }

    /// Assemble a page from its pieces; `head`, `root` (the first screen's markup, or
    /// empty) and `payload_json` are already escaped.
    pub fn render(&self, lang: &str, dir: &str, head: &str, root: &str, payload_json: &str) -> String {
        let mut out = String::with_capacity(
            self.before_html.len() + self.html_to_head.len() + head.len() + root.len() + payload_json.len() + 1024,
        );
        out.push_str(&self.before_html);
        out.push_str("<html lang=\"");
        out.push_str(lang);
        out.push_str("\" dir=\"");
        out.push_str(dir);
        out.push_str("\">");
        out.push_str(&self.html_to_head);
        out.push_str(head);
        out.push_str(&self.head_to_root);
        if let Some(rest) = &self.root_to_payload {
            out.push_str(root);
            out.push_str(rest);
        }
        out.push_str(r#"<script type="application/json" id="lw-payload">"#);
        out.push_str(payload_json);
        out.push_str("</script>");
        out.push_str(&self.after_payload);
        out
    }
}

/// Escape text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON that is safe inside a `<script>` element: no `<`, `>`, `&` or line separators
/// can end the element or confuse a parser.
pub fn script_safe_json(value: &serde_json::Value) -> String {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_shell_has_every_marker_and_renders() {
        let shell = Shell::parse(FALLBACK, false).unwrap();
        let html = shell.render("fr", "ltr", "<title>x</title>", "<p>first</p>", "{}");
        assert!(html.contains(r#"<html lang="fr" dir="ltr">"#));
        assert!(html.contains("<title>x</title>"));
        assert!(html.contains(r#"<script type="application/json" id="lw-payload">{}</script>"#));
        assert!(!html.contains("lw:head") && !html.contains("lw:payload"));
        assert!(
            !html.contains("<p>first</p>"),
            "the fallback has no root for a first screen"
        );
    }

    #[test]
    fn the_first_screen_goes_inside_the_root_element() {
        let template = concat!(
            "<!doctype html>",
            r#"<html lang="en" dir="ltr"><head><!--lw:head--></head><body><div id="root"></div>"#,
            "<!--lw:payload--></body></html>"
        );
        let shell = Shell::parse(template, true).unwrap();
        let html = shell.render("en", "ltr", "", "<main>story</main>", "{}");
        assert!(html.contains(r#"<div id="root"><main>story</main></div><script type="application/json""#));
    }

    #[test]
    fn payload_json_cannot_close_the_script_element() {
        let v = serde_json::json!({ "path": "</script><script>alert(1)</script>" });
        let s = script_safe_json(&v);
        assert!(!s.contains('<') && !s.contains('>'));
        let back: serde_json::Value = serde_json::from_str(&s).unwrap();
        assert_eq!(back, v, "still the same JSON");
    }

    #[test]
    fn html_escaping() {
        assert_eq!(
            escape_html(r#"<a href="x">'&'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
