//! The image proxy (issue 31, D380–D384) through real HTTP: a loopback server stands in
//! for a publisher's image host, counting what reaches it.

mod support;

use api::image_proxy::{ImageProxy, ImageProxyConfig, ProxyKey, image_fetch_policy};
use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use store::content::ClusterChoice;
use support::TestApp;
use support::seed::{self, WASHINGTON};

const KEY: [u8; 32] = [9; 32];
/// A 1×1 PNG.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49,
    0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60, 0x00, 0x02, 0x00, 0x00, 0x05, 0x00, 0x01, 0xe9, 0xfa, 0xdc, 0xd8, 0x00,
    0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
];

/// A publisher's image host on loopback: `/a.png`, `/b.png`, `/c.png`, a 6 MB `/big.png`,
/// an HTML `/page.html` and an SVG `/logo.svg`. Counts every request.
struct Upstream {
    base: String,
    hits: Arc<AtomicUsize>,
}

impl Upstream {
    async fn start() -> Upstream {
        let hits = Arc::new(AtomicUsize::new(0));
        let counted = hits.clone();
        let app = Router::new()
            .route(
                "/{name}",
                get(|axum::extract::Path(name): axum::extract::Path<String>| async move {
                    match name.as_str() {
                        "a.png" | "b.png" | "c.png" => {
                            ([(header::CONTENT_TYPE, "image/png")], PNG.to_vec()).into_response()
                        }
                        "big.png" => {
                            ([(header::CONTENT_TYPE, "image/png")], vec![0u8; 6 * 1024 * 1024]).into_response()
                        }
                        "page.html" => ([(header::CONTENT_TYPE, "text/html")], "<h1>not an image</h1>").into_response(),
                        "logo.svg" => (
                            [(header::CONTENT_TYPE, "image/svg+xml")],
                            "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
                        )
                            .into_response(),
                        _ => axum::http::StatusCode::NOT_FOUND.into_response(),
                    }
                }),
            )
            .layer(axum::middleware::from_fn(move |req, next: axum::middleware::Next| {
                let counted = counted.clone();
                async move {
                    counted.fetch_add(1, Ordering::SeqCst);
                    next.run(req).await
                }
            }));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        Upstream { base, hits }
    }

    fn url(&self, name: &str) -> String {
        format!("{}/{name}", self.base)
    }

    fn hits(&self) -> usize {
        self.hits.load(Ordering::SeqCst)
    }
}

/// The proxy's settings for a test: a known key; `loopback` is the test-only allowance
/// the feed fetcher has (`LOCALWIRE_ALLOW_PRIVATE_FEEDS`).
fn proxy_config(enabled: bool, loopback: bool) -> ImageProxyConfig {
    ImageProxyConfig {
        enabled,
        key: ProxyKey::from_bytes(KEY),
        fetch: image_fetch_policy(loopback),
        ..Default::default()
    }
}

async fn app_with(proxy: ImageProxyConfig) -> TestApp {
    let store = support::sqlite_store().await.unwrap();
    let mut config = support::config();
    config.image_proxy = proxy;
    support::start(store, config).await
}

/// The path this server signs for `url` (the test knows the key).
fn signed(url: &str) -> String {
    ImageProxy::new(proxy_config(true, false), None).path_for(url)
}

/// Seeds the corpus and one story whose image, and the image in its text, are on `upstream`.
async fn story_with_images(app: &TestApp, upstream: &Upstream) -> i64 {
    let mut corpus = seed::seed(app.store.as_ref()).await;
    let mut story = seed::item("pictured", "A pictured story", corpus.now_ms, Some(WASHINGTON));
    story.img_url = upstream.url("a.png");
    story.thumbnail_url = upstream.url("a.png");
    story.content = format!(
        "<p>Before</p><figure><img src=\"{}?size=large&amp;v=2\" alt=\"x\"></figure><p>After</p>",
        upstream.url("a.png")
    );
    let ids = seed::put(
        app.store.as_ref(),
        &mut corpus,
        "capitol",
        vec![story],
        vec![ClusterChoice::New],
    )
    .await;
    ids[0].0
}

async fn json(res: reqwest::Response) -> (u16, Value) {
    let status = res.status().as_u16();
    (status, res.json().await.unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d380_a_storys_images_load_through_the_proxy_and_the_second_load_is_kept() {
    let upstream = Upstream::start().await;
    let app = app_with(proxy_config(true, true)).await;
    let id = story_with_images(&app, &upstream).await;

    let res = app.get(&format!("/api/news/detail?news_id={id}")).await;
    let text = res.text().await.unwrap();
    assert!(
        !text.contains(&upstream.base),
        "no upstream address leaves the server: {text}"
    );
    assert!(
        !text.contains("capitol.example/icon.png"),
        "publisher icons too: {text}"
    );
    let detail: Value = serde_json::from_str(&text).unwrap();
    let news = &detail["data"]["news"];
    let img = news["img_url"].as_str().unwrap();
    assert_eq!(img, signed(&upstream.url("a.png")));
    assert_eq!(news["thumbnail_url"], img);
    assert_eq!(
        detail["data"]["media"]["icon_url"].as_str().unwrap(),
        signed("https://capitol.example/icon.png")
    );
    let content = news["content"].as_str().unwrap();
    let in_text = signed(&format!("{}?size=large&v=2", upstream.url("a.png")));
    assert!(
        content.contains(&format!("<img src=\"{in_text}\" alt=\"x\">")),
        "{content}"
    );

    // The lists and the article page's first paint hand out the same addresses.
    let latest = app
        .get("/api/news/feed?channel=latest&size=5")
        .await
        .text()
        .await
        .unwrap();
    assert!(latest.contains(img) && !latest.contains(&upstream.base), "{latest}");
    let page = app.get(&format!("/article/{id}")).await;
    let csp = page.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("img-src 'self' data:;"), "D384: {csp}");
    let html = page.text().await.unwrap();
    assert!(html.contains(img) && !html.contains(&upstream.base), "first paint");

    assert_eq!(upstream.hits(), 0, "nothing is fetched until a reader asks");
    let first = app.get(img).await;
    assert_eq!(first.status(), 200);
    assert_eq!(first.headers()[header::CONTENT_TYPE], "image/png");
    assert_eq!(first.headers()[header::CACHE_CONTROL], "public, max-age=86400");
    let etag = first.headers()[header::ETAG].to_str().unwrap().to_string();
    assert_eq!(first.bytes().await.unwrap().as_ref(), PNG);
    assert_eq!(upstream.hits(), 1);

    let second = app.get(img).await;
    assert_eq!(second.status(), 200);
    assert_eq!(second.bytes().await.unwrap().as_ref(), PNG);
    let revalidated = app
        .http
        .get(app.url(img))
        .header(header::IF_NONE_MATCH, &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revalidated.status(), 304);
    assert_eq!(
        upstream.hits(),
        1,
        "the second load and the revalidation are answered from the cache"
    );

    let in_content = app.get(&in_text).await;
    assert_eq!(in_content.status(), 200, "the article's own image");
    assert_eq!(upstream.hits(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d380_a_forged_or_unsigned_address_is_refused_and_nothing_is_fetched() {
    let upstream = Upstream::start().await;
    let app = app_with(proxy_config(true, true)).await;
    let good = signed(&upstream.url("a.png"));
    let (mac, _) = good.trim_start_matches("/proxy/").split_once('/').unwrap();
    let other = signed(&upstream.url("b.png"));
    let (_, other_address) = other.trim_start_matches("/proxy/").split_once('/').unwrap();
    let by_another_key = ImageProxy::new(ImageProxyConfig::default(), None).path_for(&upstream.url("a.png"));
    for path in [
        format!("/proxy/{mac}/{other_address}"),
        format!("/proxy/AAAAAAAA/{other_address}"),
        format!("/proxy/-/{other_address}"),
        by_another_key,
        "/proxy/x/%%%".to_string(),
    ] {
        let (status, body) = json(app.get(&path).await).await;
        assert_eq!((status, &body["code"]), (403, &Value::from(403)), "{path}: {body}");
        assert_eq!(body["message"], "Forbidden");
    }
    assert_eq!(upstream.hits(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d381_an_image_on_a_loopback_address_is_refused_by_the_ssrf_guard() {
    let upstream = Upstream::start().await;
    // The production policy: no test-only allowance.
    let app = app_with(proxy_config(true, false)).await;
    for url in [
        upstream.url("a.png"),
        "http://169.254.169.254/latest/meta-data/x.png".to_string(),
        "http://10.1.2.3/x.png".to_string(),
    ] {
        let (status, body) = json(app.get(&signed(&url)).await).await;
        assert_eq!(status, 403, "{url}: {body}");
        assert!(body["message"].as_str().unwrap().contains("private"), "{body}");
    }
    assert_eq!(upstream.hits(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d381_over_5_mb_a_page_or_an_svg_is_refused_not_served() {
    let upstream = Upstream::start().await;
    let app = app_with(proxy_config(true, true)).await;
    let (status, body) = json(app.get(&signed(&upstream.url("big.png"))).await).await;
    assert_eq!(status, 502, "{body}");
    assert!(body["message"].as_str().unwrap().contains("larger than 5 MB"), "{body}");
    for (name, kind) in [("page.html", "text/html"), ("logo.svg", "image/svg+xml")] {
        let res = app.get(&signed(&upstream.url(name))).await;
        assert_eq!(res.headers()[header::CONTENT_TYPE], "application/json");
        let (status, body) = json(res).await;
        assert_eq!(status, 502, "{name}: {body}");
        assert!(body["message"].as_str().unwrap().contains(kind), "{body}");
    }
    let hits = upstream.hits();
    // A failure is kept a minute: asking again does not reach the publisher.
    let (status, _) = json(app.get(&signed(&upstream.url("logo.svg"))).await).await;
    assert_eq!((status, upstream.hits()), (502, hits));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d380_with_the_proxy_off_readers_get_the_original_addresses() {
    let upstream = Upstream::start().await;
    let app = app_with(proxy_config(false, true)).await;
    let id = story_with_images(&app, &upstream).await;
    let detail: Value = app
        .get(&format!("/api/news/detail?news_id={id}"))
        .await
        .json()
        .await
        .unwrap();
    let news = &detail["data"]["news"];
    assert_eq!(news["img_url"], upstream.url("a.png"));
    assert_eq!(detail["data"]["media"]["icon_url"], "https://capitol.example/icon.png");
    assert!(
        news["content"]
            .as_str()
            .unwrap()
            .contains(&format!("<img src=\"{}?size=large&amp;v=2\"", upstream.url("a.png")))
    );
    let page = app.get(&format!("/article/{id}")).await;
    let csp = page.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_string();
    assert!(csp.contains("img-src 'self' data: https:;"), "{csp}");
    let (status, _) = json(app.get(&signed(&upstream.url("a.png"))).await).await;
    assert_eq!(status, 404, "no proxy route when it is off");
    assert_eq!(upstream.hits(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d383_fetches_one_address_causes_are_limited_and_kept_images_still_load() {
    let upstream = Upstream::start().await;
    let store = support::sqlite_store().await.unwrap();
    let mut config = support::config();
    config.trust_forwarded_for = true;
    config.image_proxy = ImageProxyConfig {
        fetch_burst: 2,
        fetch_every: Duration::from_secs(3600),
        ..proxy_config(true, true)
    };
    let app = support::start(store, config).await;
    let from = |ip: &'static str, name: &str| {
        app.http
            .get(app.url(&signed(&upstream.url(name))))
            .header("x-forwarded-for", ip)
            .send()
    };
    for name in ["a.png", "b.png"] {
        assert_eq!(from("2001:db8:1:2::1", name).await.unwrap().status(), 200);
    }
    // The same /64, another host in it: the same budget.
    let refused = from("2001:db8:1:2::99", "c.png").await.unwrap();
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key(header::RETRY_AFTER));
    assert_eq!(upstream.hits(), 2);
    assert_eq!(
        from("2001:db8:1:2::1", "a.png").await.unwrap().status(),
        200,
        "a kept image costs no fetch"
    );
    assert_eq!(
        from("203.0.113.7", "c.png").await.unwrap().status(),
        200,
        "another address"
    );
    assert_eq!(upstream.hits(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d380_the_key_is_made_once_and_kept_in_the_database_on_both_engines() {
    let mut stores = vec![support::sqlite_store().await.unwrap()];
    if let Some(pg) = support::postgres_store().await {
        stores.push(pg);
    }
    for store in stores {
        let first = api::image_proxy::stored_key(store.as_ref()).await.unwrap();
        let again = api::image_proxy::stored_key(store.as_ref()).await.unwrap();
        assert_eq!(first, again);
        assert_eq!(format!("{first:?}"), "ProxyKey(…)", "never printed");
        let stored = store.setting(api::image_proxy::KEY_SETTING).await.unwrap().unwrap();
        assert_eq!(stored.len(), 64);
    }
}
