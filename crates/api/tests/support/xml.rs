//! Reading the XML documents the server writes with a real parser (quick-xml), for the
//! sitemap, OpenSearch and feed tests.

use quick_xml::Reader;
use quick_xml::events::Event;

/// An element of a parsed document: its name, attributes and text.
#[derive(Debug)]
pub struct Element {
    pub name: String,
    pub attrs: Vec<(String, String)>,
    pub text: String,
}

impl Element {
    pub fn attr(&self, name: &str) -> Option<&str> {
        self.attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Every element of a well-formed document, in order; panics on anything malformed
/// (quick-xml checks that end tags match; entities must be XML's own or numeric).
pub fn elements(xml: &str) -> Vec<Element> {
    let mut reader = Reader::from_str(xml);
    let mut out: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    loop {
        let event = reader.read_event().expect("well-formed XML");
        let empty = matches!(event, Event::Empty(_));
        match event {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.name().as_ref().to_string();
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.expect("attribute");
                        let key = a.key.as_ref().to_string();
                        (
                            key,
                            a.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                                .expect("attribute value")
                                .into_owned(),
                        )
                    })
                    .collect();
                out.push(Element {
                    name,
                    attrs,
                    text: String::new(),
                });
                if !empty {
                    open.push(out.len() - 1);
                }
            }
            Event::Text(t) => {
                if let Some(&i) = open.last() {
                    out[i].text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref().expect("character reference") {
                    Some(c) => c.to_string(),
                    None => quick_xml::escape::unescape(&format!("&{};", &*r))
                        .expect("one of XML's five entities")
                        .into_owned(),
                };
                if let Some(&i) = open.last() {
                    out[i].text.push_str(&c);
                }
            }
            Event::End(_) => {
                open.pop();
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert!(open.is_empty(), "every element is closed");
    out
}

pub fn named<'a>(doc: &'a [Element], name: &str) -> Vec<&'a Element> {
    doc.iter().filter(|e| e.name == name).collect()
}

pub fn texts(doc: &[Element], name: &str) -> Vec<String> {
    named(doc, name).into_iter().map(|e| e.text.clone()).collect()
}
