//! The first screen as HTML (D156): the page's `#root` holds the layout and the
//! screen the app would render from the page's inlined data, with the same elements,
//! classes and nesting as the React components (`DefaultLayout`, `Screen`,
//! `FeedSection`, `NewsCard`, `NewsImage`, `ArticleView`, `SearchScreen`). It paints
//! as soon as the HTML and styles arrive; the app's scripts load after it and React
//! replaces it with the same screen (no hydration: the markup carries no state).
//!
//! Each function that mirrors a React component names it in a `// Mirrors …` line. The
//! golden test (D230, `golden.rs` and `web/src/test/golden/`) renders the same fixtures
//! with both and fails on any difference: change a component, change its mirror.
//!
//! Written: home, local, latest, top news, category, article and news search.
//!
//! Only what React shows on its first render is written: below-the-fold sections the
//! app adds after its first paint stay out, and non-lead images are placeholders, so
//! the swap moves nothing. Links are real links; buttons do nothing until the app runs.
//! Routes without a server-written screen return `None` and the app starts at once.

#[cfg(test)]
mod golden;
mod layout;
mod news;
mod payload;
#[cfg(test)]
mod shared_rules;
mod time;

use super::data::{CATEGORIES, DETAIL, FEED, PageData, SEARCH_NEWS};
use super::locale::query_value;
use crate::shell::escape_html;
use domain::i18n::{t, t_with};
use domain::locale::Locale;
use serde::de::DeserializeOwned;

/// What a page's first screen is written from.
pub struct Context<'a> {
    pub locale: Locale,
    /// The matched route's name and its title and description message keys.
    pub route: &'a str,
    pub title_key: &'a str,
    pub description_key: &'a str,
    pub page: &'a PageData,
    /// The path without the locale prefix, and the query, as requested.
    pub rest: &'a str,
    pub query: Option<&'a str>,
    /// The reader's city as the header shows it before the app knows the user
    /// (the `city` and `adminCode` app settings, §3.3 cityShow).
    pub city_label: Option<String>,
    /// The language/country pair the switcher shows (e.g. `fr_CA`).
    pub product_code: &'a str,
    pub now_ms: i64,
}

/// The markup for `#root`, or `None` when the server does not write this screen.
pub fn render(cx: &Context) -> Option<String> {
    let mut w = Writer::new(cx);
    match cx.route {
        "home" => news::home(&mut w)?,
        "latest" | "top-news" => news::feed_screen(&mut w)?,
        "local" => news::local(&mut w)?,
        "category" => news::category(&mut w)?,
        "article" => news::article(&mut w)?,
        "search-news" => news::search_news(&mut w)?,
        _ => return None,
    }
    let screen = std::mem::take(&mut w.out);
    layout::default_layout(&mut w, &screen);
    Some(w.out)
}

/// The output, and what every part needs: the context, messages and unique ids.
struct Writer<'a> {
    cx: &'a Context<'a>,
    out: String,
    next_id: u32,
}

impl<'a> Writer<'a> {
    fn new(cx: &'a Context<'a>) -> Writer<'a> {
        Writer {
            cx,
            out: String::with_capacity(16 * 1024),
            next_id: 0,
        }
    }

    /// Markup as is.
    fn raw(&mut self, html: &str) -> &mut Self {
        self.out.push_str(html);
        self
    }

    /// Text, escaped.
    fn text(&mut self, text: impl AsRef<str>) -> &mut Self {
        self.out.push_str(&escape_html(text.as_ref()));
        self
    }

    fn t(&self, key: &str) -> String {
        t(self.cx.locale, key).to_string()
    }

    fn t_with(&self, key: &str, vars: &[(&str, &str)]) -> String {
        t_with(self.cx.locale, key, vars)
    }

    /// A path in the page's locale (the app's `localizePath`), escaped for an attribute.
    fn href(&self, path: &str) -> String {
        escape_html(&super::locale::localized_path(self.cx.locale, path))
    }

    /// An id for `aria-labelledby`, unique in the page.
    fn id(&mut self) -> String {
        self.next_id += 1;
        format!("fp{}", self.next_id)
    }

    /// The data of the page's call to `path` (the main call or one of the others) whose
    /// parameters include `param`, e.g. `("channel", "top")`, read as the API's shape `T`.
    /// Data that does not read as `T` is no data: the app renders that screen itself.
    fn call<T: DeserializeOwned>(&self, path: &str, param: Option<(&str, &str)>) -> Option<T> {
        let page = self.cx.page;
        let (_, data) = page.main.iter().chain(page.extra.iter()).find(|(call, _)| {
            call.path == path && param.is_none_or(|(k, v)| call.params.iter().any(|(pk, pv)| pk == k && pv == v))
        })?;
        T::deserialize(data)
            .inspect_err(|e| tracing::warn!(path, error = %e, "first screen: the inlined data does not read"))
            .ok()
    }

    fn query(&self, name: &str) -> String {
        self.cx.query.and_then(|q| query_value(q, name)).unwrap_or_default()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::pages::data::Call;
    use serde_json::{Value, json};

    pub(crate) fn context(route: &'static str) -> Context<'static> {
        let page: &'static PageData = Box::leak(Box::default());
        context_with(route, page)
    }

    fn context_with(route: &'static str, page: &'static PageData) -> Context<'static> {
        Context {
            locale: Locale::En,
            route,
            title_key: "Title_home",
            description_key: "Desc_home",
            page,
            rest: "/",
            query: None,
            city_label: None,
            product_code: "en_US",
            now_ms: 1_795_000_000_000,
        }
    }

    fn call(path: &'static str, params: &[(&str, &str)]) -> Call {
        Call {
            path,
            params: params.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        }
    }

    fn item(id: i64, title: &str, image: &str) -> Value {
        json!({
            "news_id": id, "title": title, "summary": "What happened <there>.", "img_url": image,
            "category_id": "politics", "media_id": 7, "media_name": "The Ledger", "media_icon": "",
            "publish_time": 1_795_000_000_000_i64 - 5 * 60_000, "type": 1, "cluster_size": 3,
        })
    }

    fn home_page() -> &'static PageData {
        let local = json!({
            "list": [item(1, "Council votes", "https://img.example/1.jpg"), item(2, "Bridge opens", "https://img.example/2.jpg")],
            "next_page_token": "x",
            "context": { "scope": "city", "city": { "city_show": "Washington, DC" } },
        });
        let top = json!({ "list": [item(3, "Top story", "")], "next_page_token": "" });
        Box::leak(Box::new(PageData {
            main: Some((call(FEED, &[("channel", "local"), ("city_id", "4140963")]), local)),
            extra: vec![(call(FEED, &[("channel", "top")]), top)],
            ..PageData::default()
        }))
    }

    #[test]
    fn routes_without_a_server_screen_get_none() {
        assert!(render(&context("user")).is_none());
        assert!(
            render(&context("home")).is_none(),
            "a home without its data is left to the app"
        );
    }

    #[test]
    fn the_home_is_written_in_the_layout_with_its_lead_image_eager_and_the_rest_placeholders() {
        let cx = context_with("home", home_page());
        let html = render(&cx).unwrap();
        assert!(html.starts_with(r##"<div class="layout"><a class="skip-link" href="#main">Skip to content</a>"##));
        assert!(html.contains(
            r#"<main id="main" class="layout-main" tabindex="-1" aria-busy="false"><article class="screen">"#
        ));
        assert!(
            html.contains("Your news for Washington, DC"),
            "the city from the feed's context"
        );
        assert!(html.contains(r#"<span class="visually-hidden">Your city: </span><span>City not set</span>"#));
        assert!(html.contains(r#"<a aria-current="page" class="main-nav__link active" href="/">Home</a>"#));
        assert!(html.contains(r#"<option value="en_US" selected>"#));
        // The lead card's image at once; the second card's a placeholder; the third has none.
        assert!(html.contains(r#"<article class="news-card news-card--lead""#));
        assert!(html.contains(r#"data-eager="true"><img class="news-image__img" src="https://img.example/1.jpg""#));
        assert!(
            !html.contains("https://img.example/2.jpg"),
            "not near yet: the app loads it"
        );
        assert!(
            html.contains(r#"<div class="news-image news-card__image" data-state="loading" data-attempt="1"></div>"#)
        );
        assert!(!html.contains("news-image__marker"), "no sweep until the app runs");
        assert!(html.contains(r#"<article class="news-card news-card--row news-card--no-image""#));
        assert!(html.contains("What happened &lt;there&gt;."), "feed text is escaped");
        assert!(html.contains(r#"<time datetime="2026-11-18T11:01:40.000Z"#) && html.contains(">5 minutes ago</time>"));
        assert!(html.contains(r#"<span class="badge">3 sources</span>"#));
        assert!(html.contains(r#"<span class="publisher-icon publisher-icon--initial" aria-hidden="true">T</span>"#));
        // Home sections never page; the latest list comes after the app's first paint.
        assert!(!html.contains("load-more"));
        assert!(html.contains(">Latest news</h2></div></section>"), "no latest list yet");
    }

    #[test]
    fn a_paging_list_writes_its_first_screen_and_leaves_the_rest_to_the_app() {
        let items: Vec<Value> = (1..=20).map(|i| item(i, &format!("Story {i}"), "")).collect();
        let page: &'static PageData = Box::leak(Box::new(PageData {
            main: Some((
                call(FEED, &[("channel", "latest")]),
                json!({ "list": items, "next_page_token": "t" }),
            )),
            ..PageData::default()
        }));
        let html = render(&context_with("latest", page)).unwrap();
        assert_eq!(html.matches("<article class=\"news-card ").count(), 6);
        assert!(html.contains("Story 6") && !html.contains("Story 7"));
        assert!(!html.contains("load-more"), "paging comes with the app");
    }

    fn article_page(news: Value) -> &'static PageData {
        let detail = json!({ "news": news, "media": {}, "cluster": [], "related": [] });
        Box::leak(Box::new(PageData {
            main: Some((call(DETAIL, &[("news_id", "1")]), detail)),
            ..PageData::default()
        }))
    }

    /// §3/§9.5: a video story (type 3) plays in a video player with its image as the
    /// poster; an audio story (type 4) in an audio player; each links to its file.
    #[test]
    fn video_and_audio_stories_get_their_players() {
        let mut video = item(1, "Flood footage", "https://img.example/v.jpg");
        video["type"] = json!(3);
        video["video_url"] = json!("https://cdn.example/v.mp4");
        let html = render(&context_with("article", article_page(video))).unwrap();
        assert!(html.contains(concat!(
            r#"<div class="article__media"><video controls="" preload="metadata" poster="https://img.example/v.jpg" "#,
            r#"src="https://cdn.example/v.mp4"><a href="https://cdn.example/v.mp4">"#
        )));
        assert!(!html.contains("news-image__img"), "the poster, not a second image");

        let mut audio = item(2, "Council podcast", "");
        audio["type"] = json!(4);
        audio["voice_url"] = json!("https://cdn.example/a.mp3");
        let html = render(&context_with("article", article_page(audio))).unwrap();
        assert!(html.contains(
            r#"<audio controls="" preload="none" src="https://cdn.example/a.mp3"><a href="https://cdn.example/a.mp3">"#
        ));
        assert!(html.contains(r#"<span class="badge badge--media">"#));
    }

    #[test]
    fn ids_are_unique_in_a_page() {
        let cx = context_with("home", home_page());
        let html = render(&cx).unwrap();
        let mut ids: Vec<&str> = html
            .split(" id=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect();
        let n = ids.len();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), n, "{ids:?}");
    }

    #[test]
    fn a_french_page_links_in_french() {
        let mut cx = context_with("home", home_page());
        cx.locale = Locale::Fr;
        let html = render(&cx).unwrap();
        assert!(html.contains(r#"href="/fr/latest""#) && html.contains(r#"href="/fr/article/1""#));
        assert!(html.contains("il y a 5 minutes"));
    }
}
