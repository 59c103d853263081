import { describe, expect, it } from 'vitest';
import type { Payload } from '../../lib/payload';
import { firstLoadPayload } from '../../test/payload';
import { callMatches, payloadDataFor, PAYLOAD_FRESH_MS } from './seed';

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
