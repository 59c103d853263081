import { describe, expect, it } from 'vitest';
import { fold, highlightParts, relativeTime } from './format';

const marked = (text: string, terms: string[]) =>
  highlightParts(text, terms)
    .filter((p) => p.match)
    .map((p) => p.text);

describe('search highlighting (client side, accent- and case-insensitive)', () => {
  it('folds case and accents as the search API does', () => {
    expect(fold('École Montréal ÉTÉ')).toBe('ecole montreal ete');
  });

  it('marks terms whatever their accents and case, on the original text', () => {
    expect(marked('La École de Montréal vote', ['ecole', 'montreal'])).toEqual([
      'École',
      'Montréal',
    ]);
    expect(marked('Council VOTES on budget', ['vote', 'council'])).toEqual(['Council', 'VOTES']);
  });

  it('matches at the start of a word and runs to its end', () => {
    expect(marked('Devote voters', ['vote'])).toEqual(['voters']);
    expect(marked('no match here', ['vote'])).toEqual([]);
  });

  it('keeps the text whole and in order', () => {
    const parts = highlightParts('Le conseil a voté', ['vote']);
    expect(parts.map((p) => p.text).join('')).toBe('Le conseil a voté');
    expect(parts.at(-1)).toEqual({ text: 'voté', match: true });
    expect(highlightParts('text', [])).toEqual([{ text: 'text', match: false }]);
  });
});

describe('relative times', () => {
  const now = Date.UTC(2026, 10, 20, 12, 0, 0);
  it('says minutes, hours and days in the locale, and the date past a week', () => {
    expect(relativeTime(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(relativeTime(now - 3 * 3600_000, 'es', now)).toBe('hace 3 horas');
    expect(relativeTime(now - 2 * 86400_000, 'fr', now)).toBe('avant-hier');
    expect(relativeTime(now - 10_000, 'en', now)).toBe('now');
    expect(relativeTime(now - 30 * 86400_000, 'en', now)).toMatch(/2026/);
  });
});
