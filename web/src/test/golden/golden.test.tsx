/**
 * The golden test of the first screen (D230): the React app and the server's writer
 * (`crates/api/src/pages/first_paint/`) render the same screens from the same fixtures,
 * and the normalised markup must be the same.
 *
 * Each case is `<case>.json` here: the page's path, locale, country, clock, the reader's
 * city and the page's inlined data exactly as the server inlines it (`query`, `data`,
 * `extra`). `<case>.html` beside it is what the server writes for it, committed: the cargo
 * test `pages::first_paint::golden` fails when the server's output differs from it, and
 * this test fails when React's screen differs from it. To update after a deliberate
 * change: `UPDATE_GOLDEN=1 cargo nextest run --release -p api golden` (rewrites the
 * .html files), then run this test; a difference left is a drift to fix.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ServicesContext } from '../../lib/services';
import { CardActionsContext, type CardActions } from '../../components/CardActions';
import { parsePayload } from '../../lib/payload';
import { createAppRoutes } from '../../app/router';
import { createServices } from '../../app/services';
import { loadLocale, switchLocale } from '../../i18n';
import { isLocale } from '../../lib/locale';
import { memoryCookieJar } from '../../lib/settings';
import { normaliseMarkup } from './normalise';

const DIR = join(process.cwd(), 'src/test/golden');

interface GoldenCase {
  note: string;
  /** The page's URL path and query, with its locale prefix. */
  path: string;
  locale: string;
  /** The reader's country (the `iso` setting). */
  country: string;
  now_ms: number;
  /** The reader's city as the header shows it (the `city` setting), or null. */
  city_label: string | null;
  query: unknown;
  data: unknown;
  extra?: unknown[];
}

const cases = readdirSync(DIR)
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''))
  .sort();

function readCase(name: string): GoldenCase {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as GoldenCase;
}

/** The app fills the cards' action slot (D266); the first screen must be the same with it. */
const cardActions: CardActions = (story) => <button type="button">Save {story.title}</button>;

/** The screen as the app renders it first, inside its layout (RootLayout → DefaultLayout). */
async function renderReact(c: GoldenCase): Promise<string> {
  if (!isLocale(c.locale)) throw new Error(`unknown locale ${c.locale}`);
  vi.setSystemTime(c.now_ms);
  const payload = parsePayload(
    JSON.stringify({
      route: null,
      status: 200,
      locale: c.locale,
      country: c.country,
      c: null,
      build: '',
      params: {},
      error: null,
      query: c.query,
      data: c.data,
      extra: c.extra,
    }),
  );
  const jar = memoryCookieJar();
  jar.set('iso', c.country, { days: 30 });
  if (c.city_label) jar.set('city', c.city_label, { days: 30 });
  const services = createServices({
    payload,
    initialUrl: new URL(c.path, 'http://localhost'),
    // The first screen comes from the payload: nothing is asked for.
    fetch: () => Promise.reject(new Error('no network in the golden test')),
    cookieJar: jar,
    hardNavigate: () => undefined,
    buildId: '',
  });
  const router = createMemoryRouter(createAppRoutes(services), { initialEntries: [c.path] });
  await vi.waitFor(() => expect(router.state.initialized).toBe(true));
  expect(router.state.navigation.state).toBe('idle');
  await loadLocale(c.locale);
  switchLocale(c.locale);
  const html = renderToStaticMarkup(
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={services.queryClient}>
        <CardActionsContext.Provider value={cardActions}>
          <RouterProvider router={router} />
        </CardActionsContext.Provider>
      </QueryClientProvider>
    </ServicesContext.Provider>,
  );
  router.dispose();
  return html;
}

describe('D230 golden: the server writes the first screen the app renders', () => {
  beforeAll(() => {
    // Dates in titles are written in UTC by the server (it does not know the reader's zone).
    vi.stubEnv('TZ', 'UTC');
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterAll(async () => {
    vi.useRealTimers();
    vi.unstubAllEnvs();
    await loadLocale('en');
  });

  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases)('%s', async (name) => {
    const c = readCase(name);
    const react = normaliseMarkup(await renderReact(c));
    const server = normaliseMarkup(readFileSync(join(DIR, `${name}.html`), 'utf8'));
    expect(react, `${name}: ${c.note}`).toBe(server);
  });
});
