//! The US National Weather Service's active alerts by point
//! (`GET {nws}/alerts/active?point={lat},{lon}`, https://www.weather.gov/documentation/services-web-api):
//! a GeoJSON FeatureCollection (`application/geo+json`) whose features' `properties` carry
//! the CAP fields. NWS writes in English only.

use super::{Alert, Severity, UpstreamError, Words, get, parse_time, sanitise};
use serde::Deserialize;

/// The production base address (`--nws-url`).
pub const DEFAULT_URL: &str = "https://api.weather.gov";

/// The address asked for a point (NWS takes at most 4 decimals).
pub fn alerts_url(base: &str, lat: f64, lon: f64) -> String {
    format!("{}/alerts/active?point={lat:.4},{lon:.4}", base.trim_end_matches('/'))
}

pub async fn fetch(client: &reqwest::Client, base: &str, lat: f64, lon: f64) -> Result<Vec<Alert>, UpstreamError> {
    let body = get(client, &alerts_url(base, lat, lon), "application/geo+json").await?;
    parse(&body)
}

#[derive(Deserialize)]
struct Collection {
    #[serde(rename = "type")]
    kind: String,
    features: Vec<Feature>,
}

#[derive(Deserialize)]
struct Feature {
    id: Option<String>,
    properties: Properties,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Properties {
    #[serde(rename = "@id")]
    at_id: Option<String>,
    id: Option<String>,
    area_desc: Option<String>,
    effective: Option<String>,
    onset: Option<String>,
    expires: Option<String>,
    ends: Option<String>,
    status: Option<String>,
    message_type: Option<String>,
    severity: Option<String>,
    certainty: Option<String>,
    urgency: Option<String>,
    event: Option<String>,
    sender_name: Option<String>,
    headline: Option<String>,
    description: Option<String>,
    instruction: Option<String>,
}

/// Reads an answer. Only actual alerts count: tests, exercises and cancellations are left
/// out (a cancelled alert has nothing left to say to a reader).
pub fn parse(body: &[u8]) -> Result<Vec<Alert>, UpstreamError> {
    let c: Collection = serde_json::from_slice(body).map_err(|e| UpstreamError::Format(e.to_string()))?;
    if c.kind != "FeatureCollection" {
        return Err(UpstreamError::Format(format!(
            "a {} instead of a FeatureCollection",
            c.kind
        )));
    }
    Ok(c.features
        .into_iter()
        .filter(|f| f.properties.status.as_deref().unwrap_or("Actual") == "Actual")
        .filter(|f| f.properties.message_type.as_deref() != Some("Cancel"))
        .filter_map(|f| {
            let p = f.properties;
            let id = p.id.clone().or(f.id.clone())?;
            let url = p.at_id.or(f.id).unwrap_or_default();
            let text = |s: Option<String>| sanitise(&s.unwrap_or_default());
            let event = text(p.event);
            Some(Alert {
                id,
                severity: Severity::from_cap(p.severity.as_deref().unwrap_or("")),
                urgency: text(p.urgency),
                certainty: text(p.certainty),
                onset: parse_time(p.onset.as_deref()).or(parse_time(p.effective.as_deref())),
                ends: parse_time(p.ends.as_deref()).or(parse_time(p.expires.as_deref())),
                expires: parse_time(p.expires.as_deref()),
                en: Words {
                    headline: match text(p.headline) {
                        h if h.is_empty() => event.clone(),
                        h => h,
                    },
                    event,
                    description: text(p.description),
                    instruction: text(p.instruction),
                    area: text(p.area_desc),
                    sender: match text(p.sender_name) {
                        s if s.is_empty() => "National Weather Service".into(),
                        s => s,
                    },
                    url: if url.starts_with("https://") || url.starts_with("http://") {
                        url
                    } else {
                        String::new()
                    },
                },
                fr: None,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d284_reads_the_nws_fixture_and_leaves_out_tests_and_cancellations() {
        let alerts = parse(include_bytes!("../../../tests/fixtures/nws-alerts-active.geojson")).unwrap();
        let ids: Vec<_> = alerts.iter().map(|a| a.id.as_str()).collect();
        assert!(!ids.iter().any(|i| i.contains("test")), "{ids:?}");
        let storm = alerts.iter().find(|a| a.en.event == "Winter Storm Warning").unwrap();
        assert_eq!(storm.severity, Severity::Severe);
        assert_eq!(storm.en.sender, "NWS Sterling VA");
        assert!(storm.en.description.contains('\n'));
        assert!(storm.en.url.starts_with("https://api.weather.gov/alerts/urn:oid:"));
        assert!(storm.onset.is_some() && storm.ends.is_some());
    }

    #[test]
    fn d284_what_is_not_a_feature_collection_is_an_error() {
        assert!(parse(b"{\"type\":\"Feature\",\"features\":[]}").is_err());
        assert!(parse(b"<html>").is_err());
        assert_eq!(
            parse(b"{\"type\":\"FeatureCollection\",\"features\":[]}").unwrap(),
            vec![]
        );
    }

    #[test]
    fn the_point_has_four_decimals() {
        assert_eq!(
            alerts_url("http://x/", 38.895_11, -77.036_37),
            "http://x/alerts/active?point=38.8951,-77.0364"
        );
    }
}
