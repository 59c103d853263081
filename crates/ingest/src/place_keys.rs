//! The places a stored item is listed under (`news_places`, D63): the cities its text
//! places it in, with their states and countries, and its publisher's own city, state
//! and country when the story is the publisher's area (D172).
//!
//! The publisher's area brings a nearby publisher's stories into a reader's local feed,
//! which is what readers of a local app expect. But a Washington paper's story about
//! Springfield, Missouri is not Washington news: listed under its publisher's city, it
//! led "Near Washington, DC". So the publisher's area is added only when the story
//! names no city of its own (a column, a piece about a state, one abroad: the text
//! cannot say where it is local, so its publisher's area decides, as before), or when
//! one of its cities is within [`geo::NEARBY_KM`] of the publisher's city (a D.C. paper
//! on Alexandria, Va. stays in the D.C. list).

use geo::{City, CityId};
use store::content::{MediaSource, PlaceKey};

/// Every key `story` (the cities the text places it in, main place first) is listed
/// under, in order, without repeats.
pub fn place_keys(story: &[&City], media: &MediaSource) -> Vec<PlaceKey> {
    let mut keys: Vec<PlaceKey> = Vec::new();
    let mut push = |k: PlaceKey| {
        if !keys.contains(&k) {
            keys.push(k);
        }
    };
    for c in story {
        push(PlaceKey::City(c.id));
        push(PlaceKey::State {
            country: c.iso.iso().to_string(),
            admin_code: c.admin_code.to_string(),
        });
        push(PlaceKey::Country(c.iso.iso().to_string()));
    }
    if is_publishers_area(story, media) {
        if media.city_id != CityId(0) {
            push(PlaceKey::City(media.city_id));
        }
        if !media.admin_code.is_empty() {
            push(PlaceKey::State {
                country: media.country.clone(),
                admin_code: media.admin_code.clone(),
            });
        }
        if !media.country.is_empty() {
            push(PlaceKey::Country(media.country.clone()));
        }
    }
    keys
}

/// Whether a story belongs in its publisher's local lists: it names no city, or one
/// near the publisher (by distance when the publisher's city is known, else by state).
fn is_publishers_area(story: &[&City], media: &MediaSource) -> bool {
    if story.is_empty() {
        return true;
    }
    match geo::by_id(media.city_id) {
        Some(home) => story
            .iter()
            .any(|c| geo::distance_km(home.lat, home.lon, c.lat, c.lon) <= geo::NEARBY_KM),
        None if media.admin_code.is_empty() => true,
        None => story
            .iter()
            .any(|c| c.admin_code == media.admin_code && c.iso.iso() == media.country),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use store::content::MediaId;

    const WASHINGTON: CityId = CityId(4140963);
    const ALEXANDRIA_VA: CityId = CityId(4744091);
    const SPRINGFIELD_MO: CityId = CityId(4409896);

    fn city(id: CityId) -> &'static City {
        geo::by_id(id).expect("a gazetteer city")
    }

    fn publisher(city: &str, city_id: CityId, admin_code: &str) -> MediaSource {
        MediaSource {
            media_id: MediaId(1),
            slug: "paper".into(),
            name: "The Paper".into(),
            icon_url: String::new(),
            home_url: String::new(),
            about: String::new(),
            contact: String::new(),
            category_id: "local".into(),
            category_top_id: "local".into(),
            country: "US".into(),
            admin_code: admin_code.into(),
            city: city.into(),
            city_id,
            lang: "en".into(),
            item_count: 0,
        }
    }

    fn dc_paper() -> MediaSource {
        publisher("Washington", WASHINGTON, "DC")
    }

    fn state(admin_code: &str) -> PlaceKey {
        PlaceKey::State {
            country: "US".into(),
            admin_code: admin_code.into(),
        }
    }

    #[test]
    fn a_story_placed_far_from_its_publisher_is_listed_only_where_it_happens() {
        let keys = place_keys(&[city(SPRINGFIELD_MO)], &dc_paper());
        assert_eq!(
            keys,
            vec![
                PlaceKey::City(SPRINGFIELD_MO),
                state("MO"),
                PlaceKey::Country("US".into())
            ]
        );
    }

    #[test]
    fn a_story_near_its_publisher_or_placeless_keeps_the_publishers_area() {
        let near = place_keys(&[city(ALEXANDRIA_VA)], &dc_paper());
        assert!(near.contains(&PlaceKey::City(WASHINGTON)) && near.contains(&state("DC")));
        assert_eq!(near[0], PlaceKey::City(ALEXANDRIA_VA));
        let placeless = place_keys(&[], &dc_paper());
        assert_eq!(
            placeless,
            vec![PlaceKey::City(WASHINGTON), state("DC"), PlaceKey::Country("US".into())]
        );
        // Far, but also naming the publisher's own city: listed in both.
        let both = place_keys(&[city(SPRINGFIELD_MO), city(WASHINGTON)], &dc_paper());
        assert!(both.contains(&PlaceKey::City(WASHINGTON)) && both.contains(&state("MO")));
    }

    #[test]
    fn without_a_publisher_city_the_state_decides() {
        let statewide = publisher("", CityId(0), "MO");
        assert!(is_publishers_area(&[city(SPRINGFIELD_MO)], &statewide));
        assert!(!is_publishers_area(&[city(WASHINGTON)], &statewide));
    }
}
