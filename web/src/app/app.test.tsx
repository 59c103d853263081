import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n, loadLocale } from '../i18n';
import { memoryCookieJar } from '../lib/settings';
import { appConfig, envelope, fakeServer, guestUser, type Handler } from '../test/fakeServer';
import { firstLoadPayload } from '../test/payload';
import type { Payload } from '../lib/payload';
import { App } from './App';
import { createServices } from './services';

interface Options {
  payload?: Payload | null;
  cookies?: Record<string, string>;
  routes?: Record<string, Handler>;
  buildId?: string;
}

function renderApp(path: string, options: Options = {}) {
  const server = fakeServer({
    'POST /api/user/init': () => envelope({ user: guestUser, token: 'tok-guest' }),
    'POST /api/user/info': () => envelope(guestUser),
    'GET /api/app/config': () => envelope(appConfig),
    'GET /api/news/feed': () => envelope({ list: [], next_page_token: '', context: {} }),
    'GET /api/news/categories': () => envelope({ list: [] }),
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
    buildId: options.buildId ?? '',
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
  const stop = services.start();
  stops.push(stop);
  const location = () => router.state.location.pathname + router.state.location.search;
  return { server, jar, services, hardNavigate, location, router: () => router };
}

const stops: Array<() => void> = [];
afterEach(async () => {
  stops.splice(0).forEach((stop) => stop());
  await loadLocale('en');
});

describe('app shell', () => {
  it("§2.22 an unknown path shows 'Page not found: {path}'", async () => {
    renderApp('/no/such/page');
    expect(
      await screen.findByRole('heading', { name: 'Page not found: /no/such/page' }),
    ).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });

  it('§2.22 an unknown path under /fr is shown in French', async () => {
    renderApp('/fr/nulle/part');
    expect(
      await screen.findByRole('heading', { name: 'Page introuvable : /fr/nulle/part' }),
    ).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('fr');
  });

  it('§4.2 / §7.17 a first visit creates a guest, then fetches user info', async () => {
    const { server, jar } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Local news near you' })).toBeVisible();
    await waitFor(() => expect(jar.get('inited')).toBe('1'));
    // Then home asks for the reader's own tabs (D264), once the reader is known.
    await waitFor(() =>
      expect(server.requests.map((r) => r.path).filter((p) => p.startsWith('/api/user'))).toEqual([
        '/api/user/init',
        '/api/user/info',
        '/api/user/channels/list',
      ]),
    );
    expect(jar.get('token')).toBe('tok-guest');
    expect(jar.get('deviceId')).toMatch(/^[0-9a-f]{32}$/);
    // §3.3 cityShow in the header.
    expect(await screen.findByText('Washington, DC')).toBeInTheDocument();
  });

  it('landmarks: skip link, banner, navigation, main and footer', async () => {
    renderApp('/latest');
    await screen.findByRole('heading', { name: 'Latest news', level: 1 });
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute('href', '#main');
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    for (const name of [
      'Home',
      'Local',
      'Latest',
      'Top',
      'Search',
      'Weather',
      'Trends',
      'Today in history',
    ]) {
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(nav).getByRole('link', { name: 'Latest' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(await screen.findByText('No stories here yet')).toBeInTheDocument();
  });

  it('§2.19 /dlink uses the page layout, without the main navigation', async () => {
    renderApp('/dlink');
    await screen.findByRole('heading', { name: 'Continue to Localwire' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
  });

  it('§2.21 a stored locale code without c redirects to its locale path with c', async () => {
    const { location } = renderApp('/latest', { cookies: { lw_locale: 'fr_CA' } });
    expect(
      await screen.findByRole('heading', { name: 'Dernières nouvelles', level: 1 }),
    ).toBeVisible();
    expect(location()).toBe('/fr/latest?c=fr_CA');
    expect(document.documentElement.lang).toBe('fr');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('§2.21 / §4.3 a c code switches the locale, is stored, and moves the user', async () => {
    const { location, jar, server } = renderApp('/?c=es_US');
    expect(
      await screen.findByRole('heading', { name: 'Noticias locales cerca de ti' }),
    ).toBeVisible();
    expect(location()).toBe('/es/?c=es_US');
    expect(jar.get('lw_locale')).toBe('es_US');
    expect(jar.written.find((w) => w.name === 'lw_locale')?.days).toBe(365);
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.path === '/api/user/location/update')?.body,
      ).toMatchObject({ country: 'US', city: 'Washington', lang: 'es' }),
    );
  });

  it('D3 the language/country switcher stores the choice and moves to its locale path', async () => {
    const user = userEvent.setup();
    const { location, jar, server } = renderApp('/latest');
    await screen.findByRole('heading', { name: 'Latest news', level: 1 });
    await user.selectOptions(screen.getByLabelText('Language and country'), 'fr_CA');
    expect(
      await screen.findByRole('heading', { name: 'Dernières nouvelles', level: 1 }),
    ).toBeVisible();
    expect(location()).toBe('/fr/latest?c=fr_CA');
    expect(jar.get('lw_locale')).toBe('fr_CA');
    expect(screen.getByLabelText('Langue et pays')).toHaveValue('fr_CA');
    // §4.3 another country: its default city is set on the server.
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.path === '/api/user/location/update')?.body,
      ).toMatchObject({ country: 'CA', city: 'Ottawa', city_id: 6094817, lang: 'fr' }),
    );
    expect(await screen.findByText('Ottawa, ON')).toBeInTheDocument();
    // §2.24 the flag of the chosen country (decorative: the option names the country).
    const flag = document.querySelector('.locale-switcher__flag');
    expect(flag).toHaveAttribute('src', '/static/country/ca.png');
    expect(flag).toHaveAttribute('alt', '');
  });

  it('D144 the language changes with the committed route, never while the old page shows', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/latest');
    await screen.findByRole('heading', { name: 'Latest news', level: 1 });
    // Where the router stood each time the language changed: a switch during the loader
    // would show the old page (and the data it asked for, in the old language) in French.
    const seenAt: string[] = [];
    const record = () => seenAt.push(router().state.location.pathname);
    i18n.on('languageChanged', record);
    try {
      await user.selectOptions(screen.getByLabelText('Language and country'), 'fr_CA');
      await screen.findByRole('heading', { name: 'Dernières nouvelles', level: 1 });
    } finally {
      i18n.off('languageChanged', record);
    }
    expect(seenAt).toEqual(['/fr/latest']);
  });

  it('§4.4 / §8.10 a failed location update shows an error popup', async () => {
    renderApp('/?c=fr_CA', {
      routes: {
        'POST /api/user/location/update': () => ({
          status: 400,
          body: { code: 400, message: 'x' },
        }),
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Votre position n’a pas pu être mise à jour.',
    );
  });

  it('§6.2 a guest opening /user goes to home, where the sign-in dialog opens', async () => {
    const { location } = renderApp('/user/read');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(location()).toBe('/?login=1&redirect=%2Fuser%2Fread');
    // The server's config says which providers are on (none here); it is asked for first.
    expect(
      await within(dialog).findByText('Sign-in is not available on this server yet.'),
    ).toBeVisible();
    expect(within(dialog).getByRole('button', { name: /Google/ })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: /Facebook/ })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(location()).toBe('/'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('§6.2 a signed-in user opens /user', async () => {
    renderApp('/user', {
      cookies: { deviceId: 'd', token: 't' },
      routes: {
        'POST /api/user/info': () =>
          envelope({ ...guestUser, account_type: 3, name: 'Ada', email: 'ada@example.org' }),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Your account', level: 1 })).toBeVisible();
    expect(screen.getByText('Signed in as Ada')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reading history' })).toHaveAttribute(
      'href',
      '/user/read',
    );
  });

  it('§2.25 an error in the first payload shows the generic error screen', async () => {
    const payload = firstLoadPayload({
      route: 'article',
      status: 404,
      params: { id: 'x' },
      error: { status: 404, message: 'Not Found' },
    });
    renderApp('/article/x', { payload });
    expect(await screen.findByRole('heading', { name: 'Not Found' })).toBeVisible();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.getByText('/article/x')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    // The layout stays around the error.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it('§4.13 after a new build is seen, the next navigation is a full page load', async () => {
    const user = userEvent.setup();
    const { services, hardNavigate } = renderApp('/', {
      buildId: 'build-1',
      routes: { 'GET /_app/version.json': () => ({ body: { id: 'build-2' } }) },
    });
    await screen.findByRole('heading', { name: 'Local news near you' });
    await act(async () => {
      await services.buildWatch!.check();
    });
    await user.click(screen.getByRole('link', { name: 'Latest' }));
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('/latest'));
  });

  it('§2.22 route rules redirect on client navigation, also to an external address', async () => {
    const user = userEvent.setup();
    const { services, hardNavigate, location } = renderApp('/');
    await screen.findByRole('heading', { name: 'Local news near you' });
    services.setRouteRules([
      { from: '/latest', to: '/top-news', status: 301 },
      { from: '/weather', to: 'https://weather.example.org/', status: 302 },
    ]);
    await user.click(screen.getByRole('link', { name: 'Latest' }));
    expect(await screen.findByRole('heading', { name: 'Top news', level: 1 })).toBeVisible();
    expect(location()).toBe('/top-news');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Weather' }));
    await waitFor(() => expect(hardNavigate).toHaveBeenCalledWith('https://weather.example.org/'));
  });

  it('§4.8 the weather screen keeps the temperature unit in the tu cookie', async () => {
    const user = userEvent.setup();
    const { jar } = renderApp('/weather');
    const celsius = await screen.findByRole('radio', { name: 'Celsius (°C)' });
    expect(screen.getByRole('radio', { name: 'Fahrenheit (°F)' })).toBeChecked();
    await user.click(celsius);
    expect(celsius).toBeChecked();
    expect(jar.get('tu')).toBe('C');
  });
});
