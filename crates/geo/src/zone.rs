//! A city's time zone without a time zone database: the reader's local date and the
//! offset from UTC (D291's rule table; the history page's date and the notifier's local
//! days and quiet hours, D313).

use chrono::{Datelike, NaiveDate, TimeZone, Utc};

/// The standard UTC offset in minutes of a gazetteer time zone and whether it keeps the
/// US/Canada daylight saving rule (2007 on). The gazetteer's 49 zones are all here; an
/// unknown one counts as Eastern (D291).
fn zone_rule(tz: &str) -> (i32, bool) {
    match tz {
        "America/St_Johns" => (-210, true),
        "America/Halifax" | "America/Glace_Bay" | "America/Goose_Bay" | "America/Moncton" => (-240, true),
        "America/Blanc-Sablon" => (-240, false),
        "America/Atikokan" => (-300, false),
        "America/Chicago"
        | "America/Indiana/Knox"
        | "America/Indiana/Tell_City"
        | "America/Menominee"
        | "America/North_Dakota/Beulah"
        | "America/North_Dakota/Center"
        | "America/North_Dakota/New_Salem"
        | "America/Rankin_Inlet"
        | "America/Winnipeg" => (-360, true),
        "America/Regina" | "America/Swift_Current" => (-360, false),
        "America/Denver" | "America/Boise" | "America/Cambridge_Bay" | "America/Edmonton" | "America/Inuvik" => {
            (-420, true)
        }
        "America/Phoenix"
        | "America/Creston"
        | "America/Dawson"
        | "America/Dawson_Creek"
        | "America/Fort_Nelson"
        | "America/Whitehorse" => (-420, false),
        "America/Los_Angeles" | "America/Vancouver" => (-480, true),
        "America/Anchorage" | "America/Juneau" | "America/Nome" | "America/Sitka" | "America/Metlakatla" => {
            (-540, true)
        }
        "Pacific/Honolulu" => (-600, false),
        // New York, Toronto, Detroit, Iqaluit, Indiana's and Kentucky's eastern zones.
        _ => (-300, true),
    }
}

/// The `n`th Sunday of a month (1-based).
fn nth_sunday(year: i32, month: u32, n: u32) -> Option<NaiveDate> {
    let first = NaiveDate::from_ymd_opt(year, month, 1)?;
    let to_sunday = (7 - first.weekday().num_days_from_sunday()) % 7;
    first.checked_add_days(chrono::Days::new(u64::from(to_sunday + 7 * (n - 1))))
}

/// The reader's calendar date at `now_ms` in time zone `tz`.
pub fn local_date(now_ms: i64, tz: &str) -> NaiveDate {
    let utc = Utc.timestamp_millis_opt(now_ms).single().unwrap_or_default();
    let local = now_ms + i64::from(utc_offset_minutes(now_ms, tz)) * 60_000;
    Utc.timestamp_millis_opt(local)
        .single()
        .map(|t| t.date_naive())
        .unwrap_or_else(|| utc.date_naive())
}

/// The offset from UTC, in minutes, of time zone `tz` at `now_ms` (D291's rule table;
/// the notifier's local days and quiet hours use it too, D313).
pub fn utc_offset_minutes(now_ms: i64, tz: &str) -> i32 {
    let (std_min, dst) = zone_rule(tz);
    let utc = Utc.timestamp_millis_opt(now_ms).single().unwrap_or_default();
    let std_ms = now_ms + i64::from(std_min) * 60_000;
    let mut offset = std_min;
    if dst {
        let year = utc.year();
        // Starts 2:00 standard time on March's 2nd Sunday, ends 2:00 daylight time
        // (1:00 standard) on November's 1st Sunday.
        let at = |d: Option<NaiveDate>, h: u32| {
            d.and_then(|d| d.and_hms_opt(h, 0, 0))
                .map(|t| t.and_utc().timestamp_millis())
        };
        if let (Some(start), Some(end)) = (at(nth_sunday(year, 3, 2), 2), at(nth_sunday(year, 11, 1), 1))
            && std_ms >= start
            && std_ms < end
        {
            offset += 60;
        }
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(y: i32, m: u32, d: u32, h: u32, min: u32) -> i64 {
        NaiveDate::from_ymd_opt(y, m, d)
            .unwrap()
            .and_hms_opt(h, min, 0)
            .unwrap()
            .and_utc()
            .timestamp_millis()
    }

    #[test]
    fn the_date_is_the_readers_local_date_in_their_citys_time_zone() {
        // 03:30 UTC on 26 Nov is still 25 Nov in Toronto (UTC-5) and Vancouver (UTC-8).
        let t = ms(2026, 11, 26, 3, 30);
        assert_eq!(local_date(t, "America/Toronto").to_string(), "2026-11-25");
        assert_eq!(local_date(t, "America/Vancouver").to_string(), "2026-11-25");
        // 04:30 UTC on 2 July: Toronto is on daylight time (UTC-4), so it is 00:30, 2 July.
        assert_eq!(
            local_date(ms(2026, 7, 2, 4, 30), "America/Toronto").to_string(),
            "2026-07-02"
        );
        // Phoenix keeps UTC-7 all year: 06:30 UTC on 2 July is 23:30, 1 July.
        assert_eq!(
            local_date(ms(2026, 7, 2, 6, 30), "America/Phoenix").to_string(),
            "2026-07-01"
        );
        assert_eq!(
            local_date(ms(2026, 7, 2, 6, 30), "America/Denver").to_string(),
            "2026-07-02"
        );
        // St. John's is half an hour off.
        assert_eq!(
            local_date(ms(2026, 1, 2, 3, 20), "America/St_Johns").to_string(),
            "2026-01-01"
        );
        assert_eq!(
            local_date(ms(2026, 1, 2, 3, 40), "America/St_Johns").to_string(),
            "2026-01-02"
        );
    }

    #[test]
    fn daylight_time_starts_and_ends_on_the_north_american_sundays() {
        // 2026: 8 March and 1 November. 04:30 UTC on 8 March: New York still EST (23:30 on 7 March).
        assert_eq!(
            local_date(ms(2026, 3, 8, 4, 30), "America/New_York").to_string(),
            "2026-03-07"
        );
        // 04:30 UTC on 9 March: EDT, 00:30 on 9 March.
        assert_eq!(
            local_date(ms(2026, 3, 9, 4, 30), "America/New_York").to_string(),
            "2026-03-09"
        );
        // 04:30 UTC on 2 November: EST again, 23:30 on 1 November.
        assert_eq!(
            local_date(ms(2026, 11, 2, 4, 30), "America/New_York").to_string(),
            "2026-11-01"
        );
    }

    #[test]
    fn every_gazetteer_time_zone_has_a_rule() {
        let known_eastern = [
            "America/New_York",
            "America/Toronto",
            "America/Detroit",
            "America/Iqaluit",
        ];
        for c in crate::all() {
            let tz = c.timezone;
            if zone_rule(tz) == (-300, true) {
                assert!(
                    known_eastern.contains(&tz)
                        || tz.starts_with("America/Indiana/")
                        || tz.starts_with("America/Kentucky/"),
                    "{tz} falls back to Eastern"
                );
            }
        }
    }
}
