//! Official weather alerts for a city (issue 20 ★; D284–D286): the US National Weather
//! Service's active alerts by point ([`nws`]) and Environment and Climate Change Canada's
//! alerts from MSC GeoMet ([`eccc`]), served by `GET /api/weather/alerts` ([`handler`]).
//!
//! Kept per city with the forecast's fail-soft rules (D281): fresh for 5 minutes, served
//! while one call renews it, "unavailable" within [`AlertsConfig::wait`] when nothing is
//! kept, a failed call not repeated for a minute. Expired alerts are dropped when an answer
//! is made, not when it is fetched, so a kept list never shows one.

pub mod demo;
pub mod eccc;
pub mod nws;

use super::kept::{KeptPerCity, Timing};
use crate::Unavailable;
pub use crate::upstream::{UPSTREAM_TIMEOUT, UpstreamError};
use domain::geo::Country;
use domain::locale::Locale;
use geo::CityId;
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;
use utoipa::ToSchema;

/// Where alerts come from and how long they are kept (`--nws-url`, `--eccc-url`, `--demo`).
#[derive(Debug, Clone)]
pub struct AlertsConfig {
    /// The NWS API's base address; `/alerts/active?point=` is appended.
    pub nws_url: String,
    /// MSC GeoMet's OGC API base address; `/collections/weather-alerts/items` is appended.
    pub eccc_url: String,
    /// The User-Agent NWS requires (names the product and, when known, its address).
    pub user_agent: String,
    /// Serve labelled demo alerts without any network (`serve --demo`, D287).
    pub demo: bool,
    /// How long a list is fresh and kept, and how long readers and retries wait.
    pub timing: Timing,
}

impl Default for AlertsConfig {
    fn default() -> Self {
        AlertsConfig {
            nws_url: nws::DEFAULT_URL.into(),
            eccc_url: eccc::DEFAULT_URL.into(),
            user_agent: user_agent(None),
            demo: false,
            timing: Timing {
                fresh_for: Duration::from_secs(5 * 60),
                keep_for: Duration::from_secs(3600),
                ..Timing::default()
            },
        }
    }
}

/// NWS asks for a User-Agent that says who is calling and how to reach them: the product,
/// and this server's public address when configured (as the on-this-day feed's, D290).
pub fn user_agent(public_url: Option<&str>) -> String {
    crate::upstream::user_agent(public_url, "weather alerts for a self-hosted news reader")
}

/// CAP severity, most severe first (D285).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, ToSchema)]
pub enum Severity {
    Extreme,
    Severe,
    Moderate,
    Minor,
    Unknown,
}

impl Severity {
    pub fn from_cap(s: &str) -> Severity {
        match s.trim().to_ascii_lowercase().as_str() {
            "extreme" => Severity::Extreme,
            "severe" => Severity::Severe,
            "moderate" => Severity::Moderate,
            "minor" => Severity::Minor,
            _ => Severity::Unknown,
        }
    }
}

/// An alert's words in one language, as the issuer gave them (sanitised).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Words {
    pub event: String,
    pub headline: String,
    pub description: String,
    pub instruction: String,
    pub area: String,
    pub sender: String,
    pub url: String,
}

/// An alert as read from an upstream; `fr` when the issuer also wrote it in French.
#[derive(Debug, Clone, PartialEq)]
pub struct Alert {
    pub id: String,
    pub severity: Severity,
    pub urgency: String,
    pub certainty: String,
    /// When it starts (onset, else effective), UTC ms.
    pub onset: Option<i64>,
    /// When it ends (ends, else expires), UTC ms.
    pub ends: Option<i64>,
    /// When the message itself expires, UTC ms: past it, it is never shown.
    pub expires: Option<i64>,
    pub en: Words,
    pub fr: Option<Words>,
}

/// One alert as a reader gets it (`GET /api/weather/alerts`).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AlertItem {
    pub id: String,
    /// Extreme, Severe, Moderate, Minor or Unknown (the list is ordered by it).
    pub severity: Severity,
    /// CAP urgency as given (Immediate, Expected, Future, Past, Unknown), may be empty.
    pub urgency: String,
    /// CAP certainty as given (Observed, Likely, Possible, Unlikely, Unknown), may be empty.
    pub certainty: String,
    /// The event's name, e.g. "Winter Storm Warning".
    pub event: String,
    pub headline: String,
    /// The issuer's text: plain text, line breaks kept.
    pub description: String,
    /// What to do, in the issuer's words: plain text, may be empty.
    pub instruction: String,
    /// The areas it covers, as the issuer names them.
    pub area: String,
    /// Who issued it ("NWS Sterling VA", "Environment and Climate Change Canada").
    pub sender: String,
    /// The issuer's page for it.
    pub url: String,
    /// Start (UTC ms), when known.
    pub onset: Option<i64>,
    /// End (UTC ms), when known.
    pub ends: Option<i64>,
    /// The language the words are in (en or fr): an issuer writes in English, and in French
    /// in Canada.
    pub language: &'static str,
}

/// `GET /api/weather/alerts`'s data.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct AlertsDoc {
    #[schema(value_type = i64)]
    pub city_id: CityId,
    /// `nws` (US cities), `eccc` (Canadian cities) or `demo` (made up by `serve --demo`: the
    /// app labels it).
    pub source: &'static str,
    /// Who the alerts come from, to show with them.
    pub attribution: &'static str,
    /// When the server got this list (UTC ms).
    pub fetched_at: i64,
    /// The city's IANA time zone (show the alerts' times in it).
    pub timezone: &'static str,
    /// In force or coming, most severe first, then soonest start; expired ones never.
    pub alerts: Vec<AlertItem>,
}

/// Which issuer covers a city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Nws,
    Eccc,
    Demo,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Nws => "nws",
            Source::Eccc => "eccc",
            Source::Demo => "demo",
        }
    }

    fn attribution(self) -> &'static str {
        match self {
            Source::Nws => "Alerts from the U.S. National Weather Service (api.weather.gov)",
            Source::Eccc => {
                "Alerts from Environment and Climate Change Canada (MSC GeoMet), Open Government Licence – Canada"
            }
            Source::Demo => "Demo alerts: made up by this server, not real warnings",
        }
    }
}

/// The longest text kept from an issuer (their descriptions run to a few thousand characters).
const MAX_TEXT: usize = 8000;

/// The issuer's words as plain text (the app shows them as text, never as markup): line
/// breaks kept (CRLF and CR become LF), other control characters dropped, tabs made
/// spaces, runs of blank lines folded to one, trimmed and capped at [`MAX_TEXT`].
pub fn sanitise(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len().min(MAX_TEXT));
    let mut blank_run = 0;
    for line in text.split('\n') {
        let line: String = line
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        let line = line.trim_end();
        if line.trim().is_empty() {
            blank_run += 1;
            if blank_run > 1 || out.is_empty() {
                continue;
            }
        } else {
            blank_run = 0;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
        if out.len() > MAX_TEXT {
            break;
        }
    }
    let mut out = out.trim().to_string();
    if out.len() > MAX_TEXT {
        let mut cut = MAX_TEXT;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push('…');
    }
    out
}

/// A timestamp (RFC 3339, as CAP and both upstreams write them) in UTC ms.
pub fn parse_time(s: Option<&str>) -> Option<i64> {
    let s = s?.trim();
    chrono::DateTime::parse_from_rfc3339(s)
        .ok()
        .map(|t| t.timestamp_millis())
}

/// What a reader sees at `now`: expired alerts dropped (message expired, or ended), most
/// severe first, then the soonest start (unknown starts last), then the id (D285).
pub fn in_force(alerts: &[Alert], now: i64) -> Vec<&Alert> {
    let mut list: Vec<&Alert> = alerts
        .iter()
        .filter(|a| a.expires.is_none_or(|t| t > now) && a.ends.is_none_or(|t| t > now))
        .collect();
    list.sort_by(|a, b| {
        a.severity
            .cmp(&b.severity)
            .then_with(|| a.onset.unwrap_or(i64::MAX).cmp(&b.onset.unwrap_or(i64::MAX)))
            .then_with(|| a.id.cmp(&b.id))
    });
    list
}

impl Alert {
    /// The reader's version: French words for a French reader when the issuer wrote them.
    pub fn for_reader(&self, lang: Locale) -> AlertItem {
        let (w, language) = match (&self.fr, lang) {
            (Some(fr), Locale::Fr) => (fr, "fr"),
            _ => (&self.en, "en"),
        };
        AlertItem {
            id: self.id.clone(),
            severity: self.severity,
            urgency: self.urgency.clone(),
            certainty: self.certainty.clone(),
            event: w.event.clone(),
            headline: w.headline.clone(),
            description: w.description.clone(),
            instruction: w.instruction.clone(),
            area: w.area.clone(),
            sender: w.sender.clone(),
            url: w.url.clone(),
            onset: self.onset,
            ends: self.ends,
            language,
        }
    }
}

/// A city's list as last read.
pub struct Kept {
    fetched_at: i64,
    source: Source,
    alerts: Vec<Alert>,
}

impl Kept {
    /// The answer for a reader in `lang` at `now`.
    pub fn doc(&self, city: &geo::City, lang: Locale, now: i64) -> AlertsDoc {
        AlertsDoc {
            city_id: city.id,
            timezone: city.timezone,
            source: self.source.name(),
            attribution: self.source.attribution(),
            fetched_at: self.fetched_at,
            alerts: in_force(&self.alerts, now)
                .into_iter()
                .map(|a| a.for_reader(lang))
                .collect(),
        }
    }
}

/// The alerts cache: per city, stale while revalidate, one upstream call at a time (D286).
#[derive(Clone)]
pub struct WeatherAlerts(Arc<Inner>);

struct Inner {
    config: AlertsConfig,
    client: reqwest::Client,
    kept: KeptPerCity<Kept>,
}

fn unavailable() -> Unavailable {
    Unavailable("Weather alerts are unavailable right now; try again in a minute.".into())
}

impl WeatherAlerts {
    pub fn new(config: AlertsConfig) -> WeatherAlerts {
        let client = crate::upstream::client(&config.user_agent, Duration::from_secs(3));
        WeatherAlerts(Arc::new(Inner {
            config,
            client,
            kept: KeptPerCity::default(),
        }))
    }

    /// The kept list for `city`, renewing it when due; waits at most `wait` when none is kept.
    pub async fn answer(&self, city: &'static geo::City) -> Result<Arc<Kept>, Unavailable> {
        let timing = self.0.config.timing;
        let this = self.clone();
        self.0
            .kept
            .get(city.id, timing, move || async move { this.call_upstream(city).await })
            .await
            .ok_or_else(unavailable)
    }

    /// One call to the city's issuer (or the demo alerts); `None` when it failed.
    async fn call_upstream(&self, city: &'static geo::City) -> Option<Kept> {
        let cfg = &self.0.config;
        let (source, result) = if cfg.demo {
            (Source::Demo, Ok(demo::alerts(city, domain::clock::now_ms())))
        } else {
            match city.iso {
                Country::Us => (
                    Source::Nws,
                    nws::fetch(&self.0.client, &cfg.nws_url, city.lat, city.lon).await,
                ),
                Country::Ca => (
                    Source::Eccc,
                    eccc::fetch(&self.0.client, &cfg.eccc_url, city.lat, city.lon).await,
                ),
            }
        };
        match result {
            Ok(alerts) => Some(Kept {
                fetched_at: domain::clock::now_ms(),
                source,
                alerts,
            }),
            Err(err) => {
                tracing::warn!(city = city.id.0, error = %err, "weather alerts: the upstream failed");
                None
            }
        }
    }
}

/// GETs `url` with `accept` and returns the body of a 2xx answer.
pub(crate) async fn get(client: &reqwest::Client, url: &str, accept: &str) -> Result<Vec<u8>, UpstreamError> {
    crate::upstream::get(client, url, Some(accept), UPSTREAM_TIMEOUT).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alert(id: &str, severity: Severity, onset: Option<i64>, expires: Option<i64>) -> Alert {
        Alert {
            id: id.into(),
            severity,
            urgency: String::new(),
            certainty: String::new(),
            onset,
            ends: None,
            expires,
            en: Words::default(),
            fr: None,
        }
    }

    #[test]
    fn d285_most_severe_first_then_soonest_start() {
        let list = vec![
            alert("minor", Severity::Minor, Some(1), None),
            alert("unknown", Severity::Unknown, Some(1), None),
            alert("severe-late", Severity::Severe, Some(50), None),
            alert("extreme", Severity::Extreme, None, None),
            alert("severe-soon", Severity::Severe, Some(10), None),
            alert("moderate", Severity::Moderate, Some(5), None),
        ];
        let ids: Vec<_> = in_force(&list, 0).iter().map(|a| a.id.as_str()).collect();
        assert_eq!(
            ids,
            ["extreme", "severe-soon", "severe-late", "moderate", "minor", "unknown"]
        );
    }

    #[test]
    fn d285_expired_alerts_are_never_shown() {
        let mut ended = alert("ended", Severity::Extreme, Some(1), Some(10_000));
        ended.ends = Some(100);
        let list = vec![
            alert("expired", Severity::Extreme, Some(1), Some(100)),
            ended,
            alert("current", Severity::Minor, Some(1), Some(10_000)),
        ];
        let ids: Vec<_> = in_force(&list, 100).iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["current"]);
    }

    #[test]
    fn d285_the_issuers_words_keep_their_line_breaks_and_lose_control_characters() {
        let text = "\r\n* WHAT...Heavy snow.\r\n\r\n\r\n* WHERE...DC.\u{7}\tNow \n";
        assert_eq!(sanitise(text), "* WHAT...Heavy snow.\n\n* WHERE...DC. Now");
        let long = "x".repeat(MAX_TEXT + 50);
        assert!(sanitise(&long).chars().count() <= MAX_TEXT + 1);
    }

    #[test]
    fn severity_reads_cap_words() {
        assert_eq!(Severity::from_cap("Severe"), Severity::Severe);
        assert_eq!(Severity::from_cap(" extreme"), Severity::Extreme);
        assert_eq!(Severity::from_cap("whatever"), Severity::Unknown);
        assert!(Severity::Extreme < Severity::Unknown);
    }
}
