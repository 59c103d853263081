//! Locales, `c` codes and browser-language mapping (SPEC §1, §4.10, §5.5, decision D3).

use crate::geo::Country;

/// An interface locale the product is configured with (SPEC §9.4: en, es, fr).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Locale {
    En,
    Es,
    Fr,
}

impl Locale {
    pub const ALL: [Locale; 3] = [Locale::En, Locale::Es, Locale::Fr];
    /// §9.1 default language.
    pub const DEFAULT: Locale = Locale::En;

    pub fn code(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Es => "es",
            Locale::Fr => "fr",
        }
    }

    /// Only configured locales parse; anything else is `None` (§5.5: a language from c
    /// is applied only if it is a configured locale).
    pub fn from_code(code: &str) -> Option<Locale> {
        match code {
            "en" => Some(Locale::En),
            "es" => Some(Locale::Es),
            "fr" => Some(Locale::Fr),
            _ => None,
        }
    }

    /// The URL prefix: the default locale has none (`/`), the others `/es`, `/fr`.
    pub fn path_prefix(self) -> &'static str {
        match self {
            Locale::En => "",
            Locale::Es => "/es",
            Locale::Fr => "/fr",
        }
    }

    /// The country that goes with a language when the pair is not one of the four
    /// product pairs (D3): Spanish is offered in the US, French in Canada.
    pub fn home_country(self) -> Country {
        match self {
            Locale::En | Locale::Es => Country::Us,
            Locale::Fr => Country::Ca,
        }
    }

    /// Open Graph locale tag.
    pub fn og_locale(self) -> &'static str {
        match self {
            Locale::En => "en_US",
            Locale::Es => "es_US",
            Locale::Fr => "fr_CA",
        }
    }
}

/// SPEC §1.7: languages written right to left.
pub const RTL_LANGUAGES: [&str; 15] = [
    "ar", "arb", "arc", "arz", "ckb", "dv", "fa", "ha", "he", "khw", "ks", "ps", "sd", "ur", "yi",
];

/// SPEC §1.7: `dir` for a language code.
pub fn text_direction(lang: &str) -> &'static str {
    let base = lang.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    if RTL_LANGUAGES.contains(&base.as_str()) {
        "rtl"
    } else {
        "ltr"
    }
}

/// A locale code split per SPEC §5.5: language (default applied when missing) and the
/// upper-cased country code (possibly empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleCode {
    pub lang: String,
    pub country: String,
}

/// SPEC §5.5: split a code like `es_US` (or `es-us`) into language and upper-cased
/// country. A missing language becomes the default language. An empty code is `None`.
pub fn split_locale_code(code: &str) -> Option<LocaleCode> {
    let code = code.trim();
    if code.is_empty() || code.len() > 16 {
        return None;
    }
    let (lang, country) = match code.split_once(['_', '-']) {
        Some((l, c)) => (l, c),
        None => (code, ""),
    };
    let lang = lang.to_ascii_lowercase();
    let lang = if lang.is_empty() {
        Locale::DEFAULT.code().to_string()
    } else {
        lang
    };
    Some(LocaleCode {
        lang,
        country: country.to_ascii_uppercase(),
    })
}

/// A `c` value the product can apply: a configured locale and a supported country.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CountryLanguage {
    pub locale: Locale,
    pub country: Country,
}

impl CountryLanguage {
    /// The four product pairs of SPEC §1.1.
    pub const PRODUCT_PAIRS: [CountryLanguage; 4] = [
        CountryLanguage {
            locale: Locale::En,
            country: Country::Us,
        },
        CountryLanguage {
            locale: Locale::Es,
            country: Country::Us,
        },
        CountryLanguage {
            locale: Locale::En,
            country: Country::Ca,
        },
        CountryLanguage {
            locale: Locale::Fr,
            country: Country::Ca,
        },
    ];

    /// The canonical `c` code, e.g. `fr_CA`.
    pub fn code(self) -> String {
        format!("{}_{}", self.locale.code(), self.country.iso())
    }

    /// Parse a `c` value (D3). `None` when the language is not a configured locale.
    /// A configured language with an unsupported or mismatched country takes the
    /// country that goes with the language.
    pub fn parse(c: &str) -> Option<CountryLanguage> {
        let code = split_locale_code(c)?;
        let locale = Locale::from_code(&code.lang)?;
        let asked = Country::from_iso(&code.country);
        let pair = asked.map(|country| CountryLanguage { locale, country });
        match pair {
            Some(p) if Self::PRODUCT_PAIRS.contains(&p) => Some(p),
            _ => Some(CountryLanguage {
                locale,
                country: locale.home_country(),
            }),
        }
    }
}

/// SPEC §4.10: map a browser language tag to the product's language key.
/// Traditional Chinese → zh_TW, other Chinese → zh_CN, Latin-American Spanish → es_la,
/// Spanish → es, Brazilian Portuguese → pt_br, Portuguese → pt, Japanese → jp,
/// Korean → kr, Vietnamese → vn, Arabic → arb; anything else: its primary subtag.
pub fn map_browser_language(tag: &str) -> String {
    let lower = tag.trim().to_ascii_lowercase().replace('_', "-");
    let mut parts = lower.split('-');
    let primary = parts.next().unwrap_or("");
    let rest: Vec<&str> = parts.collect();
    match primary {
        "zh" => {
            let traditional = rest.iter().any(|p| matches!(*p, "tw" | "hk" | "mo" | "hant"));
            if traditional { "zh_TW" } else { "zh_CN" }.to_string()
        }
        "es" => {
            let latin_american = rest.iter().any(|p| is_latin_american_region(p));
            if latin_american { "es_la" } else { "es" }.to_string()
        }
        "pt" => if rest.contains(&"br") { "pt_br" } else { "pt" }.to_string(),
        "ja" => "jp".to_string(),
        "ko" => "kr".to_string(),
        "vi" => "vn".to_string(),
        "ar" => "arb".to_string(),
        other => other.to_string(),
    }
}

fn is_latin_american_region(region: &str) -> bool {
    const REGIONS: [&str; 21] = [
        "419", "ar", "bo", "cl", "co", "cr", "cu", "do", "ec", "gt", "hn", "mx", "ni", "pa", "pe", "pr", "py", "sv",
        "uy", "ve", "us",
    ];
    REGIONS.contains(&region)
}

/// The configured locale a browser language maps to, if any (`es_la` is Spanish).
pub fn locale_for_browser_language(tag: &str) -> Option<Locale> {
    let mapped = map_browser_language(tag);
    let primary = mapped.split('_').next().unwrap_or("");
    Locale::from_code(primary)
}

/// The best configured locale from an `Accept-Language` header, honouring q-values.
pub fn locale_from_accept_language(header: &str) -> Option<Locale> {
    let mut best: Option<(f32, usize, Locale)> = None;
    for (index, item) in header.split(',').take(32).enumerate() {
        let mut fields = item.split(';');
        let tag = fields.next().unwrap_or("").trim();
        let q = fields
            .find_map(|f| f.trim().strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        if q <= 0.0 {
            continue;
        }
        if let Some(locale) = locale_for_browser_language(tag) {
            let better = match best {
                None => true,
                Some((bq, bi, _)) => q > bq || (q == bq && index < bi),
            };
            if better {
                best = Some((q, index, locale));
            }
        }
    }
    best.map(|(_, _, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_1_1_product_pairs_are_en_es_us_and_en_fr_ca() {
        let codes: Vec<String> = CountryLanguage::PRODUCT_PAIRS.iter().map(|p| p.code()).collect();
        assert_eq!(codes, ["en_US", "es_US", "en_CA", "fr_CA"]);
    }

    #[test]
    fn spec_1_7_rtl_languages() {
        for lang in RTL_LANGUAGES {
            assert_eq!(text_direction(lang), "rtl", "{lang}");
        }
        assert_eq!(text_direction("he-IL"), "rtl");
        for lang in ["en", "es", "fr", "zh_TW"] {
            assert_eq!(text_direction(lang), "ltr");
        }
    }

    #[test]
    fn spec_5_5_split_locale_code() {
        let s = |c| split_locale_code(c).map(|l| (l.lang, l.country));
        assert_eq!(s("es_us"), Some(("es".into(), "US".into())));
        assert_eq!(s("fr-CA"), Some(("fr".into(), "CA".into())));
        assert_eq!(
            s("_US"),
            Some(("en".into(), "US".into())),
            "missing language takes the default"
        );
        assert_eq!(s("en"), Some(("en".into(), "".into())));
        assert_eq!(s(""), None);
        assert_eq!(s("   "), None);
    }

    #[test]
    fn spec_5_5_language_from_c_applied_only_if_configured() {
        assert_eq!(CountryLanguage::parse("xx_YY"), None);
        assert_eq!(CountryLanguage::parse("de_US"), None);
        assert_eq!(CountryLanguage::parse(""), None);
        let p = CountryLanguage::parse("es_US").unwrap();
        assert_eq!((p.locale, p.country), (Locale::Es, Country::Us));
        assert_eq!(CountryLanguage::parse("_US").unwrap().code(), "en_US");
        assert_eq!(CountryLanguage::parse("en").unwrap().code(), "en_US");
        assert_eq!(CountryLanguage::parse("en_CA").unwrap().code(), "en_CA");
    }

    #[test]
    fn decision_d3_mismatched_pair_takes_the_languages_country() {
        assert_eq!(CountryLanguage::parse("fr_US").unwrap().code(), "fr_CA");
        assert_eq!(CountryLanguage::parse("es_CA").unwrap().code(), "es_US");
        assert_eq!(CountryLanguage::parse("en_MX").unwrap().code(), "en_US");
    }

    #[test]
    fn spec_4_10_browser_language_mapping() {
        let cases = [
            ("zh-TW", "zh_TW"),
            ("zh-HK", "zh_TW"),
            ("zh-Hant", "zh_TW"),
            ("zh-CN", "zh_CN"),
            ("zh", "zh_CN"),
            ("es-419", "es_la"),
            ("es-MX", "es_la"),
            ("es-ES", "es"),
            ("es", "es"),
            ("pt-BR", "pt_br"),
            ("pt-PT", "pt"),
            ("ja-JP", "jp"),
            ("ko", "kr"),
            ("vi-VN", "vn"),
            ("ar-EG", "arb"),
            ("fr-CA", "fr"),
            ("en-US", "en"),
        ];
        for (tag, want) in cases {
            assert_eq!(map_browser_language(tag), want, "{tag}");
        }
    }

    #[test]
    fn spec_4_10_accept_language_picks_best_configured_locale() {
        assert_eq!(locale_from_accept_language("fr-CA,fr;q=0.9,en;q=0.8"), Some(Locale::Fr));
        assert_eq!(locale_from_accept_language("de-DE,es;q=0.5,en;q=0.4"), Some(Locale::Es));
        assert_eq!(locale_from_accept_language("en;q=0.2,es-MX;q=0.9"), Some(Locale::Es));
        assert_eq!(locale_from_accept_language("de,ja"), None);
        assert_eq!(locale_from_accept_language("fr;q=0"), None);
        assert_eq!(locale_from_accept_language(""), None);
    }
}
