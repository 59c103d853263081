//! Which locale a page renders in, or where it redirects (SPEC §2.20, §2.21, §4.10;
//! decision D3). A pure function of the request, so every branch is unit-tested.

use crate::same_origin::same_origin_path;
use domain::geo::Country;
use domain::locale::{CountryLanguage, Locale, locale_from_accept_language};
use percent_encoding::percent_decode_str;

/// What the server knows about a page request.
#[derive(Debug, Clone, Default)]
pub struct PageRequest<'a> {
    /// The decoded path, e.g. `/fr/latest`.
    pub path: &'a str,
    /// The raw query string, without `?`.
    pub query: Option<&'a str>,
    /// The stored locale code cookie (`lw_locale`).
    pub locale_cookie: Option<&'a str>,
    pub accept_language: Option<&'a str>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Resolution {
    /// 302 to this path and query.
    Redirect(String),
    Render(Rendering),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Rendering {
    pub locale: Locale,
    pub country: Country,
    /// The path without the locale prefix (`/latest`).
    pub rest: String,
    /// The `c` that was applied, to store in the locale cookie.
    pub applied_c: Option<CountryLanguage>,
}

/// Split `/es/x` into (Some("es"), "/x"); `/es` → (Some("es"), "/"); `/x` → (None, "/x").
pub fn split_locale_prefix(path: &str) -> (Option<&str>, &str) {
    for code in ["en", "es", "fr"] {
        if let Some(after) = path.strip_prefix('/').and_then(|p| p.strip_prefix(code)) {
            if after.is_empty() {
                return (Some(code), "/");
            }
            if after.starts_with('/') {
                return (Some(code), after);
            }
        }
    }
    (None, path)
}

/// The path of `rest` in `locale` (the default locale has no prefix).
pub fn localized_path(locale: Locale, rest: &str) -> String {
    let prefix = locale.path_prefix();
    if prefix.is_empty() {
        rest.to_string()
    } else if rest == "/" {
        format!("{prefix}/")
    } else {
        format!("{prefix}{rest}")
    }
}

fn with_query(path: String, query: &str) -> String {
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

/// A redirect to `path` with `query`, always to a path on this site (D360): `/en//x`,
/// or `//x` with a locale cookie or `c`, must not become `Location: //x`.
fn redirect_to(path: String, query: &str) -> Resolution {
    Resolution::Redirect(same_origin_path(&with_query(path, query)))
}

/// The decoded value of `name` in a raw query string.
pub fn query_value(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (k == name).then(|| {
            percent_decode_str(&v.replace('+', " "))
                .decode_utf8_lossy()
                .into_owned()
        })
    })
}

/// The query with `c` set to `code` as the app's `URLSearchParams.set` writes it: the
/// first `c` takes the value in its place (later ones go), else `c` comes last; the
/// pairs are written as a form writes them (D235, shared fixture `locale-guard.json`).
fn query_with_c(query: &str, code: &str) -> String {
    let mut pairs: Vec<(String, String)> = url::form_urlencoded::parse(query.as_bytes()).into_owned().collect();
    match pairs.iter().position(|(k, _)| k == "c") {
        Some(first) => {
            pairs[first].1 = code.to_string();
            let mut index = 0;
            pairs.retain(|(k, _)| {
                let keep = k != "c" || index == first;
                index += 1;
                keep
            });
        }
        None => pairs.push(("c".to_string(), code.to_string())),
    }
    url::form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// The page's locale, or where it redirects: SPEC §2.21's global guard, §5.5's `c` and
/// §4.10's first access, as the app's `globalGuard` decides them (D3; shared fixture
/// `web/src/shared/fixtures/locale-guard.json`, D235).
pub fn resolve(req: &PageRequest<'_>) -> Resolution {
    let query = req.query.unwrap_or("");
    let (prefix, rest) = split_locale_prefix(req.path);
    // The default locale has no prefix: `/en/x` is `/x`.
    if prefix == Some("en") {
        return redirect_to(rest.to_string(), query);
    }
    let route_locale = prefix.and_then(Locale::from_code);
    // An empty or blank c counts as missing.
    let c = query_value(query, "c").filter(|c| !c.trim().is_empty());

    // §2.21 global guard: no c and a stored locale code → same route with it in c.
    if c.is_none()
        && let Some(stored) = req.locale_cookie.and_then(CountryLanguage::parse)
    {
        let path = localized_path(stored.locale, rest);
        return redirect_to(path, &query_with_c(query, &stored.code()));
    }
    // §2.21: the language from c is applied when it is a configured locale; an unusable
    // c is ignored.
    let applied = c.as_deref().and_then(CountryLanguage::parse);
    if let Some(pair) = applied {
        let target_locale = pair.locale;
        if route_locale.unwrap_or(Locale::DEFAULT) != target_locale {
            let path = localized_path(target_locale, rest);
            return redirect_to(path, &query_with_c(query, &pair.code()));
        }
        return Resolution::Render(Rendering {
            locale: target_locale,
            country: pair.country,
            rest: rest.to_string(),
            applied_c: Some(pair),
        });
    }
    // §4.10: first access with no locale in route, cookie or c → the browser's.
    if route_locale.is_none()
        && let Some(browser) = req.accept_language.and_then(locale_from_accept_language)
        && browser != Locale::DEFAULT
    {
        return redirect_to(localized_path(browser, rest), query);
    }

    let locale = route_locale.unwrap_or(Locale::DEFAULT);
    Resolution::Render(Rendering {
        locale,
        country: locale.home_country(),
        rest: rest.to_string(),
        applied_c: None,
    })
}

/// What `encodeURIComponent` leaves as it is: letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// JavaScript's `encodeURIComponent`.
pub fn encode_uri_component(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, URI_COMPONENT).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(path: &str, query: Option<&str>, cookie: Option<&str>, accept: Option<&str>) -> Resolution {
        resolve(&PageRequest {
            path,
            query,
            locale_cookie: cookie,
            accept_language: accept,
        })
    }

    fn redirect(r: Resolution) -> String {
        match r {
            Resolution::Redirect(to) => to,
            other => panic!("expected a redirect, got {other:?}"),
        }
    }

    fn render(r: Resolution) -> Rendering {
        match r {
            Resolution::Render(x) => x,
            other => panic!("expected a render, got {other:?}"),
        }
    }

    #[test]
    fn spec_2_20_locale_prefix_selects_the_locale() {
        let r = render(run("/fr/latest", None, None, None));
        assert_eq!(
            (r.locale, r.country, r.rest.as_str()),
            (Locale::Fr, Country::Ca, "/latest")
        );
        let r = render(run("/es", None, None, None));
        assert_eq!((r.locale, r.rest.as_str()), (Locale::Es, "/"));
        let r = render(run("/latest", None, None, None));
        assert_eq!((r.locale, r.country), (Locale::En, Country::Us));
        // A path that merely starts with the letters is not a prefix.
        assert_eq!(render(run("/esports", None, None, None)).rest, "/esports");
    }

    #[test]
    fn default_locale_prefix_redirects_to_unprefixed() {
        assert_eq!(redirect(run("/en/latest", Some("x=1"), None, None)), "/latest?x=1");
    }

    #[test]
    fn spec_2_21_c_switches_to_its_language_path() {
        assert_eq!(redirect(run("/", Some("c=es_US"), None, None)), "/es/?c=es_US");
        assert_eq!(
            redirect(run("/es/latest", Some("c=fr_CA&x=1"), None, None)),
            "/fr/latest?c=fr_CA&x=1"
        );
        assert_eq!(redirect(run("/fr/", Some("c=en_CA"), None, None)), "/?c=en_CA");
        let r = render(run("/es/", Some("c=es_US"), None, None));
        assert_eq!((r.locale, r.country), (Locale::Es, Country::Us));
        assert_eq!(r.applied_c.map(|c| c.code()), Some("es_US".into()));
        let r = render(run("/", Some("c=en_CA"), None, None));
        assert_eq!((r.locale, r.country), (Locale::En, Country::Ca));
    }

    #[test]
    fn spec_2_21_guard_redirects_with_the_stored_code_when_c_is_missing() {
        assert_eq!(
            redirect(run("/latest", None, Some("fr_CA"), None)),
            "/fr/latest?c=fr_CA"
        );
        assert_eq!(
            redirect(run("/latest", Some("q=a"), Some("es_US"), None)),
            "/es/latest?q=a&c=es_US"
        );
        assert_eq!(redirect(run("/fr/x", None, Some("en_US"), None)), "/x?c=en_US");
        // A broken stored code is ignored.
        assert_eq!(render(run("/latest", None, Some("xx_YY"), None)).locale, Locale::En);
    }

    #[test]
    fn spec_5_5_unusable_c_values_are_ignored() {
        for c in ["xx_YY", "de", "%00"] {
            let r = render(run("/latest", Some(&format!("c={c}")), Some("fr_CA"), None));
            assert_eq!((r.locale, r.applied_c), (Locale::En, None), "c={c}");
        }
        // `en` and `_US` are usable: language en (default when missing), country US.
        assert_eq!(
            render(run("/", Some("c=en"), None, None)).applied_c.map(|c| c.code()),
            Some("en_US".into())
        );
        assert_eq!(
            render(run("/", Some("c=_US"), None, None)).applied_c.map(|c| c.code()),
            Some("en_US".into())
        );
    }

    #[test]
    fn spec_4_10_browser_language_applies_on_unprefixed_first_access() {
        assert_eq!(
            redirect(run("/latest", None, None, Some("fr-CA,fr;q=0.9"))),
            "/fr/latest"
        );
        assert_eq!(redirect(run("/", None, None, Some("es-MX"))), "/es/");
        assert_eq!(
            render(run("/latest", None, None, Some("en-US,en;q=0.9"))).locale,
            Locale::En
        );
        assert_eq!(render(run("/latest", None, None, Some("de-DE"))).locale, Locale::En);
        // The route's prefix wins over the browser.
        assert_eq!(render(run("/es/latest", None, None, Some("fr"))).locale, Locale::Es);
    }
}
