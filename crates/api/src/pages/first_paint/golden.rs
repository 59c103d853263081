//! The golden test's server half (D230). Each `web/src/test/golden/<case>.json` is a page
//! (path, locale, country, clock, the reader's city) and its inlined data exactly as the
//! server inlines it; `<case>.html` beside it is what [`render`] writes for it. This test
//! fails when the output differs from the committed file; the web half
//! (`web/src/test/golden/golden.test.tsx`) fails when React's screen, normalised, differs
//! from it. After a deliberate change: `UPDATE_GOLDEN=1 cargo nextest run --release -p
//! api golden` rewrites the files, then the Vitest half says whether the app agrees.

use super::{Context, render};
use crate::pages::data::{Call, PageData};
use crate::pages::locale::split_locale_prefix;
use crate::pages::routes::match_route;
use domain::locale::{CountryLanguage, Locale};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Case {
    path: String,
    locale: String,
    country: String,
    now_ms: i64,
    city_label: Option<String>,
    query: Query,
    data: Value,
    #[serde(default)]
    extra: Vec<Extra>,
}

#[derive(Deserialize)]
struct Query {
    path: String,
    params: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct Extra {
    query: Query,
    data: Value,
}

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/test/golden")
}

fn call(q: Query) -> Call {
    Call {
        // Calls name their path with the constants of `pages::data`; a test may leak.
        path: Box::leak(q.path.into_boxed_str()),
        params: q.params.into_iter().collect(),
    }
}

/// What the page handler would write into `#root` for this case.
fn render_case(case: Case) -> Option<String> {
    let locale = Locale::from_code(&case.locale).expect("a known locale");
    let (path, query) = case.path.split_once('?').unwrap_or((&case.path, ""));
    let (_, rest) = split_locale_prefix(path);
    let matched = match_route(rest).expect("a route of the table");
    let page = PageData {
        main: Some((call(case.query), case.data)),
        extra: case.extra.into_iter().map(|e| (call(e.query), e.data)).collect(),
        ..PageData::default()
    };
    // The switcher's pair as `pages::product_code` makes it with no `c` and no stored
    // locale: the page's locale with the reader's country.
    let product_code = CountryLanguage::parse(&format!("{}_{}", locale.code(), case.country))
        .map_or_else(|| "en_US".to_string(), CountryLanguage::code);
    render(&Context {
        locale,
        route: &matched.route.name,
        title_key: &matched.route.title,
        description_key: &matched.route.description,
        page: &page,
        rest,
        query: (!query.is_empty()).then_some(query),
        city_label: case.city_label,
        product_code: &product_code,
        now_ms: case.now_ms,
    })
}

#[test]
fn the_server_writes_the_golden_first_screens() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut names: Vec<String> = std::fs::read_dir(golden_dir())
        .expect("web/src/test/golden")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
        .collect();
    names.sort();
    assert!(names.len() >= 10, "the golden cases: {names:?}");
    let mut differ = Vec::new();
    for name in &names {
        let text = std::fs::read_to_string(golden_dir().join(format!("{name}.json"))).unwrap();
        let case: Case = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}.json: {e}"));
        let html = render_case(case).unwrap_or_else(|| panic!("{name}: the server writes no first screen"));
        let file = golden_dir().join(format!("{name}.html"));
        if update {
            std::fs::write(&file, &html).unwrap();
        } else if std::fs::read_to_string(&file).ok().as_deref() != Some(html.as_str()) {
            differ.push(name.clone());
        }
    }
    assert!(
        differ.is_empty(),
        "the server's first screen differs from web/src/test/golden/<case>.html for {differ:?}. \
         If the change is meant, run `UPDATE_GOLDEN=1 cargo nextest run --release -p api golden`, \
         then `npx vitest run src/test/golden` in web/ to check the app renders the same (D230)."
    );
}
