//! Parsing the embedded files of `data/geo/`. The parsers return errors rather than
//! panicking so the tests can say which line is wrong; at run time the files are the ones
//! the tests parsed, so the one `expect` below cannot fire for a built binary.

use crate::{Capital, City, CityId, DisplayName, locale_index};
use domain::geo::Country;
use domain::locale::Locale;
use std::collections::HashMap;
use std::sync::LazyLock;
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

pub(crate) const CITIES_TSV: &str = include_str!("../../../data/geo/cities.tsv");
pub(crate) const ADMIN_TSV: &str = include_str!("../../../data/geo/admin.tsv");
pub(crate) const EXONYMS_TSV: &str = include_str!("../../../data/geo/exonyms.tsv");
pub(crate) const STATIC_JSON: &str = include_str!("../../../data/geo/static-cities.json");

/// A data file that does not say what the parser expects.
#[derive(Debug, thiserror::Error)]
pub enum GeoError {
    #[error("{file} line {line}: {why}")]
    Line {
        file: &'static str,
        line: usize,
        why: String,
    },
    #[error("{file}: {why}")]
    File { file: &'static str, why: String },
}

pub(crate) struct Gazetteer {
    /// In id order.
    pub cities: Vec<City>,
    /// The cities' ids, in the same order: a card's places are looked up here (160 KB,
    /// searched in cache, where the cities themselves are 20,000 large rows apart).
    pub ids: Vec<CityId>,
    /// Keyed like `en_US`; ids in list order.
    pub static_lists: HashMap<String, Vec<CityId>>,
}

static GAZETTEER: LazyLock<Gazetteer> = LazyLock::new(|| {
    // The embedded files are checked by this crate's tests (`the_embedded_data_parses`);
    // a broken file fails the build's tests, never a reader's request.
    parse(CITIES_TSV, ADMIN_TSV, EXONYMS_TSV, STATIC_JSON).expect("data/geo files are valid")
});

pub(crate) fn gazetteer() -> &'static Gazetteer {
    &GAZETTEER
}

/// Data lines of a TSV file: comments (`#`), blank lines and the header row skipped.
pub(crate) fn rows(text: &'static str) -> impl Iterator<Item = (usize, Vec<&'static str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .skip(1)
        .map(|(i, l)| (i + 1, l.split('\t').collect()))
}

/// ASCII form of a name, case kept: accents removed, other non-ASCII dropped (as GeoNames'
/// asciiname and `build_gazetteer.py` do).
pub(crate) fn ascii_name(name: &str) -> String {
    name.nfd().filter(|c| !is_combining_mark(*c) && c.is_ascii()).collect()
}

struct Admin {
    name: &'static str,
    ascii: &'static str,
    country: &'static str,
}

pub(crate) fn parse(
    cities_tsv: &'static str,
    admin_tsv: &'static str,
    exonyms_tsv: &'static str,
    static_json: &'static str,
) -> Result<Gazetteer, GeoError> {
    let mut admins: HashMap<(&str, &str), Admin> = HashMap::new();
    for (line, f) in rows(admin_tsv) {
        let err = |why: &str| GeoError::Line {
            file: "admin.tsv",
            line,
            why: why.into(),
        };
        let [iso, code, name, ascii, country] = f[..] else {
            return Err(err("expected 5 columns"));
        };
        let ascii = if ascii.is_empty() { name } else { ascii };
        admins.insert((iso, code), Admin { name, ascii, country });
    }

    let mut cities = Vec::with_capacity(20_500);
    for (line, f) in rows(cities_tsv) {
        let err = |why: String| GeoError::Line {
            file: "cities.tsv",
            line,
            why,
        };
        let [
            id,
            name,
            ascii,
            admin_code,
            lat,
            lon,
            iso,
            capital,
            timezone,
            population,
            postal,
            alts,
        ] = f[..]
        else {
            return Err(err(format!("expected 12 columns, found {}", f.len())));
        };
        let num = |what: &str, v: &str| {
            v.parse::<f64>()
                .map_err(|_| err(format!("{what} '{v}' is not a number")))
        };
        let country = Country::from_iso(iso).ok_or_else(|| err(format!("iso '{iso}' is not US or CA")))?;
        let admin = admins
            .get(&(iso, admin_code))
            .ok_or_else(|| err(format!("admin code {iso}.{admin_code} is not in admin.tsv")))?;
        cities.push(City {
            id: CityId(id.parse().map_err(|_| err(format!("id '{id}' is not an integer")))?),
            name,
            name_ascii: if ascii.is_empty() { name } else { ascii },
            lat: num("lat", lat)?,
            lon: num("lon", lon)?,
            admin_name: admin.name,
            admin_code,
            admin_name_ascii: admin.ascii,
            country: admin.country,
            iso: country,
            capital: match capital {
                "" => Capital::None,
                "country" => Capital::Country,
                "admin" => Capital::Admin,
                other => return Err(err(format!("capital '{other}' is not empty, country or admin"))),
            },
            timezone,
            population: population
                .parse()
                .map_err(|_| err(format!("population '{population}' is not an integer")))?,
            postal_code: postal,
            alt_names: alts.split('|').filter(|a| !a.is_empty()).collect(),
            exonyms: Default::default(),
        });
    }
    cities.sort_by_key(|c| c.id);
    if cities.windows(2).any(|w| w[0].id == w[1].id) {
        return Err(GeoError::File {
            file: "cities.tsv",
            why: "duplicate id".into(),
        });
    }
    let index = |cities: &[City], id: CityId| cities.binary_search_by_key(&id, |c| c.id).ok();

    for (line, f) in rows(exonyms_tsv) {
        let err = |why: String| GeoError::Line {
            file: "exonyms.tsv",
            line,
            why,
        };
        let [id, lang, name, _geonames_name] = f[..] else {
            return Err(err("expected 4 columns".into()));
        };
        let id = CityId(id.parse().map_err(|_| err(format!("id '{id}' is not an integer")))?);
        let lang = Locale::from_code(lang).ok_or_else(|| err(format!("lang '{lang}' is not en, es or fr")))?;
        let i = index(&cities, id).ok_or_else(|| err(format!("id {} is not in cities.tsv", id.0)))?;
        cities[i].exonyms[locale_index(lang)] = Some(DisplayName {
            name,
            ascii: ascii_name(name),
        });
    }

    #[derive(serde::Deserialize)]
    struct Entry {
        id: CityId,
    }
    #[derive(serde::Deserialize)]
    struct StaticFile {
        lists: HashMap<String, Vec<Entry>>,
    }
    let file: StaticFile = serde_json::from_str(static_json).map_err(|e| GeoError::File {
        file: "static-cities.json",
        why: e.to_string(),
    })?;
    let mut static_lists = HashMap::new();
    for (key, entries) in file.lists {
        let ids: Vec<CityId> = entries.iter().map(|e| e.id).collect();
        if let Some(missing) = ids.iter().find(|id| index(&cities, **id).is_none()) {
            return Err(GeoError::File {
                file: "static-cities.json",
                why: format!("{key}: id {} is not in cities.tsv", missing.0),
            });
        }
        static_lists.insert(key, ids);
    }
    let ids = cities.iter().map(|c| c.id).collect();
    Ok(Gazetteer {
        cities,
        ids,
        static_lists,
    })
}
