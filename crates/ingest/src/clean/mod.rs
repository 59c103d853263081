//! Raw items → clean items: sanitised HTML (allow-list), absolute URLs without
//! tracking parameters or pixels, plain-text title and the SPEC §3 summary, the
//! images, video and audio of SPEC §3, a language, and a stable identity.
//!
//! One file a job: `urls` (links without tracking), `markup` (tags and entities read
//! without the parser), `sanitize` (the allow-list), `html_text` (HTML to plain text),
//! `language` (en, es or fr), `item` (a raw item to a clean one).

/// The text rules of SPEC §3.18 / §9.6 live in `domain` (D226); named here too for
/// the callers that clean items.
pub use domain::text::{collapse_whitespace, cut_on_word, summary_of};

mod html_text;
mod item;
mod language;
mod markup;
mod sanitize;
mod urls;

pub use html_text::html_to_text;
pub use item::{CleanContext, CleanItem, NEWS_TYPE_ARTICLE, clean_item, clean_item_with_text};
pub use markup::decode_entities;
pub use sanitize::{ALLOWED_TAGS, sanitize_html};
pub use urls::clean_url;

/// The parser-only paths behind [`sanitize_html`] and [`html_to_text`], for the fuzz
/// target `feed_parse_clean` to hold the fast paths (D160) to them on any input, as the
/// unit tests do on chosen ones. Only built with the `fuzzing` feature (fuzz/).
#[cfg(feature = "fuzzing")]
pub mod parser_paths {
    use super::{html_text, sanitize};
    use url::Url;

    /// [`super::sanitize_html`] without the fast path.
    pub fn sanitize_html(html: &str, base: Option<&Url>) -> String {
        sanitize::drop_empty_images(&sanitize::sanitize_with_parser(html, base))
    }

    /// [`super::html_to_text`] without the fast path.
    pub fn html_to_text(html: &str) -> String {
        html_text::html_to_text_parsed(html)
    }

    /// The text the pipeline reads from sanitised HTML (fast path where it applies).
    pub fn sanitized_html_text(html: &str) -> String {
        html_text::sanitized_html_text(html)
    }
}
