import type { Payload } from '../lib/payload';

/** A first-load payload as the server inlines it (en, US, status 200, no calls), with overrides. */
export function firstLoadPayload(overrides: Partial<Payload> = {}): Payload {
  return {
    route: 'home',
    status: 200,
    locale: 'en',
    country: 'US',
    c: null,
    build: '',
    params: {},
    error: null,
    data: null,
    calls: [],
    ...overrides,
  };
}
