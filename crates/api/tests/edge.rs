//! The server at the edge of the open internet (issue 29): no redirect it builds from a
//! request leaves this site (D360), sign-in's redirect address and the pages' links never
//! follow the Host header (D362), and HSTS when the public address is https (D363).
//! Requests go over a raw TCP connection, so the attack paths arrive byte for byte as
//! written (an HTTP client would tidy `\` and tabs away first).

mod support;

use fake_providers::{FACEBOOK_APP_ID, FACEBOOK_APP_SECRET, FakeProviders, GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET};
use support::TestApp;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use url::Url;

/// The status and Location of a raw `GET path` with these extra header lines.
async fn raw_get(app: &TestApp, path: &str, headers: &[(&str, &str)]) -> (u16, Option<String>) {
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.expect("connect");
    let mut request = format!("GET {path} HTTP/1.1\r\nHost: news.example.org\r\nConnection: close\r\n");
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).await.expect("read");
    let answer = String::from_utf8_lossy(&answer);
    let head = answer.split("\r\n\r\n").next().unwrap_or_default();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let location = head.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case("location").then(|| value.trim().to_string())
    });
    (status, location)
}

/// A Location that keeps the browser on this site: `/`, or `/` and then neither `/` nor
/// `\`, and resolved by a WHATWG URL parser (as browsers do) on our origin.
fn assert_on_site(case: &str, location: &str) {
    let second = location.chars().nth(1);
    assert!(
        location == "/" || (location.starts_with('/') && !matches!(second, Some('/' | '\\'))),
        "{case}: Location {location:?} is not a path on this site"
    );
    assert!(
        !location.chars().any(|c| c.is_control()),
        "{case}: Location {location:?} has a control character"
    );
    let ours = Url::parse("https://news.example.org/fr/latest").unwrap();
    let resolved = ours.join(location).unwrap();
    assert_eq!(
        resolved.origin(),
        ours.origin(),
        "{case}: the browser goes to {resolved}"
    );
}

async fn plain_app() -> TestApp {
    let mut config = support::config();
    config.route_rules = vec![api::RouteRule {
        from: "/old-site".into(),
        to: "https://elsewhere.example/new".into(),
        status: 301,
    }];
    support::start(support::sqlite_store().await.expect("sqlite"), config).await
}

/// (path, cookie, Accept-Language, the exact Location when the case must redirect)
type AttackCase = (
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
    Option<&'static str>,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d360_no_redirect_built_from_the_request_leaves_the_site() {
    let app = plain_app().await;
    let en = "lw_locale=en_US";
    let cases: &[AttackCase] = &[
        ("/en//evil.example/x", None, None, Some("/evil.example/x")),
        ("/en///evil.example/x", None, None, Some("/evil.example/x")),
        ("/en/%2F%2Fevil.example", None, None, Some("/evil.example")),
        ("/en/%2f%5cevil.example", None, None, Some("/evil.example")),
        ("/en/%5C%5Cevil.example", None, None, Some("/evil.example")),
        ("/en/%09/evil.example", None, None, Some("/evil.example")),
        ("/en/%0a/evil.example", None, None, Some("/evil.example")),
        ("/en/%252F%252Fevil.example", None, None, Some("/evil.example")),
        ("/en/\\evil.example", None, None, None),
        ("/en/\\/evil.example", None, None, None),
        ("/en//\\evil.example", None, None, None),
        // Through the locale cookie: the same route with the stored code in c.
        ("//evil.example", Some(en), None, Some("/evil.example?c=en_US")),
        (
            "//evil.example/x?y=1",
            Some(en),
            None,
            Some("/evil.example/x?y=1&c=en_US"),
        ),
        ("/es//evil.example", Some(en), None, Some("/evil.example?c=en_US")),
        ("/es/\\evil.example", Some(en), None, None),
        ("/fr//evil.example", Some(en), None, Some("/evil.example?c=en_US")),
        ("/%2F%2Fevil.example", Some(en), None, Some("/evil.example?c=en_US")),
        ("/%5Cevil.example", Some(en), None, Some("/evil.example?c=en_US")),
        ("/%5C/evil.example", Some(en), None, Some("/evil.example?c=en_US")),
        (
            "/%2F/%5C%09/evil.example",
            Some(en),
            None,
            Some("/evil.example?c=en_US"),
        ),
        ("/fr/%2f%5cevil.example", Some(en), None, Some("/evil.example?c=en_US")),
        (
            "/es/%2F%2Fevil.example",
            Some("lw_locale=en_CA"),
            None,
            Some("/evil.example?c=en_CA"),
        ),
        // Through ?c=.
        ("/fr//evil.example?c=en_US", None, None, Some("/evil.example?c=en_US")),
        (
            "/es/%2f%2Fevil.example?c=en_CA",
            None,
            None,
            Some("/evil.example?c=en_CA"),
        ),
        (
            "/fr/%5c%2fevil.example?c=en_US",
            None,
            None,
            Some("/evil.example?c=en_US"),
        ),
        (
            "/es/%09/evil.example?c=en_US",
            None,
            None,
            Some("/evil.example?c=en_US"),
        ),
        // Through the browser's language: a locale prefix comes first, so these stay ours.
        ("//evil.example", None, Some("fr-CA"), None),
        ("/%2F%2Fevil.example", None, Some("es"), None),
        // Mixed case is not a locale prefix: a page (404) of ours, no redirect needed.
        ("/EN//evil.example", None, None, None),
        // The /user guard's way to the sign-in dialog.
        ("/en//user", None, None, Some("/user")),
        ("/user?x=//evil.example", None, None, None),
    ];
    for (path, cookie, accept, want) in cases {
        let mut headers = Vec::new();
        if let Some(c) = cookie {
            headers.push(("Cookie", *c));
        }
        if let Some(a) = accept {
            headers.push(("Accept-Language", *a));
        }
        let (status, location) = raw_get(&app, path, &headers).await;
        let case = format!("{path:?} cookie={cookie:?} accept={accept:?} → {status}");
        if let Some(want) = want {
            assert_eq!(status, 302, "{case}");
            assert_eq!(location.as_deref(), Some(*want), "{case}");
        }
        match location {
            Some(location) => {
                assert!((300..400).contains(&status), "{case}");
                assert_on_site(&case, &location);
            }
            // A page of ours (404), or a request the HTTP layer refused.
            None => assert!(!(300..400).contains(&status), "{case}: a redirect without a Location"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d360_the_user_guard_sends_guests_to_sign_in_on_this_site() {
    let app = plain_app().await;
    let (status, location) = raw_get(&app, "/en//user/read", &[]).await;
    assert_eq!((status, location.as_deref()), (302, Some("/user/read")));
    let (status, location) = raw_get(&app, "/user/read?next=//evil.example", &[]).await;
    assert_eq!(status, 302);
    let location = location.unwrap();
    assert_on_site("the /user guard", &location);
    assert!(location.starts_with("/?login=1&redirect=%2Fuser%2Fread"), "{location}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d360_the_operators_route_rules_may_still_redirect_elsewhere() {
    let app = plain_app().await;
    let (status, location) = raw_get(&app, "/old-site", &[]).await;
    assert_eq!(
        (status, location.as_deref()),
        (301, Some("https://elsewhere.example/new")),
        "SPEC §2.22: the operator's choice"
    );
}

fn with_sign_in(fake: &FakeProviders, public_url: Option<&str>) -> api::ApiConfig {
    api::ApiConfig {
        google: Some(sign_in::GoogleConfig {
            client_id: GOOGLE_CLIENT_ID.into(),
            client_secret: GOOGLE_CLIENT_SECRET.into(),
            issuer: fake.google_issuer(),
        }),
        facebook: Some(sign_in::FacebookConfig {
            app_id: FACEBOOK_APP_ID.into(),
            app_secret: FACEBOOK_APP_SECRET.into(),
            graph_url: fake.facebook_graph_url(),
            dialog_url: fake.facebook_dialog_url(),
        }),
        public_url: public_url.map(String::from),
        ..support::config()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d362_a_forged_host_never_names_the_sign_in_redirect_address_or_the_pages_links() {
    let fake = FakeProviders::start().await;
    let store = support::sqlite_store().await.expect("sqlite");
    let app = support::start(store, with_sign_in(&fake, Some("https://news.example.org"))).await;
    let (_, token) = app.guest("dev-host").await;
    for provider in ["google", "facebook"] {
        let res = app
            .http
            .get(app.url(&format!("/auth/{provider}/start?mode=page")))
            .header("host", "evil.example")
            .header("x-forwarded-host", "evil.example")
            .header("cookie", format!("token={token}"))
            .send()
            .await
            .unwrap();
        assert_eq!(res.status(), 303, "{provider}");
        let to = Url::parse(res.headers()["location"].to_str().unwrap()).unwrap();
        let redirect_uri = to
            .query_pairs()
            .find(|(k, _)| k == "redirect_uri")
            .map(|(_, v)| v.into_owned());
        assert_eq!(
            redirect_uri.as_deref(),
            Some(format!("https://news.example.org/auth/{provider}/callback").as_str()),
            "{provider}"
        );
        assert!(!to.as_str().contains("evil.example"), "{to}");
    }
    let res = app
        .http
        .get(app.url("/latest"))
        .header("host", "evil.example")
        .send()
        .await
        .unwrap();
    let html = res.text().await.unwrap();
    assert!(
        html.contains("<link rel=\"canonical\" href=\"https://news.example.org/latest\""),
        "the canonical link is the public address"
    );
    assert!(
        !html.contains("evil.example"),
        "nothing on the page names the forged host"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d362_without_a_public_url_sign_in_refuses_rather_than_trust_the_host() {
    let fake = FakeProviders::start().await;
    let store = support::sqlite_store().await.expect("sqlite");
    let app = support::start(store, with_sign_in(&fake, None)).await;
    let (_, token) = app.guest("dev-no-public").await;
    let res = app
        .http
        .get(app.url("/auth/google/start"))
        .header("host", "evil.example")
        .header("cookie", format!("token={token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
    assert!(res.headers().get("location").is_none());
    let html = res.text().await.unwrap();
    assert!(html.contains("data-reason=\"SignIn_ServerError\""), "{html}");
    assert!(!html.contains("evil.example"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d363_hsts_on_every_answer_when_the_public_address_is_https() {
    for (public_url, want) in [
        (Some("https://news.example.org"), Some("max-age=31536000")),
        (Some("http://news.example.org"), None),
        (None, None),
    ] {
        let mut config = support::config();
        config.public_url = public_url.map(String::from);
        let app = support::start(support::sqlite_store().await.expect("sqlite"), config).await;
        for path in [
            "/",
            "/latest",
            "/no-such-page",
            "/healthz",
            "/api/app/config",
            "/api/nothing",
        ] {
            let res = app.get(path).await;
            let got = res
                .headers()
                .get("strict-transport-security")
                .map(|v| v.to_str().unwrap().to_string());
            assert_eq!(got.as_deref(), want, "{public_url:?} {path}");
        }
        // An error answer of the API (an unsigned call) carries it too.
        let res = app.http.post(app.url("/api/user/init")).send().await.unwrap();
        assert!(res.status().is_client_error());
        let got = res
            .headers()
            .get("strict-transport-security")
            .map(|v| v.to_str().unwrap().to_string());
        assert_eq!(got.as_deref(), want, "{public_url:?} an unsigned call");
    }
}
