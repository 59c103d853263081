import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import adminEn from './admin/en.json';
import adminEs from './admin/es.json';
import adminFr from './admin/fr.json';
import weatherEn from './weather/en.json';
import weatherEs from './weather/es.json';
import weatherFr from './weather/fr.json';
import { ROUTES } from '../routes/routes';

const catalogues = { en, es, fr } as Record<string, Record<string, string>>;
/** Each catalogue with its parts' messages (D423), as the app has them on a screen. */
const whole = {
  en: { ...en, ...adminEn, ...weatherEn },
  es: { ...es, ...adminEs, ...weatherEs },
  fr: { ...fr, ...adminFr, ...weatherFr },
} as Record<string, Record<string, string>>;

describe('D2 message catalogues', () => {
  it('D2 en, es and fr have identical key sets', () => {
    for (const set of [
      { en, es, fr },
      { en: adminEn, es: adminEs, fr: adminFr },
      { en: weatherEn, es: weatherEs, fr: weatherFr },
    ]) {
      const keys = Object.keys(set.en).sort();
      expect(Object.keys(set.es).sort()).toEqual(keys);
      expect(Object.keys(set.fr).sort()).toEqual(keys);
    }
  });

  it('D423 the operator’s messages are theirs alone, and only theirs', () => {
    expect(Object.keys(adminEn).every((key) => key.startsWith('Admin_'))).toBe(true);
    expect(Object.keys(en).some((key) => key.startsWith('Admin_'))).toBe(false);
  });

  it('D425 the weather screen’s own messages are in its part, not in the catalogue home loads', () => {
    const part = Object.keys(weatherEn);
    expect(part.length).toBeGreaterThan(0);
    expect(part.every((key) => key.startsWith('Weather_'))).toBe(true);
    expect(part.some((key) => key in en)).toBe(false);
  });

  it('D2 every route title and description key is in every catalogue', () => {
    for (const [lang, catalogue] of Object.entries(catalogues)) {
      for (const route of ROUTES) {
        expect(catalogue[route.title], `${lang} ${route.title}`).toBeTruthy();
        expect(catalogue[route.description], `${lang} ${route.description}`).toBeTruthy();
      }
    }
  });

  it('D2 the server keys are present with the agreed English text', () => {
    expect(en.App_Name).toBe('Localwire');
    expect(en.Web_PageNotFound).toBe('Page not found: {{path}}');
    expect(en.Web_UnknownError).toBe('Unknown error');
    for (const catalogue of Object.values(catalogues)) {
      expect(catalogue.Web_Back).toBeTruthy();
      expect(catalogue.Web_PageNotFound).toContain('{{path}}');
    }
  });

  it('D2 values are non-empty strings and keep the same {{placeholders}}', () => {
    const placeholders = (text: string) => (text.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();
    for (const key of Object.keys(whole.en)) {
      for (const [lang, catalogue] of Object.entries(whole)) {
        expect(
          typeof catalogue[key] === 'string' && catalogue[key].trim(),
          `${lang}.${key}`,
        ).toBeTruthy();
        expect(placeholders(catalogue[key]), `${lang}.${key}`).toEqual(placeholders(whole.en[key]));
      }
    }
  });

  it('D2 es and fr are translations, not English copies', () => {
    const same = (other: Record<string, string>) =>
      Object.keys(whole.en).filter((k) => other[k] === whole.en[k]);
    // Names and words that are the same in both languages are allowed, but not many.
    expect(same(whole.es).length).toBeLessThan(Object.keys(whole.en).length * 0.1);
    expect(same(whole.fr).length).toBeLessThan(Object.keys(whole.en).length * 0.1);
    expect(es.Web_PageNotFound).not.toBe(en.Web_PageNotFound);
    expect(fr.Web_Back).not.toBe(en.Web_Back);
  });
});
