//! Other names of states, provinces and territories (`data/geo/admin-names.tsv`): the
//! abbreviations newsrooms put after a city ("Salem, Ore.", "Kelowna, B.C.") and the
//! French and Spanish names ("Nouveau-Brunswick", "Carolina del Norte"). GeoNames' English
//! names are in `admin.tsv` and on every [`City`](crate::City) as `admin_name`.

use crate::data::GeoError;
use domain::geo::Country;
use domain::locale::Locale;
use std::collections::HashSet;
use std::sync::LazyLock;

pub(crate) const ADMIN_NAMES_TSV: &str = include_str!("../../../data/geo/admin-names.tsv");

/// How a name is used in text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AdminForm {
    /// A full name ("Colombie-Britannique"): names the state or province wherever it stands.
    Name,
    /// An abbreviation ("Ore.", "N.W.T."): only read right after a city.
    Abbreviation,
}

/// One other name of a state, province or territory.
#[derive(Debug, Clone, PartialEq)]
pub struct AdminName {
    /// US state code or Canadian postal abbreviation, as on [`City`](crate::City).
    pub admin_code: &'static str,
    pub iso: Country,
    pub lang: Locale,
    pub form: AdminForm,
    pub name: &'static str,
}

static ADMIN_NAMES: LazyLock<Vec<AdminName>> = LazyLock::new(|| {
    // Checked by this crate's tests (`the_admin_names_parse_and_name_real_admins`).
    parse_admin_names(ADMIN_NAMES_TSV, crate::data::ADMIN_TSV).expect("data/geo/admin-names.tsv is valid")
});

/// Every other name of a state, province or territory, in file order.
pub fn admin_names() -> &'static [AdminName] {
    &ADMIN_NAMES
}

pub(crate) fn parse_admin_names(tsv: &'static str, admin_tsv: &'static str) -> Result<Vec<AdminName>, GeoError> {
    let known: HashSet<(&str, &str)> = crate::data::rows(admin_tsv)
        .filter_map(|(_, f)| Some((*f.first()?, *f.get(1)?)))
        .collect();
    let mut out = Vec::new();
    for (line, f) in crate::data::rows(tsv) {
        let err = |why: String| GeoError::Line {
            file: "admin-names.tsv",
            line,
            why,
        };
        let [admin_code, iso, lang, form, name] = f[..] else {
            return Err(err(format!("expected 5 columns, found {}", f.len())));
        };
        if !known.contains(&(iso, admin_code)) {
            return Err(err(format!("{iso}.{admin_code} is not in admin.tsv")));
        }
        if name.trim().is_empty() || name.trim() != name {
            return Err(err(format!("name '{name}' is empty or has spaces around it")));
        }
        out.push(AdminName {
            admin_code,
            iso: Country::from_iso(iso).ok_or_else(|| err(format!("iso '{iso}' is not US or CA")))?,
            lang: Locale::from_code(lang).ok_or_else(|| err(format!("lang '{lang}' is not en, es or fr")))?,
            form: match form {
                "name" => AdminForm::Name,
                "abbr" => AdminForm::Abbreviation,
                other => return Err(err(format!("form '{other}' is not name or abbr"))),
            },
            name,
        });
    }
    Ok(out)
}
