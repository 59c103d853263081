//! What a feed's relative links are relative to (D170). Feeds are often served from
//! another host than the publisher's site (feed proxies, CDNs, FeedBurner-style
//! services), so a relative `<link href="/nouvelles/x"/>` resolved against the address
//! the feed was fetched from points at the proxy, and "read the original" breaks. The
//! rule, in order:
//!
//! 1. `xml:base` wherever the feed declares one (feed-rs applies it to links; the
//!    feed-level one also governs the content's relative references);
//! 2. else the feed's own link to its site (RSS `<channel><link>`, Atom's alternate
//!    `<link>`, JSON Feed's `home_page_url`) when it is an absolute http(s) address;
//! 3. else the address the feed was fetched from.
//!
//! The site link is read in a light pass that stops at the first item, because feed-rs
//! needs the base before it parses.

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use url::Url;

/// What an XML feed declares before its first item.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Declared {
    /// The feed's link to its site, as written (maybe relative).
    pub site_link: Option<String>,
    /// The `xml:base` on the root or `<channel>` element, as written.
    pub xml_base: Option<String>,
}

/// The base for rules 2 and 3: the site link when it is an absolute http(s) address,
/// else the fetch address.
pub(crate) fn site_or_fetched(site_link: Option<&str>, fetched_from: Option<&str>) -> Option<String> {
    site_link
        .and_then(|l| Url::parse(l.trim()).ok())
        .filter(|u| matches!(u.scheme(), "http" | "https") && u.host_str().is_some_and(|h| !h.is_empty()))
        .map(String::from)
        .or_else(|| fetched_from.map(str::to_string))
}

/// The base for the feed's content: the feed-level `xml:base` over `base`, as feed-rs
/// applies it to the feed's links.
pub(crate) fn with_xml_base(base: Option<String>, xml_base: Option<&str>) -> Option<String> {
    let Some(xml_base) = xml_base.map(str::trim).filter(|b| !b.is_empty()) else {
        return base;
    };
    let joined = match base.as_deref().and_then(|b| Url::parse(b).ok()) {
        Some(b) => b.join(xml_base).ok(),
        None => Url::parse(xml_base).ok(),
    };
    joined.map(String::from).or(base)
}

/// The site link and feed-level `xml:base` of an XML feed; empty for anything
/// unreadable (the parser proper reports those).
pub(crate) fn declared(bytes: &[u8]) -> Declared {
    let mut reader = Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let mut out = Declared::default();
    // Unprefixed local names of the open elements, outermost first.
    let mut open: Vec<String> = Vec::new();
    let mut channel_link: Option<String> = None;
    while let Ok(event) = reader.read_event_into(&mut buf) {
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let name = unprefixed(e);
                if matches!(name.as_deref(), Some("item" | "entry")) {
                    break;
                }
                let feed_level = open.is_empty() || name.as_deref() == Some("channel");
                if feed_level && out.xml_base.is_none() {
                    out.xml_base = attribute(e, "xml:base");
                }
                let parent = open.last().map(String::as_str);
                if out.site_link.is_none() && name.as_deref() == Some("link") {
                    match parent {
                        Some("feed") if atom_site_link(e) => out.site_link = attribute(e, "href"),
                        Some("channel") if matches!(event, Event::Start(_)) => channel_link = Some(String::new()),
                        _ => {}
                    }
                }
                if matches!(event, Event::Start(_)) {
                    open.push(name.unwrap_or_default());
                }
            }
            Event::Text(t) => {
                if let Some(link) = channel_link.as_mut() {
                    link.push_str(&t.xml_content(XmlVersion::Implicit1_0));
                }
            }
            Event::CData(t) => {
                if let Some(link) = channel_link.as_mut() {
                    link.push_str(&t.xml_content(XmlVersion::Implicit1_0));
                }
            }
            Event::GeneralRef(r) => {
                if let Some(link) = channel_link.as_mut() {
                    let resolved = match r.resolve_char_ref() {
                        Ok(Some(c)) => Some(c.to_string()),
                        _ => quick_xml::escape::resolve_predefined_entity(r).map(str::to_string),
                    };
                    link.push_str(&resolved.unwrap_or_default());
                }
            }
            Event::End(_) => {
                open.pop();
                if let Some(link) = channel_link.take() {
                    out.site_link = Some(link.trim().to_string()).filter(|l| !l.is_empty());
                }
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    out
}

/// The element's local name when it has no namespace prefix (`atom:link` inside an RSS
/// channel is the feed's own address, not its site).
fn unprefixed(e: &BytesStart<'_>) -> Option<String> {
    let name = e.name();
    let name: &str = name.as_ref();
    (!name.contains(':')).then(|| name.to_string())
}

/// An Atom `<link>` to the site: rel absent or `alternate`, and an HTML page if typed.
fn atom_site_link(e: &BytesStart<'_>) -> bool {
    let rel_ok = attribute(e, "rel").is_none_or(|r| r == "alternate");
    let type_ok = attribute(e, "type").is_none_or(|t| t.contains("html"));
    rel_ok && type_ok
}

fn attribute(e: &BytesStart<'_>, name: &str) -> Option<String> {
    let attr = e.try_get_attribute(name).ok()??;
    let value = attr.normalized_value(XmlVersion::Implicit1_0).ok()?;
    Some(value.trim().to_string()).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rss_channel_link_and_atom_alternate_link_are_the_site() {
        let rss = br#"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>T</title>
            <atom:link href="https://feeds.proxy.example/paper" rel="self"/>
            <link>https://paper.example/?a=1&amp;b=2</link><item><link>/x</link></item></channel></rss>"#;
        assert_eq!(
            declared(rss),
            Declared {
                site_link: Some("https://paper.example/?a=1&b=2".into()),
                xml_base: None
            }
        );
        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://fil.example/">
            <link rel="self" href="https://cdn.example/fil.xml"/>
            <link rel="alternate" type="text/html" href="https://fil.example/"/>
            <entry><link href="/nouvelles/x"/></entry></feed>"#;
        assert_eq!(
            declared(atom),
            Declared {
                site_link: Some("https://fil.example/".into()),
                xml_base: Some("https://fil.example/".into())
            }
        );
    }

    #[test]
    fn an_entrys_links_are_not_the_sites() {
        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
            <entry><link href="https://elsewhere.example/1"/></entry></feed>"#;
        assert_eq!(declared(atom), Declared::default());
        assert_eq!(
            declared(br#"{"version":"https://jsonfeed.org/version/1.1"}"#),
            Declared::default()
        );
    }

    #[test]
    fn only_an_absolute_web_site_link_replaces_the_fetch_address() {
        let fetched = Some("https://cdn.example/feeds/fil.xml");
        assert_eq!(
            site_or_fetched(Some("https://fil.example/"), fetched).as_deref(),
            Some("https://fil.example/")
        );
        for unusable in [Some("/"), Some("fil.example"), Some("mailto:x@fil.example"), None] {
            assert_eq!(site_or_fetched(unusable, fetched).as_deref(), fetched, "{unusable:?}");
        }
        assert_eq!(
            with_xml_base(Some("https://fil.example/".into()), Some("/fr/")).as_deref(),
            Some("https://fil.example/fr/")
        );
        assert_eq!(
            with_xml_base(Some("https://fil.example/".into()), None).as_deref(),
            Some("https://fil.example/")
        );
    }
}
