import { render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { afterEach, vi } from 'vitest';
import { App } from '../app/App';
import type { Payload } from '../lib/payload';
import { createServices } from '../app/services';
import { loadLocale } from '../i18n';
import { memoryCookieJar } from '../lib/settings';
import { appConfig, envelope, fakeServer, guestUser, type Handler } from './fakeServer';

export interface RenderOptions {
  payload?: Payload | null;
  cookies?: Record<string, string>;
  routes?: Record<string, Handler>;
  config?: Record<string, unknown>;
}

const stops: Array<() => void> = [];
afterEach(async () => {
  stops.splice(0).forEach((stop) => stop());
  await loadLocale('en');
});

/** The whole app on a memory router, against a fake API (the same as app.test.tsx). */
export function renderApp(path: string, options: RenderOptions = {}) {
  const server = fakeServer({
    'POST /api/user/init': () => envelope({ user: guestUser, token: 'tok-guest' }),
    'POST /api/user/info': () => envelope(guestUser),
    'GET /api/app/config': () => envelope({ ...appConfig, ...options.config }),
    'GET /api/news/feed': () => envelope({ list: [], next_page_token: '', context: {} }),
    'GET /api/news/categories': () => envelope({ list: [] }),
    // The reader's own feeds (D271) answer like the public feed: empty unless a test says.
    'POST /api/user/news/followingFeed': () =>
      envelope({ list: [], next_page_token: '', context: {} }),
    'POST /api/user/news/topicsFeed': () =>
      envelope({ list: [], next_page_token: '', context: {} }),
    'POST /api/user/location/update': (req) =>
      envelope({ user: { ...guestUser, ...(req.body as object) }, token: 'tok-guest' }),
    ...options.routes,
  });
  const jar = memoryCookieJar();
  for (const [name, value] of Object.entries(options.cookies ?? {})) {
    jar.set(name, value, { days: 30 });
  }
  const hardNavigate = vi.fn();
  const services = createServices({
    payload: options.payload ?? null,
    initialUrl: new URL(path, 'http://localhost'),
    fetch: server.fetch,
    cookieJar: jar,
    hardNavigate,
    buildId: '',
  });
  let router!: ReturnType<typeof createMemoryRouter>;
  render(
    <App
      services={services}
      createRouter={(routes) => {
        router = createMemoryRouter(routes, { initialEntries: [path] });
        return router;
      }}
    />,
  );
  stops.push(services.start());
  const location = () => router.state.location.pathname + router.state.location.search;
  /** The query string of the recorded GET requests to a path. */
  const calls = (path: string) =>
    server.requests.filter((r) => r.method === 'GET' && r.path === path);
  return { server, jar, services, hardNavigate, location, router: () => router, calls };
}
