import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  buildQuery,
  createApiClient,
  errorMessage,
  gmtOffset,
  randomAlphanumeric,
  signature,
  dispositionFileName,
  type ApiClientOptions,
} from './api';
import { md5 } from './md5';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fake fetch that answers from a queue and records every call. */
function fakeFetch(
  ...answers: Array<{ status?: number; body?: unknown; headers?: Record<string, string> }>
) {
  const calls: Call[] = [];
  const fetchImpl = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
    });
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? {};
    const text =
      answer.body === undefined
        ? ''
        : typeof answer.body === 'string'
          ? answer.body
          : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status ?? 200, headers: answer.headers });
  });
  return { fetchImpl: fetchImpl as unknown as typeof fetch, calls };
}

function client(fetchImpl: typeof fetch, extra: Partial<ApiClientOptions> = {}) {
  let n = 0;
  return createApiClient({
    fetch: fetchImpl,
    context: () => ({ deviceId: 'dev-123', appLang: 'fr', country: 'CA', token: 'tok-1' }),
    now: () => 1_700_000_000_000 + n,
    nonce: () => `nonce${String(++n).padStart(5, '0')}`,
    timezoneOffset: () => -60,
    ...extra,
  });
}

const ok = (data: unknown) => ({ body: { code: 0, data, message: 'ok' } });

describe('§7 request signing', () => {
  it('§7 signs non-GET calls with base, timestamp, nonce, sign and token headers', async () => {
    const { fetchImpl, calls } = fakeFetch(ok({ id: 1 }));
    await client(fetchImpl).post('/user/init', { user_type: 0 });
    const { headers, url, method, body } = calls[0];
    expect(url).toBe('/api/user/init');
    expect(method).toBe('POST');
    expect(body).toBe('{"user_type":0}');
    expect(JSON.parse(headers.base)).toEqual({
      device_id: 'dev-123',
      os: 3,
      app_lang: 'fr',
      package_name: 'localwire.web',
      country: 'CA',
      app_version: '30010200',
      time_zone: 'GMT+01:00',
    });
    // Key order is part of the signed text.
    expect(Object.keys(JSON.parse(headers.base))).toEqual([
      'device_id',
      'os',
      'app_lang',
      'package_name',
      'country',
      'app_version',
      'time_zone',
    ]);
    expect(headers.timestamp).toBe('1700000000000');
    expect(headers.nonce).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(headers.token).toBe('tok-1');
    expect(headers['content-type']).toBe('application/json');
    expect(headers.sign).toBe(md5(`${headers.base}/user/initlocalwiredev-123`).toUpperCase());
    expect(headers.sign).toMatch(/^[0-9A-F]{32}$/);
  });

  it('D6 the sign covers the path after /api, the sign word and the device id', () => {
    const base = '{"device_id":"d1"}';
    expect(signature(base, '/user/info', 'localwire', 'd1')).toBe(
      md5('{"device_id":"d1"}/user/infolocalwired1').toUpperCase(),
    );
    expect(signature(base, '/user/info', 'other', 'd1')).not.toBe(
      signature(base, '/user/info', 'localwire', 'd1'),
    );
  });

  it('D6 uses a configured sign word', async () => {
    const { fetchImpl, calls } = fakeFetch(ok(null));
    await client(fetchImpl, { signWord: 'secret' }).post('/user/info');
    const h = calls[0].headers;
    expect(h.sign).toBe(md5(`${h.base}/user/infosecretdev-123`).toUpperCase());
  });

  it('§9.9 nonces are 10 random alphanumerics', () => {
    const a = randomAlphanumeric(10);
    expect(a).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(randomAlphanumeric(10)).not.toBe(a);
  });

  it('§7 time_zone is a GMT offset', () => {
    expect(gmtOffset(-60)).toBe('GMT+01:00');
    expect(gmtOffset(300)).toBe('GMT-05:00');
    expect(gmtOffset(-330)).toBe('GMT+05:30');
    expect(gmtOffset(0)).toBe('GMT+00:00');
  });

  it('§6.3 GET calls carry the token but are not signed', async () => {
    const { fetchImpl, calls } = fakeFetch(ok({}));
    await client(fetchImpl).get('/app/config');
    expect(calls[0].headers.token).toBe('tok-1');
    expect(calls[0].headers.sign).toBeUndefined();
    expect(calls[0].body).toBeUndefined();
  });

  it('§6.3 no token header without a token', async () => {
    const { fetchImpl, calls } = fakeFetch(ok({}));
    await createApiClient({
      fetch: fetchImpl,
      context: () => ({ deviceId: 'd', appLang: 'en', country: 'US' }),
    }).post('/user/init');
    expect('token' in calls[0].headers).toBe(false);
  });

  it('§5.2 non-GET requests always carry a body, {} when there is none', async () => {
    const { fetchImpl, calls } = fakeFetch(ok(null));
    await client(fetchImpl).post('/user/info');
    expect(calls[0].body).toBe('{}');
    await client(fetchImpl).request('DELETE', '/x');
    expect(calls[1].body).toBe('{}');
  });

  it('uses the base URL', async () => {
    const { fetchImpl, calls } = fakeFetch(ok(null));
    await client(fetchImpl, { baseUrl: 'https://api.example.test/v1/' }).get('/x');
    expect(calls[0].url).toBe('https://api.example.test/v1/x');
  });
});

describe('§7.19 retries', () => {
  it('§7.19 retries POST once on 503', async () => {
    const { fetchImpl, calls } = fakeFetch({ status: 503, body: { code: 503 } }, ok({ id: 7 }));
    await expect(client(fetchImpl).post('/user/info')).resolves.toEqual({ id: 7 });
    expect(calls).toHaveLength(2);
  });

  it.each([408, 409, 425, 429, 500, 502, 503, 504])('§7.19 retries POST once on %i', async (s) => {
    const { fetchImpl, calls } = fakeFetch({ status: s, body: { code: s } }, ok(1));
    await client(fetchImpl).post('/x');
    expect(calls).toHaveLength(2);
  });

  it('§7.19 retries PATCH once', async () => {
    const { fetchImpl, calls } = fakeFetch({ status: 502, body: { code: 502 } }, ok(1));
    await client(fetchImpl).request('PATCH', '/x');
    expect(calls).toHaveLength(2);
  });

  it('§7.19 retries POST only once, then fails', async () => {
    const { fetchImpl, calls } = fakeFetch({ status: 503, body: { code: 503, message: 'Busy' } });
    await expect(client(fetchImpl).post('/x')).rejects.toMatchObject({
      status: 503,
      message: 'Busy',
    });
    expect(calls).toHaveLength(2);
  });

  it('§7.19 does not retry POST on 400, 401, 404 or 501', async () => {
    for (const status of [400, 401, 404, 501]) {
      const { fetchImpl, calls } = fakeFetch({ status, body: { code: status } }, ok(1));
      await expect(client(fetchImpl).post('/x')).rejects.toBeInstanceOf(ApiError);
      expect(calls, String(status)).toHaveLength(1);
    }
  });

  it('§7.19 idempotent methods are retried zero times', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']) {
      const { fetchImpl, calls } = fakeFetch({ status: 503, body: { code: 503 } }, ok(1));
      await expect(client(fetchImpl).request(method, '/x')).rejects.toBeInstanceOf(ApiError);
      expect(calls, method).toHaveLength(1);
    }
  });

  it('§7.19 a retry carries a new nonce and timestamp, and a matching sign', async () => {
    const { fetchImpl, calls } = fakeFetch({ status: 429, body: { code: 429 } }, ok(1));
    await client(fetchImpl).post('/user/location/update', { lat: 1 });
    expect(calls[1].headers.nonce).not.toBe(calls[0].headers.nonce);
    expect(calls[1].headers.timestamp).not.toBe(calls[0].headers.timestamp);
    expect(calls[1].body).toBe(calls[0].body);
    expect(calls[1].headers.sign).toBe(
      md5(`${calls[1].headers.base}/user/location/updatelocalwiredev-123`).toUpperCase(),
    );
  });
});

describe('§5.1 / §8 envelope and error mapping', () => {
  it('§5.1 code 0 returns data', async () => {
    const { fetchImpl } = fakeFetch(ok({ user: { id: 1 }, token: 't' }));
    await expect(client(fetchImpl).post('/user/init')).resolves.toEqual({
      user: { id: 1 },
      token: 't',
    });
  });

  it('§5.1 a non-zero code on HTTP 200 is an error', async () => {
    const { fetchImpl } = fakeFetch({ body: { code: 422, data: null, message: 'Bad city' } });
    const error = await client(fetchImpl)
      .post('/x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 422, code: 422, message: 'Bad city' });
  });

  it.each([
    [404, 'Not Found'],
    [500, 'Server Error'],
    [403, 'Forbidden'],
    [401, 'Unauthorized'],
  ])('§8 HTTP %i gives %j whatever the server said', async (status, message) => {
    const { fetchImpl } = fakeFetch({ status, body: { code: status, message: 'details' } });
    await expect(client(fetchImpl).get('/x')).rejects.toMatchObject({ status, message });
  });

  it("§8 other statuses give the server's message", async () => {
    const { fetchImpl } = fakeFetch({
      status: 400,
      body: { code: 400, data: { reason: 'lat' }, message: 'Field `lat`: invalid type' },
    });
    const error = (await client(fetchImpl)
      .get('/x')
      .catch((e: unknown) => e)) as ApiError;
    expect(error.message).toBe('Field `lat`: invalid type');
    expect(error.status).toBe(400);
    expect(error.code).toBe(400);
    expect(error.data).toEqual({ reason: 'lat' });
    expect(error.url).toBe('/api/x');
  });

  it("§8 'Unknown Error' when the server gave no message", async () => {
    const { fetchImpl } = fakeFetch({ status: 418, body: { code: 418 } });
    await expect(client(fetchImpl).get('/x')).rejects.toMatchObject({ message: 'Unknown Error' });
    expect(errorMessage(400, '  ')).toBe('Unknown Error');
  });

  it("§8 'Request timeout.' on an empty response body", async () => {
    const { fetchImpl } = fakeFetch({ status: 200 });
    await expect(client(fetchImpl).get('/x')).rejects.toMatchObject({
      message: 'Request timeout.',
    });
    const { fetchImpl: f2 } = fakeFetch({ status: 504, body: '' });
    await expect(client(f2).get('/x')).rejects.toMatchObject({
      status: 504,
      message: 'Request timeout.',
    });
  });

  it("§8 'Request timeout.' when no answer arrives at all", async () => {
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    await expect(client(failing).get('/x')).rejects.toMatchObject({
      status: 0,
      message: 'Request timeout.',
    });
  });

  it('a body that is not JSON is an error with the status message', async () => {
    const { fetchImpl } = fakeFetch({ status: 502, body: '<html>bad gateway</html>' });
    await expect(client(fetchImpl).get('/x')).rejects.toMatchObject({
      status: 502,
      message: 'Unknown Error',
    });
  });
});

describe('§5.3 array query parameters', () => {
  it('§5.3 sends arrays as repeated key[] entries, each element JSON-encoded', () => {
    const query = buildQuery({ ids: [1, 'a b', { x: 1 }], page: 2, skip: undefined });
    const params = new URLSearchParams(query.slice(1));
    expect(params.getAll('ids[]')).toEqual(['1', '"a b"', '{"x":1}']);
    expect(params.get('page')).toBe('2');
    expect(params.has('skip')).toBe(false);
    expect(query.startsWith('?ids%5B%5D=1&')).toBe(true);
  });

  it('§5.3 query parameters reach the URL', async () => {
    const { fetchImpl, calls } = fakeFetch(ok([]));
    await client(fetchImpl).get('/news', { tags: ['a', 'b'] });
    expect(calls[0].url).toBe('/api/news?tags%5B%5D=%22a%22&tags%5B%5D=%22b%22');
    expect(buildQuery({})).toBe('');
  });
});

describe('D341 files from signed calls', () => {
  it('d341_download_is_a_signed_post_answering_the_file_and_its_name', async () => {
    const ndjson = '{"id":1}\n{"id":2}\n';
    const { fetchImpl, calls } = fakeFetch({
      body: ndjson,
      headers: {
        'content-type': 'application/x-ndjson',
        'content-disposition':
          'attachment; filename="localwire-usage-2026-11-01-2026-11-30.ndjson"',
      },
    });
    const file = await client(fetchImpl).download('/admin/usage/export', { from: 'a', to: 'b' });
    expect(calls[0].method).toBe('POST');
    expect(calls[0].url).toBe('/api/admin/usage/export');
    expect(calls[0].body).toBe('{"from":"a","to":"b"}');
    expect(calls[0].headers.sign).toBe(
      signature(calls[0].headers.base, '/admin/usage/export', 'localwire', 'dev-123'),
    );
    expect(file.fileName).toBe('localwire-usage-2026-11-01-2026-11-30.ndjson');
    expect(file.blob.type).toBe('application/x-ndjson');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(file.blob);
    });
    expect(text).toBe(ndjson);
  });

  it('d341_a_failed_download_throws_the_envelope_error', async () => {
    const { fetchImpl } = fakeFetch({
      status: 400,
      body: { code: 400, data: null, message: 'Field `to`: must not be before `from`.' },
    });
    await expect(client(fetchImpl).download('/admin/usage/export')).rejects.toMatchObject({
      status: 400,
      message: 'Field `to`: must not be before `from`.',
    });
    const forbidden = fakeFetch({ status: 403, body: { code: 403, message: 'Forbidden' } });
    await expect(client(forbidden.fetchImpl).download('/x')).rejects.toMatchObject({
      status: 403,
    });
  });

  it('d341_reads_the_file_name_of_a_content_disposition', () => {
    expect(dispositionFileName('attachment; filename="a b.ndjson"')).toBe('a b.ndjson');
    expect(dispositionFileName("attachment; filename*=UTF-8''r%C3%A9sum%C3%A9.txt")).toBe(
      'résumé.txt',
    );
    expect(dispositionFileName('attachment')).toBeNull();
    expect(dispositionFileName(null)).toBeNull();
  });
});
