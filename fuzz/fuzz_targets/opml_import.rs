//! OPML bytes → `parse_opml_with_base` (what `localwire import-opml` and the operator's
//! import run), then the invariants an import relies on: every feed URL is absolute
//! http, https or file and appears once, skipped outlines name a real line, and writing
//! the publishers out (`write_opml_titled`, the export) and reading them back gives the
//! same publishers.
#![no_main]

use ingest::opml::{parse_opml, parse_opml_with_base, write_opml_titled};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use url::Url;

fuzz_target!(|data: &[u8]| {
    let Ok(base) = Url::parse("file:///srv/localwire/publishers.opml") else {
        return;
    };
    let Ok(import) = parse_opml_with_base(data, Some(&base)) else {
        return;
    };
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let mut urls = HashSet::new();
    for p in &import.publishers {
        let url = Url::parse(&p.feed_url).expect("feed URLs are absolute");
        assert!(matches!(url.scheme(), "http" | "https" | "file"), "{}", p.feed_url);
        assert!(urls.insert(p.feed_url.clone()), "duplicate feed URL {}", p.feed_url);
        assert!(!p.name.is_empty());
    }
    for s in &import.skipped {
        assert!(
            s.line >= 1 && s.line <= lines,
            "skipped outline at line {} of {lines}",
            s.line
        );
    }
    let title = import.title.clone().unwrap_or_default();
    let written = write_opml_titled(&import.publishers, &title);
    let again = match parse_opml(written.as_bytes()) {
        Ok(again) => again,
        Err(e) => panic!("the export of an import does not read back: {e}\n{written}"),
    };
    // The export always states a type ("rss" when the import had none).
    let expected: Vec<_> = import
        .publishers
        .iter()
        .cloned()
        .map(|mut p| {
            p.feed_type.get_or_insert_with(|| "rss".into());
            p
        })
        .collect();
    assert_eq!(
        again.publishers, expected,
        "export/import round trip changed publishers\n{written}"
    );
    assert!(again.skipped.is_empty(), "{:?}", again.skipped);
    assert_eq!(again.title.unwrap_or_default(), title);
});
