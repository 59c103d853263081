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

use super::routes::RouteDef;
use crate::assets::WebDist;
use axum::http::HeaderMap;
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
            Err(e @ (RenderError::Busy | RenderError::Deadline)) => {
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
