/** Locales, `c` codes and browser language mapping (SPEC §1.7, §4.10, §5.5; D3). */

export const LOCALES = ['en', 'es', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

export const COUNTRIES = ['US', 'CA'] as const;
export type Country = (typeof COUNTRIES)[number];
export const DEFAULT_COUNTRY: Country = 'US';

/** The four product pairs of D3, in the order the switcher lists them. */
export const PRODUCT_CODES = ['en_US', 'es_US', 'en_CA', 'fr_CA'] as const;
export type ProductCode = (typeof PRODUCT_CODES)[number];

/** The country that goes with a language when a code names an unsupported pair (D3). */
const HOME_COUNTRY: Record<Locale, Country | null> = { en: null, es: 'US', fr: 'CA' };

export const LOCALE_COOKIE = 'lw_locale';
export const LOCALE_COOKIE_DAYS = 365;

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function isCountry(value: unknown): value is Country {
  return typeof value === 'string' && (COUNTRIES as readonly string[]).includes(value);
}

/**
 * SPEC §5.5: a locale code is split into language and upper-cased country code; the
 * default language applies when the language is missing.
 */
export function parseLocaleCode(
  code: string,
  defaultLang: string = DEFAULT_LOCALE,
): { lang: string; country: string } {
  const [rawLang = '', ...rest] = code.trim().split(/[_-]/);
  const lang = rawLang.toLowerCase() || defaultLang;
  const country = rest.join('').toUpperCase();
  return { lang, country };
}

export interface ResolvedCode {
  lang: Locale;
  country: Country;
  code: ProductCode;
}

/**
 * D3: a `c` code applies only when its language is a configured locale; an unsupported
 * pair keeps its language and takes that language's country (es→US, fr→CA, en→its own
 * country if supported, else US).
 */
export function resolveLocaleCode(code: string | null | undefined): ResolvedCode | null {
  if (code == null) return null;
  const { lang, country } = parseLocaleCode(code);
  if (!isLocale(lang)) return null;
  let resolved: Country;
  if (isCountry(country) && (PRODUCT_CODES as readonly string[]).includes(`${lang}_${country}`)) {
    resolved = country;
  } else {
    resolved = HOME_COUNTRY[lang] ?? (isCountry(country) ? country : DEFAULT_COUNTRY);
  }
  return { lang, country: resolved, code: `${lang}_${resolved}` as ProductCode };
}

const LATIN_AMERICAN_REGIONS = new Set(
  '419 AR BO CL CO CR CU DO EC GT HN MX NI PA PE PR PY SV UY VE'.split(' '),
);

/**
 * SPEC §4.10 browser language mapping. Returns the product's language code for a BCP 47
 * tag: zh_TW, zh_CN, es_la, es, pt_br, pt, jp, kr, vn, arb, else the primary subtag.
 */
export function mapBrowserLanguage(tag: string): string {
  const parts = tag.trim().replace(/_/g, '-').split('-');
  const primary = (parts[0] ?? '').toLowerCase();
  const subtags = parts.slice(1).map((part) => part.toUpperCase());
  switch (primary) {
    case 'zh':
      return subtags.some((s) => s === 'TW' || s === 'HK' || s === 'MO' || s === 'HANT')
        ? 'zh_TW'
        : 'zh_CN';
    case 'es':
      return subtags.some((s) => LATIN_AMERICAN_REGIONS.has(s)) ? 'es_la' : 'es';
    case 'pt':
      return subtags.includes('BR') ? 'pt_br' : 'pt';
    case 'ja':
      return 'jp';
    case 'ko':
      return 'kr';
    case 'vi':
      return 'vn';
    case 'ar':
      return 'arb';
    default:
      return primary;
  }
}

/** The first of the browser's languages that maps onto a configured locale. */
export function localeFromBrowser(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const base = mapBrowserLanguage(tag).split('_')[0];
    if (isLocale(base)) return base;
  }
  return null;
}

/** SPEC §1.7 right-to-left languages. */
export const RTL_LANGUAGES = new Set(
  'ar arb arc arz ckb dv fa ha he khw ks ps sd ur yi'.split(' '),
);

export function textDirection(lang: string): 'rtl' | 'ltr' {
  const base = lang.toLowerCase().split(/[_-]/)[0] ?? '';
  return RTL_LANGUAGES.has(lang.toLowerCase()) || RTL_LANGUAGES.has(base) ? 'rtl' : 'ltr';
}

/** Splits `/es/latest` into locale `es` and path `/latest`; unprefixed paths are English. */
export function splitLocalePath(pathname: string): { locale: Locale; path: string } {
  const match = /^\/(es|fr)(?=\/|$)(.*)$/.exec(pathname);
  if (!match) return { locale: DEFAULT_LOCALE, path: pathname || '/' };
  return { locale: match[1] as Locale, path: match[2] || '/' };
}

/** The inverse of splitLocalePath: `/latest` in `fr` is `/fr/latest`, home is `/fr/`. */
export function localizePath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  return `/${locale}${clean}`;
}
