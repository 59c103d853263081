//! OPML 2.0 in and out for publishers (`localwire import-opml` / `export-opml`).
//!
//! A feed is an `<outline>` with an `xmlUrl`; an outline without one that holds other
//! outlines is a folder, and its `text` is kept in [`OpmlPublisher::folders`]. Location,
//! language, category and the §3 publisher fields travel in attributes of the Localwire
//! namespace ([`NAMESPACE`], written with the `localwire:` prefix; read under any prefix
//! bound to it): `country`, `state`, `city`, `lang`, `category`, `icon`, `home`, `about`,
//! `contact`. Feeds that cannot be used are listed in [`OpmlImport::skipped`] with the
//! reason; a document that is not readable OPML is an [`OpmlError`], so a caller can make
//! the import all-or-nothing. A DOCTYPE that declares entities is refused (no entity is
//! ever expanded beyond XML's five predefined ones and character references).

use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::ResolveResult;
use quick_xml::reader::NsReader;
use std::collections::HashMap;
use std::fmt;
use url::Url;

/// The namespace of Localwire's OPML attributes.
pub const NAMESPACE: &str = "https://localwire.invalid/ns/opml";

/// One publisher's feed as OPML carries it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpmlPublisher {
    /// `xmlUrl`, absolute (http, https or file).
    pub feed_url: String,
    /// `title`, else `text`, else the feed URL.
    pub name: String,
    /// `htmlUrl`.
    pub html_url: Option<String>,
    /// `type` as written (rss, atom, json…); informational, the parser sniffs the format.
    pub feed_type: Option<String>,
    /// ISO country code (`localwire:country`), e.g. "US".
    pub country: Option<String>,
    /// State or province code (`localwire:state`), e.g. "ON".
    pub state: Option<String>,
    /// City name (`localwire:city`).
    pub city: Option<String>,
    /// Default language (`localwire:lang`), e.g. "fr".
    pub lang: Option<String>,
    /// Main category id (`localwire:category`), e.g. "politics".
    pub category: Option<String>,
    /// `localwire:icon`.
    pub icon_url: Option<String>,
    /// `localwire:home` (the publisher's home page when it differs from `htmlUrl`).
    pub home_url: Option<String>,
    /// `localwire:about`.
    pub about: Option<String>,
    /// `localwire:contact`.
    pub contact: Option<String>,
    /// Enclosing folder outlines' `text`, outermost first.
    pub folders: Vec<String>,
}

/// What an OPML file gave.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpmlImport {
    /// `<head><title>`.
    pub title: Option<String>,
    pub publishers: Vec<OpmlPublisher>,
    pub skipped: Vec<Skipped>,
}

/// An outline that was not imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line of the outline in the file.
    pub line: usize,
    /// Its title or text (or its URL), to name it in a report.
    pub label: String,
    pub reason: SkipReason,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// Neither a feed nor a folder.
    MissingXmlUrl,
    /// `xmlUrl` is not a URL.
    InvalidUrl(String),
    /// A scheme other than http, https or file.
    UnsupportedScheme(String),
    /// A relative `xmlUrl` and no base to resolve it against.
    RelativeWithoutBase(String),
    /// The same feed URL earlier in the file (at that line).
    Duplicate { first_line: usize },
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::MissingXmlUrl => write!(f, "missing xmlUrl"),
            SkipReason::InvalidUrl(u) => write!(f, "xmlUrl {u:?} is not a valid URL"),
            SkipReason::UnsupportedScheme(u) => write!(f, "not an http(s) or file URL: {u}"),
            SkipReason::RelativeWithoutBase(u) => {
                write!(f, "relative xmlUrl {u:?} and no file location to resolve it against")
            }
            SkipReason::Duplicate { first_line } => write!(f, "duplicate URL (first at line {first_line})"),
        }
    }
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: {}", self.line, self.label, self.reason)
    }
}

/// Why a document is not usable OPML.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpmlError {
    #[error("the OPML file is empty")]
    Empty,
    #[error("the OPML file is not UTF-8 text (bad byte at line {line}, column {column}); save it as UTF-8")]
    NotUtf8 { line: usize, column: usize },
    #[error("the OPML file is not well-formed XML at line {line}, column {column}: {message}")]
    Xml {
        line: usize,
        column: usize,
        message: String,
    },
    #[error(
        "the OPML file declares entities in a DOCTYPE (line {line}); entity declarations are refused, \
         remove the DOCTYPE"
    )]
    EntityDeclaration { line: usize },
    #[error("not an OPML document: the root element is <{found}>, expected <opml>")]
    NotOpml { found: String },
    #[error("the OPML document has no <body>")]
    NoBody,
}

/// Parses OPML; relative `xmlUrl`s are skipped (see [`parse_opml_with_base`]).
pub fn parse_opml(bytes: &[u8]) -> Result<OpmlImport, OpmlError> {
    parse_opml_with_base(bytes, None)
}

/// Parses OPML, resolving relative `xmlUrl`s against `base` (the file's own URL, e.g.
/// `file:///srv/publishers.opml`, so that `feeds/a.xml` is next to it).
pub fn parse_opml_with_base(bytes: &[u8], base: Option<&Url>) -> Result<OpmlImport, OpmlError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let (line, column) = line_column(bytes, e.valid_up_to());
            return Err(OpmlError::NotUtf8 { line, column });
        }
    };
    if text.trim().is_empty() {
        return Err(OpmlError::Empty);
    }
    let mut reader = NsReader::from_str(text);
    reader.config_mut().check_end_names = true;
    let xml_error = |pos: u64, message: String| {
        let (line, column) = line_column(text.as_bytes(), pos as usize);
        OpmlError::Xml { line, column, message }
    };

    let mut out = OpmlImport::default();
    let mut seen: HashMap<String, usize> = HashMap::new();
    // Element names from the root down; for outlines, the folder text (None for a feed).
    let mut stack: Vec<(String, Option<String>)> = Vec::new();
    let mut root_seen = false;
    let mut body_seen = false;
    let mut in_head_title = false;
    loop {
        let pos = reader.buffer_position();
        let event = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) => return Err(xml_error(reader.error_position(), e.to_string())),
        };
        match event {
            Event::DocType(d) => {
                let raw = d.to_ascii_uppercase();
                if raw.contains("<!ENTITY") || raw.contains('[') {
                    return Err(OpmlError::EntityDeclaration {
                        line: line_column(text.as_bytes(), pos as usize).0,
                    });
                }
            }
            Event::Start(ref e) | Event::Empty(ref e) => {
                let empty = matches!(event, Event::Empty(_));
                let name = e.local_name().as_ref().to_string();
                if stack.is_empty() {
                    if root_seen || name != "opml" {
                        return Err(OpmlError::NotOpml { found: name });
                    }
                    root_seen = true;
                }
                let parent = stack.last().map(|(n, _)| n.as_str());
                let mut folder = None;
                if name == "body" && parent == Some("opml") {
                    body_seen = true;
                } else if name == "title" && parent == Some("head") && !empty {
                    in_head_title = true;
                } else if name == "outline" && stack.iter().any(|(n, _)| n == "body") {
                    let line = line_column(text.as_bytes(), pos as usize).0;
                    let attrs = attributes(&reader, e).map_err(|m| xml_error(pos, m))?;
                    let folders: Vec<String> = stack.iter().filter_map(|(_, f)| f.clone()).collect();
                    match outline(attrs, folders, base) {
                        Outline::Feed(p) => match seen.get(&p.feed_url) {
                            Some(&first_line) => out.skipped.push(Skipped {
                                line,
                                label: p.name.clone(),
                                reason: SkipReason::Duplicate { first_line },
                            }),
                            None => {
                                seen.insert(p.feed_url.clone(), line);
                                out.publishers.push(*p);
                            }
                        },
                        Outline::Folder(text) if !empty => folder = Some(text),
                        Outline::Folder(label) => out.skipped.push(Skipped {
                            line,
                            label,
                            reason: SkipReason::MissingXmlUrl,
                        }),
                        Outline::Skip(label, reason) => out.skipped.push(Skipped { line, label, reason }),
                    }
                }
                if !empty {
                    stack.push((name, folder));
                }
            }
            Event::Text(t) if in_head_title => {
                out.title.get_or_insert_with(String::new).push_str(&t);
            }
            Event::GeneralRef(r) if in_head_title => {
                let resolved = reference(&r).ok_or_else(|| xml_error(pos, format!("unknown entity &{};", &*r)))?;
                out.title.get_or_insert_with(String::new).push_str(&resolved);
            }
            Event::GeneralRef(r) if reference(&r).is_none() => {
                return Err(xml_error(pos, format!("unknown entity &{};", &*r)));
            }
            Event::End(_) => {
                if let Some((name, _)) = stack.pop()
                    && name == "title"
                {
                    in_head_title = false;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !root_seen {
        return Err(OpmlError::NotOpml { found: "(none)".into() });
    }
    if !body_seen {
        return Err(OpmlError::NoBody);
    }
    if let Some(t) = &mut out.title {
        *t = t.trim().to_string();
    }
    Ok(out)
}

/// A character reference or one of XML's five entities; anything else is refused.
fn reference(r: &quick_xml::events::BytesRef<'_>) -> Option<String> {
    match r.resolve_char_ref() {
        Ok(Some(c)) => Some(c.to_string()),
        Ok(None) => quick_xml::escape::resolve_predefined_entity(r).map(str::to_string),
        Err(_) => None,
    }
}

enum Outline {
    Feed(Box<OpmlPublisher>),
    Folder(String),
    Skip(String, SkipReason),
}

/// An outline's attributes by name: plain names as themselves, Localwire's as `lw:NAME`.
fn attributes(reader: &NsReader<&[u8]>, e: &BytesStart<'_>) -> Result<HashMap<String, String>, String> {
    let mut map = HashMap::new();
    for attr in e.attributes() {
        let attr = attr.map_err(|e| e.to_string())?;
        let (ns, local) = reader.resolver().resolve_attribute(attr.key);
        let local = local.as_ref().to_string();
        let key = match ns {
            ResolveResult::Unbound => local,
            ResolveResult::Bound(n) if n.as_ref() == NAMESPACE => format!("lw:{local}"),
            _ => continue,
        };
        let value = attr
            .normalized_value(XmlVersion::Implicit1_0)
            .map_err(|e| e.to_string())?;
        map.insert(key, value.trim().to_string());
    }
    Ok(map)
}

fn outline(mut a: HashMap<String, String>, folders: Vec<String>, base: Option<&Url>) -> Outline {
    let mut take = |k: &str| a.remove(k).filter(|v| !v.is_empty());
    let title = take("title");
    let text = take("text");
    let Some(xml_url) = take("xmlUrl") else {
        return Outline::Folder(text.or(title).unwrap_or_default());
    };
    let label = title.clone().or(text.clone()).unwrap_or_else(|| xml_url.clone());
    let url = match Url::parse(&xml_url) {
        Ok(u) => u,
        Err(url::ParseError::RelativeUrlWithoutBase) => match base {
            Some(b) => match b.join(&xml_url) {
                Ok(u) => u,
                Err(_) => return Outline::Skip(label, SkipReason::InvalidUrl(xml_url)),
            },
            None => return Outline::Skip(label, SkipReason::RelativeWithoutBase(xml_url)),
        },
        Err(_) => return Outline::Skip(label, SkipReason::InvalidUrl(xml_url)),
    };
    if !matches!(url.scheme(), "http" | "https" | "file") {
        return Outline::Skip(label, SkipReason::UnsupportedScheme(xml_url));
    }
    let feed_url = url.to_string();
    Outline::Feed(Box::new(OpmlPublisher {
        name: title.or(text).unwrap_or_else(|| feed_url.clone()),
        feed_url,
        html_url: take("htmlUrl"),
        feed_type: take("type"),
        country: take("lw:country"),
        state: take("lw:state"),
        city: take("lw:city"),
        lang: take("lw:lang"),
        category: take("lw:category"),
        icon_url: take("lw:icon"),
        home_url: take("lw:home"),
        about: take("lw:about"),
        contact: take("lw:contact"),
        folders,
    }))
}

/// 1-based line and column (in characters) of a byte offset.
fn line_column(bytes: &[u8], offset: usize) -> (usize, usize) {
    let upto = &bytes[..offset.min(bytes.len())];
    let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
    let line_start = upto.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&upto[line_start..]).chars().count() + 1;
    (line, column)
}

/// OPML 2.0 for these publishers, folders nested as outlines (consecutive publishers with
/// the same folders share them), the Localwire attributes in [`NAMESPACE`].
pub fn write_opml(publishers: &[OpmlPublisher]) -> String {
    write_opml_titled(publishers, "Localwire publishers")
}

/// [`write_opml`] with a `<head><title>`.
pub fn write_opml_titled(publishers: &[OpmlPublisher], title: &str) -> String {
    let mut out = String::with_capacity(200 + publishers.len() * 400);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!("<opml version=\"2.0\" xmlns:localwire=\"{NAMESPACE}\">\n"));
    out.push_str(&format!("<head>\n<title>{}</title>\n</head>\n<body>\n", escape(title)));
    let mut open: Vec<&str> = Vec::new();
    for p in publishers {
        let common = open
            .iter()
            .zip(&p.folders)
            .take_while(|(a, b)| **a == b.as_str())
            .count();
        while open.len() > common {
            open.pop();
            indent(&mut out, open.len());
            out.push_str("</outline>\n");
        }
        for f in &p.folders[common..] {
            indent(&mut out, open.len());
            out.push_str(&format!("<outline text=\"{}\">\n", escape(f)));
            open.push(f);
        }
        indent(&mut out, open.len());
        out.push_str("<outline");
        let mut attr = |k: &str, v: Option<&str>| {
            if let Some(v) = v {
                out.push_str(&format!(" {k}=\"{}\"", escape(v)));
            }
        };
        attr("text", Some(&p.name));
        attr("title", Some(&p.name));
        attr("type", Some(p.feed_type.as_deref().unwrap_or("rss")));
        attr("xmlUrl", Some(&p.feed_url));
        attr("htmlUrl", p.html_url.as_deref());
        attr("localwire:country", p.country.as_deref());
        attr("localwire:state", p.state.as_deref());
        attr("localwire:city", p.city.as_deref());
        attr("localwire:lang", p.lang.as_deref());
        attr("localwire:category", p.category.as_deref());
        attr("localwire:icon", p.icon_url.as_deref());
        attr("localwire:home", p.home_url.as_deref());
        attr("localwire:about", p.about.as_deref());
        attr("localwire:contact", p.contact.as_deref());
        out.push_str("/>\n");
    }
    while !open.is_empty() {
        open.pop();
        indent(&mut out, open.len());
        out.push_str("</outline>\n");
    }
    out.push_str("</body>\n</opml>\n");
    out
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Attribute-safe text: XML's five, and line breaks and tabs as character references so
/// attribute-value normalisation cannot turn them into spaces.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(body: &str) -> String {
        format!(
            "<?xml version=\"1.0\"?>\n<opml version=\"2.0\" xmlns:localwire=\"{NAMESPACE}\">\n<head><title>T</title></head>\n<body>\n{body}\n</body>\n</opml>\n"
        )
    }

    fn demo_base() -> Url {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/demo/publishers.opml");
        Url::from_file_path(path.canonicalize().unwrap()).unwrap()
    }

    #[test]
    fn the_demo_file_parses_with_31_publishers() {
        let base = demo_base();
        let bytes = std::fs::read(base.to_file_path().unwrap()).unwrap();
        let got = parse_opml_with_base(&bytes, Some(&base)).unwrap();
        assert_eq!(got.publishers.len(), 31, "{:?}", got.skipped);
        assert!(got.skipped.is_empty());
        assert_eq!(got.title.as_deref(), Some("Localwire demo publishers (fictional)"));
        let first = &got.publishers[0];
        assert_eq!(first.name, "The Capitol Ledger");
        assert!(
            first.feed_url.starts_with("file://") && first.feed_url.ends_with("/data/demo/feeds/capitol-ledger.xml")
        );
        assert_eq!(
            first.html_url.as_deref(),
            Some("https://demo.localwire.invalid/capitol-ledger/")
        );
        assert_eq!(first.feed_type.as_deref(), Some("rss"));
        assert_eq!(
            (first.country.as_deref(), first.state.as_deref(), first.city.as_deref()),
            (Some("US"), Some("DC"), Some("Washington"))
        );
        assert_eq!(
            (first.lang.as_deref(), first.category.as_deref()),
            (Some("en"), Some("politics"))
        );
        // Without a base the relative feed paths cannot be used, and the report says why.
        let got = parse_opml(&bytes).unwrap();
        assert!(got.publishers.is_empty());
        assert_eq!(got.skipped.len(), 31);
        assert!(
            got.skipped[0].to_string().contains("relative xmlUrl"),
            "{}",
            got.skipped[0]
        );
    }

    fn sample() -> Vec<OpmlPublisher> {
        let full = OpmlPublisher {
            feed_url: "https://news.example.com/feed.xml?a=1&b=2".into(),
            name: "Le \"Quotidien\" <d'Ottawa> & cie".into(),
            html_url: Some("https://news.example.com/".into()),
            feed_type: Some("atom".into()),
            country: Some("CA".into()),
            state: Some("ON".into()),
            city: Some("Ottawa".into()),
            lang: Some("fr".into()),
            category: Some("politics".into()),
            icon_url: Some("https://news.example.com/icon.png".into()),
            home_url: Some("https://www.example.com/".into()),
            about: Some("Two lines:\nsecond\tline".into()),
            contact: Some("desk@example.com".into()),
            folders: vec!["Canada".into(), "Ontario".into()],
        };
        let minimal = |url: &str, folders: &[&str]| OpmlPublisher {
            feed_url: url.into(),
            name: format!("Feed {url}"),
            feed_type: Some("rss".into()),
            folders: folders.iter().map(|f| f.to_string()).collect(),
            ..OpmlPublisher::default()
        };
        vec![
            full,
            minimal("https://b.example/rss", &["Canada", "Ontario"]),
            minimal("https://c.example/rss", &["Canada"]),
            minimal("http://d.example/rss", &[]),
            minimal("https://e.example/rss", &["Canada", "Québec"]),
            minimal("file:///srv/feeds/f.xml", &["Canada"]),
        ]
    }

    #[test]
    fn write_then_parse_round_trips() {
        let publishers = sample();
        let text = write_opml(&publishers);
        let got = parse_opml(text.as_bytes()).unwrap();
        assert!(got.skipped.is_empty(), "{:?}", got.skipped);
        assert_eq!(got.publishers, publishers, "{text}");
        assert_eq!(got.title.as_deref(), Some("Localwire publishers"));
    }

    #[test]
    fn the_demo_file_round_trips() {
        let base = demo_base();
        let bytes = std::fs::read(base.to_file_path().unwrap()).unwrap();
        let first = parse_opml_with_base(&bytes, Some(&base)).unwrap().publishers;
        let again = parse_opml(write_opml(&first).as_bytes()).unwrap().publishers;
        assert_eq!(again, first);
    }

    #[test]
    fn nested_folders_are_kept() {
        let text = doc(r#"<outline text="News">
  <outline text="Texas" title="Texas">
    <outline text="Voz" xmlUrl="https://voz.example/rss"/>
  </outline>
  <outline text="Top" xmlUrl="https://top.example/rss"/>
</outline>
<outline text="Loose" xmlUrl="https://loose.example/rss"/>"#);
        let got = parse_opml(text.as_bytes()).unwrap();
        let folders: Vec<_> = got
            .publishers
            .iter()
            .map(|p| (p.name.as_str(), p.folders.clone()))
            .collect();
        assert_eq!(
            folders,
            [
                ("Voz", vec!["News".to_string(), "Texas".to_string()]),
                ("Top", vec!["News".to_string()]),
                ("Loose", vec![])
            ]
        );
    }

    #[test]
    fn unusable_outlines_are_skipped_with_a_reason() {
        let text = doc(r#"<outline text="No URL"/>
<outline text="FTP" xmlUrl="ftp://example.com/feed"/>
<outline text="Script" xmlUrl="javascript:alert(1)"/>
<outline text="Broken" xmlUrl="http://exa mple.com/"/>
<outline text="Relative" xmlUrl="feeds/a.xml"/>
<outline text="First" xmlUrl="https://example.com/rss"/>
<outline text="Again" xmlUrl="https://EXAMPLE.com/rss"/>"#);
        let got = parse_opml(text.as_bytes()).unwrap();
        assert_eq!(got.publishers.len(), 1);
        let reasons: Vec<String> = got.skipped.iter().map(|s| s.reason.to_string()).collect();
        assert_eq!(reasons.len(), 6, "{reasons:?}");
        assert_eq!(reasons[0], "missing xmlUrl");
        assert!(reasons[1].starts_with("not an http(s) or file URL"));
        assert!(reasons[2].starts_with("not an http(s) or file URL"));
        assert!(reasons[3].contains("not a valid URL"));
        assert!(reasons[4].contains("relative xmlUrl"));
        assert_eq!(reasons[5], "duplicate URL (first at line 10)");
        assert_eq!(got.skipped[0].line, 5);
        assert_eq!(got.skipped[0].label, "No URL");
    }

    #[test]
    fn localwire_attributes_are_read_under_any_prefix() {
        let text = format!(
            r#"<opml version="2.0" xmlns:lw="{NAMESPACE}" xmlns:other="urn:x"><head/><body>
<outline text="A" xmlUrl="https://a.example/rss" lw:city="Tacoma" other:city="Nowhere" lw:state="WA"/>
</body></opml>"#
        );
        let got = parse_opml(text.as_bytes()).unwrap();
        assert_eq!(got.publishers[0].city.as_deref(), Some("Tacoma"));
        assert_eq!(got.publishers[0].state.as_deref(), Some("WA"));
    }

    #[test]
    fn entity_declarations_are_refused_not_expanded() {
        let laughs = r#"<?xml version="1.0"?>
<!DOCTYPE opml [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<opml version="2.0"><head><title>&lol3;</title></head><body>
<outline text="&lol3;" xmlUrl="https://a.example/rss"/></body></opml>"#;
        let err = parse_opml(laughs.as_bytes()).unwrap_err();
        assert_eq!(err, OpmlError::EntityDeclaration { line: 2 });
        assert!(err.to_string().contains("remove the DOCTYPE"));
        // An entity nobody declared is an error too, in attributes and in text.
        let text = doc(r#"<outline text="&xxe;" xmlUrl="https://a.example/rss"/>"#);
        assert!(matches!(
            parse_opml(text.as_bytes()),
            Err(OpmlError::Xml { line: 5, .. })
        ));
        let text = "<opml version=\"2.0\"><head><title>&xxe;</title></head><body/></opml>";
        assert!(matches!(
            parse_opml(text.as_bytes()),
            Err(OpmlError::Xml { line: 1, .. })
        ));
        // The predefined ones and character references are fine.
        let text = doc(r#"<outline text="A &amp; B &#233;" xmlUrl="https://a.example/rss"/>"#);
        assert_eq!(parse_opml(text.as_bytes()).unwrap().publishers[0].name, "A & B é");
    }

    #[test]
    fn documents_that_are_not_opml_get_errors_a_person_can_act_on() {
        assert_eq!(parse_opml(b"  \n"), Err(OpmlError::Empty));
        let err = parse_opml(b"<opml version=\"2.0\">\n<body>\n<outline text=\"Caf\xe9\"/>").unwrap_err();
        assert_eq!(err, OpmlError::NotUtf8 { line: 3, column: 19 });
        assert!(err.to_string().contains("save it as UTF-8"));
        let err = parse_opml(b"<opml version=\"2.0\">\n<head></head>\n<body>\n<outline text=\"a\">\n</body></opml>")
            .unwrap_err();
        match &err {
            OpmlError::Xml { line, .. } => assert_eq!(*line, 5, "{err}"),
            other => panic!("{other:?}"),
        }
        let err = parse_opml(b"<rss version=\"2.0\"><channel/></rss>").unwrap_err();
        assert_eq!(err, OpmlError::NotOpml { found: "rss".into() });
        assert!(err.to_string().contains("expected <opml>"));
        assert_eq!(
            parse_opml(b"<opml version=\"2.0\"><head/></opml>"),
            Err(OpmlError::NoBody)
        );
        assert!(parse_opml(b"just some text").is_err());
        // A byte-order mark is fine.
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), doc("").as_bytes()].concat();
        assert!(parse_opml(&with_bom).is_ok());
    }
}
