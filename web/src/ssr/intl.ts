/**
 * The part of `Intl` the first screen uses, for the server's JavaScript engine (QuickJS
 * has no `Intl`; D424). Only what the first screen's components ask for, in en, es and fr,
 * written exactly as V8 writes it (`intl.test.ts` compares them with Node's `Intl` over
 * every month, hour and count they can meet): plural categories, relative time with
 * `numeric: 'auto'`, and `dateStyle: 'medium'` with an optional `timeStyle: 'short'`, in
 * UTC (the server does not know the reader's zone). Anything else throws a RangeError:
 * the render fails, and the page goes out without a first screen for the app to render
 * (never a wrong one). A full Intl polyfill (FormatJS) would cost 28 MB of memory per
 * renderer and 1.35 MB of script (docs/one-renderer-spike.md).
 */

type Lang = 'en' | 'es' | 'fr';

function lang(locales: string | readonly string[] | undefined): Lang {
  const first = (Array.isArray(locales) ? locales[0] : locales) as string | undefined;
  const code = (first ?? 'en').slice(0, 2).toLowerCase();
  if (code === 'en' || code === 'es' || code === 'fr') return code;
  throw new RangeError(`the server's Intl knows en, es and fr, not ${String(first)}`);
}

const MONTHS: Record<Lang, readonly string[]> = {
  en: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  es: ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sept', 'oct', 'nov', 'dic'],
  fr: [
    'janv.',
    'févr.',
    'mars',
    'avr.',
    'mai',
    'juin',
    'juil.',
    'août',
    'sept.',
    'oct.',
    'nov.',
    'déc.',
  ],
};

type PluralCategory = 'one' | 'many' | 'other';

/** CLDR's rules for whole numbers, the only counts the app has. */
function pluralOf(language: Lang, n: number): PluralCategory {
  const whole = Number.isInteger(n) && n >= 0;
  if (language === 'en') return n === 1 ? 'one' : 'other';
  if (language === 'fr' && (n === 0 || n === 1 || (n > 0 && n < 2))) return 'one';
  if (language === 'es' && n === 1) return 'one';
  if (whole && n !== 0 && n % 1_000_000 === 0) return 'many';
  return 'other';
}

export class PluralRules {
  readonly #lang: Lang;
  constructor(locales?: string | readonly string[], options?: { type?: string }) {
    if (options?.type && options.type !== 'cardinal')
      throw new RangeError('the server knows cardinal plurals only');
    this.#lang = lang(locales);
  }
  select(n: number): PluralCategory {
    return pluralOf(this.#lang, n);
  }
}

type Unit = 'second' | 'minute' | 'hour' | 'day';

/** Past forms by plural category (the app writes only the past: "5 minutes ago"). */
const PAST: Record<Lang, Record<Unit, { one: string; other: string }>> = {
  en: {
    second: { one: '{n} second ago', other: '{n} seconds ago' },
    minute: { one: '{n} minute ago', other: '{n} minutes ago' },
    hour: { one: '{n} hour ago', other: '{n} hours ago' },
    day: { one: '{n} day ago', other: '{n} days ago' },
  },
  es: {
    second: { one: 'hace {n} segundo', other: 'hace {n} segundos' },
    minute: { one: 'hace {n} minuto', other: 'hace {n} minutos' },
    hour: { one: 'hace {n} hora', other: 'hace {n} horas' },
    day: { one: 'hace {n} día', other: 'hace {n} días' },
  },
  fr: {
    second: { one: 'il y a {n} seconde', other: 'il y a {n} secondes' },
    minute: { one: 'il y a {n} minute', other: 'il y a {n} minutes' },
    hour: { one: 'il y a {n} heure', other: 'il y a {n} heures' },
    day: { one: 'il y a {n} jour', other: 'il y a {n} jours' },
  },
};

/** `numeric: 'auto'` words: this second, yesterday, the day before. */
const WORDS: Record<Lang, Record<string, string>> = {
  en: { 'second:0': 'now', 'day:0': 'today', 'day:-1': 'yesterday' },
  es: { 'second:0': 'ahora', 'day:0': 'hoy', 'day:-1': 'ayer', 'day:-2': 'anteayer' },
  fr: {
    'second:0': 'maintenant',
    'day:0': 'aujourd’hui',
    'day:-1': 'hier',
    'day:-2': 'avant-hier',
  },
};

export class RelativeTimeFormat {
  readonly #lang: Lang;
  readonly #auto: boolean;
  constructor(locales?: string | readonly string[], options?: { numeric?: 'auto' | 'always' }) {
    this.#lang = lang(locales);
    this.#auto = options?.numeric === 'auto';
  }
  format(value: number, unit: string): string {
    const u = unit.replace(/s$/, '') as Unit;
    const forms = PAST[this.#lang][u];
    if (!forms || !Number.isInteger(value) || value > 0 || (value === 0 && !this.#auto))
      throw new RangeError(`the server writes past whole ${unit}s only`);
    if (this.#auto) {
      const word = WORDS[this.#lang][`${u}:${value}`];
      if (word) return word;
      if (value === 0) throw new RangeError(`no word for this ${unit}`);
    }
    const n = -value;
    // Counts under 1,000: no grouping to write (the app's times stop at a week).
    if (n >= 1000) throw new RangeError('the server writes counts under 1,000');
    const form = pluralOf(this.#lang, n) === 'one' ? forms.one : forms.other;
    return form.replace('{n}', String(n));
  }
}

interface DateOptions {
  dateStyle?: string;
  timeStyle?: string;
  timeZone?: string;
}

export class DateTimeFormat {
  readonly #lang: Lang;
  readonly #withTime: boolean;
  constructor(locales?: string | readonly string[], options: DateOptions = {}) {
    const { dateStyle, timeStyle, timeZone, ...rest } = options;
    if (
      dateStyle !== 'medium' ||
      (timeStyle !== undefined && timeStyle !== 'short') ||
      (timeZone !== undefined && timeZone.toUpperCase() !== 'UTC') ||
      Object.keys(rest).length > 0
    )
      throw new RangeError('the server writes medium dates, with short times, in UTC only');
    this.#lang = lang(locales);
    this.#withTime = timeStyle === 'short';
  }
  format(date: Date | number): string {
    const d = new Date(date);
    if (Number.isNaN(d.getTime())) throw new RangeError('Invalid time value');
    const [day, month, year] = [d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear()];
    const name = MONTHS[this.#lang][month];
    const day_ = this.#lang === 'en' ? `${name} ${day}, ${year}` : `${day} ${name} ${year}`;
    return this.#withTime ? `${day_}, ${this.#time(d)}` : day_;
  }
  #time(d: Date): string {
    const [h, m] = [d.getUTCHours(), d.getUTCMinutes()];
    const mm = String(m).padStart(2, '0');
    if (this.#lang === 'en') return `${h % 12 || 12}:${mm} ${h < 12 ? 'AM' : 'PM'}`;
    if (this.#lang === 'es') return `${h}:${mm}`;
    return `${String(h).padStart(2, '0')}:${mm}`;
  }
}

/** Installs the shim where the engine has no `Intl` (the server's QuickJS). */
export function installIntl(): void {
  if (typeof globalThis.Intl !== 'undefined') return;
  (globalThis as Record<string, unknown>).Intl = {
    PluralRules,
    RelativeTimeFormat,
    DateTimeFormat,
  };
}
