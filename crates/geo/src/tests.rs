//! Named after the SPEC checklist rules (§3.11 City (catalogue), §9.1, §9.5) and the
//! search and nearest-city behaviour the screens rely on.

use super::*;
use crate::data::{ADMIN_TSV, CITIES_TSV, EXONYMS_TSV, STATIC_JSON, parse};

fn names(hits: &[Hit]) -> Vec<(&str, &str)> {
    hits.iter().map(|h| (h.name, h.city.admin_code)).collect()
}

fn city(id: i64) -> &'static City {
    by_id(CityId(id)).unwrap()
}

#[test]
fn the_embedded_data_parses() {
    let g = parse(CITIES_TSV, ADMIN_TSV, EXONYMS_TSV, STATIC_JSON).unwrap();
    assert!(g.cities.len() > 19_000, "{}", g.cities.len());
    assert!(g.cities.iter().all(|c| !c.name.is_empty() && !c.timezone.is_empty()));
    let us = g.cities.iter().filter(|c| c.iso == Country::Us).count();
    let ca = g.cities.iter().filter(|c| c.iso == Country::Ca).count();
    assert!(us > 15_000 && ca > 2_000, "{us} US, {ca} CA");
}

#[test]
fn a_broken_line_is_reported_with_its_line_number() {
    let bad = "# c\nid\tname\n1\tX\tX\tDC\t38.9\tnot-a-number\tUS\t\tAmerica/New_York\t1\t\t\n";
    let err = parse(bad, ADMIN_TSV, "", r#"{"lists":{}}"#).err().unwrap();
    assert_eq!(err.to_string(), "cities.tsv line 3: lon 'not-a-number' is not a number");
    let unknown = parse(CITIES_TSV, ADMIN_TSV, "id\tlang\tname\tg\n1\tes\tX\tY\n", STATIC_JSON).err();
    assert!(unknown.unwrap().to_string().contains("id 1 is not in cities.tsv"));
}

#[test]
fn spec_3_11_city_has_every_catalogue_field() {
    let c = city(6077243);
    assert_eq!((c.name, c.name_ascii), ("Montréal", "Montreal"));
    assert_eq!(
        (c.admin_code, c.admin_name, c.admin_name_ascii),
        ("QC", "Québec", "Quebec")
    );
    assert_eq!((c.country, c.iso), ("Canada", Country::Ca));
    assert_eq!(c.timezone, "America/Toronto");
    assert!((c.lat - 45.50884).abs() < 1e-6 && (c.lon + 73.58781).abs() < 1e-6);
    assert_eq!(c.capital, Capital::None);
    assert!(c.population > 1_500_000);
}

#[test]
fn spec_3_11_name_ascii_falls_back_to_name() {
    let line = CITIES_TSV.lines().find(|l| l.starts_with("4140963\t")).unwrap();
    assert_eq!(line.split('\t').nth(2), Some(""), "the file leaves it empty");
    assert_eq!(city(4140963).name_ascii, "Washington");
    assert!(
        all()
            .iter()
            .all(|c| !c.name_ascii.is_empty() && c.name_ascii.is_ascii())
    );
}

#[test]
fn spec_3_11_admin_name_ascii_falls_back_to_admin_name() {
    let ny = city(5128581);
    assert_eq!((ny.admin_name, ny.admin_name_ascii), ("New York", "New York"));
    assert_eq!(city(6094817).admin_name, "Ontario");
    assert!(all().iter().all(|c| !c.admin_name_ascii.is_empty()));
}

#[test]
fn canadian_admin_codes_are_postal_abbreviations() {
    let codes: std::collections::BTreeSet<&str> = all()
        .iter()
        .filter(|c| c.iso == Country::Ca)
        .map(|c| c.admin_code)
        .collect();
    let expected = [
        "AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT",
    ];
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn spec_3_11_capital_flag_marks_national_and_admin_capitals() {
    let national: Vec<&str> = all()
        .iter()
        .filter(|c| c.capital == Capital::Country)
        .map(|c| c.name)
        .collect();
    assert_eq!(national, ["Washington", "Ottawa"]);
    let admin = all().iter().filter(|c| c.capital == Capital::Admin).count();
    assert_eq!(admin, 50 + 13, "50 states, 10 provinces, 3 territories");
    assert_eq!(city(6325494).capital, Capital::Admin, "Québec");
}

#[test]
fn postal_codes_where_known() {
    assert_eq!(city(4140963).postal_code, "20003", "§5.6 default location");
    assert_eq!(city(6094817).postal_code, "K1P");
    let portland_or = city(5746545);
    assert!(
        portland_or.postal_code.starts_with("972"),
        "{}",
        portland_or.postal_code
    );
    let with_zip = all()
        .iter()
        .filter(|c| c.iso == Country::Us && !c.postal_code.is_empty())
        .count();
    assert!(with_zip > 15_000, "{with_zip}");
}

#[test]
fn spec_9_1_default_cities_match_defaults_json() {
    for country in Country::ALL {
        let info = country.default_city();
        let c = default_city(country).unwrap();
        assert_eq!(c.id, info.id);
        assert_eq!(
            (c.name, c.admin_code, c.postal_code),
            (info.name.as_str(), info.admin_code.as_str(), info.postal_code.as_str())
        );
        assert!((c.lat - info.lat).abs() < 0.01 && (c.lon - info.lon).abs() < 0.01);
    }
    assert_eq!(default_city(Country::Us).unwrap().name, "Washington");
    assert_eq!(default_city(Country::Ca).unwrap().name, "Ottawa");
}

#[test]
fn spec_9_5_static_lists_have_20_cities_each() {
    for (country, lang) in [
        (Country::Us, Locale::En),
        (Country::Us, Locale::Es),
        (Country::Ca, Locale::En),
        (Country::Ca, Locale::Fr),
    ] {
        let list = static_list(country, lang);
        assert_eq!(list.len(), 20, "{lang:?}_{country:?}");
        let mut ids: Vec<CityId> = list.iter().map(|c| c.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 20, "no repeats");
        assert!(list.iter().all(|c| c.iso == country));
        assert_eq!(list[0].id, default_city(country).unwrap().id, "default city first");
    }
}

#[test]
fn spec_9_5_every_static_id_exists() {
    let g = data::gazetteer();
    assert_eq!(g.static_lists.len(), 4);
    for (key, ids) in &g.static_lists {
        for id in ids {
            assert!(by_id(*id).is_some(), "{key}: {id:?}");
        }
    }
}

#[test]
fn spec_9_5_lists_differ_by_language() {
    let es = static_list(Country::Us, Locale::Es);
    assert!(es.iter().any(|c| c.name == "Hialeah"), "Spanish-speaking cities");
    let fr = static_list(Country::Ca, Locale::Fr);
    assert!(fr.iter().filter(|c| c.admin_code == "QC").count() >= 15);
    assert_ne!(static_list(Country::Ca, Locale::En), fr);
    assert_eq!(
        static_list(Country::Us, Locale::Fr),
        static_list(Country::Us, Locale::En),
        "fallback"
    );
}

#[test]
fn search_is_accent_and_case_insensitive() {
    assert_eq!(search("Montreal", None, Locale::Fr, 1)[0].city.name, "Montréal");
    assert_eq!(search("MONTRÉAL", None, Locale::Fr, 1)[0].city.name, "Montréal");
    // Accents typed where the name has none are ignored too.
    assert_eq!(search("Séattlé", None, Locale::En, 1)[0].city.name, "Seattle");
    let hits = search("saint-j", Some(Country::Ca), Locale::Fr, 10);
    assert!(hits.iter().any(|h| h.city.name == "Saint-Jérôme"), "{:?}", names(&hits));
    assert!(
        hits.iter()
            .all(|h| fold(h.city.name).contains("saint j") || fold(h.city.name).contains("st j"))
    );
}

#[test]
fn search_ranks_by_population() {
    let hits = search("portland", None, Locale::En, 5);
    assert_eq!(names(&hits)[..2], [("Portland", "OR"), ("Portland", "ME")]);
    let pops: Vec<u32> = search("san", None, Locale::En, 20)
        .iter()
        .map(|h| h.city.population)
        .collect();
    assert!(pops.windows(2).all(|w| w[0] >= w[1]), "{pops:?}");
    assert_eq!(search("san", None, Locale::En, 1)[0].city.name, "San Antonio");
}

#[test]
fn search_matches_any_word_start_but_not_inside_a_word() {
    let hits = search("jerome", None, Locale::En, 20);
    assert!(hits.iter().any(|h| h.city.name == "Saint-Jérôme"));
    assert!(search("ontreal", None, Locale::En, 5).is_empty());
    assert_eq!(
        search("york", Some(Country::Us), Locale::En, 1)[0].city.name,
        "New York City"
    );
}

#[test]
fn search_understands_saint_and_st() {
    let st = search("st jer", None, Locale::En, 5);
    assert!(st.iter().any(|h| h.city.name == "Saint-Jérôme"), "{:?}", names(&st));
    let saint = search("saint louis", None, Locale::En, 5);
    assert_eq!(saint[0].city.name, "St. Louis");
    // A separator after the word asks for the whole word: "st " is not Stamford.
    let word = search("st ", Some(Country::Us), Locale::En, 50);
    assert!(
        !word.is_empty()
            && word.iter().all(|h| fold(h.city.name).starts_with("st ")
                || fold(h.city.name).contains(" st ")
                || fold(h.city.name).contains("saint")),
        "{:?}",
        names(&word)
    );
}

#[test]
fn search_filters_by_country_and_shows_exonyms() {
    let us = search("london", Some(Country::Us), Locale::En, 5);
    assert!(!us.is_empty() && us.iter().all(|h| h.city.iso == Country::Us));
    assert_eq!(
        search("london", Some(Country::Ca), Locale::En, 1)[0].city.admin_code,
        "ON"
    );
    let es = search("nueva york", None, Locale::Es, 1);
    assert_eq!((es[0].name, es[0].city.name), ("Nueva York", "New York City"));
    assert_eq!(search("new york", None, Locale::En, 1)[0].name, "New York");
    assert_eq!(search("quebec city", None, Locale::En, 1)[0].name, "Quebec City");
    assert_eq!(search("quebec", None, Locale::Fr, 1)[0].name, "Québec");
}

#[test]
fn search_pages_and_empty_queries() {
    assert!(search("", None, Locale::En, 10).is_empty());
    assert!(search(" - ", None, Locale::En, 10).is_empty());
    let first = search_page("spring", None, Locale::En, 0, 5);
    let second = search_page("spring", None, Locale::En, 5, 5);
    assert!(first.more && first.hits.len() == 5 && second.hits.len() == 5);
    assert!(first.hits.iter().all(|h| !second.hits.contains(h)));
    let last = search_page("Saint-Jérôme", Some(Country::Ca), Locale::En, 0, 50);
    assert!(!last.more);
}

#[test]
fn fold_lowers_strips_accents_and_punctuation() {
    assert_eq!(fold("Saint-Jérôme"), "saint jerome");
    assert_eq!(fold("St. John's"), "st johns");
    assert_eq!(fold("  Île-d'Orléans "), "ile dorleans");
    assert_eq!(fold("ŒUVRE"), "oeuvre");
}

#[test]
fn nearest_tells_the_two_portlands_apart() {
    assert_eq!(
        nearest(43.66, -70.26, None).map(|c| (c.name, c.admin_code)),
        Some(("Portland", "ME"))
    );
    assert_eq!(
        nearest(45.52, -122.68, None).map(|c| (c.name, c.admin_code)),
        Some(("Portland", "OR"))
    );
}

#[test]
fn nearest_finds_montreal_and_the_capitals() {
    assert_eq!(nearest(45.5088, -73.5878, None).unwrap().name, "Montréal");
    assert_eq!(nearest(38.8951, -77.0364, None).unwrap().id, CityId(4140963));
    assert_eq!(
        nearest(45.4112, -75.6981, Some(Country::Ca)).unwrap().id,
        CityId(6094817)
    );
}

#[test]
fn nearest_from_the_ocean_still_gives_a_city() {
    // Mid-Atlantic, about 1 000 km from land.
    let c = nearest(40.0, -60.0, None).unwrap();
    assert!(
        ["NS", "NL", "MA", "ME"].contains(&c.admin_code),
        "{} {}",
        c.name,
        c.admin_code
    );
    // The country filter holds even when the other country is closer.
    let ca = nearest(40.71, -74.0, Some(Country::Ca)).unwrap();
    assert_eq!(ca.iso, Country::Ca);
    assert!(nearest(f64::NAN, 0.0, None).is_none());
}

#[test]
fn nearest_agrees_with_a_full_scan() {
    let points = [
        (25.76, -80.19),
        (64.84, -147.72),
        (21.3, -157.85),
        (49.0, -95.0),
        (35.0, -100.0),
        (60.0, -110.0),
        (0.0, 0.0),
        (-33.9, 151.2),
    ];
    for (lat, lon) in points {
        let brute = all()
            .iter()
            .min_by(|a, b| distance_km(lat, lon, a.lat, a.lon).total_cmp(&distance_km(lat, lon, b.lat, b.lon)))
            .unwrap();
        let fast = nearest(lat, lon, None).unwrap();
        assert_eq!(
            distance_km(lat, lon, fast.lat, fast.lon),
            distance_km(lat, lon, brute.lat, brute.lon),
            "({lat}, {lon})"
        );
    }
}

#[test]
fn distance_is_haversine() {
    let d = distance_km(38.89511, -77.03637, 45.41117, -75.69812);
    assert!((d - 732.0).abs() < 5.0, "{d}");
    assert_eq!(distance_km(10.0, 10.0, 10.0, 10.0), 0.0);
}

#[test]
fn display_names_follow_the_language() {
    let nyc = city(5128581);
    assert_eq!(
        (nyc.display_name(Locale::Es), nyc.display_name(Locale::Fr)),
        ("Nueva York", "New York")
    );
    assert_eq!(city(5368361).display_name(Locale::Es), "Los Ángeles");
    assert_eq!(city(5368361).display_name_ascii(Locale::Es), "Los Angeles");
    assert_eq!(city(6077243).city_show(Locale::Fr), "Montréal, QC");
    assert_eq!(city(6077243).city_show(Locale::En), "Montreal, QC");
}

#[test]
fn the_admin_names_parse_and_name_real_admins() {
    use crate::admin_names::{ADMIN_NAMES_TSV, parse_admin_names};
    let names = parse_admin_names(ADMIN_NAMES_TSV, ADMIN_TSV).unwrap();
    assert!(names.len() > 100, "{}", names.len());
    let find = |name: &str| names.iter().find(|n| n.name == name).map(|n| (n.admin_code, n.form));
    assert_eq!(find("N.Y."), Some(("NY", AdminForm::Abbreviation)));
    assert_eq!(find("Colombie-Britannique"), Some(("BC", AdminForm::Name)));
    assert_eq!(find("Carolina del Norte"), Some(("NC", AdminForm::Name)));
    let bad = parse_admin_names("h\nZZ\tUS\ten\tabbr\tZz.\n", ADMIN_TSV)
        .err()
        .unwrap();
    assert_eq!(bad.to_string(), "admin-names.tsv line 2: US.ZZ is not in admin.tsv");
}

#[test]
fn long_forms_spell_out_saint_fort_and_mount() {
    assert_eq!(long_forms("st louis").as_deref(), Some("saint louis"));
    assert_eq!(long_forms("sault ste marie").as_deref(), Some("sault sainte marie"));
    assert_eq!(long_forms("ft worth").as_deref(), Some("fort worth"));
    assert_eq!(long_forms("saint paul"), None);
}

/// Every city is found by its own id (the ids are looked up apart from the cities), and an
/// id no city has finds none.
#[test]
fn by_id_finds_every_city_and_nothing_else() {
    for city in all() {
        assert_eq!(by_id(city.id).map(|c| c.id), Some(city.id));
    }
    assert!(by_id(CityId(0)).is_none());
    assert!(by_id(CityId(i64::MAX)).is_none());
}
