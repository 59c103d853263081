//! SPEC §5.4 lenient parsing of query values.

/// Numbers that fail to parse become 0.
pub fn number_or_zero(value: &str) -> f64 {
    value
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
        .unwrap_or(0.0)
}

/// Booleans are true for 'true' or '1'.
pub fn boolean(value: &str) -> bool {
    matches!(value.trim(), "true" | "1")
}

/// Dates are parsed from digits as milliseconds since the epoch.
pub fn date_millis(value: &str) -> Option<i64> {
    let v = value.trim();
    if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse::<i64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_5_4_numbers_that_fail_to_parse_become_zero() {
        assert_eq!(number_or_zero("12.5"), 12.5);
        assert_eq!(number_or_zero("abc"), 0.0);
        assert_eq!(number_or_zero(""), 0.0);
        assert_eq!(number_or_zero("NaN"), 0.0);
    }

    #[test]
    fn spec_5_4_booleans_true_for_true_or_1() {
        assert!(boolean("true") && boolean("1"));
        assert!(!boolean("TRUE") && !boolean("yes") && !boolean("0") && !boolean(""));
    }

    #[test]
    fn spec_5_4_dates_from_digits_as_milliseconds() {
        assert_eq!(date_millis("1700000000000"), Some(1_700_000_000_000));
        assert_eq!(date_millis("2024-01-01"), None);
        assert_eq!(date_millis(""), None);
    }
}
