//! Tricky feeds through parse + clean: encodings, relative URLs (and feeds served from
//! another host than the publisher's site), missing dates and GUIDs, duplicate GUIDs,
//! markup and scripts in titles, entity-expansion attacks, JSON Feed attachments, and
//! the SPEC §3 summary rule.

use ingest::clean::{CleanContext, CleanItem, clean_item, cut_on_word, sanitize_html, summary_of};
use ingest::parse::parse_feed;
use std::time::Instant;
use url::Url;

/// Parse a feed fetched from `fetched_from` and clean its items as the pipeline does:
/// the content resolves against the feed's own base (D170).
fn clean_all(bytes: &[u8], fetched_from: &str, hint: Option<&str>) -> Vec<CleanItem> {
    let feed = parse_feed(bytes, Some(fetched_from)).expect("parses");
    let base = Url::parse(feed.base_url.as_deref().unwrap_or(fetched_from)).unwrap();
    let ctx = CleanContext {
        base_url: Some(&base),
        language_hint: hint,
        fetched_at_ms: 1_800_000_000_000,
    };
    feed.items.iter().filter_map(|raw| clean_item(raw, &ctx)).collect()
}

#[test]
fn latin1_declared_encoding_is_decoded() {
    let bytes = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>T</title>\
        <item><title>Qu\xe9bec: le pont Pierre-Laporte rouvre</title><link>https://x.example/1</link></item></channel></rss>"
        .to_vec();
    let items = clean_all(&bytes, "https://x.example/feed", Some("fr"));
    assert_eq!(items[0].title, "Québec: le pont Pierre-Laporte rouvre");
}

#[test]
fn relative_links_and_images_become_absolute_without_tracking() {
    let feed = r#"<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title>
<item><title>Budget</title><link>/news/budget?utm_source=rss&amp;id=7</link><guid>b-1</guid>
<content:encoded><![CDATA[<p>Read <a href="../docs/plan.pdf?fbclid=abc">the plan</a>.
<img src="img/chart.png" alt="Chart"><img src="https://feeds.feedburner.com/~r/x/~4/pixel" width="1" height="1"></p>]]></content:encoded>
</item></channel></rss>"#;
    let items = clean_all(feed.as_bytes(), "https://paper.example/section/feed.xml", Some("en"));
    let item = &items[0];
    assert_eq!(item.link_url.as_deref(), Some("https://paper.example/news/budget?id=7"));
    assert!(
        item.content.contains(r#"href="https://paper.example/docs/plan.pdf""#),
        "{}",
        item.content
    );
    assert!(
        item.content
            .contains(r#"src="https://paper.example/section/img/chart.png""#),
        "{}",
        item.content
    );
    assert!(
        !item.content.contains("feedburner"),
        "tracking pixel dropped: {}",
        item.content
    );
    assert!(!item.content.contains("fbclid") && !item.content.contains("utm_"));
    assert_eq!(
        item.img_url.as_deref(),
        Some("https://paper.example/section/img/chart.png")
    );
}

/// D170: a feed served from a proxy or CDN resolves its relative links against the
/// publisher's site (its alternate link), so "read the original" opens the publisher.
#[test]
fn relative_atom_links_resolve_against_the_publishers_site_not_the_feed_host() {
    let atom = r#"<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">
<title>Le Droit</title><id>urn:ledroit</id><updated>2026-11-20T12:00:00Z</updated>
<link rel="self" href="https://flux.cdn.example/ledroit/atom.xml"/>
<link rel="alternate" type="text/html" href="https://www.ledroit.example/"/>
<entry><title>Gatineau ferme le pont des Chaudières pour l'hiver</title><id>urn:ledroit:1</id>
<link href="/nouvelles/x"/><updated>2026-11-20T12:00:00Z</updated>
<content type="html">&lt;p&gt;&lt;img src="/images/pont.jpg" alt="Le pont"&gt; Les travaux reprendront au printemps.&lt;/p&gt;</content></entry>
<entry xml:base="https://archives.ledroit.example/2026/"><title>Archives : le pont en 1960</title><id>urn:ledroit:2</id>
<link href="pont-1960"/><updated>2026-11-20T12:00:00Z</updated></entry>
</feed>"#;
    let items = clean_all(atom.as_bytes(), "https://flux.cdn.example/ledroit/atom.xml", Some("fr"));
    assert_eq!(
        items[0].link_url.as_deref(),
        Some("https://www.ledroit.example/nouvelles/x")
    );
    assert_eq!(
        items[0].img_url.as_deref(),
        Some("https://www.ledroit.example/images/pont.jpg"),
        "the content's references follow the same rule"
    );
    assert_eq!(
        items[1].link_url.as_deref(),
        Some("https://archives.ledroit.example/2026/pont-1960"),
        "xml:base, when the feed gives one, comes first"
    );
}

#[test]
fn relative_links_use_the_fetch_address_when_the_site_link_is_missing_or_relative() {
    for site in ["", r#"<link rel="alternate" href="/"/>"#] {
        let atom = format!(
            r#"<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><id>urn:t</id>{site}
<entry><title>Budget adopted</title><id>urn:t:1</id><link href="/news/budget"/></entry></feed>"#
        );
        let items = clean_all(atom.as_bytes(), "https://paper.example/feeds/all.xml", Some("en"));
        assert_eq!(
            items[0].link_url.as_deref(),
            Some("https://paper.example/news/budget"),
            "{site}"
        );
    }
}

#[test]
fn relative_rss_and_json_feed_links_resolve_against_the_site_link() {
    let rss = r#"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Capitol Ledger</title>
<atom:link href="https://feeds.proxy.example/capitol-ledger" rel="self" type="application/rss+xml"/>
<link>https://ledger.example/</link>
<item><title>Council passes the transit budget</title><link>/politics/transit-budget</link><guid isPermaLink="false">t-1</guid>
<enclosure url="/audio/council.mp3" type="audio/mpeg" length="1"/></item></channel></rss>"#;
    let items = clean_all(rss.as_bytes(), "https://feeds.proxy.example/capitol-ledger", Some("en"));
    assert_eq!(
        items[0].link_url.as_deref(),
        Some("https://ledger.example/politics/transit-budget")
    );
    assert_eq!(
        items[0].voice_url.as_deref(),
        Some("https://ledger.example/audio/council.mp3")
    );

    let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"Río Diario","home_page_url":"https://rio.example/",
        "feed_url":"https://cdn.example/rio/feed.json","items":[{"id":"r1","url":"/noticias/lluvia","title":"Lluvia en el valle",
        "content_html":"<p><img src='/img/lluvia.jpg'> Llueve.</p>"}]}"#;
    let items = clean_all(json.as_bytes(), "https://cdn.example/rio/feed.json", Some("es"));
    assert_eq!(
        items[0].link_url.as_deref(),
        Some("https://rio.example/noticias/lluvia")
    );
    assert_eq!(items[0].img_url.as_deref(), Some("https://rio.example/img/lluvia.jpg"));
}

/// SPEC §3 types for JSON Feed: attachments map as RSS enclosures and Media RSS do.
#[test]
fn json_feed_attachments_make_video_and_audio_items() {
    let json = r#"{"version":"https://jsonfeed.org/version/1.1","title":"Metro Desk","home_page_url":"https://metro.example/",
"items":[
 {"id":"v1","url":"https://metro.example/video/bridge","title":"Watch: crews lift the new bridge span into place",
  "content_text":"Crews worked overnight.","attachments":[{"url":"https://cdn.metro.example/clip.mp4","mime_type":"video/mp4","size_in_bytes":1000}]},
 {"id":"a1","url":"https://metro.example/podcast/42","title":"Metro Minute, episode 42",
  "content_text":"This week: the council.","attachments":[{"url":"/audio/ep42.mp3","mime_type":"audio/mpeg"}]},
 {"id":"a2","title":"Metro Minute, episode 43","content_text":"No page, only the episode.",
  "attachments":[{"url":"https://cdn.metro.example/ep43.m4a","mime_type":"application/octet-stream"}]},
 {"id":"t1","url":"https://metro.example/news/budget","title":"Budget hearing set for Tuesday","content_text":"Text."}
]}"#;
    let items = clean_all(json.as_bytes(), "https://metro.example/feed.json", Some("en"));
    assert_eq!(items.iter().map(|i| i.news_type).collect::<Vec<_>>(), vec![3, 4, 4, 1]);
    assert_eq!(
        items[0].video_url.as_deref(),
        Some("https://cdn.metro.example/clip.mp4")
    );
    assert_eq!(
        items[0].link_url.as_deref(),
        Some("https://metro.example/video/bridge"),
        "the page, not the attachment"
    );
    assert_eq!(
        items[1].voice_url.as_deref(),
        Some("https://metro.example/audio/ep42.mp3")
    );
    assert_eq!(
        items[2].voice_url.as_deref(),
        Some("https://cdn.metro.example/ep43.m4a"),
        "an unhelpful type falls back to the extension"
    );
    assert_eq!(items[2].link_url, None, "an attachment is not the story's page");
    assert_eq!(
        (items[3].video_url.as_deref(), items[3].voice_url.as_deref()),
        (None, None)
    );
}

#[test]
fn scripts_and_markup_in_titles_and_content_are_neutralised() {
    let feed = r#"<rss version="2.0"><channel><title>T</title>
<item><title>&lt;script&gt;alert(1)&lt;/script&gt;Mayor &lt;b&gt;wins&lt;/b&gt; &amp;amp; celebrates</title>
<link>https://x.example/2</link>
<description><![CDATA[<p onclick="evil()">Hi <script>steal()</script><iframe src="https://evil.example"></iframe>
<a href="javascript:alert(1)">x</a><style>body{}</style></p>]]></description></item></channel></rss>"#;
    let items = clean_all(feed.as_bytes(), "https://x.example/", Some("en"));
    let item = &items[0];
    assert_eq!(item.title, "Mayor wins & celebrates");
    for bad in ["<script", "onclick", "iframe", "javascript:", "<style", "steal()"] {
        assert!(!item.content.contains(bad), "{bad} in {}", item.content);
    }
    assert!(!item.summary.contains("steal") && !item.summary.contains("body{}"));
}

#[test]
fn missing_dates_and_guids_get_stable_fallbacks() {
    let feed = r#"<rss version="2.0"><channel><title>T</title>
<item><title>No date, no guid</title><link>https://x.example/a</link></item>
<item><title>No link either</title></item></channel></rss>"#;
    let first = clean_all(feed.as_bytes(), "https://x.example/", Some("en"));
    let again = clean_all(feed.as_bytes(), "https://x.example/", Some("en"));
    assert_eq!(
        first[0].publish_time_ms, 1_800_000_000_000,
        "fetch time when the feed gives none"
    );
    assert_eq!(first[0].identity, "link:https://x.example/a");
    assert!(first[1].identity.starts_with("hash:"));
    assert_eq!(first[1].identity, again[1].identity, "stable across fetches");
}

#[test]
fn duplicate_guids_keep_the_same_identity() {
    let feed = r#"<rss version="2.0"><channel><title>T</title>
<item><title>Story</title><guid>same</guid><link>https://x.example/1</link></item>
<item><title>Story (updated)</title><guid>same</guid><link>https://x.example/1</link></item></channel></rss>"#;
    let items = clean_all(feed.as_bytes(), "https://x.example/", Some("en"));
    assert_eq!(items.len(), 2, "both parsed; the store keeps one (same identity)");
    assert_eq!(items[0].identity, items[1].identity);
}

#[test]
fn entity_expansion_attack_is_not_expanded() {
    let mut doc = String::from("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
    for i in 1..=9 {
        let prev = if i == 1 {
            "lol".to_string()
        } else {
            format!("lol{}", i - 1)
        };
        doc.push_str(&format!("<!ENTITY lol{i} \"{}\">", format!("&{prev};").repeat(10)));
    }
    doc.push_str(
        "]><rss version=\"2.0\"><channel><title>&lol9;</title><item><title>&lol9;</title>\
        <link>https://x.example/1</link></item></channel></rss>",
    );
    let started = Instant::now();
    let result = parse_feed(doc.as_bytes(), None);
    assert!(started.elapsed().as_secs() < 2, "no exponential work");
    let err = result.expect_err("a feed declaring entities is refused");
    assert!(err.to_string().contains("entity-expansion"), "{err}");
}

#[test]
fn video_and_audio_items_get_types_3_and_4() {
    let feed = r#"<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/"><channel><title>T</title>
<item><title>Clip</title><link>https://x.example/v</link><media:content url="/v.mp4" type="video/mp4"/>
<media:thumbnail url="/v.jpg"/></item>
<item><title>Pod</title><link>https://x.example/p</link><enclosure url="https://x.example/p.mp3" type="audio/mpeg" length="1"/></item>
<item><title>Text</title><link>https://x.example/t</link></item></channel></rss>"#;
    let items = clean_all(feed.as_bytes(), "https://x.example/feed", Some("en"));
    assert_eq!(items.iter().map(|i| i.news_type).collect::<Vec<_>>(), vec![3, 4, 1]);
    assert_eq!(items[0].video_url.as_deref(), Some("https://x.example/v.mp4"));
    assert_eq!(items[0].thumbnail_url.as_deref(), Some("https://x.example/v.jpg"));
    assert_eq!(items[1].voice_url.as_deref(), Some("https://x.example/p.mp3"));
}

#[test]
fn spec_3_summary_is_stripped_collapsed_and_cut_to_300_on_a_word() {
    let words = "Le conseil municipal a adopté le budget ".repeat(20);
    let html = format!("<p>{words}</p>\n\n<p>  fin  </p>");
    let summary = summary_of(&ingest::clean::html_to_text(&html));
    assert!(summary.chars().count() <= 300, "{}", summary.chars().count());
    assert!(summary.ends_with('…'));
    assert!(!summary.contains("  ") && !summary.contains('<'));
    let before_ellipsis = summary.trim_end_matches('…');
    assert!(words.contains(before_ellipsis.trim_end()), "cut on a word boundary");
    assert!(!before_ellipsis.ends_with(' '));
    assert_eq!(summary_of("Short  text\n here"), "Short text here");
    assert_eq!(cut_on_word("abc def", 300), "abc def");
}

#[test]
fn language_is_detected_with_the_feed_hint_as_fallback() {
    let feed = r#"<rss version="2.0"><channel><title>T</title><language>es</language>
<item><title>El ayuntamiento aprueba el presupuesto para las escuelas públicas de la ciudad</title><link>https://x.example/1</link>
<description>Los concejales votaron a favor del nuevo plan de inversiones en educación y transporte.</description></item>
<item><title>Ok</title><link>https://x.example/2</link></item></channel></rss>"#;
    let items = clean_all(feed.as_bytes(), "https://x.example/", Some("es"));
    assert_eq!(items[0].lang, "es");
    assert_eq!(items[1].lang, "es", "too short to detect: the hint wins");
}

#[test]
fn sanitizer_keeps_safe_structure() {
    let html = r#"<h2>Title</h2><p>Text <strong>bold</strong> <a href="https://a.example/x" target="_blank">link</a></p><ul><li>one</li></ul>"#;
    let clean = sanitize_html(html, None);
    assert!(
        clean.contains("<h2>Title</h2>") && clean.contains("<strong>bold</strong>") && clean.contains("<li>one</li>")
    );
    assert!(clean.contains(r#"rel="noopener noreferrer nofollow ugc""#));
    assert!(!clean.contains("target="));
}

/// The demo corpus (data/demo) through the real parser and cleaner, checked against
/// the corpus's own answer key (data/demo/manifest.json).
#[test]
fn demo_corpus_parses_and_cleans_as_its_manifest_says() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/demo");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("manifest.json")).unwrap()).unwrap();
    let expected = manifest["items"].as_array().unwrap();
    let mut cleaned = Vec::new();
    let mut files = 0;
    for entry in std::fs::read_dir(root.join("feeds")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let base = format!(
            "https://demo.localwire.invalid/{}",
            path.file_name().unwrap().to_string_lossy()
        );
        cleaned.extend(clean_all(&bytes, &base, None));
        files += 1;
    }
    assert!(files >= 24, "{files} feeds");
    assert_eq!(cleaned.len(), expected.len(), "every entry parses and cleans");
    let with_image = cleaned
        .iter()
        .filter(|i| i.thumbnail_url.is_some() || i.org_img_url.is_some() || i.img_url.is_some());
    assert_eq!(with_image.count(), cleaned.len(), "every demo item has an image");
    let want_video = expected.iter().filter(|i| !i["video"].is_null()).count();
    let want_audio = expected.iter().filter(|i| !i["audio"].is_null()).count();
    assert_eq!(cleaned.iter().filter(|i| i.news_type == 3).count(), want_video);
    assert_eq!(cleaned.iter().filter(|i| i.news_type == 4).count(), want_audio);
    for lang in ["en", "es", "fr"] {
        let want = expected.iter().filter(|i| i["lang"] == lang).count();
        let got = cleaned.iter().filter(|i| i.lang == lang).count();
        assert!(
            got.abs_diff(want) * 20 <= want,
            "{lang}: detected {got}, corpus has {want}"
        );
    }
    assert!(
        cleaned
            .iter()
            .all(|i| i.summary.chars().count() <= 300 && !i.summary.contains('<'))
    );
    assert!(
        cleaned.iter().all(|i| !i.content.contains("utm_")),
        "tracking parameters removed"
    );
}

/// Categories on the demo corpus, against its answer key.
#[test]
fn demo_corpus_categories_match_the_manifest() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/demo");
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("manifest.json")).unwrap()).unwrap();
    let mut want = std::collections::HashMap::new();
    for item in manifest["items"].as_array().unwrap() {
        want.insert(
            item["title"].as_str().unwrap().to_string(),
            item["category"].as_str().unwrap().to_string(),
        );
    }
    let (mut right, mut total, mut text_right) = (0, 0, 0);
    for entry in std::fs::read_dir(root.join("feeds")).unwrap() {
        let path = entry.unwrap().path();
        let feed = parse_feed(&std::fs::read(&path).unwrap(), None).unwrap();
        for raw in &feed.items {
            let Some(expected) = want.get(&raw.title) else { continue };
            let base = Url::parse("https://demo.localwire.invalid/").unwrap();
            let ctx = CleanContext {
                base_url: Some(&base),
                language_hint: None,
                fetched_at_ms: 0,
            };
            let Some(item) = clean_item(raw, &ctx) else { continue };
            let got = ingest::categorize::categorize(&item.tags, &item.title, &item.summary);
            let by_text = ingest::categorize::from_text(&item.title, &item.summary).unwrap_or("local");
            total += 1;
            right += usize::from(got == expected);
            text_right += usize::from(by_text == expected);
        }
    }
    let accuracy = right as f64 / total.max(1) as f64;
    let text_accuracy = text_right as f64 / total.max(1) as f64;
    eprintln!("categories on the demo corpus: {right}/{total} = {accuracy:.3}; words only: {text_accuracy:.3}");
    assert!(total >= 400 && accuracy >= FLOOR_CATEGORY_ACCURACY, "{right}/{total}");
    assert!(text_accuracy >= FLOOR_TEXT_ACCURACY, "words only: {text_right}/{total}");
}

/// Measured when written (0.867 overall, 0.602 from words alone), then 0.874 and 0.644
/// with government-money words and weather phrases that are not weather (D173); raise
/// as it improves.
const FLOOR_CATEGORY_ACCURACY: f64 = 0.87;
const FLOOR_TEXT_ACCURACY: f64 = 0.63;
