//! RSS 2.0 (the RSS Advisory Board's specification), with Atom's `self` link, Dublin
//! Core's creator and Media RSS's thumbnail, as feed validators expect of a modern feed.

use super::document::FeedDoc;
use crate::xml::escape;
use chrono::DateTime;
use std::fmt::Write;

/// RFC 822 dates, as RSS 2.0 wants them (`Fri, 27 Nov 2026 18:00:00 +0000`).
fn rfc822(ms: i64) -> String {
    DateTime::from_timestamp_millis(ms)
        .map(|d| d.to_rfc2822())
        .unwrap_or_default()
}

pub fn write(doc: &FeedDoc) -> String {
    let mut out = String::with_capacity(1024 + doc.entries.len() * 800);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(concat!(
        r#"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" "#,
        r#"xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">"#,
        "<channel>"
    ));
    let _ = write!(
        out,
        "<title>{}</title><link>{}</link><description>{}</description><language>{}</language>\
         <lastBuildDate>{}</lastBuildDate><generator>Localwire</generator><ttl>15</ttl>\
         <atom:link href=\"{}\" rel=\"self\" type=\"application/rss+xml\"/>\
         <image><url>{}/icons/icon-192.png</url><title>{}</title><link>{}</link></image>",
        escape(&doc.title),
        escape(&doc.page_url),
        escape(&doc.description),
        doc.language.code(),
        rfc822(doc.updated_ms),
        escape(&doc.feed_url),
        escape(&doc.base),
        escape(&doc.title),
        escape(&doc.page_url),
    );
    for e in &doc.entries {
        let _ = write!(
            out,
            "<item><title>{}</title><link>{}</link><guid isPermaLink=\"true\">{}</guid><pubDate>{}</pubDate>",
            escape(&e.title),
            escape(&e.url),
            escape(&e.url),
            rfc822(e.published_ms),
        );
        if !e.summary.is_empty() {
            let _ = write!(out, "<description>{}</description>", escape(&e.summary));
        }
        // RSS's own <author> must be an email address; a name goes in dc:creator.
        let _ = write!(
            out,
            "<dc:creator>{}</dc:creator>",
            escape(e.author.as_deref().unwrap_or(&e.publisher))
        );
        if let Some(category) = &e.category {
            let _ = write!(out, "<category>{}</category>", escape(category));
        }
        if let Some(source) = &e.source_url {
            let _ = write!(
                out,
                "<source url=\"{}\">{}</source>",
                escape(source),
                escape(&e.publisher)
            );
        }
        if let Some(file) = &e.enclosure {
            // The length is not known without fetching the file; 0 says so (RSS Board).
            let _ = write!(
                out,
                "<enclosure url=\"{}\" length=\"0\" type=\"{}\"/>",
                escape(&file.url),
                file.mime
            );
        }
        if let Some(image) = &e.image {
            let _ = write!(out, "<media:thumbnail url=\"{}\"/>", escape(image));
        }
        out.push_str("</item>");
    }
    out.push_str("</channel></rss>\n");
    out
}
