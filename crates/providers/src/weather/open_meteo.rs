//! Open-Meteo's `/v1/forecast` (https://open-meteo.com/en/docs): the request we make and
//! the reading of its answer into a [`Forecast`] in metric units (D281). One call per city
//! serves both units: the server converts, so F and C readers share it.

use super::{Current, Day, Forecast, Hour};
use crate::upstream::{UPSTREAM_TIMEOUT, UpstreamError, get};
use chrono::NaiveDateTime;
use serde::Deserialize;

/// The production base address (`--weather-url`).
pub const DEFAULT_URL: &str = "https://api.open-meteo.com";

const CURRENT: &str = "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,weather_code,wind_speed_10m,wind_direction_10m";
const HOURLY: &str = "temperature_2m,weather_code,is_day,precipitation_probability,wind_speed_10m";
const DAILY: &str = "weather_code,temperature_2m_max,temperature_2m_min,precipitation_probability_max,precipitation_sum,wind_speed_10m_max,sunrise,sunset";

/// The address asked for a point (metric units, local time zone, 7 days).
pub fn forecast_url(base: &str, lat: f64, lon: f64) -> String {
    format!(
        "{}/v1/forecast?latitude={lat:.4}&longitude={lon:.4}&current={CURRENT}&hourly={HOURLY}&daily={DAILY}\
         &timezone=auto&forecast_days=7&temperature_unit=celsius&wind_speed_unit=kmh&precipitation_unit=mm",
        base.trim_end_matches('/')
    )
}

pub async fn fetch(client: &reqwest::Client, base: &str, lat: f64, lon: f64) -> Result<Forecast, UpstreamError> {
    let body = get(client, &forecast_url(base, lat, lon), None, UPSTREAM_TIMEOUT).await?;
    parse(&body)
}

#[derive(Deserialize)]
struct Answer {
    timezone: String,
    utc_offset_seconds: i64,
    current: AnswerCurrent,
    hourly: AnswerHourly,
    daily: AnswerDaily,
}

#[derive(Deserialize)]
struct AnswerCurrent {
    time: String,
    temperature_2m: Option<f64>,
    relative_humidity_2m: Option<f64>,
    apparent_temperature: Option<f64>,
    is_day: Option<u8>,
    precipitation: Option<f64>,
    weather_code: Option<u8>,
    wind_speed_10m: Option<f64>,
    wind_direction_10m: Option<f64>,
}

#[derive(Deserialize)]
struct AnswerHourly {
    time: Vec<String>,
    temperature_2m: Vec<Option<f64>>,
    weather_code: Vec<Option<u8>>,
    is_day: Vec<Option<u8>>,
    precipitation_probability: Vec<Option<f64>>,
    wind_speed_10m: Vec<Option<f64>>,
}

#[derive(Deserialize)]
struct AnswerDaily {
    time: Vec<String>,
    weather_code: Vec<Option<u8>>,
    temperature_2m_max: Vec<Option<f64>>,
    temperature_2m_min: Vec<Option<f64>>,
    precipitation_probability_max: Vec<Option<f64>>,
    precipitation_sum: Vec<Option<f64>>,
    wind_speed_10m_max: Vec<Option<f64>>,
    sunrise: Vec<String>,
    sunset: Vec<String>,
}

/// Open-Meteo's local time ("2026-11-25T14:00") as UTC milliseconds.
fn local_ms(text: &str, offset_s: i64) -> Result<i64, UpstreamError> {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M")
        .map(|t| (t.and_utc().timestamp() - offset_s) * 1000)
        .map_err(|_| UpstreamError::Format(format!("time {text:?}")))
}

fn at<T: Copy>(v: &[Option<T>], i: usize) -> Option<T> {
    v.get(i).copied().flatten()
}

/// How many hours the forecast lists from the current one on.
pub const HOURS: usize = 48;
pub const DAYS: usize = 7;

pub fn parse(body: &[u8]) -> Result<Forecast, UpstreamError> {
    let a: Answer = serde_json::from_slice(body).map_err(|e| UpstreamError::Format(e.to_string()))?;
    let off = a.utc_offset_seconds;
    let c = &a.current;
    let now = local_ms(&c.time, off)?;
    let current = Current {
        time: now,
        temperature: c
            .temperature_2m
            .ok_or_else(|| UpstreamError::Format("no current temperature".into()))?,
        apparent_temperature: c.apparent_temperature,
        humidity: c.relative_humidity_2m,
        is_day: c.is_day.unwrap_or(1) == 1,
        precipitation: c.precipitation.unwrap_or(0.0),
        weather_code: c.weather_code.unwrap_or(0),
        wind_speed: c.wind_speed_10m.unwrap_or(0.0),
        wind_direction: c.wind_direction_10m,
    };
    let h = &a.hourly;
    let this_hour = now - now.rem_euclid(3_600_000);
    let mut hourly = Vec::with_capacity(HOURS);
    for (i, t) in h.time.iter().enumerate() {
        let time = local_ms(t, off)?;
        if time < this_hour {
            continue;
        }
        let (Some(temperature), Some(weather_code)) = (at(&h.temperature_2m, i), at(&h.weather_code, i)) else {
            continue;
        };
        hourly.push(Hour {
            time,
            temperature,
            weather_code,
            is_day: at(&h.is_day, i).unwrap_or(1) == 1,
            precipitation_probability: at(&h.precipitation_probability, i),
            wind_speed: at(&h.wind_speed_10m, i).unwrap_or(0.0),
        });
        if hourly.len() == HOURS {
            break;
        }
    }
    let d = &a.daily;
    let mut daily = Vec::with_capacity(DAYS);
    for (i, date) in d.time.iter().enumerate().take(DAYS) {
        let (Some(temperature_max), Some(temperature_min), Some(weather_code)) = (
            at(&d.temperature_2m_max, i),
            at(&d.temperature_2m_min, i),
            at(&d.weather_code, i),
        ) else {
            continue;
        };
        daily.push(Day {
            date: date.clone(),
            weather_code,
            temperature_max,
            temperature_min,
            precipitation_probability: at(&d.precipitation_probability_max, i),
            precipitation_sum: at(&d.precipitation_sum, i).unwrap_or(0.0),
            wind_speed_max: at(&d.wind_speed_10m_max, i).unwrap_or(0.0),
            sunrise: d.sunrise.get(i).map(|s| local_ms(s, off)).transpose()?,
            sunset: d.sunset.get(i).map(|s| local_ms(s, off)).transpose()?,
        });
    }
    Ok(Forecast {
        timezone: a.timezone,
        utc_offset_seconds: off,
        current,
        hourly,
        daily,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &[u8] = include_bytes!("../../tests/fixtures/open-meteo-forecast.json");

    #[test]
    fn reads_open_meteos_forecast_into_utc_times_from_the_current_hour_on() {
        let f = parse(FIXTURE).unwrap();
        assert_eq!(f.timezone, "America/New_York");
        assert_eq!(f.utc_offset_seconds, -18000);
        // 2026-11-25T14:15 local (UTC-5) is 19:15 UTC.
        assert_eq!(f.current.time, 1_795_634_100_000);
        assert_eq!(f.hourly.len(), HOURS);
        assert_eq!(f.hourly[0].time, 1_795_633_200_000, "starts at the current hour");
        assert_eq!(f.daily.len(), DAYS);
        assert_eq!(f.daily[0].date, "2026-11-25");
        assert!(f.daily[0].sunrise < f.daily[0].sunset);
    }

    #[test]
    fn an_answer_that_is_not_open_meteos_is_a_format_error() {
        assert!(matches!(parse(b"{\"error\":true}"), Err(UpstreamError::Format(_))));
        assert!(matches!(parse(b"<html>"), Err(UpstreamError::Format(_))));
    }

    #[test]
    fn the_request_asks_for_metric_units_in_local_time() {
        let url = forecast_url("http://127.0.0.1:9/", 38.895, -77.0366);
        assert!(url.starts_with("http://127.0.0.1:9/v1/forecast?latitude=38.8950&longitude=-77.0366&"));
        assert!(url.contains("&timezone=auto&") && url.contains("temperature_unit=celsius"));
    }
}
