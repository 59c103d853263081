//! `serve --demo`'s alerts (D287): made up, labelled, for the two default cities only
//! (Washington and Ottawa, §9.1), so a fresh offline machine shows the alert list and the
//! home banner, and every other city shows the "no alerts" state. The words say they are
//! a demo, in both languages.

use super::{Alert, Severity, Words};
use domain::geo::Country;

const HOUR_MS: i64 = 3_600_000;

/// The demo alerts for `city` at `now_ms` (none for a city that is not a default city).
pub fn alerts(city: &geo::City, now_ms: i64) -> Vec<Alert> {
    let is_default = geo::default_city(city.iso).is_some_and(|d| d.id == city.id);
    if !is_default {
        return Vec::new();
    }
    let (sender_en, sender_fr) = match city.iso {
        Country::Us => ("Localwire demo (not the National Weather Service)", None),
        Country::Ca => (
            "Localwire demo (not Environment and Climate Change Canada)",
            Some("Démo Localwire (pas Environnement et Changement climatique Canada)"),
        ),
    };
    let area = format!("{}, {}", city.name, city.admin_code);
    let fr = |event: &str, description: &str| {
        sender_fr.map(|sender| Words {
            event: format!("DÉMO {event}"),
            headline: format!("DÉMO : {event} pour {area}, inventé par ce serveur"),
            description: description.into(),
            instruction: "Rien à faire : ceci est une démonstration.".into(),
            area: area.clone(),
            sender: sender.into(),
            url: String::new(),
        })
    };
    vec![
        Alert {
            id: format!("demo-{}-wind", city.id.0),
            severity: Severity::Moderate,
            urgency: "Expected".into(),
            certainty: "Likely".into(),
            onset: Some(now_ms + 3 * HOUR_MS),
            ends: Some(now_ms + 15 * HOUR_MS),
            expires: Some(now_ms + 15 * HOUR_MS),
            en: Words {
                event: "DEMO Wind Advisory".into(),
                headline: format!("DEMO: Wind Advisory for {area}, made up by this server"),
                description: "This is a demo alert made up by this server, not a real warning.\n\nIt shows how an official alert looks."
                    .into(),
                instruction: "Nothing to do: this is a demonstration.".into(),
                area: area.clone(),
                sender: sender_en.into(),
                url: String::new(),
            },
            fr: fr(
                "Avis de vent",
                "Ceci est une alerte de démonstration inventée par ce serveur, pas un vrai avertissement.\n\nElle montre à quoi ressemble une alerte officielle.",
            ),
        },
        Alert {
            id: format!("demo-{}-snow", city.id.0),
            severity: Severity::Severe,
            urgency: "Expected".into(),
            certainty: "Likely".into(),
            onset: Some(now_ms + 6 * HOUR_MS),
            ends: Some(now_ms + 30 * HOUR_MS),
            expires: Some(now_ms + 30 * HOUR_MS),
            en: Words {
                event: "DEMO Winter Storm Warning".into(),
                headline: format!("DEMO: Winter Storm Warning for {area}, made up by this server"),
                description: "This is a demo alert made up by this server, not a real warning.\n\nReal alerts come from the National Weather Service or Environment and Climate Change Canada."
                    .into(),
                instruction: "Nothing to do: this is a demonstration.".into(),
                area: area.clone(),
                sender: sender_en.into(),
                url: String::new(),
            },
            fr: fr(
                "Avertissement de tempête hivernale",
                "Ceci est une alerte de démonstration inventée par ce serveur, pas un vrai avertissement.\n\nLes vraies alertes viennent du National Weather Service ou d'Environnement et Changement climatique Canada.",
            ),
        },
    ]
}
