//! The built-in demo corpus (`data/demo`), embedded in the binary so `localwire serve
//! --demo` works anywhere with no network. Its feeds and media live under the reserved
//! host `demo.localwire.invalid` (RFC 2606: `.invalid` never resolves), so the same
//! ingestion path reads them from here instead of the network, and the server serves the
//! media at [`MEDIA_PATH`].

use rust_embed::RustEmbed;
use std::borrow::Cow;

#[derive(RustEmbed)]
#[folder = "$CARGO_MANIFEST_DIR/../../data/demo/"]
#[include = "feeds/*"]
#[include = "media/**/*"]
#[include = "publishers.opml"]
struct Corpus;

/// The demo's feeds and media are addressed under this origin.
pub const ORIGIN: &str = "https://demo.localwire.invalid/";
/// Where our server serves the demo media (`/demo/media/images/x.jpg`).
pub const MEDIA_PATH: &str = "/demo/media/";
/// The corpus's publish times are relative to this instant (publishers.json `base_date`):
/// they are shifted by now − base so the demo always looks fresh.
pub const BASE_DATE_MS: i64 = 1_795_176_000_000; // 2026-11-20T12:00:00Z

/// The OPML list of demo publishers.
pub fn publishers_opml() -> Cow<'static, [u8]> {
    Corpus::get("publishers.opml")
        .map(|f| f.data)
        .unwrap_or(Cow::Borrowed(&[]))
}

/// The demo publishers with their feeds, as the store takes them (their icons served by
/// our server): what `serve --demo` imports, and what tests load the demo with.
pub fn publishers() -> Result<Vec<store::content::PublisherFeeds>, String> {
    let base = url::Url::parse(ORIGIN).map_err(|e| e.to_string())?;
    let parsed = crate::opml::parse_opml_with_base(&publishers_opml(), Some(&base))
        .map_err(|e| format!("the built-in demo OPML: {e}"))?;
    let mut list = crate::adding::publishers_from_opml(&parsed.publishers)?;
    for p in &mut list {
        p.media.icon_url = localize_media(&p.media.icon_url);
    }
    Ok(list)
}

/// A demo file by its URL (`https://demo.localwire.invalid/feeds/x.xml`), if it is one.
pub fn file_for_url(url: &str) -> Option<Cow<'static, [u8]>> {
    let path = url.strip_prefix(ORIGIN)?;
    if path.contains("..") {
        return None;
    }
    Corpus::get(path).map(|f| f.data)
}

/// True for URLs served from the embedded corpus.
pub fn is_demo_url(url: &str) -> bool {
    url.starts_with(ORIGIN)
}

/// A demo media file by its path under [`MEDIA_PATH`] (`images/x.jpg`).
pub fn media(path: &str) -> Option<Cow<'static, [u8]>> {
    if path.contains("..") {
        return None;
    }
    Corpus::get(&format!("media/{path}")).map(|f| f.data)
}

/// Point demo media URLs at our own server (`https://demo.localwire.invalid/media/x` →
/// `/demo/media/x`), in a URL or in HTML.
pub fn localize_media(text: &str) -> String {
    text.replace("https://demo.localwire.invalid/media/", MEDIA_PATH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_is_embedded() {
        let opml = publishers_opml();
        assert!(std::str::from_utf8(&opml).unwrap().contains("The Capitol Ledger"));
        assert!(file_for_url("https://demo.localwire.invalid/feeds/capitol-ledger.xml").is_some());
        assert!(file_for_url("https://demo.localwire.invalid/../Cargo.toml").is_none());
        assert!(file_for_url("https://example.com/feeds/capitol-ledger.xml").is_none());
        assert!(media("icons/capitol-ledger.svg").is_some());
    }

    #[test]
    fn base_date_is_the_corpus_base() {
        let base = chrono::DateTime::parse_from_rfc3339("2026-11-20T12:00:00Z").unwrap();
        assert_eq!(base.timestamp_millis(), BASE_DATE_MS);
    }

    #[test]
    fn media_urls_point_at_our_server() {
        assert_eq!(
            localize_media("<img src=\"https://demo.localwire.invalid/media/images/a.jpg\">"),
            "<img src=\"/demo/media/images/a.jpg\">"
        );
    }
}
