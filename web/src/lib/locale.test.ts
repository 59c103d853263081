import { describe, expect, it } from 'vitest';
import {
  localeFromBrowser,
  localizePath,
  mapBrowserLanguage,
  parseLocaleCode,
  resolveLocaleCode,
  splitLocalePath,
  textDirection,
} from './locale';

describe('§5.5 locale code parsing', () => {
  it('§5.5 splits xx_YY into language and upper-cased country', () => {
    expect(parseLocaleCode('fr_ca')).toEqual({ lang: 'fr', country: 'CA' });
    expect(parseLocaleCode('xx_YY')).toEqual({ lang: 'xx', country: 'YY' });
    expect(parseLocaleCode('ES_us')).toEqual({ lang: 'es', country: 'US' });
  });

  it('§5.5 a bare language has no country', () => {
    expect(parseLocaleCode('en')).toEqual({ lang: 'en', country: '' });
  });

  it('§5.5 the default language applies when the language is missing', () => {
    expect(parseLocaleCode('_US')).toEqual({ lang: 'en', country: 'US' });
    expect(parseLocaleCode('')).toEqual({ lang: 'en', country: '' });
    expect(parseLocaleCode('_CA', 'fr')).toEqual({ lang: 'fr', country: 'CA' });
  });
});

describe('D3 resolving a c code onto the four product pairs', () => {
  it.each([
    ['en_US', 'en_US'],
    ['es_US', 'es_US'],
    ['en_CA', 'en_CA'],
    ['fr_CA', 'fr_CA'],
    ['fr_ca', 'fr_CA'],
    ['es_CA', 'es_US'],
    ['fr_US', 'fr_CA'],
    ['en_FR', 'en_US'],
    ['en', 'en_US'],
    ['_CA', 'en_CA'],
    ['', 'en_US'],
  ])('%j resolves to %s', (input, code) => {
    expect(resolveLocaleCode(input)?.code).toBe(code);
  });

  it('§5.5 a language that is not a configured locale is not applied', () => {
    expect(resolveLocaleCode('de_DE')).toBeNull();
    expect(resolveLocaleCode('xx_YY')).toBeNull();
    expect(resolveLocaleCode(null)).toBeNull();
  });
});

describe('§4.10 browser language mapping', () => {
  it.each([
    ['zh-TW', 'zh_TW'],
    ['zh-HK', 'zh_TW'],
    ['zh-Hant', 'zh_TW'],
    ['zh-Hant-CN', 'zh_TW'],
    ['zh-CN', 'zh_CN'],
    ['zh', 'zh_CN'],
    ['zh-Hans-SG', 'zh_CN'],
    ['es-419', 'es_la'],
    ['es-MX', 'es_la'],
    ['es-AR', 'es_la'],
    ['es-ES', 'es'],
    ['es', 'es'],
    ['pt-BR', 'pt_br'],
    ['pt-PT', 'pt'],
    ['pt', 'pt'],
    ['ja', 'jp'],
    ['ja-JP', 'jp'],
    ['ko-KR', 'kr'],
    ['vi', 'vn'],
    ['ar-EG', 'arb'],
    ['fr-CA', 'fr'],
    ['en-US', 'en'],
  ])('%s maps to %s', (tag, expected) => {
    expect(mapBrowserLanguage(tag)).toBe(expected);
  });

  it('§4.10 picks the first browser language that is a configured locale', () => {
    expect(localeFromBrowser(['de-DE', 'es-MX', 'en'])).toBe('es');
    expect(localeFromBrowser(['fr-CA'])).toBe('fr');
    expect(localeFromBrowser(['ja', 'de'])).toBeNull();
  });
});

describe('§1.7 text direction', () => {
  it('§1.7 right-to-left languages get rtl', () => {
    for (const lang of ['ar', 'arb', 'he', 'fa', 'ur', 'yi', 'ckb', 'ar-EG']) {
      expect(textDirection(lang), lang).toBe('rtl');
    }
  });
  it('§1.7 other languages get ltr', () => {
    for (const lang of ['en', 'es', 'fr', 'zh_TW']) expect(textDirection(lang)).toBe('ltr');
  });
});

describe('D3 locale path prefixes', () => {
  it('splits and joins locale prefixes', () => {
    expect(splitLocalePath('/es/latest')).toEqual({ locale: 'es', path: '/latest' });
    expect(splitLocalePath('/fr')).toEqual({ locale: 'fr', path: '/' });
    expect(splitLocalePath('/fr/')).toEqual({ locale: 'fr', path: '/' });
    expect(splitLocalePath('/latest')).toEqual({ locale: 'en', path: '/latest' });
    expect(splitLocalePath('/espresso')).toEqual({ locale: 'en', path: '/espresso' });
    expect(localizePath('fr', '/latest')).toBe('/fr/latest');
    expect(localizePath('es', '/')).toBe('/es/');
    expect(localizePath('en', '/latest')).toBe('/latest');
  });
});
