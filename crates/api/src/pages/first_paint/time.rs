//! A publish time in words, as the app writes it (`web/src/lib/news/format.ts`:
//! `Intl.RelativeTimeFormat` with `numeric: "auto"`, then the date after a week), so the
//! server's first screen and the app's say the same.

use domain::locale::Locale;

const MINUTE: i64 = 60;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// "5 minutes ago", "hace 3 horas", "il y a 2 jours"; under a minute "now"; older than
/// a week, the date (UTC: the server does not know the reader's zone).
pub fn relative_time(ms: i64, now_ms: i64, locale: Locale) -> String {
    if ms <= 0 {
        return String::new();
    }
    // A story stamped a little in the future (clock skew) is "now", never "in 3 minutes".
    let seconds = ((now_ms - ms) / 1000).max(0);
    if seconds < MINUTE {
        return now_word(locale).into();
    }
    if seconds < HOUR {
        return ago(locale, seconds / MINUTE, Unit::Minute);
    }
    if seconds < DAY {
        return ago(locale, seconds / HOUR, Unit::Hour);
    }
    let days = seconds / DAY;
    if days < 7 {
        return match (locale, days) {
            (Locale::En, 1) => "yesterday".into(),
            (Locale::Es, 1) => "ayer".into(),
            (Locale::Es, 2) => "anteayer".into(),
            (Locale::Fr, 1) => "hier".into(),
            (Locale::Fr, 2) => "avant-hier".into(),
            _ => ago(locale, days, Unit::Day),
        };
    }
    medium_date(ms, locale)
}

#[derive(Clone, Copy)]
enum Unit {
    Minute,
    Hour,
    Day,
}

fn now_word(locale: Locale) -> &'static str {
    match locale {
        Locale::En => "now",
        Locale::Es => "ahora",
        Locale::Fr => "maintenant",
    }
}

fn ago(locale: Locale, n: i64, unit: Unit) -> String {
    let one = n == 1;
    let word = match (locale, unit) {
        (Locale::En, Unit::Minute) => ["minute", "minutes"],
        (Locale::En, Unit::Hour) => ["hour", "hours"],
        (Locale::En, Unit::Day) => ["day", "days"],
        (Locale::Es, Unit::Minute) => ["minuto", "minutos"],
        (Locale::Es, Unit::Hour) => ["hora", "horas"],
        (Locale::Es, Unit::Day) => ["día", "días"],
        (Locale::Fr, Unit::Minute) => ["minute", "minutes"],
        (Locale::Fr, Unit::Hour) => ["heure", "heures"],
        (Locale::Fr, Unit::Day) => ["jour", "jours"],
    }[usize::from(!one)];
    match locale {
        Locale::En => format!("{n} {word} ago"),
        Locale::Es => format!("hace {n} {word}"),
        Locale::Fr => format!("il y a {n} {word}"),
    }
}

/// `Intl.DateTimeFormat(locale, { dateStyle: "medium" })`: "Nov 5, 2026", "5 nov 2026",
/// "5 nov. 2026".
fn medium_date(ms: i64, locale: Locale) -> String {
    let Some(date) = chrono::DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    use chrono::Datelike;
    let (day, month, year) = (date.day(), date.month0() as usize, date.year());
    const EN: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    const ES: [&str; 12] = [
        "ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic",
    ];
    const FR: [&str; 12] = [
        "janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc.",
    ];
    match locale {
        Locale::En => format!("{} {day}, {year}", EN[month]),
        Locale::Es => format!("{day} {} {year}", ES[month]),
        Locale::Fr => format!("{day} {} {year}", FR[month]),
    }
}

/// `Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" })` in UTC, the
/// app's `fullDate` (TimeAgo's title): "Nov 18, 2026, 11:01 AM", "18 nov 2026, 9:05",
/// "18 nov. 2026, 09:05". A plain space before AM/PM, as Node 20 with ICU 78 writes it
/// (a browser whose ICU writes U+202F there shows its own once the app runs).
pub fn full_date(ms: i64, locale: Locale) -> String {
    let Some(date) = chrono::DateTime::from_timestamp_millis(ms) else {
        return String::new();
    };
    use chrono::Timelike;
    let (hour, minute) = (date.hour(), date.minute());
    let time = match locale {
        Locale::En => {
            let h12 = if hour % 12 == 0 { 12 } else { hour % 12 };
            format!("{h12}:{minute:02} {}", if hour < 12 { "AM" } else { "PM" })
        }
        Locale::Es => format!("{hour}:{minute:02}"),
        Locale::Fr => format!("{hour:02}:{minute:02}"),
    };
    format!("{}, {time}", medium_date(ms, locale))
}

/// The ISO 8601 form for `<time datetime>` (as `Date.toISOString()` writes it).
pub fn iso(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|d| d.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_795_000_000_000;

    fn at(seconds_ago: i64, locale: Locale) -> String {
        relative_time(NOW - seconds_ago * 1000, NOW, locale)
    }

    /// The strings `Intl.RelativeTimeFormat(l, { numeric: "auto" })` gives (Node 20's ICU).
    #[test]
    fn relative_times_read_as_the_apps_do() {
        let cases = [
            (10, ["now", "ahora", "maintenant"]),
            (60, ["1 minute ago", "hace 1 minuto", "il y a 1 minute"]),
            (5 * 60, ["5 minutes ago", "hace 5 minutos", "il y a 5 minutes"]),
            (3600, ["1 hour ago", "hace 1 hora", "il y a 1 heure"]),
            (3 * 3600 + 59, ["3 hours ago", "hace 3 horas", "il y a 3 heures"]),
            (DAY, ["yesterday", "ayer", "hier"]),
            (2 * DAY, ["2 days ago", "anteayer", "avant-hier"]),
            (3 * DAY, ["3 days ago", "hace 3 días", "il y a 3 jours"]),
        ];
        for (seconds, expected) in cases {
            for (locale, want) in Locale::ALL.into_iter().zip(expected) {
                assert_eq!(at(seconds, locale), want, "{seconds}s in {}", locale.code());
            }
        }
        assert_eq!(at(-300, Locale::En), "now", "a story from the near future");
        assert_eq!(relative_time(0, NOW, Locale::En), "", "no time, no words");
    }

    #[test]
    fn after_a_week_the_date_is_written_out() {
        // 2026-02-05 12:00 UTC.
        let ms = 1_770_292_800_000;
        let now = ms + 10 * DAY * 1000;
        assert_eq!(relative_time(ms, now, Locale::En), "Feb 5, 2026");
        assert_eq!(relative_time(ms, now, Locale::Es), "5 feb 2026");
        assert_eq!(relative_time(ms, now, Locale::Fr), "5 févr. 2026");
        assert_eq!(iso(ms), "2026-02-05T12:00:00.000Z");
    }

    /// The strings `Intl.DateTimeFormat(l, { dateStyle: "medium", timeStyle: "short",
    /// timeZone: "UTC" })` gives (Node 20, ICU 78).
    #[test]
    fn full_dates_read_as_the_apps_titles_do() {
        let at = |h, m| {
            chrono::NaiveDate::from_ymd_opt(2026, 1, 5)
                .unwrap()
                .and_hms_opt(h, m, 0)
                .unwrap()
                .and_utc()
                .timestamp_millis()
        };
        let cases = [
            (
                (0, 5),
                ["Jan 5, 2026, 12:05 AM", "5 ene 2026, 0:05", "5 janv. 2026, 00:05"],
            ),
            (
                (9, 5),
                ["Jan 5, 2026, 9:05 AM", "5 ene 2026, 9:05", "5 janv. 2026, 09:05"],
            ),
            (
                (12, 0),
                ["Jan 5, 2026, 12:00 PM", "5 ene 2026, 12:00", "5 janv. 2026, 12:00"],
            ),
            (
                (23, 59),
                ["Jan 5, 2026, 11:59 PM", "5 ene 2026, 23:59", "5 janv. 2026, 23:59"],
            ),
        ];
        for ((h, m), expected) in cases {
            for (locale, want) in Locale::ALL.into_iter().zip(expected) {
                assert_eq!(full_date(at(h, m), locale), want);
            }
        }
    }
}
