//! `serve --demo`'s weather: a made-up forecast for any city, with no network (D282). The
//! answer says `source: "demo"` and the app labels it, so nobody takes it for a forecast.

use super::open_meteo::{DAYS, HOURS};
use super::{Current, Day, Forecast, Hour};

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;
/// WMO codes the demo walks through, so every icon shows up somewhere.
const CODES: [u8; 12] = [0, 1, 2, 3, 45, 51, 61, 63, 71, 80, 95, 2];

/// A forecast shaped like a real one for `lat`/`lon` at `now_ms`: mild by latitude, a daily
/// swing, local hours guessed from the longitude (15° an hour); `timezone` is the city's.
pub fn forecast(lat: f64, lon: f64, timezone: &str, now_ms: i64) -> Forecast {
    let offset_s = ((lon / 15.0).round() as i64) * 3600;
    let local = |utc: i64| utc + offset_s * 1000;
    let base = 24.0 - (lat - 25.0) * 0.6;
    let temp_at = |utc: i64| {
        let hour = (local(utc).rem_euclid(DAY_MS) / HOUR_MS) as f64;
        let v = base + 5.0 * ((hour - 9.0) / 24.0 * std::f64::consts::TAU).sin();
        (v * 10.0).round() / 10.0
    };
    let is_day = |utc: i64| (7..19).contains(&(local(utc).rem_euclid(DAY_MS) / HOUR_MS));
    let this_hour = now_ms - now_ms.rem_euclid(HOUR_MS);
    let hourly = (0..HOURS as i64)
        .map(|i| {
            let time = this_hour + i * HOUR_MS;
            Hour {
                time,
                temperature: temp_at(time),
                weather_code: CODES[(i as usize / 4) % CODES.len()],
                is_day: is_day(time),
                precipitation_probability: Some(((i * 13) % 70) as f64),
                wind_speed: 8.0 + (i % 9) as f64,
            }
        })
        .collect();
    let midnight_utc = local(now_ms) - local(now_ms).rem_euclid(DAY_MS) - offset_s * 1000;
    let daily = (0..DAYS as i64)
        .map(|d| {
            let start = midnight_utc + d * DAY_MS;
            let date = chrono::DateTime::from_timestamp_millis(start + offset_s * 1000)
                .map(|t| t.format("%Y-%m-%d").to_string())
                .unwrap_or_default();
            Day {
                date,
                weather_code: CODES[(d as usize * 5) % CODES.len()],
                temperature_max: ((base + 5.0) * 10.0).round() / 10.0,
                temperature_min: ((base - 5.0) * 10.0).round() / 10.0,
                precipitation_probability: Some(((d * 17) % 90) as f64),
                precipitation_sum: ((d * 3) % 7) as f64 * 0.8,
                wind_speed_max: 12.0 + d as f64,
                sunrise: Some(start + 7 * HOUR_MS),
                sunset: Some(start + 17 * HOUR_MS + 30 * 60_000),
            }
        })
        .collect();
    Forecast {
        timezone: timezone.to_string(),
        utc_offset_seconds: offset_s,
        current: Current {
            time: now_ms,
            temperature: temp_at(now_ms),
            apparent_temperature: Some(temp_at(now_ms) - 1.5),
            humidity: Some(60.0),
            is_day: is_day(now_ms),
            precipitation: 0.0,
            weather_code: 2,
            wind_speed: 11.0,
            wind_direction: Some(270.0),
        },
        hourly,
        daily,
    }
}
