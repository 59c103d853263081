//! The names an entry must mention to be "about" the reader's city, state or province
//! (D292). The reader's local date is the city's time zone's (`geo::zone`, D291).

use domain::locale::Locale;
use domain::text::fold;
use geo::City;

/// The folded names that make an entry local to a reader of `city`: the city's names
/// (GeoNames', ASCII, in the reader's language) and its state's or province's (D292).
pub struct LocalNames {
    names: Vec<String>,
}

/// Names this short are too often other words (a city "Ada", a state code).
const MIN_NAME_CHARS: usize = 4;

impl LocalNames {
    pub fn new(city: &City, lang: Locale) -> LocalNames {
        let mut names: Vec<String> = [
            city.name,
            city.name_ascii,
            city.display_name(lang),
            city.admin_name,
            city.admin_name_ascii,
        ]
        .iter()
        .map(|n| fold(n))
        .collect();
        names.extend(
            geo::admin_names()
                .iter()
                .filter(|a| {
                    a.iso == city.iso && a.admin_code == city.admin_code && a.form != geo::AdminForm::Abbreviation
                })
                .map(|a| fold(a.name)),
        );
        names.retain(|n| n.chars().count() >= MIN_NAME_CHARS);
        names.sort();
        names.dedup();
        LocalNames { names }
    }

    /// Whether any of `texts`, folded, names the place as whole words.
    pub fn mentioned_in<'a>(&self, texts: impl IntoIterator<Item = &'a str>) -> bool {
        texts.into_iter().any(|t| {
            let hay = format!(" {} ", fold(t));
            self.names.iter().any(|n| hay.contains(&format!(" {n} ")))
        })
    }

    #[cfg(test)]
    fn names(&self) -> &[String] {
        &self.names
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use geo::CityId;

    #[test]
    fn local_names_are_the_city_and_its_state_folded_and_match_whole_words() {
        let montreal = geo::by_id(CityId(6077243)).unwrap();
        let names = LocalNames::new(montreal, Locale::En);
        assert!(names.names().contains(&"montreal".to_string()), "{:?}", names.names());
        assert!(names.names().contains(&"quebec".to_string()), "{:?}", names.names());
        assert!(names.mentioned_in(["the Province of Canada was divided into Ontario and Québec."]));
        assert!(!names.mentioned_in(["Quebecer Street", "a Montrealer"]));
        assert!(!names.mentioned_in(["Toronto, Ontario"]));
    }
}
