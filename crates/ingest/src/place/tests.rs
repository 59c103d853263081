//! Place tagging, end to end: a title and text in, the cities out.

use super::*;

fn tags(title: &str, text: &str, city: &str, admin: &str, country: &str) -> Vec<(String, String)> {
    let area = PublisherArea {
        city,
        admin_code: admin,
        country,
    };
    places(title, text, &area)
        .into_iter()
        .map(|c| (c.name.to_string(), c.admin_code.to_string()))
        .collect()
}

fn pair(name: &str, admin: &str) -> (String, String) {
    (name.to_string(), admin.to_string())
}

#[test]
fn portland_is_disambiguated_by_qualifier_and_publisher() {
    assert_eq!(
        tags("Ferry fares rise in Portland", "", "Bangor", "ME", "US"),
        vec![pair("Portland", "ME")]
    );
    assert_eq!(
        tags("Ferry fares rise in Portland", "", "Salem", "OR", "US"),
        vec![pair("Portland", "OR")]
    );
    assert_eq!(
        tags(
            "Council votes",
            "A new clinic in Portland, Maine, opened.",
            "Boston",
            "MA",
            "US"
        ),
        vec![pair("Portland", "ME")]
    );
}

#[test]
fn foreign_places_are_never_tagged() {
    assert!(
        tags("Chef cooks in Paris, France", "", "Paris", "TX", "US").is_empty()
            || !tags("Chef cooks in Paris, France", "", "Paris", "TX", "US").contains(&pair("Paris", "TX"))
    );
    assert!(!tags("Choir sings in Dublin and Belfast", "", "Atlanta", "GA", "US").contains(&pair("Dublin", "GA")));
}

#[test]
fn neighbourhoods_are_filed_under_their_city() {
    assert_eq!(
        tags("Brooklyn bakery expands", "", "New York City", "NY", "US"),
        vec![pair("New York City", "NY")]
    );
    assert_eq!(
        tags("Fête de quartier à Hull", "", "Gatineau", "QC", "CA"),
        vec![pair("Gatineau", "QC")]
    );
}

#[test]
fn an_unplaced_local_story_is_about_the_publishers_city_but_a_recipe_is_not() {
    assert_eq!(
        tags(
            "City council delays budget vote",
            "Members asked for new estimates.",
            "Ottawa",
            "ON",
            "CA"
        ),
        vec![pair("Ottawa", "ON")]
    );
    assert!(tags("Recipe: pumpkin soup for cold nights", "", "Ottawa", "ON", "CA").is_empty());
}

#[test]
fn origins_in_titles_are_not_where_the_story_happens() {
    assert_eq!(
        tags("Chicago chef wins award in New York", "", "Chicago", "IL", "US"),
        vec![pair("New York City", "NY")]
    );
}

fn names(title: &str, text: &str, city: &str, admin: &str, country: &str) -> Vec<String> {
    tags(title, text, city, admin, country)
        .into_iter()
        .map(|(name, admin)| format!("{name}, {admin}"))
        .collect()
}

#[test]
fn ap_style_state_abbreviations_place_the_story() {
    let story = |text: &str| names("Council news", text, "Washington", "DC", "US");
    assert_eq!(story("A bridge in Binghamton, N.Y., will close."), ["Binghamton, NY"]);
    assert_eq!(story("A clinic in Rochester, Minn., will expand."), ["Rochester, MN"]);
    assert_eq!(story("Voters in Cookeville, Tenn., said yes."), ["Cookeville, TN"]);
    assert_eq!(story("Kansas City, Kan., opened a library."), ["Kansas City, KS"]);
    let canada = |text: &str| names("Nouvelles", text, "Toronto", "ON", "CA");
    assert_eq!(
        canada("Residents of Hay River, N.W.T., left on Sunday."),
        ["Hay River, NT"]
    );
    assert_eq!(canada("Summerside, P.E.I., will build an arena."), ["Summerside, PE"]);
    assert_eq!(canada("Crews in Brandon, Man., hired paramedics."), ["Brandon, MB"]);
    // A lower-case word after a comma is not a postal code ("Portland, or").
    assert_eq!(
        names(
            "Ferry fares",
            "Fares rise in Portland, or so riders say.",
            "Bangor",
            "ME",
            "US"
        ),
        ["Portland, ME"]
    );
}

#[test]
fn british_columbia_is_not_columbia_south_carolina() {
    assert!(names("British Columbia raises its minimum wage", "", "Chicago", "IL", "US").is_empty());
    assert!(
        names(
            "Nieve en Columbia Británica",
            "Cierran carreteras.",
            "Los Angeles",
            "CA",
            "US"
        )
        .is_empty()
    );
    assert!(
        names(
            "La Colombie-Britannique hausse le salaire minimum",
            "",
            "Montréal",
            "QC",
            "CA"
        )
        .is_empty()
    );
    assert_eq!(
        names(
            "Storm hits Columbia, S.C.",
            "Trees fell on homes.",
            "Chicago",
            "IL",
            "US"
        ),
        ["Columbia, SC"]
    );
}

#[test]
fn ontario_the_province_is_not_ontario_california() {
    assert!(
        names(
            "Ontario to build new reactors",
            "The province said so.",
            "New York City",
            "NY",
            "US"
        )
        .is_empty()
    );
    // A California paper's Ontario is its neighbour; a qualifier says so anywhere.
    assert_eq!(
        names(
            "Warehouse jobs",
            "A grocer opened a warehouse in Ontario with 600 jobs.",
            "Los Angeles",
            "CA",
            "US"
        ),
        ["Ontario, CA"]
    );
    assert_eq!(
        names(
            "Warehouse jobs",
            "A grocer opened a warehouse in Ontario, Calif.",
            "Toronto",
            "ON",
            "CA"
        ),
        ["Ontario, CA"]
    );
}

#[test]
fn washington_state_and_new_york_state_are_not_the_cities() {
    assert!(names("Washington lawmakers pass ferry funding", "", "Seattle", "WA", "US").is_empty());
    assert_eq!(
        names("Senators meet in Washington", "", "Boston", "MA", "US"),
        ["Washington, DC"]
    );
    assert_eq!(
        names(
            "Upstate New York braces for snow",
            "The heaviest totals will be in Watertown.",
            "New York City",
            "NY",
            "US"
        ),
        ["Watertown, NY"]
    );
    // The state after a city is its qualifier, not a second place.
    assert_eq!(
        names("Snow buries Buffalo, New York", "", "Chicago", "IL", "US"),
        ["Buffalo, NY"]
    );
}

#[test]
fn territories_are_not_cities_and_their_capitals_are_known() {
    assert!(
        names(
            "Yukon bans plastic bags",
            "The territory acted on Monday.",
            "Vancouver",
            "BC",
            "CA"
        )
        .is_empty()
    );
    assert!(
        names(
            "Les Territoires du Nord-Ouest déclarent l'état d'urgence",
            "",
            "Montréal",
            "QC",
            "CA"
        )
        .is_empty()
    );
    assert_eq!(
        names(
            "Housing bill passes",
            "Nunavut's legislature in Iqaluit passed it.",
            "Toronto",
            "ON",
            "CA"
        ),
        ["Iqaluit, NU"]
    );
    assert_eq!(
        names("Whitehorse opens a clinic", "", "Vancouver", "BC", "CA"),
        ["Whitehorse, YT"]
    );
}

#[test]
fn well_known_cities_need_no_qualifier_in_a_national_story() {
    assert_eq!(
        names("Premiers meet in Charlottetown", "", "Toronto", "ON", "CA"),
        ["Charlottetown, PE"]
    );
    assert_eq!(
        names("Plant to open in Boise", "", "Calgary", "AB", "CA"),
        ["Boise, ID"]
    );
    assert_eq!(
        names("Moncton hosts curling final", "", "Vancouver", "BC", "CA"),
        ["Moncton, NB"]
    );
    // A person's first name is not a small capital: "Pierre" is not Pierre, S.D.
    assert!(
        !names("Pierre a gagné", "Pierre a remporté le prix.", "Montréal", "QC", "CA")
            .contains(&"Pierre, SD".to_string())
    );
}

#[test]
fn saint_and_st_forms_name_the_same_city() {
    assert_eq!(
        names("St. Paul council votes", "", "Denver", "CO", "US"),
        ["Saint Paul, MN"]
    );
    assert_eq!(
        names("Saint Louis zoo expands", "", "New York City", "NY", "US"),
        ["St. Louis, MO"]
    );
    assert_eq!(
        names("Une usine ferme à St-Jean-sur-Richelieu", "", "Montréal", "QC", "CA"),
        ["Saint-Jean-sur-Richelieu, QC"]
    );
    assert_eq!(
        names("Locks close in Sault Ste. Marie, Mich.", "", "Chicago", "IL", "US"),
        ["Sault Ste. Marie, MI"]
    );
    assert_eq!(
        names("Fog in St. John's", "", "Toronto", "ON", "CA"),
        ["St. John's, NL"]
    );
    assert_eq!(
        names("Ft. Lauderdale beach closes", "", "Boston", "MA", "US"),
        ["Fort Lauderdale, FL"]
    );
}

#[test]
fn french_and_spanish_state_and_province_names_qualify_cities() {
    assert_eq!(
        names(
            "Un pont fermé à Bathurst, au Nouveau-Brunswick",
            "",
            "Montréal",
            "QC",
            "CA"
        ),
        ["Bathurst, NB"]
    );
    assert_eq!(
        names("Huracán en Wilmington, Carolina del Norte", "", "Houston", "TX", "US"),
        ["Wilmington, NC"]
    );
    // El Paso's Texan namesake loses to the qualifier.
    assert_eq!(
        names("Santa Fe, Nuevo México, limita las rentas", "", "El Paso", "TX", "US"),
        ["Santa Fe, NM"]
    );
    assert_eq!(
        names("Inundaciones en San Luis, Misuri", "", "Chicago", "IL", "US"),
        ["St. Louis, MO"]
    );
    assert_eq!(
        names("Nueva York prohíbe el gas", "", "Miami", "FL", "US"),
        ["New York City, NY"]
    );
    assert_eq!(
        names(
            "Inondations",
            "Les pluies ont inondé Plattsburgh, dans l'État de New York.",
            "Montréal",
            "QC",
            "CA"
        ),
        ["Plattsburgh, NY"]
    );
    assert_eq!(
        names(
            "Des feux menacent Penticton, en Colombie-Britannique",
            "",
            "Gatineau",
            "QC",
            "CA"
        ),
        ["Penticton, BC"]
    );
}

#[test]
fn miami_beach_is_not_miami() {
    assert_eq!(
        names("Miami Beach bans spring break parties", "", "New York City", "NY", "US"),
        ["Miami Beach, FL"]
    );
    assert_eq!(
        names("North Vancouver seawall closes", "", "Ottawa", "ON", "CA"),
        ["North Vancouver, BC"]
    );
    assert_eq!(
        names("New Westminster adds a station", "", "Toronto", "ON", "CA"),
        ["New Westminster, BC"]
    );
    assert_eq!(
        names("Fire in Kansas City, Kansas", "", "Kansas City", "MO", "US"),
        ["Kansas City, KS"]
    );
    // A longer name nobody picks still hides the shorter one inside it.
    assert!(
        !names("Palm Beach Gardens opens a park", "", "Seattle", "WA", "US").contains(&"Palm Beach, FL".to_string())
    );
}

#[test]
fn people_named_like_cities_are_not_places() {
    assert_eq!(
        names(
            "Jackson wins council seat",
            "Council member Tamika Jackson won re-election in D.C. on Tuesday.",
            "Washington",
            "DC",
            "US"
        ),
        ["Washington, DC"]
    );
    assert_eq!(
        names(
            "Lincoln statue returns",
            "A statue of Abraham Lincoln was reinstalled in Springfield.",
            "Chicago",
            "IL",
            "US"
        ),
        ["Springfield, IL"]
    );
    assert_eq!(
        names("Singer Savannah Price plays the Fox", "", "Atlanta", "GA", "US"),
        ["Atlanta, GA"]
    );
    assert_eq!(
        names("Concejal Lincoln Ortiz pide más buses", "", "New York City", "NY", "US"),
        ["New York City, NY"]
    );
    // The city stays a city next to another place name.
    assert_eq!(
        names(
            "Inundaciones en Beaumont; Houston envía rescatistas",
            "",
            "Houston",
            "TX",
            "US"
        ),
        ["Beaumont, TX", "Houston, TX"]
    );
}

#[test]
fn greater_sudbury_is_the_sudbury_of_the_news() {
    assert_eq!(
        names("Sudbury mine reopens", "", "Toronto", "ON", "CA"),
        ["Greater Sudbury, ON"]
    );
    assert_eq!(
        names("Sudbury, Mass., library expands", "", "Toronto", "ON", "CA"),
        ["Sudbury, MA"]
    );
}

#[test]
fn a_story_abroad_is_not_about_the_publishers_city() {
    assert!(
        names(
            "Diplomats gather in Brussels",
            "Ministers met on Thursday.",
            "Washington",
            "DC",
            "US"
        )
        .is_empty()
    );
    assert!(
        names(
            "Une cheffe primée",
            "Elle a gagné à Lyon, en France.",
            "Gatineau",
            "QC",
            "CA"
        )
        .is_empty()
    );
    assert!(
        names(
            "Sismo",
            "Un sismo sacudió Oaxaca, en México.",
            "Los Angeles",
            "CA",
            "US"
        )
        .is_empty()
    );
    // A Paris, Texas paper's Paris is its own city.
    assert_eq!(
        names(
            "Hospital adds a unit",
            "The hospital in Paris will grow.",
            "Paris",
            "TX",
            "US"
        ),
        ["Paris, TX"]
    );
}
