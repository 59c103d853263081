//! Countries, the default location and the default cities (SPEC §1.1, §3.12, §5.6, §9.1).
//! The values are data (`data/geo/defaults.json`), embedded at build time.

use crate::ids::CityId;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// A supported country (SPEC §1.1: only US and CA count as supported).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Country {
    Us,
    Ca,
}

impl Country {
    pub const ALL: [Country; 2] = [Country::Us, Country::Ca];
    /// §9.1 default country.
    pub const DEFAULT: Country = Country::Us;

    pub fn iso(self) -> &'static str {
        match self {
            Country::Us => "US",
            Country::Ca => "CA",
        }
    }

    /// Case-insensitive; `None` for anything but US and CA.
    pub fn from_iso(iso: &str) -> Option<Country> {
        match iso.trim().to_ascii_uppercase().as_str() {
            "US" => Some(Country::Us),
            "CA" => Some(Country::Ca),
            _ => None,
        }
    }

    /// §3.12 country entry.
    pub fn entry(self) -> CountryEntry {
        let lang = |name: &str, code: &str| Language {
            name: name.into(),
            code: code.into(),
        };
        match self {
            Country::Us => CountryEntry {
                country: "United States".into(),
                iso: "US".into(),
                languages: vec![lang("English", "en"), lang("Español", "es")],
            },
            Country::Ca => CountryEntry {
                country: "Canada".into(),
                iso: "CA".into(),
                languages: vec![lang("English", "en"), lang("Français", "fr")],
            },
        }
    }

    /// §9.1 default city of the country.
    pub fn default_city(self) -> &'static CityInfo {
        match self {
            Country::Us => &DEFAULTS.default_cities.us,
            Country::Ca => &DEFAULTS.default_cities.ca,
        }
    }
}

/// §3.12 country entry: country, iso, languages with a name and a code.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CountryEntry {
    pub country: String,
    pub iso: String,
    pub languages: Vec<Language>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Language {
    pub name: String,
    pub code: String,
}

/// §3.4 city info, in the app's field names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CityInfo {
    #[schema(value_type = i64)]
    pub id: CityId,
    pub name: String,
    pub iso: String,
    pub lang: String,
    pub admin_code: String,
    pub postal_code: String,
    pub lat: f64,
    pub lon: f64,
}

/// §5.6 the default location used when the country is unsupported.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct DefaultLocation {
    pub country: String,
    pub lang: String,
    pub postal_code: String,
    pub admin_code: String,
    pub city: String,
    #[schema(value_type = i64)]
    pub city_id: CityId,
    pub lat: f64,
    pub lon: f64,
}

#[derive(Debug, Deserialize)]
struct DefaultCities {
    #[serde(rename = "US")]
    us: CityInfo,
    #[serde(rename = "CA")]
    ca: CityInfo,
}

#[derive(Debug, Deserialize)]
struct Defaults {
    default_location: DefaultLocation,
    default_cities: DefaultCities,
}

static DEFAULTS: LazyLock<Defaults> = LazyLock::new(|| {
    // The file is part of the source tree and checked by the tests below; a broken
    // file fails the build's tests, never a user's request.
    serde_json::from_str(include_str!("../../../data/geo/defaults.json")).expect("data/geo/defaults.json is valid")
});

/// §5.6 the default location.
pub fn default_location() -> &'static DefaultLocation {
    &DEFAULTS.default_location
}

/// The location a user gets from a country code: the country's default city when the
/// country is supported, else the §5.6 default location.
pub fn location_for_country(iso: &str) -> DefaultLocation {
    match Country::from_iso(iso) {
        Some(country) => {
            let city = country.default_city();
            DefaultLocation {
                country: city.iso.clone(),
                lang: city.lang.clone(),
                postal_code: city.postal_code.clone(),
                admin_code: city.admin_code.clone(),
                city: city.name.clone(),
                city_id: city.id,
                lat: city.lat,
                lon: city.lon,
            }
        }
        None => default_location().clone(),
    }
}

/// §3.3 cityShow: "City, AdminCode" (just the city when there is no admin code).
pub fn city_show(city: &str, admin_code: &str) -> String {
    match (city.trim(), admin_code.trim()) {
        ("", _) => String::new(),
        (c, "") => c.to_string(),
        (c, a) => format!("{c}, {a}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_1_1_only_us_and_ca_are_supported() {
        assert_eq!(Country::from_iso("us"), Some(Country::Us));
        assert_eq!(Country::from_iso("CA"), Some(Country::Ca));
        for iso in ["MX", "GB", "", "USA"] {
            assert_eq!(Country::from_iso(iso), None, "{iso}");
        }
    }

    #[test]
    fn spec_5_6_default_location_for_unsupported_country() {
        let d = location_for_country("MX");
        assert_eq!((d.country.as_str(), d.lang.as_str()), ("US", "en"));
        assert_eq!((d.postal_code.as_str(), d.admin_code.as_str()), ("20003", "DC"));
        assert_eq!(d.city, "Washington");
        assert!((d.lat - 38.90).abs() < 0.01 && (d.lon + 77.02).abs() < 0.01);
    }

    #[test]
    fn spec_9_1_default_cities_washington_and_ottawa() {
        assert_eq!(Country::Us.default_city().name, "Washington");
        assert_eq!(Country::Ca.default_city().name, "Ottawa");
        assert_eq!(Country::Ca.default_city().admin_code, "ON");
        assert_eq!(location_for_country("ca").city, "Ottawa");
        assert_eq!(Country::DEFAULT, Country::Us);
    }

    #[test]
    fn spec_3_12_country_entries_list_their_languages() {
        let us = Country::Us.entry();
        let codes: Vec<&str> = us.languages.iter().map(|l| l.code.as_str()).collect();
        assert_eq!((us.iso.as_str(), codes), ("US", vec!["en", "es"]));
        let ca = Country::Ca.entry();
        let codes: Vec<&str> = ca.languages.iter().map(|l| l.code.as_str()).collect();
        assert_eq!((ca.iso.as_str(), codes), ("CA", vec!["en", "fr"]));
    }

    #[test]
    fn spec_3_3_city_show_is_city_comma_admin_code() {
        assert_eq!(city_show("Washington", "DC"), "Washington, DC");
        assert_eq!(city_show("Montréal", ""), "Montréal");
        assert_eq!(city_show("", "QC"), "");
    }
}
