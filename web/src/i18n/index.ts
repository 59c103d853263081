/**
 * The app's messages: one flat JSON catalogue per locale (D2). Only the active catalogue
 * is loaded: each JSON file becomes its own lazy chunk. A part of the app no reader
 * opens has its messages in a catalogue of its own (`admin/en.json`, …), loaded with it
 * (`loadMessages`, D423).
 *
 * A message is a catalogue string with `{{name}}` values; `t` does what i18next did for
 * this app (D423: 16 KB of every first load, for the part of it the app used): values,
 * a plural form where the catalogue has one (`Key_one`, `Key_other`, … by
 * `Intl.PluralRules`, `Key_zero` for 0), `defaultValue`, `lng`, the key itself when the
 * catalogue lacks it, French elision.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { DEFAULT_LOCALE, textDirection, type Locale } from '../lib/locale';

type Catalogue = Record<string, string>;

/** A message's values; `count` also picks its plural form, `lng` its language. */
export type TOptions = Record<string, unknown> & {
  count?: number;
  lng?: string;
  defaultValue?: string;
};
export type TFunction = (key: string, options?: TOptions) => string;

const catalogues = import.meta.glob<Catalogue>(['./*.json', './*/*.json'], {
  import: 'default',
});
const loaded = new Map<string, Catalogue>();
/** The parts whose messages every prepared locale gets too. */
const parts = new Set<string>();
/** `locale` or `part/locale` → its catalogue has been added. */
const added = new Set<string>();
const listeners = new Set<(language: string) => void>();

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

/**
 * A value the options name replaces its `{{name}}` (an absent or null one: nothing); a
 * name the options lack stays as written, as i18next left it.
 */
function interpolate(text: string, options: TOptions): string {
  return text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(options, name) ? String(options[name] ?? '') : whole,
  );
}

/** The message for a key in a catalogue of language `lng` (exported for its tests). */
export function formatMessage(
  catalogue: Catalogue | undefined,
  lng: string,
  key: string,
  options: TOptions = {},
): string {
  const { count } = options;
  const forms = [key];
  if (typeof count === 'number') {
    forms.unshift(`${key}_${new Intl.PluralRules(lng).select(count)}`);
    if (count === 0) forms.unshift(`${key}_zero`);
  }
  // An empty message counts as missing, as i18next's `returnEmptyString: false` had it;
  // only the catalogue's own messages count (a key such as `constructor` is no message).
  const text = forms
    .map((form) => (catalogue && Object.hasOwn(catalogue, form) ? catalogue[form] : ''))
    .find(Boolean);
  return elide(interpolate(text ?? options.defaultValue ?? key, options), lng);
}

function translate(language: string, key: string, options?: TOptions): string {
  const lng = options?.lng ?? language;
  return formatMessage(loaded.get(lng), lng, key, options);
}

/** One `t` per language, so a component's `t` changes only when the language does. */
const fixed = new Map<string, TFunction>();
function fixedT(language: string): TFunction {
  let t = fixed.get(language);
  if (!t) {
    t = (key, options) => translate(language, key, options);
    fixed.set(language, t);
  }
  return t;
}

/** The active language and its messages, for code outside components. */
export const i18n = {
  language: DEFAULT_LOCALE as string,
  t: ((key, options) => translate(i18n.language, key, options)) as TFunction,
  /** `languageChanged`: called with the new language after a switch. */
  on(_event: 'languageChanged', listener: (language: string) => void): void {
    listeners.add(listener);
  },
  off(_event: 'languageChanged', listener: (language: string) => void): void {
    listeners.delete(listener);
  },
};

function subscribe(onChange: () => void): () => void {
  i18n.on('languageChanged', onChange);
  return () => i18n.off('languageChanged', onChange);
}

const currentLanguage = () => i18n.language;

/** The active language's `t`; the component renders again when the language changes. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  return { t: fixedT(language), i18n };
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
  try {
    await addCatalogue(locale, locale);
    // Read after the main catalogue is in: a part asked for meanwhile is added too.
    for (const part of parts) await addCatalogue(locale, `${part}/${locale}`);
    return true;
  } catch (error) {
    console.error('Failed locale loading', error);
    return false;
  }
}

async function addCatalogue(locale: Locale, name: string): Promise<void> {
  if (added.has(name)) return;
  const load = catalogues[`./${name}.json`];
  if (!load) throw new Error(`No catalogue for ${name}`);
  loaded.set(locale, { ...loaded.get(locale), ...(await load()) });
  added.add(name);
}

/**
 * Adds a part's messages (`./<part>/<locale>.json`) to every locale loaded now and
 * to each one loaded later; a screen waits for it before its first render (its
 * module's `ready`, D423).
 */
export async function loadMessages(part: string): Promise<void> {
  parts.add(part);
  await Promise.all([...loaded.keys()].map((locale) => prepareLocale(locale as Locale)));
}

/**
 * A part's messages for a component that shows them only on the reader's request (a
 * card's reason, D429): true once they are in for the active language. The first call
 * asks for them; the component renders again when they arrive.
 */
export function useMessages(part: string): boolean {
  const language = useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
  const ready = added.has(`${part}/${language}`);
  const [, arrived] = useState(0);
  useEffect(() => {
    if (ready) return;
    let live = true;
    void loadMessages(part).then(() => live && arrived((n) => n + 1));
    return () => {
      live = false;
    };
  }, [part, ready]);
  return ready;
}

/**
 * Switches to a loaded locale (synchronous: its messages are in memory). A locale whose
 * catalogue failed to load leaves the current language in place (§8.6).
 */
export function switchLocale(locale: Locale): void {
  if (!loaded.has(locale)) return;
  if (i18n.language !== locale) {
    i18n.language = locale;
    for (const listener of [...listeners]) listener(locale);
  }
  // The server's renderer has no document (D424).
  if (typeof document !== 'undefined') applyDocumentLocale(locale);
}

/** Loads a locale's messages (once) and switches to it. */
export async function loadLocale(locale: Locale): Promise<void> {
  if (await prepareLocale(locale)) switchLocale(locale);
}

export const initI18n = loadLocale;
