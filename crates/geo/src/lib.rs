//! The US/Canada gazetteer that ships in the binary (SPEC §3 City (catalogue), §9.1, §9.5;
//! DESIGN "Geography"). The data is GeoNames-derived (CC BY 4.0) and lives in `data/geo/`;
//! `data/geo/build_gazetteer.py` regenerates it. Nothing here does I/O: the files are
//! embedded and parsed once, on first use.

mod admin_names;
mod data;
mod nearest;
mod search;
pub mod zone;

use domain::geo::Country;
use domain::locale::Locale;

pub use admin_names::{AdminForm, AdminName, admin_names};
pub use data::GeoError;
pub use nearest::{NEARBY_KM, distance_km};
pub use search::{Hit, Page, fold, long_forms};

/// A GeoNames id. Its own type so it cannot be mixed up with other ids (`domain::ids`).
pub use domain::ids::CityId;

/// Which capital a city is, if any (decision D31).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Capital {
    None,
    /// A national capital: Washington, Ottawa.
    Country,
    /// The seat of government of a state, province or territory.
    Admin,
}

/// SPEC §3 City (catalogue), plus population.
#[derive(Debug, Clone, PartialEq)]
pub struct City {
    pub id: CityId,
    /// The name as GeoNames has it (Montréal, Québec, New York City).
    pub name: &'static str,
    /// §3: falls back to `name` when the name is already ASCII.
    pub name_ascii: &'static str,
    pub lat: f64,
    pub lon: f64,
    pub admin_name: &'static str,
    /// US: the state code (DC, NY); CA: the postal abbreviation (QC, ON).
    pub admin_code: &'static str,
    /// §3: falls back to `admin_name`.
    pub admin_name_ascii: &'static str,
    /// United States, Canada.
    pub country: &'static str,
    pub iso: Country,
    pub capital: Capital,
    /// IANA time zone, e.g. America/Toronto.
    pub timezone: &'static str,
    /// US: a representative ZIP; CA: empty except the default city (decision D30).
    pub postal_code: &'static str,
    pub population: u32,
    /// GeoNames alternate names kept for search (New York, Quebec City).
    pub alt_names: Vec<&'static str>,
    /// Display names by language (en, es, fr), from `data/geo/exonyms.tsv`.
    exonyms: [Option<DisplayName>; 3],
}

#[derive(Debug, Clone, PartialEq)]
struct DisplayName {
    name: &'static str,
    /// Computed at load (Los Ángeles → Los Angeles).
    ascii: String,
}

fn locale_index(lang: Locale) -> usize {
    match lang {
        Locale::En => 0,
        Locale::Es => 1,
        Locale::Fr => 2,
    }
}

impl City {
    /// The name to show a reader of `lang`: the exonym when there is one (Nueva York,
    /// Quebec City), else GeoNames' name.
    pub fn display_name(&self, lang: Locale) -> &'static str {
        self.exonyms[locale_index(lang)].as_ref().map_or(self.name, |d| d.name)
    }

    /// ASCII form of [`City::display_name`].
    pub fn display_name_ascii(&self, lang: Locale) -> &str {
        self.exonyms[locale_index(lang)]
            .as_ref()
            .map_or(self.name_ascii, |d| d.ascii.as_str())
    }

    /// §3.3 cityShow: "City, AdminCode", in the reader's language.
    pub fn city_show(&self, lang: Locale) -> String {
        domain::geo::city_show(self.display_name(lang), self.admin_code)
    }

    /// Every display name this city has in any language (search keys; the geotagger reads
    /// "Nueva York" and "San Luis" as these cities).
    pub fn exonym_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.exonyms.iter().flatten().map(|d| d.name)
    }
}

/// Every city of the gazetteer (about 20 000), sorted by id.
pub fn all() -> &'static [City] {
    &data::gazetteer().cities
}

/// The city with this GeoNames id.
pub fn by_id(id: CityId) -> Option<&'static City> {
    let gazetteer = data::gazetteer();
    gazetteer.ids.binary_search(&id).ok().map(|i| &gazetteer.cities[i])
}

/// §9.1 the default city of a country, as named in `data/geo/defaults.json`.
pub fn default_city(country: Country) -> Option<&'static City> {
    by_id(country.default_city().id)
}

/// §9.5 the static city list for a country and language (20 cities, default city first).
/// A language the country is not offered in (French in the US) gets the English list.
pub fn static_list(country: Country, lang: Locale) -> Vec<&'static City> {
    let lists = &data::gazetteer().static_lists;
    let key = |lang: Locale| format!("{}_{}", lang.code(), country.iso());
    let ids = lists
        .get(&key(lang))
        .or_else(|| lists.get(&key(Locale::En)))
        .map(Vec::as_slice)
        .unwrap_or_default();
    ids.iter().filter_map(|id| by_id(*id)).collect()
}

/// City search for the type-ahead box: prefix match on the whole name or any word of it,
/// accent- and case-insensitive, ranked by population. See [`search_page`].
pub fn search(query: &str, country: Option<Country>, lang: Locale, limit: usize) -> Vec<Hit> {
    search::search_page(query, country, lang, 0, limit).hits
}

/// One page of [`search`]: `offset` hits skipped, at most `limit` returned, and whether
/// more follow.
pub fn search_page(query: &str, country: Option<Country>, lang: Locale, offset: usize, limit: usize) -> Page {
    search::search_page(query, country, lang, offset, limit)
}

/// The city nearest to a point (great-circle distance), optionally within one country.
/// Always answers for a valid point, however far from land (`None` only if the country
/// has no cities, which the data never has).
pub fn nearest(lat: f64, lon: f64, country: Option<Country>) -> Option<&'static City> {
    nearest::nearest(lat, lon, country)
}

#[cfg(test)]
mod tests;
