//! Atom 1.0 (RFC 4287): every entry has an id, a title, an updated time and, through the
//! feed, an author.

use super::document::FeedDoc;
use crate::pages::data::iso8601;
use crate::xml::escape;
use std::fmt::Write;

pub fn write(doc: &FeedDoc) -> String {
    let mut out = String::with_capacity(1024 + doc.entries.len() * 900);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = write!(
        out,
        "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"{}\">\
         <id>{}</id><title>{}</title><subtitle>{}</subtitle><updated>{}</updated>\
         <link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>\
         <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\
         <author><name>Localwire</name><uri>{}</uri></author>\
         <generator>Localwire</generator><icon>{}/icons/icon-32.png</icon><logo>{}/icons/icon-192.png</logo>",
        doc.language.code(),
        escape(&doc.feed_url),
        escape(&doc.title),
        escape(&doc.description),
        iso8601(doc.updated_ms),
        escape(&doc.feed_url),
        escape(&doc.page_url),
        escape(&doc.base),
        escape(&doc.base),
        escape(&doc.base),
    );
    for e in &doc.entries {
        let _ = write!(
            out,
            "<entry><id>{}</id><title>{}</title><link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\
             <published>{}</published><updated>{}</updated><author><name>{}</name></author>",
            escape(&e.url),
            escape(&e.title),
            escape(&e.url),
            iso8601(e.published_ms),
            iso8601(e.published_ms),
            escape(e.author.as_deref().unwrap_or(&e.publisher)),
        );
        if !e.summary.is_empty() {
            let _ = write!(out, "<summary>{}</summary>", escape(&e.summary));
        }
        if let Some(category) = &e.category {
            let _ = write!(out, "<category term=\"{}\"/>", escape(category));
        }
        if let Some(source) = &e.source_url {
            let _ = write!(
                out,
                "<link rel=\"via\" type=\"text/html\" href=\"{}\"/>",
                escape(source)
            );
        }
        if let Some(file) = &e.enclosure {
            let _ = write!(
                out,
                "<link rel=\"enclosure\" type=\"{}\" href=\"{}\"/>",
                file.mime,
                escape(&file.url)
            );
        }
        out.push_str("</entry>");
    }
    out.push_str("</feed>\n");
    out
}
