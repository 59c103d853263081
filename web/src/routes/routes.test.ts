import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createAppRoutes, hasScreenModule } from '../app/router';
import { createServices } from '../app/services';
import { memoryCookieJar } from '../lib/settings';
import { ROUTES, type RouteHandle } from './routes';

/** Every route of SPEC §2's table, in React Router notation. */
const SPEC_PATHS: Record<string, string[]> = {
  '2.1': ['/'],
  '2.2': [
    '/user',
    '/user/read',
    '/user/reaction',
    '/user/favorites',
    '/user/following',
    '/user/notification',
  ],
  '2.3': ['/local', '/local/:local'],
  '2.4': ['/latest'],
  '2.5': ['/top-news'],
  '2.6': ['/search', '/search/news', '/search/media'],
  '2.7': ['/weather'],
  '2.8': ['/realtime-trends'],
  '2.9': ['/today-in-history'],
  '2.10': ['/article/:id'],
  '2.11': ['/share/*'],
  '2.12': ['/media/:media'],
  '2.13': ['/special/:special'],
  '2.14': ['/category/:category'],
  '2.15': ['/location/:location'],
  '2.16': ['/setting/block-list'],
  '2.17': ['/setting/following-tags'],
  '2.18': ['/setting/explore-channels'],
  '2.19': ['/dlink', '/demos/dlink', '/demos/article'],
};

/**
 * D340: the operator's screens are the one route beyond §2's table; its `spec` names the
 * rule it serves (§1.8 usage reporting) rather than a line of the table.
 */
const OPERATOR_PATHS: Record<string, string[]> = {
  '1.8': ['/admin'],
};

function routesForTest() {
  const services = createServices({
    payload: null,
    initialUrl: new URL('http://localhost/'),
    cookieJar: memoryCookieJar(),
    fetch: (() => Promise.reject(new Error('no network in this test'))) as typeof fetch,
  });
  return createAppRoutes(services);
}

function matchedHandle(path: string): RouteHandle | undefined {
  const matches = matchRoutes(routesForTest(), path);
  return matches?.at(-1)?.route.handle as RouteHandle | undefined;
}

describe('D1 route table', () => {
  it('§2 routes.json covers every path of the spec route table, with its spec line', () => {
    for (const [spec, paths] of Object.entries(SPEC_PATHS)) {
      for (const path of paths) {
        const route = ROUTES.find((r) => r.path === path);
        expect(route, path).toBeDefined();
        expect(route?.spec, path).toBe(spec);
      }
    }
  });

  it('d340_the_only_route_beyond_the_spec_table_is_the_operator_route_admin', () => {
    const specPaths = new Set(Object.values(SPEC_PATHS).flat());
    const beyond = ROUTES.filter((r) => !specPaths.has(r.path));
    expect(beyond.map((r) => [r.path, r.name, r.spec])).toEqual([['/admin', 'admin', '1.8']]);
    for (const [spec, paths] of Object.entries(OPERATOR_PATHS)) {
      for (const path of paths) expect(ROUTES.find((r) => r.path === path)?.spec, path).toBe(spec);
    }
    // No spec route carries an operator line, and no operator route a §2 line.
    for (const route of ROUTES) {
      expect(route.spec.startsWith('2.'), route.path).toBe(specPaths.has(route.path));
    }
    expect(ROUTES).toHaveLength(specPaths.size + Object.values(OPERATOR_PATHS).flat().length);
  });

  it('D1 route names are unique and each has a lazy screen module', () => {
    const names = ROUTES.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(hasScreenModule(name), name).toBe(true);
  });

  it('§6.2 only /user and its children need authentication, and the operator route /admin (D340)', () => {
    for (const route of ROUTES) {
      expect(route.auth, route.path).toBe(
        route.path === '/user' || route.path.startsWith('/user/') || route.path === '/admin',
      );
    }
  });

  it('§2.19 /dlink uses the page layout, the others the default layout (§2.27)', () => {
    for (const route of ROUTES) {
      expect(route.layout, route.path).toBe(route.name === 'dlink' ? 'page' : 'default');
    }
  });

  it('§2.20 every route answers without prefix and with the /es and /fr prefixes', () => {
    const samples: Array<[string, string, string]> = [
      ['/', 'home', 'en'],
      ['/es', 'home', 'es'],
      ['/fr/', 'home', 'fr'],
      ['/article/42', 'article', 'en'],
      ['/es/article/42', 'article', 'es'],
      ['/fr/local/ottawa', 'local-city', 'fr'],
      ['/share/a/b/c', 'share', 'en'],
      ['/fr/share/x', 'share', 'fr'],
      ['/user/read', 'user-read', 'en'],
      ['/es/setting/block-list', 'setting-block-list', 'es'],
      ['/dlink', 'dlink', 'en'],
      ['/admin', 'admin', 'en'],
      ['/es/admin', 'admin', 'es'],
      ['/fr/admin', 'admin', 'fr'],
    ];
    for (const [path, name, locale] of samples) {
      const handle = matchedHandle(path);
      expect(handle?.def?.name, path).toBe(name);
      expect(handle?.locale, path).toBe(locale);
    }
  });

  it('§2.22 unmatched paths fall to the not-found route of their locale', () => {
    expect(matchedHandle('/no/such/page')).toEqual({ def: null, locale: 'en' });
    expect(matchedHandle('/fr/no/such')).toEqual({ def: null, locale: 'fr' });
    expect(matchedHandle('/espresso')).toEqual({ def: null, locale: 'en' });
  });
});
