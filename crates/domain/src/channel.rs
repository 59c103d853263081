//! SPEC §3.14 acquisition channel, from click-id query parameters.

/// The channel for a set of query parameters, in the spec's precedence order.
pub fn acquisition_channel<'a>(mut get: impl FnMut(&str) -> Option<&'a str>) -> Option<String> {
    let present = |v: Option<&str>| v.is_some_and(|v| !v.trim().is_empty());
    if ["gclid", "gbraid", "wbraid"].iter().any(|k| present(get(k))) {
        return Some(GOOGLE_ADS.into());
    }
    if present(get("fbclid")) {
        return Some(META_ADS.into());
    }
    if present(get("ttclid")) {
        return Some(TIKTOK_ADS.into());
    }
    if present(get("sid")) {
        return Some(OPTIMOBI.into());
    }
    get("utm_source")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.chars().take(64).collect())
}

pub const GOOGLE_ADS: &str = "googleadwords_int";
pub const META_ADS: &str = "metaweb_int";
pub const TIKTOK_ADS: &str = "tiktok_int";
pub const OPTIMOBI: &str = "optimobi";
/// Short codes that exist for the first two channels.
pub const SHORT_CODES: [(&str, &str); 2] = [("GG", GOOGLE_ADS), ("FB", META_ADS)];

/// A visit came from an ad channel: one of the click-id channels, not a utm_source.
pub fn is_ad_channel(channel: &str) -> bool {
    [GOOGLE_ADS, META_ADS, TIKTOK_ADS, OPTIMOBI].contains(&channel)
        || SHORT_CODES.iter().any(|(short, _)| *short == channel)
}

/// SPEC §7.1: `user_type` is 1 when the visit came from an ad channel.
pub fn user_type_for_channel(channel: Option<&str>) -> i32 {
    i32::from(channel.is_some_and(is_ad_channel))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn channel(pairs: &[(&'static str, &'static str)]) -> Option<String> {
        let map: HashMap<&str, &str> = pairs.iter().copied().collect();
        acquisition_channel(|k| map.get(k).copied())
    }

    #[test]
    fn spec_3_14_click_ids_give_channels() {
        assert_eq!(channel(&[("gclid", "x")]).as_deref(), Some("googleadwords_int"));
        assert_eq!(channel(&[("gbraid", "x")]).as_deref(), Some("googleadwords_int"));
        assert_eq!(channel(&[("wbraid", "x")]).as_deref(), Some("googleadwords_int"));
        assert_eq!(channel(&[("fbclid", "x")]).as_deref(), Some("metaweb_int"));
        assert_eq!(channel(&[("ttclid", "x")]).as_deref(), Some("tiktok_int"));
        assert_eq!(channel(&[("sid", "x")]).as_deref(), Some("optimobi"));
        assert_eq!(channel(&[("utm_source", "newsletter")]).as_deref(), Some("newsletter"));
        assert_eq!(channel(&[]), None);
        assert_eq!(channel(&[("gclid", "")]), None);
    }

    #[test]
    fn spec_3_14_click_ids_win_over_utm_source() {
        assert_eq!(
            channel(&[("utm_source", "n"), ("fbclid", "1")]).as_deref(),
            Some("metaweb_int")
        );
        assert_eq!(
            channel(&[("fbclid", "1"), ("gclid", "2")]).as_deref(),
            Some("googleadwords_int")
        );
    }

    #[test]
    fn spec_3_14_short_codes_gg_and_fb() {
        assert_eq!(SHORT_CODES, [("GG", "googleadwords_int"), ("FB", "metaweb_int")]);
    }

    #[test]
    fn spec_7_1_user_type_is_1_for_ad_channels() {
        assert_eq!(user_type_for_channel(Some("googleadwords_int")), 1);
        assert_eq!(user_type_for_channel(Some("tiktok_int")), 1);
        assert_eq!(user_type_for_channel(Some("newsletter")), 0);
        assert_eq!(user_type_for_channel(None), 0);
    }
}
