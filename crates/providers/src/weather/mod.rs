//! `GET /api/weather`: the forecast for a city (issue 20; D280–D283). Open-Meteo is asked
//! once per city and interval however many readers ask ([`Weather`]'s cache, stale while
//! it revalidates); the answer is kept serialized in both units, so a reader from cache
//! costs a lookup and a copy. A hanging or broken upstream never holds a reader more than
//! [`WeatherConfig::wait`]: they get what is kept, or a 503 "unavailable" envelope.

pub mod alerts;
pub mod demo;
pub mod kept;
pub mod open_meteo;

use crate::Unavailable;
use crate::kept_answer::KeptAnswer;
use geo::CityId;
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;
use utoipa::ToSchema;

/// Where the forecast comes from and how long answers are kept (`--weather-url`,
/// `--demo`).
#[derive(Debug, Clone)]
pub struct WeatherConfig {
    /// Open-Meteo's base address; `/v1/forecast` is appended.
    pub url: String,
    /// Serve made-up, labelled weather without any network (`serve --demo`, D282).
    pub demo: bool,
    /// How long a forecast is fresh and kept, and how long readers and retries wait.
    pub timing: kept::Timing,
}

impl Default for WeatherConfig {
    fn default() -> Self {
        WeatherConfig {
            url: open_meteo::DEFAULT_URL.into(),
            demo: false,
            timing: kept::Timing {
                fresh_for: Duration::from_secs(15 * 60),
                keep_for: Duration::from_secs(6 * 3600),
                ..kept::Timing::default()
            },
        }
    }
}

/// A forecast as read from the upstream, in metric units (°C, km/h, mm); times are UTC ms.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Forecast {
    /// The city's IANA time zone (format times with it).
    pub timezone: String,
    pub utc_offset_seconds: i64,
    pub current: Current,
    /// The next 48 hours from the current one.
    pub hourly: Vec<Hour>,
    /// Today and the next 6 days.
    pub daily: Vec<Day>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Current {
    /// When observed (UTC ms).
    pub time: i64,
    pub temperature: f64,
    pub apparent_temperature: Option<f64>,
    /// Relative humidity, %.
    pub humidity: Option<f64>,
    /// Day or night at the place (for the icon).
    pub is_day: bool,
    pub precipitation: f64,
    /// WMO weather interpretation code (0 clear … 99 thunderstorm with hail).
    pub weather_code: u8,
    pub wind_speed: f64,
    /// Where the wind comes from, degrees.
    pub wind_direction: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Hour {
    /// The hour's start (UTC ms).
    pub time: i64,
    pub temperature: f64,
    pub weather_code: u8,
    pub is_day: bool,
    /// Chance of precipitation, %.
    pub precipitation_probability: Option<f64>,
    pub wind_speed: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct Day {
    /// The local date, YYYY-MM-DD.
    pub date: String,
    pub weather_code: u8,
    pub temperature_max: f64,
    pub temperature_min: f64,
    /// Highest chance of precipitation in the day, %.
    pub precipitation_probability: Option<f64>,
    pub precipitation_sum: f64,
    pub wind_speed_max: f64,
    /// UTC ms; absent in polar night or day.
    pub sunrise: Option<i64>,
    pub sunset: Option<i64>,
}

/// The reader's units (§1.6, §4.8; default F, §9.12): F goes with mph and inches, C with
/// km/h and millimetres (D281).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    F,
    C,
}

impl Unit {
    pub fn index(self) -> usize {
        self as usize
    }

    fn units(self) -> Units {
        match self {
            Unit::F => Units {
                temperature: "°F",
                wind_speed: "mph",
                precipitation: "in",
            },
            Unit::C => Units {
                temperature: "°C",
                wind_speed: "km/h",
                precipitation: "mm",
            },
        }
    }

    fn temperature(self, c: f64) -> f64 {
        match self {
            Unit::F => round1(c * 9.0 / 5.0 + 32.0),
            Unit::C => round1(c),
        }
    }

    fn speed(self, kmh: f64) -> f64 {
        match self {
            Unit::F => round1(kmh / 1.609_344),
            Unit::C => round1(kmh),
        }
    }

    fn amount(self, mm: f64) -> f64 {
        match self {
            Unit::F => (mm / 25.4 * 100.0).round() / 100.0,
            Unit::C => round1(mm),
        }
    }

    /// The forecast in these units.
    fn convert(self, f: &Forecast) -> Forecast {
        let t = |v: f64| self.temperature(v);
        Forecast {
            timezone: f.timezone.clone(),
            utc_offset_seconds: f.utc_offset_seconds,
            current: Current {
                temperature: t(f.current.temperature),
                apparent_temperature: f.current.apparent_temperature.map(t),
                precipitation: self.amount(f.current.precipitation),
                wind_speed: self.speed(f.current.wind_speed),
                ..f.current.clone()
            },
            hourly: f
                .hourly
                .iter()
                .map(|h| Hour {
                    temperature: t(h.temperature),
                    wind_speed: self.speed(h.wind_speed),
                    ..h.clone()
                })
                .collect(),
            daily: f
                .daily
                .iter()
                .map(|d| Day {
                    temperature_max: t(d.temperature_max),
                    temperature_min: t(d.temperature_min),
                    precipitation_sum: self.amount(d.precipitation_sum),
                    wind_speed_max: self.speed(d.wind_speed_max),
                    ..d.clone()
                })
                .collect(),
        }
    }
}

fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Units {
    /// °F or °C.
    pub temperature: &'static str,
    /// mph or km/h.
    pub wind_speed: &'static str,
    /// in or mm.
    pub precipitation: &'static str,
}

/// `GET /api/weather`'s data.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct WeatherDoc {
    #[schema(value_type = i64)]
    pub city_id: CityId,
    /// `open-meteo`, or `demo` for the made-up weather of `serve --demo` (the app labels it).
    pub source: &'static str,
    /// The credit to show with the data.
    pub attribution: &'static str,
    /// F or C, as asked.
    pub unit: &'static str,
    pub units: Units,
    /// When the server got this forecast (UTC ms); older than 15 minutes means the
    /// upstream could not be reached since.
    pub fetched_at: i64,
    #[serde(flatten)]
    pub forecast: Forecast,
}

const ATTRIBUTION: &str = "Weather data by Open-Meteo.com (CC BY 4.0)";
const DEMO_ATTRIBUTION: &str = "Demo weather: made up by this server, not a forecast";

/// One city's answer, serialized in both units (index: [`Unit::index`]).
pub struct Kept {
    pub bodies: [KeptAnswer; 2],
    /// The same with the current conditions alone (no hours, no days): what home's widget
    /// shows, a quarter of the bytes (D425).
    pub now: [KeptAnswer; 2],
}

/// The forecast cache: per city, stale while revalidate, one upstream call at a time.
#[derive(Clone)]
pub struct Weather(Arc<Inner>);

struct Inner {
    config: WeatherConfig,
    client: reqwest::Client,
    kept: kept::KeptPerCity<Kept>,
}

/// Why there is no forecast to give.
fn unavailable() -> Unavailable {
    Unavailable("Weather is unavailable right now; try again in a minute.".into())
}

impl Weather {
    pub fn new(config: WeatherConfig) -> Weather {
        let client = crate::upstream::client(
            concat!("Localwire/", env!("CARGO_PKG_VERSION"), " (self-hosted news reader)"),
            Duration::from_secs(3),
        );
        Weather(Arc::new(Inner {
            config,
            client,
            kept: kept::KeptPerCity::default(),
        }))
    }

    /// The kept answer for `city`, renewing it when due; waits at most `wait` when none is kept.
    pub async fn answer(&self, city: &'static geo::City) -> Result<Arc<Kept>, Unavailable> {
        let timing = self.0.config.timing;
        let this = self.clone();
        self.0
            .kept
            .get(city.id, timing, move || async move { this.call_upstream(city).await })
            .await
            .ok_or_else(unavailable)
    }

    /// One call to the upstream for `city` (or the demo forecast); `None` when it failed.
    async fn call_upstream(&self, city: &'static geo::City) -> Option<Kept> {
        let cfg = &self.0.config;
        let result = if cfg.demo {
            Ok(demo::forecast(
                city.lat,
                city.lon,
                city.timezone,
                domain::clock::now_ms(),
            ))
        } else {
            open_meteo::fetch(&self.0.client, &cfg.url, city.lat, city.lon).await
        };
        match result {
            Ok(f) => match Kept::new(city.id, cfg.demo, &f) {
                Ok(k) => Some(k),
                Err(e) => {
                    tracing::warn!(error = %e, "weather: serializing a forecast");
                    None
                }
            },
            Err(e) => {
                tracing::warn!(city = city.id.0, error = %e, "weather: the upstream failed");
                None
            }
        }
    }
}

impl Kept {
    fn new(city_id: CityId, demo: bool, f: &Forecast) -> Result<Kept, serde_json::Error> {
        let fetched_at = domain::clock::now_ms();
        let body = |unit: Unit, now_only: bool| {
            let mut forecast = unit.convert(f);
            if now_only {
                forecast.hourly.clear();
                forecast.daily.clear();
            }
            let doc = WeatherDoc {
                city_id,
                source: if demo { "demo" } else { "open-meteo" },
                attribution: if demo { DEMO_ATTRIBUTION } else { ATTRIBUTION },
                unit: if unit == Unit::F { "F" } else { "C" },
                units: unit.units(),
                fetched_at,
                forecast,
            };
            KeptAnswer::of(doc)
        };
        Ok(Kept {
            bodies: [body(Unit::F, false)?, body(Unit::C, false)?],
            now: [body(Unit::F, true)?, body(Unit::C, true)?],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_9_12_fahrenheit_goes_with_mph_and_inches_celsius_with_kmh_and_mm() {
        let f = open_meteo::parse(include_bytes!("../../tests/fixtures/open-meteo-forecast.json")).unwrap();
        let us = Unit::F.convert(&f);
        assert_eq!(us.current.temperature, 48.9, "9.4 °C");
        assert_eq!(us.current.wind_speed, 8.5, "13.7 km/h");
        assert_eq!(us.daily[1].precipitation_sum, 0.24, "6.2 mm");
        let metric = Unit::C.convert(&f);
        assert_eq!(metric, f);
        assert_eq!(Unit::F.units().temperature, "°F");
    }

    #[test]
    fn demo_weather_has_48_hours_and_7_days_from_now() {
        let f = demo::forecast(38.9, -77.0, "America/New_York", 1_795_634_100_000);
        assert_eq!((f.hourly.len(), f.daily.len()), (48, 7));
        assert_eq!(f.hourly[0].time, 1_795_633_200_000);
        assert_eq!(f.daily[0].date, "2026-11-25");
    }
}
