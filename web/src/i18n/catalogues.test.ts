import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import { ROUTES } from '../routes/routes';

const catalogues = { en, es, fr } as Record<string, Record<string, string>>;
type Catalogue = Record<string, string>;
/** Every part's catalogues (D423, D429), by part and language: `admin/en.json` → admin, en. */
const partFiles = import.meta.glob<Catalogue>('./*/*.json', { eager: true, import: 'default' });
const parts: Record<string, Record<string, Catalogue>> = {};
for (const [path, catalogue] of Object.entries(partFiles)) {
  const [, part, lang] = /^\.\/(\w+)\/(\w+)\.json$/.exec(path)!;
  (parts[part] ??= {})[lang] = catalogue;
}
const partOf = (part: string, lang: string): Catalogue => parts[part]?.[lang] ?? {};
/** Each catalogue with its parts' messages, as the app has them on a screen. */
const whole = Object.fromEntries(
  Object.entries(catalogues).map(([lang, main]) => [
    lang,
    Object.assign({}, main, ...Object.keys(parts).map((part) => partOf(part, lang))),
  ]),
) as Record<string, Catalogue>;

describe('D2 message catalogues', () => {
  it('D2 en, es and fr have identical key sets', () => {
    expect(Object.keys(parts).sort()).toEqual([
      'account',
      'admin',
      'history',
      'search',
      'settings',
      'weather',
      'why',
    ]);
    for (const set of [catalogues, ...Object.values(parts)]) {
      const keys = Object.keys(set.en).sort();
      expect(keys.length).toBeGreaterThan(0);
      expect(Object.keys(set.es).sort()).toEqual(keys);
      expect(Object.keys(set.fr).sort()).toEqual(keys);
    }
  });

  it('D423 D429 a part’s messages are in it alone, not in the catalogue every page loads', () => {
    for (const [part, set] of Object.entries(parts)) {
      for (const [lang, catalogue] of Object.entries(set)) {
        const both = Object.keys(catalogue).filter((key) => key in catalogues[lang]);
        expect(both, `${part}/${lang}`).toEqual([]);
      }
    }
    // Each part holds one screen's or one feature's messages.
    const prefixes: Record<string, RegExp> = {
      admin: /^Admin_/,
      weather: /^Weather_/,
      account: /^(Account|SignIn|Login)_/,
      settings: /^(Mutes|Channels)_/,
      history: /^History_/,
      search: /^Search_/,
      why: /^Why_/,
    };
    for (const [part, prefix] of Object.entries(prefixes)) {
      expect(
        Object.keys(partOf(part, 'en')).every((key) => prefix.test(key)),
        part,
      ).toBe(true);
    }
    expect(Object.keys(en).some((key) => key.startsWith('Admin_'))).toBe(false);
  });

  it('D429 what a card or a dialog of every page shows stays in the catalogue every page loads', () => {
    // The reason's button, "Cancel" of the shared confirmation, the settings' link to mutes.
    for (const key of ['Why_Button', 'Why_ButtonOne', 'Account_Cancel', 'Mutes_Title']) {
      for (const catalogue of Object.values(catalogues)) expect(catalogue[key], key).toBeTruthy();
    }
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
