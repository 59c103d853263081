//! JSON Feed 1.1 (jsonfeed.org): `version`, `title` and `items` with an `id` each.

use super::document::FeedDoc;
use crate::pages::data::iso8601;
use serde_json::{Map, Value, json};

pub fn write(doc: &FeedDoc) -> String {
    let items: Vec<Value> = doc
        .entries
        .iter()
        .map(|e| {
            let mut item = Map::new();
            item.insert("id".into(), json!(e.url));
            item.insert("url".into(), json!(e.url));
            if let Some(source) = &e.source_url {
                item.insert("external_url".into(), json!(source));
            }
            item.insert("title".into(), json!(e.title));
            // A JSON Feed item needs content: the summary, as text.
            item.insert("content_text".into(), json!(e.summary));
            if !e.summary.is_empty() {
                item.insert("summary".into(), json!(e.summary));
            }
            if let Some(image) = &e.image {
                item.insert("image".into(), json!(image));
            }
            item.insert("date_published".into(), json!(iso8601(e.published_ms)));
            let name = e.author.as_deref().unwrap_or(&e.publisher);
            item.insert("authors".into(), json!([{ "name": name }]));
            let mut tags: Vec<&str> = e.category.iter().map(String::as_str).collect();
            tags.extend(e.tags.iter().map(String::as_str));
            if !tags.is_empty() {
                item.insert("tags".into(), json!(tags));
            }
            if !e.language.is_empty() {
                item.insert("language".into(), json!(e.language));
            }
            if let Some(file) = &e.enclosure {
                item.insert(
                    "attachments".into(),
                    json!([{ "url": file.url, "mime_type": file.mime }]),
                );
            }
            Value::Object(item)
        })
        .collect();
    let feed = json!({
        "version": "https://jsonfeed.org/version/1.1",
        "title": doc.title,
        "home_page_url": doc.page_url,
        "feed_url": doc.feed_url,
        "description": doc.description,
        "language": doc.language.code(),
        "icon": format!("{}/icons/icon-512.png", doc.base),
        "favicon": format!("{}/icons/icon-32.png", doc.base),
        "authors": [{ "name": "Localwire", "url": doc.base }],
        "items": items,
    });
    let mut out = serde_json::to_string_pretty(&feed).unwrap_or_default();
    out.push('\n');
    out
}
