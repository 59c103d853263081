//! Environment and Climate Change Canada's alerts, from MSC GeoMet's OGC API
//! (`GET {eccc}/collections/weather-alerts/items?f=json&bbox=…`, https://api.weather.gc.ca):
//! a GeoJSON FeatureCollection, one feature per alert and forecast region, with the
//! region's polygon and the alert in English and French (`*_en`, `*_fr`). GeoMet builds it
//! from ECCC's CAP messages; it is asked for a small box around the city and a feature
//! counts only when its polygon holds the city's point (D284).

use super::{Alert, Severity, UpstreamError, Words, get, parse_time, sanitise};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashSet;

/// The production base address (`--eccc-url`).
pub const DEFAULT_URL: &str = "https://api.weather.gc.ca";

/// Half the side of the box asked around the city, in degrees (about 1 km).
const BOX: f64 = 0.01;

/// ECCC's public warnings pages, where a reader reads more.
const PAGE_EN: &str = "https://weather.gc.ca/warnings/index_e.html";
const PAGE_FR: &str = "https://meteo.gc.ca/warnings/index_f.html";

pub fn alerts_url(base: &str, lat: f64, lon: f64) -> String {
    format!(
        "{}/collections/weather-alerts/items?f=json&limit=100&bbox={:.4},{:.4},{:.4},{:.4}",
        base.trim_end_matches('/'),
        lon - BOX,
        lat - BOX,
        lon + BOX,
        lat + BOX
    )
}

pub async fn fetch(client: &reqwest::Client, base: &str, lat: f64, lon: f64) -> Result<Vec<Alert>, UpstreamError> {
    let body = get(
        client,
        &alerts_url(base, lat, lon),
        "application/geo+json, application/json",
    )
    .await?;
    parse(&body, lat, lon)
}

#[derive(Deserialize)]
struct Collection {
    #[serde(rename = "type")]
    kind: String,
    features: Vec<Feature>,
}

#[derive(Deserialize)]
struct Feature {
    id: Option<Value>,
    geometry: Option<Geometry>,
    #[serde(default)]
    properties: Properties,
}

#[derive(Deserialize)]
#[serde(tag = "type", content = "coordinates")]
enum Geometry {
    Polygon(Vec<Vec<[f64; 2]>>),
    MultiPolygon(Vec<Vec<Vec<[f64; 2]>>>),
    #[serde(other)]
    Other,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct Properties {
    id: Option<String>,
    alert_code: Option<String>,
    alert_type: Option<String>,
    alert_name_en: Option<String>,
    alert_name_fr: Option<String>,
    alert_text_en: Option<String>,
    alert_text_fr: Option<String>,
    risk_colour_en: Option<String>,
    status_en: Option<String>,
    publication_datetime: Option<String>,
    validity_datetime: Option<String>,
    expiration_datetime: Option<String>,
    event_end_datetime: Option<String>,
    feature_name_en: Option<String>,
    feature_name_fr: Option<String>,
}

/// Even-odd test over GeoJSON rings ([lon, lat]); holes are rings too.
fn in_rings(rings: &[Vec<[f64; 2]>], lat: f64, lon: f64) -> bool {
    let mut inside = false;
    for ring in rings {
        let n = ring.len();
        for i in 0..n {
            let [xi, yi] = ring[i];
            let [xj, yj] = ring[(i + n - 1) % n];
            if (yi > lat) != (yj > lat) && lon < (xj - xi) * (lat - yi) / (yj - yi) + xi {
                inside = !inside;
            }
        }
    }
    inside
}

impl Geometry {
    fn holds(&self, lat: f64, lon: f64) -> Option<bool> {
        match self {
            Geometry::Polygon(rings) => Some(in_rings(rings, lat, lon)),
            Geometry::MultiPolygon(polys) => Some(polys.iter().any(|p| in_rings(p, lat, lon))),
            Geometry::Other => None,
        }
    }
}

/// GeoMet gives no CAP severity; its colour (ECCC's impact levels) and the alert's type
/// stand for it (D284): red → Extreme, orange → Severe, yellow → Moderate; otherwise a
/// warning is Severe, a watch or an advisory Moderate, a statement Minor.
fn severity(colour: Option<&str>, kind: Option<&str>) -> Severity {
    match colour.unwrap_or("").trim().to_ascii_lowercase().as_str() {
        "red" => return Severity::Extreme,
        "orange" => return Severity::Severe,
        "yellow" => return Severity::Moderate,
        _ => {}
    }
    match kind.unwrap_or("").trim().to_ascii_lowercase().as_str() {
        "warning" => Severity::Severe,
        "watch" | "advisory" => Severity::Moderate,
        "statement" => Severity::Minor,
        _ => Severity::Unknown,
    }
}

/// Reads an answer for the point `lat`/`lon`: features whose polygon holds the point (a
/// feature without one counts when it names no other place: GeoMet's box already chose
/// it), ended ones left out, one alert per code and issue however many regions repeat it.
pub fn parse(body: &[u8], lat: f64, lon: f64) -> Result<Vec<Alert>, UpstreamError> {
    let c: Collection = serde_json::from_slice(body).map_err(|e| UpstreamError::Format(e.to_string()))?;
    if c.kind != "FeatureCollection" {
        return Err(UpstreamError::Format(format!(
            "a {} instead of a FeatureCollection",
            c.kind
        )));
    }
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for f in c.features {
        if f.geometry.as_ref().and_then(|g| g.holds(lat, lon)) == Some(false) {
            continue;
        }
        let p = f.properties;
        let status = p.status_en.as_deref().unwrap_or("").to_ascii_lowercase();
        if status.contains("ended") || status.contains("cancel") {
            continue;
        }
        let feature_id = match f.id {
            Some(Value::String(s)) => Some(s),
            Some(Value::Number(n)) => Some(n.to_string()),
            _ => None,
        };
        let code = p.alert_code.clone().or(p.alert_name_en.clone()).unwrap_or_default();
        let issue = p.publication_datetime.clone().unwrap_or_default();
        if !seen.insert((code.clone(), issue.clone())) {
            continue;
        }
        let Some(id) = p.id.clone().or(feature_id) else {
            continue;
        };
        let text = |s: &Option<String>| sanitise(s.as_deref().unwrap_or(""));
        let en_event = text(&p.alert_name_en);
        let fr_event = text(&p.alert_name_fr);
        let en = Words {
            headline: en_event.clone(),
            event: en_event,
            description: text(&p.alert_text_en),
            instruction: String::new(),
            area: text(&p.feature_name_en),
            sender: "Environment and Climate Change Canada".into(),
            url: PAGE_EN.into(),
        };
        let fr = (!fr_event.is_empty()).then(|| Words {
            headline: fr_event.clone(),
            event: fr_event,
            description: text(&p.alert_text_fr),
            instruction: String::new(),
            area: text(&p.feature_name_fr),
            sender: "Environnement et Changement climatique Canada".into(),
            url: PAGE_FR.into(),
        });
        out.push(Alert {
            id,
            severity: severity(p.risk_colour_en.as_deref(), p.alert_type.as_deref()),
            urgency: String::new(),
            certainty: String::new(),
            onset: parse_time(p.validity_datetime.as_deref()).or(parse_time(p.publication_datetime.as_deref())),
            ends: parse_time(p.event_end_datetime.as_deref()).or(parse_time(p.expiration_datetime.as_deref())),
            expires: parse_time(p.expiration_datetime.as_deref()),
            en,
            fr,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ottawa's coordinates in the gazetteer.
    const OTTAWA: (f64, f64) = (45.41117, -75.69812);

    #[test]
    fn d284_only_regions_whose_polygon_holds_the_city_count() {
        let body = include_bytes!("../../../tests/fixtures/eccc-weather-alerts.geojson");
        let alerts = parse(body, OTTAWA.0, OTTAWA.1).unwrap();
        let names: Vec<_> = alerts.iter().map(|a| a.en.event.as_str()).collect();
        assert!(names.contains(&"snowfall warning"), "{names:?}");
        assert!(!names.contains(&"wind warning"), "Prescott and Russell only: {names:?}");
        assert!(!names.contains(&"freezing rain warning"), "ended: {names:?}");
        assert_eq!(
            names.iter().filter(|n| **n == "snowfall warning").count(),
            1,
            "one alert, however many regions repeat it"
        );
        let snow = alerts.iter().find(|a| a.en.event == "snowfall warning").unwrap();
        assert_eq!(snow.severity, Severity::Severe);
        let fr = snow.fr.as_ref().unwrap();
        assert_eq!(fr.event, "avertissement de neige");
        assert!(fr.description.contains('\n'));
    }

    #[test]
    fn d284_severity_from_colour_then_type() {
        assert_eq!(severity(Some("red"), Some("statement")), Severity::Extreme);
        assert_eq!(severity(None, Some("warning")), Severity::Severe);
        assert_eq!(severity(Some(""), Some("watch")), Severity::Moderate);
        assert_eq!(severity(None, Some("statement")), Severity::Minor);
        assert_eq!(severity(None, None), Severity::Unknown);
    }

    #[test]
    fn the_point_in_polygon_test_knows_inside_from_outside() {
        let square = vec![vec![[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [0.0, 0.0]]];
        assert!(in_rings(&square, 1.0, 1.0));
        assert!(!in_rings(&square, 3.0, 1.0));
    }
}
