//! `/api/geo/cities/*` through the real router (SPEC §3.11, §3.13, §9.1, §9.5; D30–D32).
//! The gazetteer needs no database, so these run on SQLite only.

mod support;

use serde_json::Value;
use support::TestApp;

async fn app() -> TestApp {
    support::start(support::sqlite_store().await.unwrap(), support::config()).await
}

/// (HTTP status, Cache-Control, body).
async fn get(app: &TestApp, path: &str) -> (u16, String, Value) {
    let res = app.get(path).await;
    let status = res.status().as_u16();
    let cache = res
        .headers()
        .get("cache-control")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    let body: Value = res.json().await.unwrap_or(Value::Null);
    (status, cache, body)
}

fn assert_bad(body: &Value, parameter: &str) {
    assert_eq!(body["code"], 400, "{body}");
    let message = body["message"].as_str().unwrap();
    assert!(message.starts_with(&format!("Parameter `{parameter}`: ")), "{message}");
}

#[tokio::test]
async fn spec_3_11_detail_has_every_catalogue_field() {
    let app = app().await;
    let (status, cache, body) = get(&app, "/api/geo/cities/detail?city_id=6077243&lang=fr").await;
    assert_eq!(
        (status, body["code"].as_i64(), body["message"].as_str()),
        (200, Some(0), Some("ok"))
    );
    assert_eq!(cache, "public, max-age=3600");
    let c = &body["data"];
    assert_eq!(c["id"], 6077243);
    assert_eq!(
        (c["name"].as_str(), c["name_ascii"].as_str()),
        (Some("Montréal"), Some("Montreal"))
    );
    assert_eq!(
        (c["admin_code"].as_str(), c["admin_name"].as_str()),
        (Some("QC"), Some("Québec"))
    );
    assert_eq!(c["admin_name_ascii"], "Quebec");
    assert_eq!((c["country"].as_str(), c["iso"].as_str()), (Some("Canada"), Some("CA")));
    assert_eq!(
        (c["capital"].as_bool(), c["following"].as_bool()),
        (Some(false), Some(false))
    );
    assert_eq!(c["timezone"], "America/Toronto");
    assert_eq!(c["city_show"], "Montréal, QC");
    assert!(c["lat"].as_f64().unwrap() > 45.0 && c["lon"].as_f64().unwrap() < -73.0);
    assert!(c["postal_code"].is_string() && c["population"].as_u64().unwrap() > 1_000_000);
}

#[tokio::test]
async fn detail_speaks_the_readers_language() {
    let app = app().await;
    let (_, _, es) = get(&app, "/api/geo/cities/detail?city_id=5128581&lang=es").await;
    assert_eq!(
        (es["data"]["name"].as_str(), es["data"]["city_show"].as_str()),
        (Some("Nueva York"), Some("Nueva York, NY"))
    );
    let (_, _, dc) = get(&app, "/api/geo/cities/detail?city_id=4140963").await;
    assert_eq!(
        (dc["data"]["capital"].as_bool(), dc["data"]["postal_code"].as_str()),
        (Some(true), Some("20003"))
    );
}

#[tokio::test]
async fn unknown_city_id_is_404_not_found() {
    let app = app().await;
    let (status, cache, body) = get(&app, "/api/geo/cities/detail?city_id=1").await;
    assert_eq!(
        (status, body["code"].as_i64(), body["message"].as_str()),
        (404, Some(404), Some("Not Found"))
    );
    assert_eq!(cache, "no-store", "errors are not cached");
}

#[tokio::test]
async fn detail_bad_parameters_are_400_naming_them() {
    let app = app().await;
    let (status, _, body) = get(&app, "/api/geo/cities/detail").await;
    assert_eq!(status, 400);
    assert_bad(&body, "city_id");
    assert_eq!(body["message"], "Parameter `city_id`: is required.");
    let (_, _, body) = get(&app, "/api/geo/cities/detail?city_id=abc").await;
    assert_eq!(body["message"], "Parameter `city_id`: must be a whole number.");
    let (_, _, body) = get(&app, "/api/geo/cities/detail?city_id=6077243&lang=de").await;
    assert_eq!(body["message"], "Parameter `lang`: must be one of en, es, fr.");
}

#[tokio::test]
async fn search_finds_accented_names_biggest_first() {
    let app = app().await;
    let (status, cache, body) = get(&app, "/api/geo/cities/search?q=montreal&lang=fr").await;
    assert_eq!((status, cache.as_str()), (200, "public, max-age=3600"));
    let list = body["data"]["list"].as_array().unwrap();
    assert_eq!(list[0]["name"], "Montréal");
    assert_eq!(list[0]["following"], false);
    let (_, _, body) = get(&app, "/api/geo/cities/search?q=Portland&country=us").await;
    let shows: Vec<&str> = body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["city_show"].as_str().unwrap())
        .collect();
    assert_eq!(shows[..2], ["Portland, OR", "Portland, ME"]);
    let (_, _, body) = get(&app, "/api/geo/cities/search?q=saint-j%C3%A9&country=CA").await;
    let names: Vec<&str> = body["data"]["list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Saint-Jérôme"), "{names:?}");
}

#[tokio::test]
async fn spec_3_13_search_pages_with_a_next_page_token() {
    let app = app().await;
    let (_, _, first) = get(&app, "/api/geo/cities/search?q=spring").await;
    let list = first["data"]["list"].as_array().unwrap();
    assert_eq!(list.len(), 20);
    let token = first["data"]["next_page_token"].as_str().expect("a next page");
    let (_, _, second) = get(&app, &format!("/api/geo/cities/search?q=spring&page_token={token}")).await;
    let next = second["data"]["list"].as_array().unwrap();
    assert!(!next.is_empty());
    assert!(
        next.iter().all(|c| !list.iter().any(|d| d["id"] == c["id"])),
        "pages do not overlap"
    );
    let (_, _, one) = get(&app, "/api/geo/cities/search?q=Saint-J%C3%A9r%C3%B4me").await;
    assert!(one["data"]["next_page_token"].is_null(), "last page");
    let (_, _, none) = get(&app, "/api/geo/cities/search?q=zzzzqqq").await;
    assert_eq!(
        (none["code"].as_i64(), none["data"]["list"].as_array().map(Vec::len)),
        (Some(0), Some(0))
    );
}

#[tokio::test]
async fn search_bad_parameters_are_400_naming_them() {
    let app = app().await;
    for (path, parameter) in [
        ("/api/geo/cities/search", "q"),
        ("/api/geo/cities/search?q=%20%20", "q"),
        ("/api/geo/cities/search?q=bo&country=MX", "country"),
        ("/api/geo/cities/search?q=bo&lang=pt", "lang"),
        ("/api/geo/cities/search?q=bo&page_token=x", "page_token"),
        ("/api/geo/cities/search?q=bo&page_token=-1", "page_token"),
    ] {
        let (status, _, body) = get(&app, path).await;
        assert_eq!(status, 400, "{path}");
        assert_bad(&body, parameter);
    }
    let long = "a".repeat(101);
    let (_, _, body) = get(&app, &format!("/api/geo/cities/search?q={long}")).await;
    assert_eq!(body["message"], "Parameter `q`: must be 1 to 100 characters.");
    let (status, _, _) = get(&app, &format!("/api/geo/cities/search?q=%20{}%20", "a".repeat(100))).await;
    assert_eq!(status, 200, "100 characters after trimming are fine");
    assert!(app.healthy().await);
}

#[tokio::test]
async fn nearest_tells_the_two_portlands_apart() {
    let app = app().await;
    let (status, cache, me) = get(&app, "/api/geo/cities/nearest?lat=43.66&lon=-70.26").await;
    assert_eq!((status, cache.as_str()), (200, "public, max-age=3600"));
    assert_eq!(me["data"]["city_show"], "Portland, ME");
    let (_, _, or) = get(&app, "/api/geo/cities/nearest?lat=45.52&lon=-122.68").await;
    assert_eq!(or["data"]["city_show"], "Portland, OR");
    let (_, _, ocean) = get(&app, "/api/geo/cities/nearest?lat=40&lon=-60&lang=en").await;
    assert!(
        ocean["data"]["id"].as_i64().unwrap() > 0,
        "the ocean still has a nearest city"
    );
    let (_, _, ca) = get(&app, "/api/geo/cities/nearest?lat=40.71&lon=-74&country=CA").await;
    assert_eq!(ca["data"]["iso"], "CA");
}

#[tokio::test]
async fn nearest_bad_coordinates_are_400_naming_them() {
    let app = app().await;
    let (status, _, body) = get(&app, "/api/geo/cities/nearest?lat=91&lon=0").await;
    assert_eq!(status, 400);
    assert_eq!(body["message"], "Parameter `lat`: must be a number between -90 and 90.");
    let (_, _, body) = get(&app, "/api/geo/cities/nearest?lat=45&lon=east").await;
    assert_eq!(
        body["message"],
        "Parameter `lon`: must be a number between -180 and 180."
    );
    let (_, _, body) = get(&app, "/api/geo/cities/nearest?lat=NaN&lon=0").await;
    assert_bad(&body, "lat");
    let (_, _, body) = get(&app, "/api/geo/cities/nearest?lon=0").await;
    assert_eq!(body["message"], "Parameter `lat`: is required.");
    let (_, _, body) = get(&app, "/api/geo/cities/nearest?lat=45&lon=0&country=FR").await;
    assert_bad(&body, "country");
}

#[tokio::test]
async fn spec_9_5_default_lists_have_20_cities_default_first() {
    let app = app().await;
    for (query, first, lang_city) in [
        ("country=US&lang=en", "Washington", None),
        ("country=US&lang=es", "Washington D. C.", Some("Hialeah")),
        ("country=CA&lang=en", "Ottawa", Some("Montreal")),
        ("country=CA&lang=fr", "Ottawa", Some("Trois-Rivières")),
    ] {
        let (status, cache, body) = get(&app, &format!("/api/geo/cities/default?{query}")).await;
        assert_eq!((status, cache.as_str()), (200, "public, max-age=3600"), "{query}");
        let list = body["data"]["list"].as_array().unwrap();
        assert_eq!(list.len(), 20, "{query}");
        assert_eq!(list[0]["name"], first, "{query}");
        if let Some(name) = lang_city {
            assert!(list.iter().any(|c| c["name"] == name), "{query}: {name}");
        }
    }
    let (_, _, plain) = get(&app, "/api/geo/cities/default").await;
    assert_eq!(
        plain["data"]["list"][0]["city_show"], "Washington, DC",
        "§9.1 default country US"
    );
    let (status, _, body) = get(&app, "/api/geo/cities/default?country=GB").await;
    assert_eq!(status, 400);
    assert_bad(&body, "country");
}

#[tokio::test]
async fn geo_calls_are_in_the_openapi_document() {
    let app = app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    for path in [
        "/api/geo/cities/search",
        "/api/geo/cities/nearest",
        "/api/geo/cities/default",
        "/api/geo/cities/detail",
    ] {
        assert!(doc["paths"][path]["get"].is_object(), "{path}");
    }
    let params = doc["paths"]["/api/geo/cities/search"]["get"]["parameters"]
        .as_array()
        .unwrap();
    assert!(params.iter().any(|p| p["name"] == "q" && p["in"] == "query"));
}
