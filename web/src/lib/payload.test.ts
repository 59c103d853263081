import { describe, expect, it } from 'vitest';
import { parsePayload, readBuildId, readPayload } from './payload';

describe('D20 first-load payload', () => {
  it('reads the payload the server inlines', () => {
    document.body.innerHTML =
      '<script type="application/json" id="lw-payload">{"route":null,"status":404,"locale":"fr","country":"CA","c":"fr_CA","build":"abc","params":{},"error":{"status":404,"message":"Page introuvable : /x"},"data":null}</script>';
    expect(readPayload(document)).toEqual({
      route: null,
      status: 404,
      locale: 'fr',
      country: 'CA',
      c: 'fr_CA',
      build: 'abc',
      params: {},
      error: { status: 404, message: 'Page introuvable : /x', code: undefined },
      data: null,
      calls: [],
    });
    document.body.innerHTML = '';
  });

  it('has no payload in vite dev, or when it is not JSON', () => {
    expect(readPayload(document)).toBeNull();
    expect(parsePayload('{oops')).toBeNull();
    expect(parsePayload('')).toBeNull();
  });

  it('falls back to safe values for missing or odd fields', () => {
    expect(parsePayload('{"locale":"de","params":{"id":"7"}}')).toMatchObject({
      route: null,
      status: 200,
      locale: 'en',
      params: { id: '7' },
      error: null,
    });
  });

  it('D101 reads the first calls: query + data, then extra', () => {
    const payload = parsePayload(
      JSON.stringify({
        route: 'home',
        query: { path: '/api/news/feed', params: { channel: 'local', city_id: 4140963, lang: '' } },
        data: { list: [], next_page_token: '' },
        extra: [
          { query: { path: '/api/news/categories', params: { lang: 'en' } }, data: { list: [] } },
          { query: { params: {} }, data: {} },
        ],
      }),
    );
    expect(payload?.calls).toEqual([
      {
        path: '/api/news/feed',
        params: { channel: 'local', city_id: '4140963' },
        data: { list: [], next_page_token: '' },
      },
      { path: '/api/news/categories', params: { lang: 'en' }, data: { list: [] } },
    ]);
    expect(parsePayload('{"data":{"x":1}}')?.calls).toEqual([]);
  });

  it('D7 the build id comes from the payload, else from <meta name="lw-build">', () => {
    expect(readBuildId(parsePayload('{"build":"p1"}'), document)).toBe('p1');
    document.head.innerHTML = '<meta name="lw-build" content="m1">';
    expect(readBuildId(null, document)).toBe('m1');
    document.head.innerHTML = '';
    expect(readBuildId(null, document)).toBe('');
  });
});
