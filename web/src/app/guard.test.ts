import { describe, expect, it } from 'vitest';
import { globalGuard, type GuardInput } from './guard';

const base: GuardInput = {
  pathname: '/latest',
  search: '',
  routeLocale: 'en',
  auth: false,
  storedCode: null,
  isGuest: true,
};

const guard = (over: Partial<GuardInput>) => globalGuard({ ...base, ...over });

describe('§2.21 global guard', () => {
  it('§2.21 c missing and a stored code → same route with that code in c', () => {
    expect(guard({ storedCode: 'fr_CA' })).toEqual({
      kind: 'redirect',
      to: '/fr/latest?c=fr_CA',
    });
  });

  it('§2.21 the stored-code redirect keeps the other query parameters and the route', () => {
    expect(
      guard({ pathname: '/es/article/9', routeLocale: 'es', search: '?x=1', storedCode: 'en_CA' }),
    ).toEqual({ kind: 'redirect', to: '/article/9?x=1&c=en_CA' });
    expect(guard({ pathname: '/', storedCode: 'es_US' })).toEqual({
      kind: 'redirect',
      to: '/es/?c=es_US',
    });
  });

  it('§2.21 an empty c counts as missing', () => {
    expect(guard({ search: '?c=', storedCode: 'fr_CA' })).toEqual({
      kind: 'redirect',
      to: '/fr/latest?c=fr_CA',
    });
  });

  it('§2.21 no redirect when c is present, even with a stored code', () => {
    expect(guard({ search: '?c=en_US', storedCode: 'fr_CA' })).toMatchObject({
      kind: 'render',
      locale: 'en',
      code: { code: 'en_US' },
    });
  });

  it('§2.21 a supported language in c switches to its locale path', () => {
    expect(guard({ search: '?c=es_US' })).toEqual({
      kind: 'redirect',
      to: '/es/latest?c=es_US',
    });
    expect(guard({ pathname: '/fr/', routeLocale: 'fr', search: '?c=en_CA' })).toEqual({
      kind: 'redirect',
      to: '/?c=en_CA',
    });
  });

  it('D3 the redirect carries the resolved product pair in c', () => {
    expect(guard({ search: '?c=fr_us&x=1' })).toEqual({
      kind: 'redirect',
      to: '/fr/latest?c=fr_CA&x=1',
    });
  });

  it('§2.21 renders when the language in c matches the route locale', () => {
    expect(guard({ pathname: '/fr/latest', routeLocale: 'fr', search: '?c=fr_CA' })).toEqual({
      kind: 'render',
      locale: 'fr',
      code: { lang: 'fr', country: 'CA', code: 'fr_CA' },
    });
  });

  it('§5.5 a c whose language is not configured is ignored', () => {
    expect(guard({ search: '?c=de_DE' })).toEqual({ kind: 'render', locale: 'en', code: null });
  });

  it('§2.21 no c and no stored code renders the route locale', () => {
    expect(guard({ pathname: '/es/latest', routeLocale: 'es' })).toEqual({
      kind: 'render',
      locale: 'es',
      code: null,
    });
  });

  it('§4.10 on first access the browser language picks the locale of an unprefixed path', () => {
    expect(guard({ browserLanguages: ['fr-CA', 'en'] })).toEqual({
      kind: 'redirect',
      to: '/fr/latest',
    });
    expect(guard({ browserLanguages: ['de', 'en-US'] })).toMatchObject({ kind: 'render' });
    expect(
      guard({ pathname: '/es/latest', routeLocale: 'es', browserLanguages: ['fr'] }),
    ).toMatchObject({ kind: 'render', locale: 'es' });
  });
});

describe('§6.2 auth guard', () => {
  it('§6.2 a guest opening /user/* goes to home with the sign-in dialog', () => {
    expect(guard({ pathname: '/user/read', auth: true, isGuest: true })).toEqual({
      kind: 'redirect',
      to: '/?login=1&redirect=%2Fuser%2Fread',
    });
  });

  it('§6.2 the sign-in redirect keeps the locale', () => {
    expect(
      guard({
        pathname: '/fr/user',
        routeLocale: 'fr',
        search: '?c=fr_CA',
        auth: true,
        isGuest: true,
      }),
    ).toEqual({ kind: 'redirect', to: '/fr/?login=1&redirect=%2Ffr%2Fuser%3Fc%3Dfr_CA' });
  });

  it('§6.2 a signed-in user opens /user/*', () => {
    expect(guard({ pathname: '/user', auth: true, isGuest: false })).toMatchObject({
      kind: 'render',
    });
  });

  it('§6.2 no other route is guarded', () => {
    expect(guard({ pathname: '/latest', auth: false, isGuest: true })).toMatchObject({
      kind: 'render',
    });
  });
});
