/**
 * i18next with one flat JSON catalogue per locale (D2). Only the active catalogue is
 * loaded: each JSON file becomes its own lazy chunk.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { textDirection, type Locale } from '../lib/locale';

type Catalogue = Record<string, string>;

const catalogues = import.meta.glob<Catalogue>('./*.json', { import: 'default' });

let initialised: Promise<unknown> | null = null;

function ensureInit(locale: Locale): Promise<unknown> {
  initialised ??= i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: false,
    resources: {},
    interpolation: { escapeValue: false },
    returnEmptyString: false,
  });
  return initialised;
}

/** `<html lang dir>` follows the active locale (SPEC §1.7). */
export function applyDocumentLocale(locale: string, doc: Document = document): void {
  doc.documentElement.lang = locale;
  doc.documentElement.dir = textDirection(locale);
}

/**
 * Loads a locale's messages (once) and switches to it. §8.6: a catalogue that fails to
 * load is logged 'Failed locale loading' and the current language stays.
 */
export async function loadLocale(locale: Locale): Promise<void> {
  await ensureInit(locale);
  if (!i18next.hasResourceBundle(locale, 'translation')) {
    const load = catalogues[`./${locale}.json`];
    try {
      if (!load) throw new Error(`No catalogue for ${locale}`);
      i18next.addResourceBundle(locale, 'translation', await load());
    } catch (error) {
      console.error('Failed locale loading', error);
      return;
    }
  }
  if (i18next.language !== locale) await i18next.changeLanguage(locale);
  applyDocumentLocale(locale);
}

export const initI18n = loadLocale;
export { i18next };
