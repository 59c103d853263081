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
use crate::state::AppState;
use axum::http::HeaderMap;
use percent_encoding::{NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use serde_json::{Value, json};

/// The cookies a first screen reads: those the page is kept under (`page_key`), so a
/// kept page is the one this request would have rendered.
const COOKIES: [&str; 5] = [
    super::LOCALE_COOKIE,
    super::ISO_COOKIE,
    super::CITY_COOKIE,
    "city",
    "adminCode",
];

/// The markup of `#root` for a page of `route`, or `None` (the app renders it).
pub async fn render(state: &AppState, route: &RouteDef, input: &Input<'_>) -> Option<String> {
    if !route.first_screen {
        return None;
    }
    state.renderer.render(input.url, input.to_json()).await
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
