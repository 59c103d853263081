//! Every route of SPEC §2 answers GET with the SPA shell: the right status, title,
//! description, canonical and hreflang links, Open Graph tags, `<html lang dir>`, and
//! the first data inlined as JSON (DESIGN "Pages").

pub mod data;
pub mod feed_links;
pub mod first_screen;
pub mod locale;
pub mod page_key;
pub mod routes;
pub mod shared;
#[cfg(test)]
mod shared_rules;

use crate::assets;
use crate::same_origin::same_origin_path;
use crate::session::parse_token;
use crate::shell::{escape_html, script_safe_json};
use crate::state::{AppState, now_ms};
use crate::viewer::view_for;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use data::{PageData, absolute_url, news_article_json_ld};
use domain::i18n::{t, t_with};
use domain::locale::{Locale, text_direction};
use domain::user::AccountType;
use locale::{PageRequest, Rendering, Resolution, localized_path, resolve};
use percent_encoding::{NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use routes::{RouteMatch, match_route};
use serde_json::json;
use std::sync::Arc;
use store::reader_view::ReaderView;

/// The locale cookie (D3): the stored locale code, 365 days, SameSite=Lax.
pub const LOCALE_COOKIE: &str = "lw_locale";
/// The app-settings cookie holding the session token (D4).
pub const TOKEN_COOKIE: &str = "token";
/// The app settings (cookies, §3) a page's data depends on; the page cache keys on
/// them ([`page_key::key`]).
pub const ISO_COOKIE: &str = "iso";
pub const CITY_COOKIE: &str = "cityId";
/// Longest path shown back in a page; longer ones are cut (a 10 000-character path
/// still gets a small, clear 404).
const MAX_SHOWN_PATH: usize = 300;

pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| {
            let (k, v) = pair.trim().split_once('=')?;
            (k == name).then_some(v.trim())
        })
}

/// A redirect to `to` as it is: only for the operator's route rules, which may point at
/// another site (SPEC §2.22). Everything built from the request uses [`redirect_on_site`].
fn redirect(to: &str, status: StatusCode) -> Response {
    let mut res = status.into_response();
    match HeaderValue::from_str(to) {
        Ok(v) => {
            res.headers_mut().insert(header::LOCATION, v);
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            res
        }
        Err(_) => (StatusCode::BAD_REQUEST, "Bad redirect target").into_response(),
    }
}

/// A 302 to a path on this site, whatever the request made of `to` (D360).
fn redirect_on_site(to: &str) -> Response {
    redirect(&same_origin_path(to), StatusCode::FOUND)
}

fn shown_path(decoded: &str) -> String {
    if decoded.chars().count() > MAX_SHOWN_PATH {
        let cut: String = decoded.chars().take(MAX_SHOWN_PATH).collect();
        format!("{cut}…")
    } else {
        decoded.to_string()
    }
}

pub(crate) fn base_url(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.config.public_url {
        return url.trim_end_matches('/').to_string();
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.len() <= 255 && h.bytes().all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b)))
        .unwrap_or("localhost");
    format!("http://{host}")
}

/// The session token of the `token` app-settings cookie, decoded.
fn token_cookie(headers: &HeaderMap) -> Option<String> {
    let token = cookie(headers, TOKEN_COOKIE).filter(|t| !t.is_empty() && t.len() <= 256)?;
    Some(percent_decode_str(token).decode_utf8_lossy().into_owned())
}

/// The view of the reader whose `token` cookie came with the page (D270).
async fn page_view(state: &AppState, headers: &HeaderMap, now: i64) -> Arc<ReaderView> {
    view_for(state, token_cookie(headers).as_deref(), now).await
}

/// Is the visitor behind this request signed in (not a guest)? For `/user/*`.
async fn signed_in(state: &AppState, headers: &HeaderMap) -> bool {
    let Some(token) = token_cookie(headers) else {
        return false;
    };
    let Some(key) = parse_token(&token) else {
        return false;
    };
    match state.store.session_user(&key).await {
        Ok(Some(s)) => {
            s.expires_at_ms > now_ms()
                && AccountType::from_code(s.user.account_type.unwrap_or(0)).is_some_and(AccountType::is_signed_in)
        }
        Ok(None) => false,
        Err(e) => {
            tracing::warn!(error = %e, "session lookup failed while guarding a /user page");
            false
        }
    }
}

/// The fallback for everything that is not the API: route rules, embedded files, pages.
pub async fn handle(State(state): State<AppState>, req: Request) -> Response {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut res = (StatusCode::METHOD_NOT_ALLOWED, "Pages answer GET and HEAD only.").into_response();
        res.headers_mut()
            .insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return res;
    }
    let raw_path = req.uri().path();
    let headers = req.headers();
    let decoded = percent_decode_str(raw_path).decode_utf8_lossy();

    if let Some(rule) = state.config.route_rules.iter().find(|r| r.from == decoded) {
        let status = StatusCode::from_u16(rule.status).unwrap_or(StatusCode::FOUND);
        return redirect(&rule.to, status);
    }
    if let Some(res) = assets::serve(raw_path, headers) {
        return res;
    }
    if raw_path.starts_with("/assets/") || raw_path.starts_with("/static/") {
        return (StatusCode::NOT_FOUND, "Not Found").into_response();
    }

    let page_req = PageRequest {
        path: raw_path,
        query: req.uri().query(),
        locale_cookie: cookie(headers, LOCALE_COOKIE),
        accept_language: headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()),
    };
    let rendering = match resolve(&page_req) {
        Resolution::Redirect(to) => return redirect_on_site(&to),
        Resolution::Render(r) => r,
    };
    let rest = percent_decode_str(&rendering.rest).decode_utf8_lossy().into_owned();
    let matched = match_route(&rest);
    if let Some(m) = &matched
        && m.route.auth
        && !signed_in(&state, headers).await
    {
        let back = localized_path(rendering.locale, &rendering.rest);
        let back = same_origin_path(&match req.uri().query() {
            Some(q) => format!("{back}?{q}"),
            None => back,
        });
        let home = localized_path(rendering.locale, "/");
        let to = format!(
            "{home}?login=1&redirect={}",
            utf8_percent_encode(&back, NON_ALPHANUMERIC)
        );
        return redirect_on_site(&to);
    }
    // A page that does not depend on who is signed in is kept briefly (D145), per reader
    // view: blocks and mutes change its lists, follows its marks (D270).
    let generation = state.store.content_generation();
    let now = now_ms();
    let view = page_view(&state, headers, now).await;
    let key = match &matched {
        Some(m) if !m.route.auth => page_key::key(
            req.uri().path_and_query().map_or(raw_path, |pq| pq.as_str()),
            headers,
            state.config.public_url.is_none(),
        )
        .map(|key| match view.fingerprint() {
            "" => key,
            fingerprint => format!("{key}\n{fingerprint}"),
        }),
        _ => None,
    };
    if let Some(key) = &key
        && let Some(page) = state.page_cache.get(key, generation, now)
    {
        return crate::page_cache::respond(&page, headers);
    }
    let data = match &matched {
        Some(m) => data::page_data(&state, headers, &rendering, m, req.uri().query(), now, &view).await,
        None => PageData::default(),
    };
    let (page, complete) = render_page(
        &state,
        headers,
        &rendering,
        matched.as_ref(),
        (&shown_path(&decoded), req.uri().query()),
        req.uri().path_and_query().map_or("/", |p| p.as_str()),
        &data,
    )
    .await;
    let page = Arc::new(page);
    // A page that went without the first screen it should have (the renderer busy or
    // late) is not kept: the next reader gets one rendered, not this one for 5 s (D424).
    if complete && let Some(key) = &key {
        state.page_cache.put(key, generation, now, page.clone());
    }
    crate::page_cache::respond(&page, headers)
}

async fn render_page(
    state: &AppState,
    headers: &HeaderMap,
    r: &Rendering,
    matched: Option<&RouteMatch>,
    (shown, query): (&str, Option<&str>),
    url: &str,
    page: &PageData,
) -> (crate::page_cache::Page, bool) {
    let locale = r.locale;
    let app = t(locale, "App_Name");
    let (status, title, description, error) = match matched {
        Some(_) if page.missing_article => {
            // A story that does not exist is a real 404 on its own route (issue 4).
            let message = t(locale, "Missing_Article").to_string();
            (
                StatusCode::NOT_FOUND,
                format!("{message} · {app}"),
                t(locale, "Missing_ArticleHint").to_string(),
                json!({ "status": 404, "message": message }),
            )
        }
        Some(m) => {
            let name = page
                .title
                .as_deref()
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| t(locale, &m.route.title));
            let title = format!("{name} · {app}");
            let description = page
                .description
                .as_deref()
                .filter(|d| !d.trim().is_empty())
                .unwrap_or_else(|| t(locale, &m.route.description));
            (StatusCode::OK, title, description.to_string(), serde_json::Value::Null)
        }
        None => {
            let message = t_with(locale, "Web_PageNotFound", &[("path", shown)]);
            let title = format!("{message} · {app}");
            (
                StatusCode::NOT_FOUND,
                title,
                message.clone(),
                json!({ "status": 404, "message": message }),
            )
        }
    };
    let base = base_url(state, headers);
    let rest_for_links = match &page.canonical_rest {
        Some(rest) => rest.as_str(),
        None if r.rest.len() > 2048 => "/",
        None => r.rest.as_str(),
    };
    let canonical = format!("{base}{}", localized_path(locale, rest_for_links));
    let mut head = String::with_capacity(2048);
    head.push_str(&format!("<title>{}</title>", escape_html(&title)));
    head.push_str(&format!(
        r#"<meta name="description" content="{}">"#,
        escape_html(&description)
    ));
    head.push_str(&format!(r#"<meta name="lw-build" content="{}">"#, state.shell.build_id));
    // Browsers offer our search from the address bar (D374; `discovery::opensearch`).
    head.push_str(&format!(
        r#"<link rel="search" type="application/opensearchdescription+xml" title="{}" href="/opensearch/{}.xml">"#,
        escape_html(app),
        locale.code()
    ));
    // The app's chunks for this screen and locale, and the screen's largest image,
    // fetched while the entry script loads (D147).
    head.push_str(
        &state
            .shell
            .preloads
            .head(matched.map(|m| m.route.name.as_str()), locale),
    );
    if status == StatusCode::OK
        && let Some(image) = matched.and_then(|m| data::lead_image(&m.route.name, page))
    {
        head.push_str(&format!(
            r#"<link rel="preload" as="image" fetchpriority="high" href="{}">"#,
            escape_html(image)
        ));
    }
    if status == StatusCode::OK {
        head.push_str(&format!(r#"<link rel="canonical" href="{}">"#, escape_html(&canonical)));
        for alt in Locale::ALL {
            let href = format!("{base}{}", localized_path(alt, rest_for_links));
            head.push_str(&format!(
                r#"<link rel="alternate" hreflang="{}" href="{}">"#,
                alt.code(),
                escape_html(&href)
            ));
        }
        let x_default = format!("{base}{}", localized_path(Locale::DEFAULT, rest_for_links));
        head.push_str(&format!(
            r#"<link rel="alternate" hreflang="x-default" href="{}">"#,
            escape_html(&x_default)
        ));
    }
    // Feed readers find the page's list here (D376).
    if status == StatusCode::OK
        && let Some(m) = matched
        && let Some(path) = feed_links::feed_path(
            m.route,
            locale,
            &r.rest,
            query.unwrap_or_default(),
            data::reader_city_id(r, headers),
        )
    {
        for f in feed_links::FORMATS.iter() {
            head.push_str(&format!(
                r#"<link rel="alternate" type="{}" title="{}" href="/feeds/{}{}">"#,
                escape_html(&f.media_type),
                escape_html(&format!("{title} ({})", f.label)),
                escape_html(&f.format),
                escape_html(&path)
            ));
        }
    }
    if status != StatusCode::OK || matched.is_some_and(|m| m.route.auth) {
        head.push_str(r#"<meta name="robots" content="noindex">"#);
    }
    let article = page.article.as_ref().filter(|_| status == StatusCode::OK);
    let image = article.and_then(|a| absolute_url(&a.image, &base));
    head.push_str(if article.is_some() {
        r#"<meta property="og:type" content="article">"#
    } else {
        r#"<meta property="og:type" content="website">"#
    });
    head.push_str(&format!(
        r#"<meta property="og:site_name" content="{}">"#,
        escape_html(app)
    ));
    head.push_str(&format!(
        r#"<meta property="og:title" content="{}">"#,
        escape_html(article.map_or(title.as_str(), |a| a.title.as_str()))
    ));
    head.push_str(&format!(
        r#"<meta property="og:description" content="{}">"#,
        escape_html(&description)
    ));
    head.push_str(&format!(
        r#"<meta property="og:url" content="{}">"#,
        escape_html(&canonical)
    ));
    head.push_str(&format!(
        r#"<meta property="og:locale" content="{}">"#,
        locale.og_locale()
    ));
    if let Some(image) = &image {
        head.push_str(&format!(
            r#"<meta property="og:image" content="{}">"#,
            escape_html(image)
        ));
        head.push_str(r#"<meta name="twitter:card" content="summary_large_image">"#);
        head.push_str(&format!(
            r#"<meta name="twitter:image" content="{}">"#,
            escape_html(image)
        ));
    } else {
        head.push_str(r#"<meta name="twitter:card" content="summary">"#);
    }
    if let Some(a) = article {
        head.push_str(&format!(
            r#"<meta name="twitter:title" content="{}"><meta name="twitter:description" content="{}">"#,
            escape_html(&a.title),
            escape_html(&a.summary)
        ));
        head.push_str(&format!(
            r#"<meta property="article:published_time" content="{}">"#,
            data::iso8601(a.publish_time_ms)
        ));
        // A data block, not a script: the CSP's script-src does not apply to it (D113).
        head.push_str(r#"<script type="application/ld+json">"#);
        head.push_str(&script_safe_json(&news_article_json_ld(a, &base, &canonical)));
        head.push_str("</script>");
    }

    let params: serde_json::Map<String, serde_json::Value> = matched
        .map(|m| m.params.iter().map(|(k, v)| (k.clone(), json!(v))).collect())
        .unwrap_or_default();
    let mut payload = json!({
        "route": matched.map(|m| m.route.name.as_str()),
        "status": status.as_u16(),
        "locale": locale.code(),
        "country": r.country.iso(),
        "c": r.applied_c.map(|c| c.code()),
        "build": state.shell.build_id,
        // The word the app signs its calls with (§7): the one this server runs with, not
        // the app's build-time default (D200; not a secret, README "The sign word").
        "signWord": state.config.sign_word,
        // The app config's `ads` (D345): the ad slots know at their first render whether
        // they show, so an ad never moves the page and no call is made to find out.
        "ads": state.config.ads,
        "params": params,
        "error": error,
        "data": null,
    });
    if status == StatusCode::OK
        && let Some(fields) = payload.as_object_mut()
    {
        data::payload_fields(page, fields);
    }
    let root = match matched {
        Some(m) if status == StatusCode::OK => {
            // The address the app will run at: the same screen, the same links.
            let input = first_screen::Input {
                url,
                now_ms: now_ms(),
                cookie: first_screen::cookies(r, headers),
                payload: &payload,
            };
            first_screen::render(state, m.route, &input).await
        }
        _ => None,
    };
    // Complete: it has its first screen, or its route has none to give.
    let complete = root.is_some() || !matched.is_some_and(|m| m.route.first_screen && status == StatusCode::OK);
    let html = state.shell.render(
        locale.code(),
        text_direction(locale.code()),
        &head,
        root.as_deref().unwrap_or_default(),
        &script_safe_json(&payload),
    );
    let set_cookie = r.applied_c.and_then(|c| {
        let secure = if state
            .config
            .public_url
            .as_deref()
            .is_some_and(|u| u.starts_with("https://"))
        {
            "; Secure"
        } else {
            ""
        };
        let value = format!(
            "{LOCALE_COOKIE}={}; Max-Age={}; Path=/; SameSite=Lax{secure}",
            c.code(),
            domain::constants::locale_cookie_max_age_secs()
        );
        HeaderValue::from_str(&value).ok()
    });
    (crate::page_cache::Page::new(status, html, set_cookie), complete)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_by_exact_name() {
        let mut h = HeaderMap::new();
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("xtoken=1; token=abc; lw_locale=fr_CA"),
        );
        assert_eq!(cookie(&h, "token"), Some("abc"));
        assert_eq!(cookie(&h, "lw_locale"), Some("fr_CA"));
        assert_eq!(cookie(&h, "oken"), None);
    }

    #[test]
    fn long_paths_are_cut_for_display() {
        let long = "/".to_string() + &"a".repeat(10_000);
        let shown = shown_path(&long);
        assert_eq!(shown.chars().count(), MAX_SHOWN_PATH + 1);
        assert!(shown.ends_with('…'));
    }
}
