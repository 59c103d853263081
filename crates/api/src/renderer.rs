//! The first-screen renderer (D424): the web app's server-render script
//! (`web/dist/.server/first-screen.js`, built from `web/src/ssr/`) on the `render` crate's
//! pool of QuickJS threads, started once per process. `pages::first_screen` gives it a
//! page's input; this module only owns the engines and says what a failed render means
//! (the app renders that screen itself).

use crate::assets::WebDist;
use render::{Options, RenderError, Renderer};
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::OnceCell;

/// The renderer script in the web build; its hidden folder is never served.
pub(crate) const SCRIPT: &str = ".server/first-screen.js";
/// From the call to the markup, waiting for a thread included. A home page renders in
/// 15–35 ms on a busy core; the app, its alternative, needs its scripts downloaded and
/// started first (a second or more on a phone), so a render is worth waiting for up to
/// this (100 ms left busy CI machines without first screens).
const DEADLINE: Duration = Duration::from_millis(250);
/// A started render runs to here before it is stopped and its engine built again (D427):
/// on a busy machine a render can outlast the deadline (CI saw a home page take over
/// 250 ms), and building the engine again, script and warm pages, holds the thread for
/// far longer than finishing it, with no first screens for any page meanwhile. A render
/// that truly runs away holds its thread this long.
const RUNAWAY: Duration = Duration::from_secs(1);
/// Renders that may wait for a thread: more would wait past the deadline anyway.
const QUEUE: usize = 4;
/// A runtime's heap: the script and a page's work take about 20 MB.
pub(crate) const MEMORY_LIMIT: usize = 128 * 1024 * 1024;
/// The renderer, started on the first page that needs it (tests that never render a
/// page start none) or at boot by [`FirstScreens::start`].
pub struct FirstScreens {
    threads: usize,
    renderer: OnceCell<Option<Renderer>>,
}

impl FirstScreens {
    /// `threads` render threads (0: no first screens).
    pub fn new(threads: usize) -> FirstScreens {
        FirstScreens {
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

    /// The markup for a page's input (`pages::first_screen::Input`), or `None`: the
    /// app renders that screen itself. `url` names the page in the log.
    pub async fn render(&self, url: &str, input: String) -> Option<String> {
        let renderer = self.renderer().await?;
        match renderer.render(input).await {
            Ok(markup) => (!markup.is_empty()).then_some(markup),
            // Load, or a pool whose engine could not be built again (logged once there).
            Err(e @ (RenderError::Busy | RenderError::Deadline | RenderError::Stopped)) => {
                tracing::debug!(url, error = %e, "first screen left to the app");
                None
            }
            Err(e) => {
                tracing::warn!(url, error = %e, "first screen: the render failed");
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
        runaway: RUNAWAY,
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
            json!({ "url": url, "now_ms": 1_795_000_000_000_i64, "cookie": "", "payload": payload }).to_string()
        })
        .collect()
}
