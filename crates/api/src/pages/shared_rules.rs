//! The rules the server and the app both implement, run against the fixtures the app's
//! tests run too (`web/src/shared/fixtures/*.json`, `web/src/shared/fixtures.test.ts`;
//! D235). A case failing here or there means the pages and the app disagree. (The first
//! screen's own rules, such as relative time and highlighting, are the app's alone since
//! the server renders it with the app's components, D424.)

use crate::pages::data::{main_image_of, thumbnail_of};
use crate::pages::locale::{PageRequest, Resolution, resolve};
use crate::same_origin::same_origin_path;
use domain::ids::CityId;
use domain::locale::Locale;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

#[derive(Deserialize)]
struct Fixture<C> {
    cases: Vec<C>,
}

fn cases<C: DeserializeOwned>(file: &str, json: &str) -> Vec<C> {
    match serde_json::from_str::<Fixture<C>>(json) {
        Ok(f) => f.cases,
        Err(e) => panic!("{file}: {e}"),
    }
}

/// Every failing case at once, so one run shows the whole disagreement.
fn check(file: &str, failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "{file}: {} case(s) disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[derive(Deserialize)]
struct ImageCase {
    name: String,
    item: Value,
    thumbnail: String,
    main_image: String,
    has_image: bool,
}

#[test]
fn d235_spec_3_derived_images_match_the_shared_fixture() {
    let file = "images.json";
    let all: Vec<ImageCase> = cases(file, include_str!("../../../../web/src/shared/fixtures/images.json"));
    let failures = all
        .iter()
        .filter_map(|c| {
            let got = (
                thumbnail_of(&c.item),
                main_image_of(&c.item),
                // A card shows an image when the item has a thumbnail (`news_card`).
                !thumbnail_of(&c.item).is_empty(),
            );
            let want = (c.thumbnail.as_str(), c.main_image.as_str(), c.has_image);
            (got != want).then(|| format!("{}: got {got:?}, want {want:?}", c.name))
        })
        .collect();
    check(file, failures);
}

#[derive(Deserialize)]
struct SameOriginCase {
    name: String,
    target: String,
    path: String,
}

#[test]
fn d360_redirect_targets_match_the_shared_fixture() {
    let file = "same-origin.json";
    let all: Vec<SameOriginCase> = cases(
        file,
        include_str!("../../../../web/src/shared/fixtures/same-origin.json"),
    );
    let failures = all
        .iter()
        .filter_map(|c| {
            let got = same_origin_path(&c.target);
            let again = same_origin_path(&got);
            (got != c.path || again != got)
                .then(|| format!("{}: got {got:?} (then {again:?}), want {:?}", c.name, c.path))
        })
        .collect();
    check(file, failures);
}

#[derive(Deserialize)]
struct Render {
    locale: String,
    c: Option<String>,
}

#[derive(Deserialize)]
struct GuardCase {
    name: String,
    path: String,
    query: String,
    stored: Option<String>,
    browser: Vec<String>,
    redirect: Option<String>,
    render: Option<Render>,
}

#[test]
fn d235_the_locale_guard_matches_the_shared_fixture() {
    let file = "locale-guard.json";
    let all: Vec<GuardCase> = cases(
        file,
        include_str!("../../../../web/src/shared/fixtures/locale-guard.json"),
    );
    let failures = all
        .iter()
        .filter_map(|c| {
            // The browser's languages in order, as its Accept-Language header lists them.
            let accept = c.browser.join(",");
            let got = resolve(&PageRequest {
                path: &c.path,
                query: (!c.query.is_empty()).then_some(c.query.as_str()),
                locale_cookie: c.stored.as_deref(),
                accept_language: (!accept.is_empty()).then_some(accept.as_str()),
            });
            let got = match got {
                Resolution::Redirect(to) => format!("redirect {to}"),
                Resolution::Render(r) => format!("render {} c={:?}", r.locale.code(), r.applied_c.map(|p| p.code())),
            };
            let want = match (&c.redirect, &c.render) {
                (Some(to), None) => format!("redirect {to}"),
                (None, Some(r)) => format!("render {} c={:?}", r.locale, r.c),
                _ => panic!("{}: a case is a redirect or a render", c.name),
            };
            (got != want).then(|| format!("{}: got {got}, want {want}", c.name))
        })
        .collect();
    check(file, failures);
}

#[derive(Deserialize)]
struct FeedPathCase {
    name: String,
    route: String,
    locale: String,
    path: String,
    query: String,
    #[serde(rename = "cityId")]
    city_id: CityId,
    feed: Option<String>,
}

#[test]
fn d376_feed_paths_match_the_shared_fixture() {
    let file = "feed-path.json";
    let all: Vec<FeedPathCase> = cases(file, include_str!("../../../../web/src/shared/fixtures/feed-path.json"));
    let failures = all
        .iter()
        .filter_map(|c| {
            let Some(route) = crate::pages::routes::ROUTES.iter().find(|r| r.name == c.route) else {
                return Some(format!("{}: no route {}", c.name, c.route));
            };
            let locale = Locale::from_code(&c.locale).expect("a product locale");
            let got = crate::pages::feed_links::feed_path(route, locale, &c.path, &c.query, c.city_id);
            (got != c.feed).then(|| format!("{}: got {got:?}, want {:?}", c.name, c.feed))
        })
        .collect();
    check(file, failures);
}
