//! What crawlers and browsers read to find the site (issue 31): robots.txt, the
//! sitemaps and the OpenSearch descriptions, through the real router on both engines,
//! each document read back with a real XML parser.

mod support;

use support::TestApp;
use support::seed::{self, MONTREAL, WASHINGTON};
use support::xml::{Element, elements, named, texts};

async fn document(app: &TestApp, path: &str, content_type: &str) -> Vec<Element> {
    let res = app.get(path).await;
    assert_eq!(res.status(), 200, "{path}");
    assert_eq!(res.headers()["content-type"].to_str().unwrap(), content_type, "{path}");
    elements(&res.text().await.unwrap())
}

const XML: &str = "application/xml; charset=utf-8";

async fn d373_the_sitemap_index_names_five_sitemaps_that_each_answer_a_urlset(app: &TestApp) {
    seed::seed(app.store.as_ref()).await;
    let base = app.url("");
    let index = document(app, "/sitemap.xml", XML).await;
    assert_eq!(index[0].name, "sitemapindex");
    assert_eq!(
        index[0].attr("xmlns"),
        Some("http://www.sitemaps.org/schemas/sitemap/0.9")
    );
    let locs = texts(&index, "loc");
    assert_eq!(
        locs,
        ["news", "sections", "categories", "cities", "publishers"].map(|n| format!("{base}/sitemaps/{n}.xml"))
    );
    for loc in locs {
        let path = loc.strip_prefix(&base).unwrap();
        let doc = document(app, path, XML).await;
        assert_eq!(doc[0].name, "urlset", "{path}");
        let urls = texts(&doc, "loc");
        assert!(!urls.is_empty(), "{path} lists nothing");
        for url in &urls {
            assert!(url.starts_with(&base), "{url} is not on this site");
        }
        // Every address it lists is a page that exists.
        let first = urls[0].strip_prefix(&base).unwrap();
        assert_eq!(app.get(first).await.status(), 200, "{first} from {path}");
    }
    assert_eq!(app.get("/sitemaps/everything.xml").await.status(), 404);
    assert_eq!(app.get("/sitemaps/news.txt").await.status(), 404);
}

async fn d373_the_news_sitemap_lists_the_last_48_hours_each_in_its_language(app: &TestApp) {
    let corpus = seed::seed(app.store.as_ref()).await;
    let base = app.url("");
    let doc = document(app, "/sitemaps/news.xml", XML).await;
    assert_eq!(
        doc[0].attr("xmlns:news"),
        Some("http://www.google.com/schemas/sitemap-news/0.9")
    );
    let locs = texts(&doc, "loc");
    let fire = format!("{base}/article/{}", corpus.id("fire-1").0);
    let at = locs.iter().position(|l| *l == fire).expect("the fire story is listed");
    assert!(locs.contains(&format!("{base}/fr/article/{}", corpus.id("mtl-metro").0)));
    assert!(locs.contains(&format!("{base}/es/article/{}", corpus.id("mtl-es").0)));
    // 100 and 200 hours old: not news any more.
    for old in ["dc-old", "dc-nasty"] {
        assert!(
            !locs
                .iter()
                .any(|l| l.ends_with(&format!("/article/{}", corpus.id(old).0))),
            "{old}"
        );
    }
    assert_eq!(texts(&doc, "news:title")[at], "Warehouse fire downtown");
    assert!(texts(&doc, "news:name").iter().all(|n| n == "Localwire"));
    let languages = texts(&doc, "news:language");
    assert_eq!(languages[at], "en");
    assert!(languages.contains(&"fr".to_string()) && languages.contains(&"es".to_string()));
    let dates: Vec<i64> = texts(&doc, "news:publication_date")
        .iter()
        .map(|d| {
            chrono::DateTime::parse_from_rfc3339(d)
                .expect("W3C date-time")
                .timestamp_millis()
        })
        .collect();
    assert!(
        (dates[at] - (corpus.now_ms - 30 * 60_000)).abs() < 1_000,
        "{}",
        dates[at]
    );
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "newest first: {dates:?}");
    assert!(dates.iter().all(|d| corpus.now_ms - d <= 48 * 3_600_000));
    assert_eq!(named(&doc, "url").len(), locs.len());
    assert!(locs.len() <= 1_000);
}

async fn d373_cities_and_publishers_are_listed_in_the_languages_they_are_read_in(app: &TestApp) {
    let corpus = seed::seed(app.store.as_ref()).await;
    let base = app.url("");
    let cities = document(app, "/sitemaps/cities.xml", XML).await;
    let locs = texts(&cities, "loc");
    let dc = format!("/local/washington-dc-{WASHINGTON}");
    let mtl = format!("/local/montreal-qc-{MONTREAL}");
    assert!(locs.contains(&format!("{base}{dc}")));
    assert!(locs.contains(&format!("{base}/es{dc}")), "US cities in Spanish too");
    assert!(!locs.contains(&format!("{base}/fr{dc}")));
    assert!(
        locs.contains(&format!("{base}/fr{mtl}")),
        "Canadian cities in French too"
    );
    assert!(!locs.contains(&format!("{base}/es{mtl}")));
    // Each names its other language as an alternate.
    let alternates: Vec<(&str, &str)> = named(&cities, "xhtml:link")
        .into_iter()
        .filter(|l| l.attr("href").is_some_and(|h| h.ends_with(&mtl)))
        .map(|l| (l.attr("hreflang").unwrap(), l.attr("rel").unwrap()))
        .collect();
    assert_eq!(alternates, [("en", "alternate"), ("fr", "alternate")].repeat(2));
    // The city page behind the address is the city's.
    let res = app.get(&dc).await;
    assert_eq!(res.status(), 200);
    assert!(res.text().await.unwrap().contains("Washington"));

    let publishers = texts(&document(app, "/sitemaps/publishers.xml", XML).await, "loc");
    assert!(publishers.contains(&format!("{base}/media/{}", corpus.media["capitol"].0)));
    assert!(publishers.contains(&format!("{base}/fr/media/{}", corpus.media["devoir"].0)));
    assert!(!publishers.contains(&format!("{base}/media/{}", corpus.media["devoir"].0)));
}

async fn d373_sections_and_categories_are_listed_in_every_language(app: &TestApp) {
    let base = app.url("");
    let sections = texts(&document(app, "/sitemaps/sections.xml", XML).await, "loc");
    for path in ["/", "/es/", "/fr/", "/latest", "/fr/top-news", "/es/today-in-history"] {
        assert!(sections.contains(&format!("{base}{path}")), "{path}");
    }
    assert!(!sections.iter().any(|l| l.contains("/user") || l.contains("/search")));
    let categories = texts(&document(app, "/sitemaps/categories.xml", XML).await, "loc");
    assert_eq!(categories.len(), 13 * 3);
    assert!(categories.contains(&format!("{base}/es/category/politics")));
}

async fn d372_robots_txt_points_at_the_sitemap_index_and_closes_the_api(app: &TestApp) {
    let res = app.get("/robots.txt").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "text/plain; charset=utf-8");
    let body = res.text().await.unwrap();
    assert!(body.contains("\nDisallow: /api/\n"));
    assert!(body.contains(&format!("\nSitemap: {}/sitemap.xml\n", app.url(""))));
}

async fn d374_every_page_links_an_opensearch_description_in_its_language(app: &TestApp) {
    let base = app.url("");
    for (page, lang, search) in [
        ("/latest", "en", "/search/news"),
        ("/fr/latest", "fr", "/fr/search/news"),
    ] {
        let html = app.get(page).await.text().await.unwrap();
        let link = format!(
            r#"<link rel="search" type="application/opensearchdescription+xml" title="Localwire" href="/opensearch/{lang}.xml">"#
        );
        assert!(html.contains(&link), "{page}");
        let doc = document(
            app,
            &format!("/opensearch/{lang}.xml"),
            "application/opensearchdescription+xml; charset=utf-8",
        )
        .await;
        assert_eq!(doc[0].name, "OpenSearchDescription");
        assert_eq!(doc[0].attr("xmlns"), Some("http://a9.com/-/spec/opensearch/1.1/"));
        let html_url = named(&doc, "Url")
            .into_iter()
            .find(|u| u.attr("type") == Some("text/html"))
            .expect("a text/html Url");
        let template = html_url.attr("template").unwrap();
        assert_eq!(template, format!("{base}{search}?q={{searchTerms}}"));
        // The browser's search lands on the search page.
        let words = template
            .strip_prefix(&base)
            .unwrap()
            .replace("{searchTerms}", "council");
        assert_eq!(app.get(&words).await.status(), 200);
        // The image it names is served.
        let image = texts(&doc, "Image")[0].clone();
        let res = app.get(image.strip_prefix(&base).unwrap()).await;
        assert_eq!(res.status(), 200, "{image}");
        assert_eq!(res.headers()["content-type"], "image/png");
    }
    assert_eq!(app.get("/opensearch/de.xml").await.status(), 404);
}

async fn d379_the_web_app_manifest_and_its_icons_are_served(app: &TestApp) {
    let res = app.get("/manifest.webmanifest").await;
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers()["content-type"], "application/manifest+json");
    let manifest: serde_json::Value = res.json().await.unwrap();
    assert_eq!(manifest["start_url"], "/");
    for icon in manifest["icons"].as_array().unwrap() {
        let src = icon["src"].as_str().unwrap();
        let res = app.get(src).await;
        assert_eq!(res.status(), 200, "{src}");
        assert_eq!(res.headers()["content-type"], "image/png", "{src}");
    }
    let ico = app.get("/favicon.ico").await;
    assert_eq!(ico.status(), 200);
    assert_eq!(ico.headers()["content-type"], "image/x-icon");
    assert_eq!(&ico.bytes().await.unwrap()[..4], &[0, 0, 1, 0], "an ICO header");
}

engine_tests!(
    d373_the_sitemap_index_names_five_sitemaps_that_each_answer_a_urlset,
    d373_the_news_sitemap_lists_the_last_48_hours_each_in_its_language,
    d373_cities_and_publishers_are_listed_in_the_languages_they_are_read_in,
    d373_sections_and_categories_are_listed_in_every_language,
    d372_robots_txt_points_at_the_sitemap_index_and_closes_the_api,
    d374_every_page_links_an_opensearch_description_in_its_language,
    d379_the_web_app_manifest_and_its_icons_are_served,
);
