//! The `local` channel: a city's news, widened to nearby cities, the state and the
//! country until the first page has enough (D111).

use super::feed_page::{FeedContext, FeedPage};
use super::paging::{items, keyset_page, keyset_token};
use super::params::{Common, bad_token};
use crate::envelope::ApiError;
use crate::geo_api::CityDoc;
use crate::news_json::Reason;
use crate::state::AppState;
use domain::geo::Country;
use domain::locale::Locale;
use geo::{City, CityId};
use store::content::{Listing, PlaceKey};
use store::reader_view::ReaderView;

/// A quiet city's first page widens until it has this many items (or `size`, if smaller).
pub const LOCAL_MIN_ITEMS: usize = 8;
/// "Nearby" is within this distance of the city…
pub const NEARBY_KM: f64 = geo::NEARBY_KM;
/// …and at most this many of the nearest cities (plus publishers' own cities in range).
pub const NEARBY_MAX_CITIES: usize = 30;

/// How far a local feed had to widen (docs/api-reading.md, context.scope).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    City,
    Nearby,
    State,
    Country,
}

impl Scope {
    const ALL: [Scope; 4] = [Scope::City, Scope::Nearby, Scope::State, Scope::Country];
    const LETTERS: [char; 4] = ['c', 'y', 's', 'n'];

    fn letter(self) -> char {
        Scope::LETTERS[self as usize]
    }

    fn from_letter(c: char) -> Option<Scope> {
        Scope::LETTERS.iter().position(|l| *l == c).map(|i| Scope::ALL[i])
    }

    /// Why a card of a page of this scope is there (D385): the scope is the rule that
    /// chose the page's stories.
    pub fn reason(self) -> Reason {
        match self {
            Scope::City | Scope::Nearby => Reason::NearYou,
            Scope::State => Reason::InYourState,
            Scope::Country => Reason::InYourCountry,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scope::City => "city",
            Scope::Nearby => "nearby",
            Scope::State => "state",
            Scope::Country => "country",
        }
    }
}

/// The city and the cities within [`NEARBY_KM`]: the [`NEARBY_MAX_CITIES`] nearest, plus
/// publisher cities in range.
pub fn nearby_cities(city: &City, publisher_cities: &[CityId]) -> Vec<CityId> {
    // 80 km is about 0.72° of latitude anywhere: a cheap first cut before the great circle.
    let lat_cut = NEARBY_KM / 111.0 + 0.01;
    let mut near: Vec<(f64, CityId)> = geo::all()
        .iter()
        .filter(|c| c.id != city.id && (c.lat - city.lat).abs() <= lat_cut)
        .filter_map(|c| {
            let d = geo::distance_km(city.lat, city.lon, c.lat, c.lon);
            (d <= NEARBY_KM).then_some((d, c.id))
        })
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut ids = vec![city.id];
    ids.extend(near.iter().take(NEARBY_MAX_CITIES).map(|(_, id)| *id));
    for id in publisher_cities {
        if !ids.contains(id)
            && let Some(c) = geo::by_id(*id)
            && geo::distance_km(city.lat, city.lon, c.lat, c.lon) <= NEARBY_KM
        {
            ids.push(*id);
        }
    }
    ids
}

async fn scope_places(state: &AppState, city: &City, scope: Scope, now: i64) -> Vec<PlaceKey> {
    match scope {
        Scope::City => vec![PlaceKey::City(city.id)],
        Scope::Nearby => {
            let pubs = state.publisher_cities.get(state.store.as_ref(), now).await;
            nearby_cities(city, &pubs).into_iter().map(PlaceKey::City).collect()
        }
        Scope::State => vec![PlaceKey::State {
            country: city.iso.iso().to_string(),
            admin_code: city.admin_code.to_string(),
        }],
        Scope::Country => vec![PlaceKey::Country(city.iso.iso().to_string())],
    }
}

fn country_name(country: Country, lang: Locale) -> &'static str {
    match (country, lang) {
        (Country::Us, Locale::En) => "United States",
        (Country::Us, Locale::Es) => "Estados Unidos",
        (Country::Us, Locale::Fr) => "États-Unis",
        (Country::Ca, Locale::Es) => "Canadá",
        (Country::Ca, _) => "Canada",
    }
}

fn scope_area_name(city: &City, scope: Scope, lang: Locale) -> String {
    match scope {
        Scope::City | Scope::Nearby => city.city_show(lang),
        Scope::State => city.admin_name.to_string(),
        Scope::Country => country_name(city.iso, lang).to_string(),
    }
}

/// The city of a local feed: `city_id`, else the default city of `country` (or of the
/// language's home country).
fn local_city(city_id: Option<CityId>, c: &Common) -> Result<&'static City, ApiError> {
    match city_id {
        Some(id) => geo::by_id(id).ok_or(ApiError::NotFound),
        None => {
            let country = c
                .country
                .unwrap_or_else(|| c.lang.map_or(Country::DEFAULT, |l| l.home_country()));
            geo::default_city(country).ok_or_else(|| ApiError::Internal("no default city".into()))
        }
    }
}

/// The `local` channel's page for `city_id` (else the default city of the filters).
pub(super) async fn local_feed(
    state: &AppState,
    city_id: Option<CityId>,
    c: &Common,
    now: i64,
    view: &ReaderView,
) -> Result<FeedPage, ApiError> {
    let city = local_city(city_id, c)?;
    let filter = c.filter();
    let (scope, rows, next) = match c.after(&Scope::LETTERS)? {
        Some((letter, after)) => {
            let scope = Scope::from_letter(letter).ok_or_else(bad_token)?;
            let places = scope_places(state, city, scope, now).await;
            let (rows, next) = keyset_page(state, &Listing::Places(places), &filter, Some(after), c.size, view).await?;
            (scope, rows, next)
        }
        None => {
            let enough = LOCAL_MIN_ITEMS.min(c.size);
            let mut found = None;
            for scope in Scope::ALL {
                let places = scope_places(state, city, scope, now).await;
                if scope == Scope::Nearby && places.len() == 1 {
                    continue; // nothing nearby: the same list as the city's
                }
                let (rows, next) = keyset_page(state, &Listing::Places(places), &filter, None, c.size, view).await?;
                let done = rows.len() >= enough || scope == Scope::Country;
                found = Some((scope, rows, next));
                if done {
                    break;
                }
            }
            found.ok_or_else(|| ApiError::Internal("no local scope".into()))?
        }
    };
    let lang = c.names();
    Ok(FeedPage {
        list: items(rows, lang, now, view, scope.reason(), &state.image_proxy),
        next_page_token: keyset_token(scope.letter(), next),
        context: FeedContext {
            scope: Some(scope.name()),
            city: Some(CityDoc::new(city, lang)),
            area_name: Some(scope_area_name(city, scope, lang)),
            ..FeedContext::default()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d385_a_local_pages_scope_is_its_cards_reason() {
        assert_eq!(Scope::City.reason(), Reason::NearYou);
        assert_eq!(Scope::Nearby.reason(), Reason::NearYou);
        assert_eq!(Scope::State.reason(), Reason::InYourState);
        assert_eq!(Scope::Country.reason(), Reason::InYourCountry);
    }
}
