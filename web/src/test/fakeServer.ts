import { vi } from 'vitest';

export interface RecordedRequest {
  method: string;
  path: string;
  /** The query string's parameters (last value wins). */
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
}

/** `body` is sent as JSON; `text` as it is (a file, e.g. NDJSON), with its `headers`. */
export interface Answer {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export type Handler = (request: RecordedRequest) => Answer | Promise<Answer>;

/** A fake fetch that routes `METHOD /path` to handlers and records every request. */
export function fakeServer(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const fetchImpl = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { ...(init?.headers as Record<string, string> | undefined) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    requests.push(request);
    const handler = routes[`${request.method} ${request.path}`];
    if (!handler) {
      return new Response(JSON.stringify({ code: 404, data: null, message: 'Not Found' }), {
        status: 404,
      });
    }
    const answer = await handler(request);
    const text = answer.text ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    return new Response(text, { status: answer.status ?? 200, headers: answer.headers });
  });
  return { fetch: fetchImpl as unknown as typeof fetch, requests };
}

export const envelope = (data: unknown) => ({ body: { code: 0, data, message: 'ok' } });

export const guestUser = {
  id: 11,
  name: '',
  photo: '',
  email: '',
  is_new_user: 1,
  account_type: 0,
  join_time: 1700000000,
  last_time: 1700000000000,
  app_lang: 'en',
  postal_code: '20003',
  country: 'US',
  admin_code: 'DC',
  city: 'Washington',
  city_show: 'Washington, DC',
  city_id: 4140963,
  lat: 38.9,
  lon: -77.02,
  user_type: 0,
};

export const appConfig = {
  build_id: 'b1',
  locales: ['en', 'es', 'fr'],
  default_locale: 'en',
  countries: [
    {
      country: 'United States',
      iso: 'US',
      languages: [
        { name: 'English', code: 'en' },
        { name: 'Español', code: 'es' },
      ],
    },
    {
      country: 'Canada',
      iso: 'CA',
      languages: [
        { name: 'English', code: 'en' },
        { name: 'Français', code: 'fr' },
      ],
    },
  ],
  default_location: {
    country: 'US',
    lang: 'en',
    postal_code: '20003',
    admin_code: 'DC',
    city: 'Washington',
    lat: 38.9,
    lon: -77.02,
  },
  default_cities: {
    US: {
      id: 4140963,
      name: 'Washington',
      iso: 'US',
      lang: 'en',
      adminCode: 'DC',
      postalCode: '20003',
      lat: 38.9,
      lon: -77.02,
    },
    CA: {
      id: 6094817,
      name: 'Ottawa',
      iso: 'CA',
      lang: 'en',
      adminCode: 'ON',
      postalCode: 'K1P',
      lat: 45.42,
      lon: -75.7,
    },
  },
  route_rules: [],
  // No ad client: the server's default (D345).
  ads: null,
};
