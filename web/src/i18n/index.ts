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

/**
 * French elides "de" and "que" before a vowel ("près d’Ottawa", "en tant qu’Alice"). The
 * catalogue cannot, since the word after them is a value (a city, a name): the messages
 * are written with "de {{city}}" and fixed here (D150). Y and h are left alone ("de
 * Yellowknife", "de Hull"): whether they elide depends on the word.
 */
const ELIDED = /\b(d|qu)e (?=[AEIOUÀÂÆÉÈÊËÎÏÔŒÙÛÜaeiouàâæéèêëîïôœùûü])/g;

export function elide(text: string, lng: string | undefined): string {
  return lng === 'fr' ? text.replace(ELIDED, '$1’') : text;
}

const elision = {
  type: 'postProcessor' as const,
  name: 'elision',
  process: (
    value: string,
    _key: unknown,
    options: { lng?: string } | undefined,
    translator: { language?: string },
  ) => elide(value, options?.lng ?? translator.language),
};

function ensureInit(locale: Locale): Promise<unknown> {
  initialised ??= i18next
    .use(initReactI18next)
    .use(elision)
    .init({
      lng: locale,
      postProcess: ['elision'],
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
 * Loads a locale's messages once, without switching to them: the router's loader does
 * this, so the page on screen keeps its language until the next route commits (D144).
 * §8.6: a catalogue that fails to load is logged 'Failed locale loading'.
 */
export async function prepareLocale(locale: Locale): Promise<boolean> {
  await ensureInit(locale);
  if (i18next.hasResourceBundle(locale, 'translation')) return true;
  const load = catalogues[`./${locale}.json`];
  try {
    if (!load) throw new Error(`No catalogue for ${locale}`);
    i18next.addResourceBundle(locale, 'translation', await load());
    return true;
  } catch (error) {
    console.error('Failed locale loading', error);
    return false;
  }
}

/**
 * Switches to a loaded locale (synchronous: its messages are in memory). A locale whose
 * catalogue failed to load leaves the current language in place (§8.6).
 */
export function switchLocale(locale: Locale): void {
  if (!i18next.hasResourceBundle(locale, 'translation')) return;
  if (i18next.language !== locale) void i18next.changeLanguage(locale);
  applyDocumentLocale(locale);
}

/** Loads a locale's messages (once) and switches to it. */
export async function loadLocale(locale: Locale): Promise<void> {
  if (await prepareLocale(locale)) switchLocale(locale);
}

export const initI18n = loadLocale;
export { i18next };
