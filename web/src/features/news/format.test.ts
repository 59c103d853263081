import { describe, expect, it } from 'vitest';
import { fold, highlightParts, relativeTime } from './format';
import { callMatches, payloadDataFor, PAYLOAD_FRESH_MS } from './seed';
import type { Payload } from '../../lib/payload';
import { firstLoadPayload } from '../../test/payload';

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

describe('D101 the first-load payload as query data', () => {
  const payload = (calls: Payload['calls'], error: Payload['error'] = null): Payload =>
    firstLoadPayload({ route: 'latest', error, calls });
  const call = {
    path: '/api/news/feed',
    params: { channel: 'local', city_id: '4140963', lang: 'en', country: 'US', size: '20' },
    data: { list: [] },
  };

  it('D101 a call matches when every parameter the screen sends is the same', () => {
    expect(callMatches(call, '/news/feed', { channel: 'local', lang: 'en' })).toBe(true);
    expect(callMatches(call, '/news/feed', { channel: 'local', city_id: '4140963' })).toBe(true);
    expect(callMatches(call, '/news/feed', { channel: 'local', city_id: '1' })).toBe(false);
    expect(callMatches(call, '/news/feed', { channel: 'latest' })).toBe(false);
    expect(callMatches(call, '/news/detail', { channel: 'local' })).toBe(false);
    // Page size and token never decide.
    expect(callMatches(call, '/news/feed', { channel: 'local', size: '7' })).toBe(true);
  });

  it('D101 the data is used while fresh, never with an error', () => {
    const now = 1_000_000;
    expect(payloadDataFor(payload([call]), now, '/news/feed', { channel: 'local' }, now)).toBe(
      call.data,
    );
    expect(
      payloadDataFor(
        payload([call]),
        now,
        '/news/feed',
        { channel: 'local' },
        now + PAYLOAD_FRESH_MS + 1,
      ),
    ).toBeUndefined();
    expect(
      payloadDataFor(payload([call], { status: 404, message: 'x' }), now, '/news/feed', {}, now),
    ).toBeUndefined();
    expect(payloadDataFor(null, now, '/news/feed', {}, now)).toBeUndefined();
  });
});
