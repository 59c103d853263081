//! What feed-rs leaves out, read in a second light pass so every item keeps its
//! picture: an entry-level `media:thumbnail` with no `media:content` beside it (RSS
//! and Atom), and JSON Feed's item `image` / `banner_image`. Results are per entry,
//! in document order, and only used when the entry counts agree with feed-rs.

use quick_xml::Reader;
use quick_xml::events::Event;

/// Thumbnail URLs per `<item>`/`<entry>`, in document order; `None` if unreadable.
pub fn xml_thumbnails(bytes: &[u8]) -> Option<Vec<Vec<String>>> {
    let mut reader = Reader::from_reader(bytes);
    let mut buf = Vec::new();
    let mut entries: Vec<Vec<String>> = Vec::new();
    let mut depth_in_entry = 0usize;
    loop {
        let event = reader.read_event_into(&mut buf).ok()?;
        match &event {
            Event::Start(e) | Event::Empty(e) => {
                let name = e.name();
                let local = e.local_name();
                let is_entry = matches!(local.as_ref(), "item" | "entry") && !name.as_ref().contains(':');
                if is_entry && depth_in_entry == 0 {
                    entries.push(Vec::new());
                }
                if depth_in_entry > 0
                    && name.as_ref() == "media:thumbnail"
                    && let Ok(Some(attr)) = e.try_get_attribute("url")
                    && let Ok(url) = attr.normalized_value(quick_xml::XmlVersion::Implicit1_0)
                    && let Some(current) = entries.last_mut()
                {
                    current.push(url.trim().to_string());
                }
                if matches!(event, Event::Start(_)) && (depth_in_entry > 0 || is_entry) {
                    depth_in_entry += 1;
                }
            }
            Event::End(_) if depth_in_entry > 0 => depth_in_entry -= 1,
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    Some(entries)
}

/// JSON Feed item images (`image`, then `banner_image`) per item, in order.
pub fn json_images(bytes: &[u8]) -> Option<Vec<Vec<String>>> {
    let doc: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let items = doc.get("items")?.as_array()?;
    Some(
        items
            .iter()
            .map(|item| {
                ["image", "banner_image"]
                    .iter()
                    .filter_map(|k| item.get(*k).and_then(|v| v.as_str()).map(|s| s.trim().to_string()))
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_level_thumbnails_are_found_per_entry() {
        let atom = br#"<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">
            <entry><title>a</title><media:thumbnail url="https://x/a.svg"/></entry>
            <entry><title>b</title></entry>
            <entry><media:group><media:thumbnail url="https://x/c.png"/></media:group></entry></feed>"#;
        assert_eq!(
            xml_thumbnails(atom).unwrap(),
            vec![
                vec!["https://x/a.svg".to_string()],
                vec![],
                vec!["https://x/c.png".to_string()]
            ]
        );
    }

    #[test]
    fn json_feed_item_images() {
        let json = br#"{"version":"https://jsonfeed.org/version/1.1","items":[{"id":"1","image":"https://x/1.png"},{"id":"2"}]}"#;
        assert_eq!(
            json_images(json).unwrap(),
            vec![vec!["https://x/1.png".to_string()], vec![]]
        );
    }
}
