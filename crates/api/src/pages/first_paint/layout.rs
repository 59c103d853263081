//! `DefaultLayout` with its `SkipLink`, `Header` (`Logo`, city button, `LocaleSwitcher`),
//! main navigation and footer.

use super::Writer;
use crate::pages::shared::SCREENS;
use crate::shell::escape_html;
use domain::locale::CountryLanguage;

// Mirrors web/src/app/layout/Logo.tsx (Logo)
const LOGO: &str = concat!(
    r#"<svg class="logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">"#,
    r#"<rect class="logo__bg" width="32" height="32" rx="7"></rect>"#,
    r#"<path class="logo__fg" d="M16 5a7 7 0 0 0-7 7c0 5 7 12 7 12s7-7 7-12a7 7 0 0 0-7-7Zm0 4a3 3 0 1 1 0 6 3 3 0 0 1 0-6Z"></path>"#,
    r#"<rect class="logo__fg" x="7" y="25" width="18" height="2" rx="1"></rect></svg>"#
);

// Mirrors web/src/app/layout/Header.tsx (the city button's pin)
const PIN: &str = concat!(
    r#"<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" "#,
    r#"d="M12 2a7 7 0 0 0-7 7c0 5.3 7 13 7 13s7-7.7 7-13a7 7 0 0 0-7-7Zm0 9.5A2.5 2.5 0 1 1 12 6.5a2.5 2.5 0 0 1 0 5Z"></path></svg>"#
);

/// Is the nav link to `path` the current page (React Router's `NavLink`; `/` only as
/// an exact match)?
pub(super) fn is_active(path: &str, rest: &str) -> bool {
    let rest = if rest.len() > 1 {
        rest.trim_end_matches('/')
    } else {
        rest
    };
    if path == "/" {
        return rest == "/";
    }
    rest == path || rest.strip_prefix(path).is_some_and(|after| after.starts_with('/'))
}

// Mirrors web/src/app/layout/DefaultLayout.tsx (DefaultLayout) and SkipLink.tsx (SkipLink)
pub(super) fn default_layout(w: &mut Writer, screen: &str) {
    let skip = w.t("Web_SkipToContent");
    w.raw(r##"<div class="layout"><a class="skip-link" href="#main">"##)
        .text(skip)
        .raw("</a>");
    header(w);
    let label = w.t("Web_MainNav");
    w.raw(r#"<nav class="main-nav" aria-label=""#)
        .text(label)
        .raw(r#""><ul class="main-nav__list">"#);
    // The main navigation and the footer's links: the app's lists (D235).
    for link in &SCREENS.nav {
        let (path, key) = (link.path.as_str(), link.key.as_str());
        let href = w.href(path);
        let current = if is_active(path, w.cx.rest) {
            r#"aria-current="page" class="main-nav__link active""#
        } else {
            r#"class="main-nav__link""#
        };
        let name = w.t(key);
        w.raw(&format!(r#"<li><a {current} href="{href}">"#))
            .text(name)
            .raw("</a></li>");
    }
    w.raw(r#"</ul></nav><main id="main" class="layout-main" tabindex="-1" aria-busy="false">"#)
        .raw(screen)
        .raw("</main>");
    let (about, settings) = (w.t("Footer_About"), w.t("Footer_Settings"));
    w.raw(r#"<footer class="site-footer"><p>"#)
        .text(about)
        .raw(r#"</p><nav aria-label=""#)
        .text(settings)
        .raw(r#""><ul class="site-footer__links">"#);
    for link in &SCREENS.footer {
        let href = w.href(&link.path);
        let name = w.t(&link.key);
        w.raw(&format!(r#"<li><a href="{href}">"#)).text(name).raw("</a></li>");
    }
    w.raw("</ul></nav></footer></div>");
}

// Mirrors web/src/app/layout/Header.tsx (Header)
fn header(w: &mut Writer) {
    let home = w.href("/");
    let app = w.t("App_Name");
    w.raw(&format!(
        r#"<header class="site-header"><a class="brand" href="{home}">{LOGO}<span class="brand__name">"#
    ))
    .text(app)
    .raw("</span></a>");
    let city = (w.cx.city_label.clone().filter(|c| !c.is_empty())).unwrap_or_else(|| w.t("Web_CityUnknown"));
    let (yours, change) = (w.t("Web_YourCity"), w.t("City_Change"));
    w.raw(&format!(
        r#"<p class="site-header__city"><button type="button" class="site-header__city-button" aria-haspopup="dialog">{PIN}<span class="visually-hidden">"#
    ))
    .text(yours)
    .raw(": </span><span>")
    .text(city)
    .raw(r#"</span><span class="visually-hidden"> ("#)
    .text(change)
    .raw(")</span></button></p>");
    locale_switcher(w);
    // The reader's slot (sign in, or their photo): empty until the app knows who reads,
    // and always this size, so filling it moves nothing (D156, D252).
    w.raw(r#"<div class="site-header__account-slot"></div></header>"#);
}

// Mirrors web/src/app/layout/LocaleSwitcher.tsx (LocaleSwitcher)
fn locale_switcher(w: &mut Writer) {
    let code = w.cx.product_code;
    let country = code.rsplit('_').next().unwrap_or("US").to_ascii_lowercase();
    let label = w.t("Web_LanguageCountry");
    let id = w.id();
    w.raw(&format!(
        r#"<div class="locale-switcher"><img class="locale-switcher__flag" src="/static/country/{}.png" alt="" width="24" height="12"><label class="visually-hidden" for="{id}">"#,
        escape_html(&country)
    ))
    .text(label)
    .raw(&format!(r#"</label><select id="{id}" class="locale-switcher__select">"#));
    // The switcher's pairs (web `PRODUCT_CODES`), in the same order.
    for option in CountryLanguage::PRODUCT_PAIRS.map(CountryLanguage::code) {
        let name = w.t(&format!("Locale_{option}"));
        let selected = if option == code { " selected" } else { "" };
        w.raw(&format!(r#"<option value="{option}"{selected}>"#))
            .text(name)
            .raw("</option>");
    }
    w.raw("</select></div>");
}

#[cfg(test)]
mod tests {
    use super::is_active;

    #[test]
    fn nav_links_are_current_on_their_page_and_below_it_and_home_only_on_itself() {
        assert!(is_active("/", "/"));
        assert!(!is_active("/", "/latest"));
        assert!(is_active("/search", "/search/news"));
        assert!(is_active("/latest", "/latest/"));
        assert!(!is_active("/local", "/localx"));
    }
}
