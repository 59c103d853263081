/** SPEC §3.5 app settings, kept in cookies named exactly as the spec's keys (D4). */
import { documentCookieJar, type CookieJar } from './cookies';
import { LOCALE_COOKIE, LOCALE_COOKIE_DAYS, resolveLocaleCode, type ProductCode } from './locale';

export const APP_COOKIE_DAYS = 30;

export const SETTING_KEYS = [
  'deviceId',
  'isNew',
  'token',
  'lng',
  'iso',
  'city',
  'cityId',
  'adminCode',
  'postalCode',
  'tu',
  'visit',
  'inited',
  'key',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export type TemperatureUnit = 'F' | 'C';
/** §9.12 system default temperature unit. */
export const DEFAULT_TEMPERATURE_UNIT: TemperatureUnit = 'F';

export interface AppSettings {
  get(key: SettingKey): string | undefined;
  set(key: SettingKey, value: string | number): void;
  remove(key: SettingKey): void;
  /** D3: the stored locale code, a product pair such as `fr_CA`. */
  storedLocale(): ProductCode | null;
  storeLocale(code: ProductCode): void;
  temperatureUnit(): TemperatureUnit;
  /** §4.8 toggles F and C. */
  toggleTemperatureUnit(): TemperatureUnit;
  /** §4.9 sets the last visit to now. */
  markVisit(now?: number): void;
}

export function createAppSettings(jar: CookieJar = documentCookieJar()): AppSettings {
  const settings: AppSettings = {
    get: (key) => jar.get(key) || undefined,
    set: (key, value) => jar.set(key, String(value), { days: APP_COOKIE_DAYS }),
    remove: (key) => jar.remove(key),
    storedLocale: () => {
      const raw = jar.get(LOCALE_COOKIE);
      return raw ? (resolveLocaleCode(raw)?.code ?? null) : null;
    },
    storeLocale: (code) => jar.set(LOCALE_COOKIE, code, { days: LOCALE_COOKIE_DAYS }),
    // D280: a reader who never chose starts with F (§9.12), or C in Canada.
    temperatureUnit: () => {
      const chosen = jar.get('tu');
      if (chosen === 'C' || chosen === 'F') return chosen;
      return jar.get('iso') === 'CA' ? 'C' : DEFAULT_TEMPERATURE_UNIT;
    },
    toggleTemperatureUnit: () => {
      const next: TemperatureUnit = settings.temperatureUnit() === 'F' ? 'C' : 'F';
      settings.set('tu', next);
      return next;
    },
    markVisit: (now = Date.now()) => settings.set('visit', now),
  };
  return settings;
}

/** §4.9 the last visit shown as YYYY-MM-DD (local date). */
export function formatVisit(value: string | undefined): string {
  const ms = Number(value);
  if (!value || !Number.isFinite(ms) || ms <= 0) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** An in-memory jar for tests and for code that must not touch document.cookie. */
export function memoryCookieJar(): CookieJar & {
  written: Array<{ name: string; value: string; days: number }>;
} {
  const values = new Map<string, string>();
  const written: Array<{ name: string; value: string; days: number }> = [];
  return {
    written,
    get: (name) => values.get(name),
    set: (name, value, options) => {
      values.set(name, value);
      written.push({ name, value, days: options.days });
    },
    remove: (name) => {
      values.delete(name);
    },
  };
}
