//! What the browser sees at the end of a sign-in. A popup gets a small page whose script
//! (`/auth/complete.js`; the CSP allows no inline script) tells the app, by a
//! BroadcastChannel and by `postMessage` to its opener (either may be cut off by a
//! provider's opener policy), then closes; on failure it stays open with the reason. A
//! whole-window sign-in goes back to the page the reader was on.

use super::{Failure, display_name};
use crate::same_origin::same_origin_path;
use crate::shell::escape_html;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use domain::i18n::{t, t_with};
use domain::locale::Locale;

pub enum Outcome {
    SignedIn { token: String },
    Failed(Failure),
}

/// The script of the popup page: tells the app and closes the window.
pub const COMPLETE_JS: &str = r#"(function () {
  var main = document.getElementById('lw-sign-in');
  if (!main) return;
  var message = {
    type: 'localwire:sign-in',
    ok: main.getAttribute('data-ok') === '1',
    reason: main.getAttribute('data-reason') || '',
    provider: main.getAttribute('data-provider') || ''
  };
  try { new BroadcastChannel('localwire-sign-in').postMessage(message); } catch (e) {}
  try {
    if (window.opener && window.opener !== window) window.opener.postMessage(message, location.origin);
  } catch (e) {}
  var close = document.getElementById('lw-close');
  if (close) close.addEventListener('click', function () { window.close(); });
  if (message.ok) window.close();
})();
"#;

pub async fn complete_js() -> Response {
    let mut res = COMPLETE_JS.into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("public, max-age=3600"));
    res
}

/// The answer to a start or callback: a page for a popup (or a failure), else a redirect
/// back to `return_to` (a path on this site, checked when the flow began).
pub fn answer(locale: Locale, popup: bool, outcome: &Outcome, return_to: &str) -> Response {
    if !popup && matches!(outcome, Outcome::SignedIn { .. }) {
        let mut res = StatusCode::SEE_OTHER.into_response();
        // Checked when the flow began; checked again on the way out (D360).
        if let Ok(v) = HeaderValue::from_str(&same_origin_path(return_to)) {
            res.headers_mut().insert(header::LOCATION, v);
        }
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        return res;
    }
    let (ok, reason, provider, text) = match outcome {
        Outcome::SignedIn { .. } => (true, "", "", t(locale, "SignIn_Done").to_string()),
        Outcome::Failed(failure) => {
            if let Failure::Server(cause) = failure {
                tracing::error!(%cause, "sign-in failed on our side");
            }
            let provider = failure.provider().map_or("", display_name);
            if let Failure::ProviderDown(_, why) | Failure::Rejected(_, why) = failure {
                tracing::warn!(provider, reason = %why, "sign-in refused or provider unavailable");
            }
            let text = t_with(locale, failure.key(), &[("provider", provider)]);
            (false, failure.key(), provider, text)
        }
    };
    let status = match outcome {
        Outcome::Failed(Failure::TooMany(_)) => StatusCode::TOO_MANY_REQUESTS,
        Outcome::Failed(_) => StatusCode::BAD_REQUEST,
        Outcome::SignedIn { .. } => StatusCode::OK,
    };
    let html = format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head><body>\
         <main id=\"lw-sign-in\" data-ok=\"{ok}\" data-reason=\"{reason}\" data-provider=\"{provider}\">\
         <h1>{text}</h1><p><button type=\"button\" id=\"lw-close\">{close}</button> \
         <a href=\"{back}\">{back_text}</a></p></main>\
         <script src=\"/auth/complete.js\"></script></body></html>",
        lang = locale.code(),
        title = escape_html(t(locale, "Login_Title")),
        ok = u8::from(ok),
        reason = escape_html(reason),
        provider = escape_html(provider),
        text = escape_html(&text),
        close = escape_html(t(locale, "SignIn_Close")),
        back = escape_html(&if popup {
            "/".to_string()
        } else {
            same_origin_path(return_to)
        }),
        back_text = escape_html(t(locale, "Web_Back")),
    );
    let mut res = (status, html).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    crate::security::add_document_headers(h);
    res
}
