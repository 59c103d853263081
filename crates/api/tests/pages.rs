//! Pages through the real router: every SPEC §2 route, locales (§2.20, §2.21, §4.10),
//! 404s (§2.22), route rules, the /user guard (§6.2), meta and payload.

mod support;

use api::{ApiConfig, RouteRule};
use serde_json::Value;
use support::TestApp;

async fn app() -> TestApp {
    support::start(support::sqlite_store().await.unwrap(), support::config()).await
}

fn payload(html: &str) -> Value {
    let start = html.find(r#"id="lw-payload">"#).expect("payload") + r#"id="lw-payload">"#.len();
    let end = start + html[start..].find("</script>").expect("end of payload");
    serde_json::from_str(&html[start..end]).expect("payload JSON")
}

/// Article and share pages of stories that exist are in news_pages.rs (a missing story
/// is a real 404 since the read API exists).
const ROUTES: [&str; 25] = [
    "/",
    "/local",
    "/local/ottawa",
    "/latest",
    "/top-news",
    "/search",
    "/search/news",
    "/search/media",
    "/weather",
    "/realtime-trends",
    "/today-in-history",
    "/media/abc",
    "/special/elections",
    "/category/sports",
    "/location/quebec",
    "/setting/block-list",
    "/setting/following-tags",
    "/setting/explore-channels",
    "/dlink",
    "/demos/dlink",
    "/demos/article",
    "/es/latest",
    "/fr/weather",
    "/es/",
    "/fr",
];

#[tokio::test]
async fn spec_2_every_route_answers_with_the_shell_title_and_meta() {
    let app = app().await;
    for path in ROUTES {
        let res = app.get(path).await;
        assert_eq!(res.status(), 200, "{path}");
        let html = res.text().await.unwrap();
        assert!(
            html.contains("<title>") && html.contains(" · Localwire</title>"),
            "{path}: title"
        );
        assert!(html.contains(r#"<meta name="description" content=""#), "{path}");
        assert!(html.contains(r#"<link rel="canonical" href="http://"#), "{path}");
        assert!(
            html.contains(r#"hreflang="es""#)
                && html.contains(r#"hreflang="fr""#)
                && html.contains(r#"hreflang="x-default""#),
            "{path}"
        );
        assert!(html.contains(r#"<meta property="og:title""#), "{path}");
        let p = payload(&html);
        assert_eq!(p["status"], 200, "{path}");
        assert!(p["route"].is_string(), "{path}");
    }
}

#[tokio::test]
async fn spec_1_7_html_lang_and_dir_follow_the_locale() {
    let app = app().await;
    let html = app.get("/fr/").await.text().await.unwrap();
    assert!(html.contains(r#"<html lang="fr" dir="ltr">"#));
    assert!(html.contains(r#"<meta property="og:locale" content="fr_CA">"#));
    let html = app.get("/es/latest").await.text().await.unwrap();
    assert!(html.contains(r#"<html lang="es" dir="ltr">"#));
    assert!(html.contains(r#"<link rel="canonical" href="http://"#) && html.contains(r#"/es/latest">"#));
    let p = payload(&html);
    assert_eq!((p["locale"].as_str(), p["country"].as_str()), (Some("es"), Some("US")));
}

#[tokio::test]
async fn spec_2_22_unknown_path_is_404_with_the_message() {
    let app = app().await;
    let res = app.get("/no/such/page").await;
    assert_eq!(res.status(), 404);
    let html = res.text().await.unwrap();
    let p = payload(&html);
    assert_eq!(p["error"]["message"], "Page not found: /no/such/page");
    assert_eq!(p["status"], 404);
    assert!(html.contains("<title>Page not found: /no/such/page · Localwire</title>"));
    assert!(html.contains(r#"<meta name="robots" content="noindex">"#));
    let fr = app.get("/fr/nulle-part").await;
    assert_eq!(fr.status(), 404);
    assert_ne!(
        payload(&fr.text().await.unwrap())["error"]["message"],
        "Page not found: /nulle-part",
        "translated"
    );
}

#[tokio::test]
async fn spec_2_21_c_redirects_to_its_language_and_sets_the_locale_cookie() {
    let app = app().await;
    let res = app.get("/?c=es_US").await;
    assert_eq!(res.status(), 302);
    assert_eq!(res.headers()["location"], "/es/?c=es_US");
    let res = app.get("/es/?c=es_US").await;
    assert_eq!(res.status(), 200);
    let cookie = res.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("lw_locale=es_US;"), "{cookie}");
    assert!(
        cookie.contains("Max-Age=31536000") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"),
        "365 days, Lax (§9.4)"
    );
    assert_eq!(payload(&res.text().await.unwrap())["c"], "es_US");
}

#[tokio::test]
async fn spec_2_21_stored_locale_without_c_redirects() {
    let app = app().await;
    let res = app
        .http
        .get(app.url("/latest"))
        .header("cookie", "lw_locale=fr_CA")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 302);
    assert_eq!(res.headers()["location"], "/fr/latest?c=fr_CA");
}

#[tokio::test]
async fn spec_4_10_browser_language_on_first_access() {
    let app = app().await;
    let res = app
        .http
        .get(app.url("/weather"))
        .header("accept-language", "es-MX,es;q=0.9")
        .send()
        .await
        .unwrap();
    assert_eq!(
        (res.status().as_u16(), res.headers()["location"].to_str().unwrap()),
        (302, "/es/weather")
    );
    let res = app
        .http
        .get(app.url("/weather"))
        .header("accept-language", "en-US")
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 200);
}

#[tokio::test]
async fn spec_5_5_unknown_c_values_render_in_the_route_locale() {
    let app = app().await;
    for c in ["xx_YY", "en", "_US", ""] {
        let res = app.get(&format!("/latest?c={c}")).await;
        assert_eq!(res.status(), 200, "c={c}");
        let p = payload(&res.text().await.unwrap());
        assert_eq!(p["locale"], "en", "c={c}");
    }
}

async fn spec_6_2_user_pages_send_guests_to_sign_in(app: &TestApp) {
    let res = app.get("/user/read").await;
    assert_eq!(res.status(), 302);
    assert_eq!(res.headers()["location"], "/?login=1&redirect=%2Fuser%2Fread");
    let (_, token) = app.guest("dev-guard").await;
    let res = app
        .http
        .get(app.url("/fr/user"))
        .header("cookie", format!("token={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 302, "a guest token is not signed in");
    assert_eq!(res.headers()["location"], "/fr/?login=1&redirect=%2Ffr%2Fuser");
}

engine_tests!(spec_6_2_user_pages_send_guests_to_sign_in);

#[tokio::test]
async fn spec_2_22_route_rules_redirect_also_to_external_addresses() {
    let config = ApiConfig {
        route_rules: vec![
            RouteRule {
                from: "/old-news".into(),
                to: "/latest".into(),
                status: 301,
            },
            RouteRule {
                from: "/elsewhere".into(),
                to: "https://example.org/x".into(),
                status: 302,
            },
        ],
        ..support::config()
    };
    let app = support::start(support::sqlite_store().await.unwrap(), config).await;
    let res = app.get("/old-news").await;
    assert_eq!(
        (res.status().as_u16(), res.headers()["location"].to_str().unwrap()),
        (301, "/latest")
    );
    let res = app.get("/elsewhere").await;
    assert_eq!(
        (res.status().as_u16(), res.headers()["location"].to_str().unwrap()),
        (302, "https://example.org/x")
    );
    let manifest_id = app.get("/_app/version.json").await.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let manifest: Value = app
        .get(&format!("/_app/builds/{manifest_id}.json"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        manifest["route_rules"][1]["to"], "https://example.org/x",
        "§7.12 build manifest carries the rules"
    );
    assert_eq!(app.get("/_app/builds/nope.json").await.status(), 404);
}

#[tokio::test]
async fn spec_4_13_build_id_is_exposed_in_page_and_version_file() {
    let app = app().await;
    let v: Value = app.get("/_app/version.json?t=123").await.json().await.unwrap();
    let id = v["id"].as_str().unwrap();
    assert_eq!(id.len(), 16);
    let html = app.get("/").await.text().await.unwrap();
    assert!(html.contains(&format!(r#"<meta name="lw-build" content="{id}">"#)));
    assert_eq!(payload(&html)["build"], id);
}

#[tokio::test]
async fn security_headers_on_pages_and_api() {
    let app = app().await;
    for path in ["/", "/latest", "/no/such/page", "/api/nope", "/healthz"] {
        let res = app.get(path).await;
        let h = res.headers();
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin", "{path}");
    }
    for path in ["/", "/latest", "/no/such/page"] {
        let res = app.get(path).await;
        let csp = res.headers()["content-security-policy"].to_str().unwrap().to_string();
        for directive in [
            "default-src 'self'",
            "script-src 'self'",
            "style-src 'self'",
            "object-src 'none'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{path}: {directive}");
        }
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{path}");
    }
}

#[tokio::test]
async fn healthz_metrics_and_openapi() {
    let app = app().await;
    let health: Value = app.get("/healthz").await.json().await.unwrap();
    assert_eq!(
        (health["status"].as_str(), health["database"].as_str()),
        (Some("ok"), Some("sqlite"))
    );
    let _ = app.get("/latest").await;
    let metrics = app.get("/metrics").await.text().await.unwrap();
    assert!(metrics.contains("localwire_http_requests_total{kind=\"page\",status=\"2xx\"}"));
    assert!(
        !metrics.contains("localwire_http_requests_total{kind=\"page\",status=\"2xx\"} 0\n"),
        "the page view was counted"
    );
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    for path in [
        "/api/user/init",
        "/api/user/info",
        "/api/user/logout",
        "/api/user/location/update",
        "/api/app/config",
        "/api/geo/countries",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} documented");
    }
}

#[tokio::test]
async fn app_config_and_countries() {
    let app = app().await;
    let cfg: Value = app.get("/api/app/config").await.json().await.unwrap();
    assert_eq!(cfg["code"], 0);
    let d = &cfg["data"];
    assert_eq!(d["locales"], serde_json::json!(["en", "es", "fr"]));
    assert_eq!(d["default_cities"]["US"]["name"], "Washington");
    assert_eq!(d["default_cities"]["CA"]["name"], "Ottawa");
    assert_eq!(d["default_location"]["postal_code"], "20003");
    let countries: Value = app.get("/api/geo/countries").await.json().await.unwrap();
    assert_eq!(countries["data"]["list"][1]["languages"][1]["code"], "fr");
}

#[tokio::test]
async fn embedded_assets_are_immutable_and_precompressed() {
    use rust_embed_check::first_js;
    let app = app().await;
    let Some(js) = first_js() else {
        // Only when the web app was not built before the Rust build (plain `cargo test`).
        assert_eq!(app.get("/assets/missing.js").await.status(), 404);
        return;
    };
    // Raw HTTP: reqwest may decode brotli itself and drop Content-Encoding (it does
    // when a workspace crate enables its brotli feature).
    let head = |extra: &str| {
        format!("GET /{js} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n{extra}Connection: close\r\n\r\n")
    };
    let reply = app.raw(head("").as_bytes()).await.to_ascii_lowercase();
    assert!(reply.starts_with("http/1.1 200"), "{}", &reply[..reply.len().min(200)]);
    assert!(reply.contains("\r\ncontent-encoding: br\r\n"));
    assert!(reply.contains("\r\ncache-control: public, max-age=31536000, immutable\r\n"));
    assert!(reply.contains("\r\ncontent-type: text/javascript\r\n"));
    // A hashed script is no document (D423): nothing frames it, and what it imports
    // goes under the page's referrer policy. It is still never sniffed. Its name is its
    // version, so it has no ETag to revalidate with.
    assert!(reply.contains("\r\nx-content-type-options: nosniff\r\n"));
    for absent in ["x-frame-options", "referrer-policy", "etag"] {
        assert!(!reply.contains(&format!("\r\n{absent}:")), "D423 {absent}");
    }
    // A file without a hash in its name is revalidated with its ETag.
    let head = |extra: &str| {
        format!("GET /offline.html HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n{extra}Connection: close\r\n\r\n")
    };
    let reply = app.raw(head("").as_bytes()).await.to_ascii_lowercase();
    assert!(reply.starts_with("http/1.1 200"), "{}", &reply[..reply.len().min(200)]);
    let etag = reply
        .split("\r\netag: ")
        .nth(1)
        .and_then(|r| r.split("\r\n").next())
        .expect("etag")
        .to_string();
    let reply = app.raw(head(&format!("If-None-Match: {etag}\r\n")).as_bytes()).await;
    assert!(
        reply.starts_with("HTTP/1.1 304"),
        "{}",
        reply.lines().next().unwrap_or("")
    );
    let flag = app.get("/static/country/us.png").await;
    assert_eq!(
        (flag.status().as_u16(), flag.headers()["content-type"].to_str().unwrap()),
        (200, "image/png"),
        "§2.24"
    );
}

mod rust_embed_check {
    pub fn first_js() -> Option<String> {
        api::assets::WebDist::iter()
            .map(|f| f.to_string())
            .find(|f| f.starts_with("assets/") && f.ends_with(".js"))
    }
}

/// Issue 16, defect 1 (D200): a server started with `--sign-word` puts that word in every
/// page's payload, so the app signs with it instead of its build-time default.
#[tokio::test]
async fn spec_7_21_pages_carry_the_sign_word_the_server_runs_with() {
    let config = ApiConfig {
        sign_word: "tide-77".into(),
        ..support::config()
    };
    let app = support::start(support::sqlite_store().await.unwrap(), config).await;
    for path in ["/", "/fr/latest", "/no/such/page", "/weather"] {
        let html = app.get(path).await.text().await.unwrap();
        assert_eq!(payload(&html)["signWord"], "tide-77", "{path}");
    }
}

/// D345: the page payload carries the app config's `ads`, the same value from the same
/// setting: `null` without an ad client, the operator's client with one.
#[tokio::test]
async fn d345_pages_carry_the_app_configs_ads() {
    let app = support::start(support::sqlite_store().await.unwrap(), support::config()).await;
    let html = app.get("/latest").await.text().await.unwrap();
    assert!(payload(&html)["ads"].is_null(), "no ad client: ads is null");
    let cfg: Value = app.get("/api/app/config").await.json().await.unwrap();
    assert!(cfg["data"]["ads"].is_null());

    let ads = api::ads::parse_ad_client(
        r#"{"client_id": "ca-local-1", "creatives": [{"id": "c1", "placement": "article",
            "rule_id": "r1", "sponsor": "Main St Bakery", "title": "Fresh bread",
            "url": "https://bakery.example/", "revenue": 0.12, "floor_price": 0.05}]}"#,
    )
    .unwrap();
    let config = ApiConfig {
        ads: Some(ads),
        ..support::config()
    };
    let app = support::start(support::sqlite_store().await.unwrap(), config).await;
    let cfg: Value = app.get("/api/app/config").await.json().await.unwrap();
    assert_eq!(cfg["data"]["ads"]["adn_id"], 37);
    for path in ["/", "/fr/latest", "/article/1"] {
        let html = app.get(path).await.text().await.unwrap();
        assert_eq!(payload(&html)["ads"], cfg["data"]["ads"], "{path}");
    }
}
