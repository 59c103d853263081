//! The first screen (D156, D424): the page's `#root` holds the screen the app renders
//! first, written by the app's own React components. The web build makes them one script
//! (`web/dist/.server/first-screen.js`, `web/src/ssr/`), which the `render` crate runs in
//! QuickJS on its own threads; this module gives it a page's input and takes its markup.
//! It paints as soon as the HTML and styles arrive; the app's scripts load after it and
//! React replaces it with the same screen (no hydration: the markup carries no state).
//!
//! Which routes are written is the route table's `first_screen` (`routes.json`). A
//! render that fails, waits too long or finds every render thread busy gives `None`:
//! the page goes out with an empty `#root` and the app renders the screen itself, a
//! moment later. The page cache (D145) keeps the result, so a page is rendered at most
//! once per kept page.

#[cfg(test)]
mod golden;

use super::locale::Rendering;
use super::routes::RouteDef;
use crate::assets::WebDist;
use axum::http::HeaderMap;
use percent_encoding::{NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use render::{Options, RenderError, Renderer};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OnceCell;

/// The renderer script in the web build; its hidden folder is never served.
const SCRIPT: &str = ".server/first-screen.js";
/// From the call to the markup, waiting for a thread included. A home page renders in
/// about 10–20 ms on one core; past this, the reader is better served by the app.
const DEADLINE: Duration = Duration::from_millis(100);
/// Renders that may wait for a thread: more would wait past the deadline anyway.
const QUEUE: usize = 4;
/// A runtime's heap: the script and a page's work take about 20 MB.
const MEMORY_LIMIT: usize = 128 * 1024 * 1024;
/// The cookies a first screen reads: those the page is kept under (`page_key`), so a
/// kept page is the one this request would have rendered.
const COOKIES: [&str; 5] = [
    super::LOCALE_COOKIE,
    super::ISO_COOKIE,
    super::CITY_COOKIE,
    "city",
    "adminCode",
];

/// The renderer, started on the first page that needs it (tests that never render a
/// page start none) or at boot by [`FirstScreen::start`].
pub struct FirstScreen {
    threads: usize,
    renderer: OnceCell<Option<Renderer>>,
}

impl FirstScreen {
    /// `threads` render threads (0: no first screens).
    pub fn new(threads: usize) -> FirstScreen {
        FirstScreen {
            threads,
            renderer: OnceCell::new(),
        }
    }

    /// Starts the renderer now (the server at boot), so no reader waits for it.
    pub async fn start(&self) {
        self.renderer().await;
    }

    async fn renderer(&self) -> Option<&Renderer> {
        let threads = self.threads;
        self.renderer
            .get_or_init(|| async move {
                if threads == 0 {
                    return None;
                }
                // Evaluating the script takes a few hundred milliseconds per thread.
                tokio::task::spawn_blocking(move || start(threads)).await.ok().flatten()
            })
            .await
            .as_ref()
    }

    /// The markup of `#root` for a page of `route`, or `None` (the app renders it).
    pub async fn render(&self, route: &RouteDef, input: &Input<'_>) -> Option<String> {
        if !route.first_screen {
            return None;
        }
        let renderer = self.renderer().await?;
        match renderer.render(input.to_json()).await {
            Ok(markup) => (!markup.is_empty()).then_some(markup),
            // Load, or a pool whose engine could not be built again (logged once there).
            Err(e @ (RenderError::Busy | RenderError::Deadline | RenderError::Stopped)) => {
                tracing::debug!(url = input.url, error = %e, "first screen left to the app");
                None
            }
            Err(e) => {
                tracing::warn!(url = input.url, error = %e, "first screen: the render failed");
                None
            }
        }
    }
}

fn start(threads: usize) -> Option<Renderer> {
    let Some(file) = WebDist::get(SCRIPT) else {
        tracing::warn!("web/dist/{SCRIPT} is missing (build the web app): pages go without a first screen");
        return None;
    };
    let script: Arc<str> = String::from_utf8_lossy(&file.data).into();
    let options = Options {
        threads,
        queue: QUEUE,
        deadline: DEADLINE,
        memory_limit: MEMORY_LIMIT,
        warm: warm_inputs(),
    };
    Renderer::start(script, options)
        .inspect_err(|e| tracing::error!(error = %e, "the first-screen renderer does not start"))
        .ok()
}

/// A page per locale, rendered by each fresh runtime before it takes a request: a
/// runtime's first render of a locale compiles its screens and reads its messages, and
/// takes several times as long as the next (docs/one-renderer-spike.md).
fn warm_inputs() -> Vec<String> {
    ["en", "es", "fr"]
        .iter()
        .map(|locale| {
            let item = json!({
                "news_id": 1, "title": "Council votes", "summary": "What happened.",
                "img_url": "https://img.example/1.jpg", "category_id": "politics", "media_id": 1,
                "media_name": "The Ledger", "media_icon": "", "publish_time": 1_795_000_000_000_i64 - 300_000,
                "type": 1, "cluster_size": 2,
            });
            let payload = json!({
                "route": "latest", "status": 200, "locale": locale, "country": "US", "c": null,
                "build": "", "params": {}, "error": null,
                "query": { "path": "/api/news/feed", "params": { "channel": "latest" } },
                "data": { "list": [item.clone(), item], "next_page_token": "" },
            });
            let url = if *locale == "en" {
                "/latest".to_string()
            } else {
                format!("/{locale}/latest")
            };
            Input {
                url: &url,
                now_ms: 1_795_000_000_000,
                cookie: String::new(),
                payload: &payload,
            }
            .to_json()
        })
        .collect()
}

/// What the renderer is given for one page (web `FirstScreenInput`).
pub struct Input<'a> {
    /// The path and query as requested, with the locale prefix.
    pub url: &'a str,
    pub now_ms: i64,
    /// The page-key cookies of the request, as a Cookie header.
    pub cookie: String,
    /// The payload the page inlines (D20).
    pub payload: &'a Value,
}

impl Input<'_> {
    fn to_json(&self) -> String {
        json!({ "url": self.url, "now_ms": self.now_ms, "cookie": self.cookie, "payload": self.payload }).to_string()
    }
}

/// The request's cookies a first screen may read, as a Cookie header.
pub fn page_cookies(headers: &HeaderMap) -> String {
    COOKIES
        .iter()
        .filter_map(|name| super::cookie(headers, name).map(|value| format!("{name}={value}")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The cookies the first screen is rendered with: the request's page-key cookies and,
/// for a reader with no city setting yet, the city the page is written for as that
/// setting, which is where start-up places a new guest (so the header names the city the
/// page's news are from, not "no city", until the app knows the reader). Everything it
/// reads is in the page key.
pub fn cookies(r: &Rendering, headers: &HeaderMap) -> String {
    let cookies = page_cookies(headers);
    let city = super::cookie(headers, "city").map(|v| percent_decode_str(v).decode_utf8_lossy().trim().to_string());
    if city.is_some_and(|c| !c.is_empty()) {
        return cookies;
    }
    let Some(page_city) = geo::by_id(super::data::reader_city_id(r, headers)) else {
        return cookies;
    };
    let encode = |v: &str| utf8_percent_encode(v, NON_ALPHANUMERIC).to_string();
    // A blank city, or an admin code alone, names no city: the page's city comes with
    // its own (the app reads the first of two cookies of one name).
    let mut kept: Vec<String> = cookies
        .split("; ")
        .filter(|pair| !pair.is_empty() && !pair.starts_with("city=") && !pair.starts_with("adminCode="))
        .map(str::to_string)
        .collect();
    kept.push(format!("city={}", encode(page_city.display_name(r.locale))));
    kept.push(format!("adminCode={}", encode(page_city.admin_code)));
    kept.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::{HeaderValue, header};

    #[test]
    fn only_the_cookies_a_page_is_kept_under_reach_the_renderer() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static(
                "token=secret; iso=CA; city=Ottawa%2C%20ON; _ga=1; lw_locale=fr_CA; cityId=6094817",
            ),
        );
        assert_eq!(
            page_cookies(&h),
            "lw_locale=fr_CA; iso=CA; cityId=6094817; city=Ottawa%2C%20ON"
        );
        assert_eq!(page_cookies(&HeaderMap::new()), "");
    }

    fn rendering(locale: domain::locale::Locale) -> Rendering {
        Rendering {
            locale,
            country: domain::geo::Country::Us,
            rest: "/".into(),
            applied_c: None,
        }
    }

    fn with_cookie(value: &'static str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::COOKIE, HeaderValue::from_static(value));
        h
    }

    /// D156/D424: a reader without a city setting sees the city the page is written for.
    #[test]
    fn a_reader_without_a_city_gets_the_pages_city() {
        let en = rendering(domain::locale::Locale::En);
        assert_eq!(cookies(&en, &HeaderMap::new()), "city=Washington; adminCode=DC");
        // An admin code alone, or a blank city, names no city; the page's replaces them.
        assert_eq!(
            cookies(&en, &with_cookie("adminCode=ME; iso=US")),
            "iso=US; city=Washington; adminCode=DC"
        );
        assert_eq!(
            cookies(&en, &with_cookie("city=%20; adminCode=ME")),
            "city=Washington; adminCode=DC"
        );
        // The cityId setting names the page's city (Ottawa), in the page's language.
        let fr = rendering(domain::locale::Locale::Fr);
        assert_eq!(
            cookies(&fr, &with_cookie("cityId=6094817")),
            "cityId=6094817; city=Ottawa; adminCode=ON"
        );
        // A reader's own city setting is theirs, as it came.
        assert_eq!(
            cookies(&en, &with_cookie("city=Portland; adminCode=ME; token=secret")),
            "city=Portland; adminCode=ME"
        );
    }

    #[test]
    fn the_cookies_it_reads_are_the_page_keys() {
        let mut h = HeaderMap::new();
        for name in COOKIES {
            h.insert(header::COOKIE, HeaderValue::from_str(&format!("{name}=x")).unwrap());
            let with = super::super::page_key::key("/", &h, false);
            assert_ne!(
                with,
                super::super::page_key::key("/", &HeaderMap::new(), false),
                "{name}"
            );
        }
    }
}
