import { describe, expect, it } from 'vitest';
import { DateTimeFormat, PluralRules, RelativeTimeFormat } from './intl';

/** The server's Intl (D424) writes what V8's writes, for everything the first screen asks. */
const LANGS = ['en', 'es', 'fr'] as const;

describe('D424 the server Intl shim matches V8', () => {
  it.each(LANGS)('%s plural categories for 0–2,000,000', (lang) => {
    const real = new Intl.PluralRules(lang);
    const shim = new PluralRules(lang);
    for (const n of [...Array.from({ length: 1200 }, (_, i) => i), 1_000_000, 2_000_000, 1_500_000])
      expect(shim.select(n), `${lang} ${n}`).toBe(real.select(n));
  });

  it.each(LANGS)('%s relative times, numeric auto, the units the cards use', (lang) => {
    const real = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
    const shim = new RelativeTimeFormat(lang, { numeric: 'auto' });
    expect(shim.format(0, 'second')).toBe(real.format(0, 'second'));
    for (const unit of ['minute', 'hour', 'day'] as const)
      for (let n = 1; n < 100; n++)
        expect(shim.format(-n, unit), `${lang} -${n} ${unit}`).toBe(real.format(-n, unit));
  });

  it.each(LANGS)('%s medium dates with and without a short time, every month and hour', (lang) => {
    for (const withTime of [false, true]) {
      const options: Intl.DateTimeFormatOptions = withTime
        ? { dateStyle: 'medium', timeStyle: 'short' }
        : { dateStyle: 'medium' };
      const real = new Intl.DateTimeFormat(lang, { ...options, timeZone: 'UTC' });
      const shim = new DateTimeFormat(lang, options as { dateStyle: string; timeStyle?: string });
      for (let month = 0; month < 12; month++)
        for (let hour = 0; hour < 24; hour++) {
          const date = new Date(Date.UTC(2026, month, 1 + hour, hour, (hour * 7) % 60));
          expect(shim.format(date), `${lang} ${date.toISOString()}`).toBe(real.format(date));
        }
    }
  });

  it('refuses what it does not know, so a render fails rather than writes it wrong', () => {
    expect(() => new DateTimeFormat('en', { dateStyle: 'long' })).toThrow(RangeError);
    expect(
      () => new DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'America/Toronto' }),
    ).toThrow(RangeError);
    expect(() => new PluralRules('de')).toThrow(RangeError);
    expect(() => new RelativeTimeFormat('en', { numeric: 'auto' }).format(3, 'day')).toThrow(
      RangeError,
    );
    expect(() => new RelativeTimeFormat('en').format(-1, 'week')).toThrow(RangeError);
  });
});
