//! SPEC §9 business constants that the server uses.

/// §9.2 application id.
pub const APP_ID: u32 = 20310;
/// §9.2 application version.
pub const APP_VERSION: u32 = 30010200;
/// §9.3 device os code used in reports.
pub const OS_CODE_REPORT: u8 = 5;
/// §9.3 report source.
pub const REPORT_SOURCE: u8 = 4;
/// §9.3 news type of a video item.
pub const NEWS_TYPE_VIDEO: i32 = 3;
/// §9.3 news type of an audio item.
pub const NEWS_TYPE_AUDIO: i32 = 4;
/// §9.9 request nonce length.
pub const REQUEST_NONCE_LEN: usize = 10;
/// §9.9 report nonce length.
pub const REPORT_NONCE_LEN: usize = 16;
/// §9.4 locale cookie lifetime in days.
pub const LOCALE_COOKIE_DAYS: u32 = 365;
/// The locale cookie's Max-Age.
pub const fn locale_cookie_max_age_secs() -> u32 {
    LOCALE_COOKIE_DAYS * 24 * 3600
}

/// §9.6 summary cut, in characters.
pub const SUMMARY_MAX_CHARS: usize = 300;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_9_2_app_id_and_version() {
        assert_eq!(APP_ID, 20310);
        assert_eq!(APP_VERSION, 30010200);
    }

    #[test]
    fn spec_9_3_os_codes_report_source_and_news_types() {
        assert_eq!((OS_CODE_REPORT, REPORT_SOURCE), (5, 4));
        assert_eq!((NEWS_TYPE_VIDEO, NEWS_TYPE_AUDIO), (3, 4));
    }

    #[test]
    fn spec_9_4_locale_cookie_lifetime() {
        assert_eq!(LOCALE_COOKIE_DAYS, 365);
        assert_eq!(locale_cookie_max_age_secs(), 31_536_000);
    }

    #[test]
    fn spec_9_9_nonce_lengths() {
        assert_eq!((REQUEST_NONCE_LEN, REPORT_NONCE_LEN), (10, 16));
    }

    #[test]
    fn spec_9_6_summary_cut() {
        assert_eq!(SUMMARY_MAX_CHARS, 300);
    }
}
