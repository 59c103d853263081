import { describe, expect, it } from 'vitest';
import en from './en.json';
import es from './es.json';
import fr from './fr.json';
import { ROUTES } from '../routes/routes';

const catalogues = { en, es, fr } as Record<string, Record<string, string>>;

describe('D2 message catalogues', () => {
  it('D2 en, es and fr have identical key sets', () => {
    const keys = Object.keys(en).sort();
    expect(Object.keys(es).sort()).toEqual(keys);
    expect(Object.keys(fr).sort()).toEqual(keys);
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
    for (const key of Object.keys(en)) {
      for (const [lang, catalogue] of Object.entries(catalogues)) {
        expect(
          typeof catalogue[key] === 'string' && catalogue[key].trim(),
          `${lang}.${key}`,
        ).toBeTruthy();
        expect(placeholders(catalogue[key]), `${lang}.${key}`).toEqual(
          placeholders((en as Record<string, string>)[key]),
        );
      }
    }
  });

  it('D2 es and fr are translations, not English copies', () => {
    const same = (other: Record<string, string>) =>
      Object.keys(en).filter((k) => other[k] === (en as Record<string, string>)[k]);
    // Names and words that are the same in both languages are allowed, but not many.
    expect(same(es).length).toBeLessThan(Object.keys(en).length * 0.1);
    expect(same(fr).length).toBeLessThan(Object.keys(en).length * 0.1);
    expect(es.Web_PageNotFound).not.toBe(en.Web_PageNotFound);
    expect(fr.Web_Back).not.toBe(en.Web_Back);
  });
});
