//! The Retry-After header (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.

use std::time::{Duration, SystemTime};

use chrono::{DateTime, NaiveDateTime, Utc};

/// How long the server asked us to wait, counted from `now`. A date in the past means
/// "now" (zero); a value that is neither form is ignored (`None`), so a malformed header
/// falls back to the scheduler's own back-off instead of failing the fetch.
pub(crate) fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
        return value.parse::<u64>().ok().map(Duration::from_secs);
    }
    let when = parse_http_date(value)?;
    Some(when.duration_since(now).unwrap_or(Duration::ZERO))
}

/// Parses the three date forms HTTP recipients must accept: IMF-fixdate (a subset of
/// RFC 2822), the obsolete RFC 850 form and asctime.
fn parse_http_date(value: &str) -> Option<SystemTime> {
    if let Ok(date) = DateTime::parse_from_rfc2822(value) {
        return Some(SystemTime::from(date));
    }
    let naive = NaiveDateTime::parse_from_str(value, "%A, %d-%b-%y %H:%M:%S GMT")
        .or_else(|_| NaiveDateTime::parse_from_str(value, "%a %b %e %H:%M:%S %Y"))
        .ok()?;
    Some(SystemTime::from(DateTime::<Utc>::from_naive_utc_and_offset(naive, Utc)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(date: &str) -> SystemTime {
        SystemTime::from(DateTime::parse_from_rfc3339(date).unwrap())
    }

    #[test]
    fn delay_seconds_are_read() {
        let now = SystemTime::now();
        assert_eq!(parse_retry_after("120", now), Some(Duration::from_secs(120)));
        assert_eq!(parse_retry_after(" 0 ", now), Some(Duration::ZERO));
    }

    #[test]
    fn imf_fixdate_is_read_relative_to_now() {
        let now = at("2015-10-21T07:26:00Z");
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(Duration::from_secs(120))
        );
    }

    #[test]
    fn obsolete_date_forms_are_read() {
        let now = at("1994-11-06T08:49:00Z");
        assert_eq!(
            parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", now),
            Some(Duration::from_secs(37))
        );
        assert_eq!(
            parse_retry_after("Sun Nov  6 08:49:37 1994", now),
            Some(Duration::from_secs(37))
        );
    }

    #[test]
    fn a_date_in_the_past_means_now() {
        let now = at("2020-01-01T00:00:00Z");
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn garbage_and_negative_values_are_ignored() {
        let now = SystemTime::now();
        for value in ["", "soon", "-5", "1.5", "99999999999999999999999"] {
            assert_eq!(parse_retry_after(value, now), None, "{value}");
        }
    }
}
