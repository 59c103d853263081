/**
 * The first screen as the server writes it into the page (D156, D424): the app's own
 * components, rendered once to markup from the page's inlined data. The server runs this
 * in its JavaScript engine (`entry.ts`, crates/render); the golden test runs it in Node
 * and checks both engines write the same.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createAppRoutes } from '../app/router';
import { createServices } from '../app/services';
import { prepareLocale, switchLocale } from '../i18n';
import { parseCookies } from '../lib/cookies';
import { FirstScreenContext } from '../lib/firstScreen';
import { parsePayload } from '../lib/payload';
import { ServicesContext } from '../lib/services';
import { memoryCookieJar } from '../lib/settings';
import { routerReady } from '../lib/routerReady';

/** What the server sends for one page (crates/api `pages::first_screen`). */
export interface FirstScreenInput {
  /** The page's path and query, with its locale prefix. */
  url: string;
  /** The request's time: "5 minutes ago" is written for it. */
  now_ms: number;
  /** The cookies the page is kept under (locale and app settings, `pages::page_key`). */
  cookie: string;
  /** The page's payload (D20), as the server inlines it. */
  payload: unknown;
}

/** Memory in place of the browser's storage: the render keeps nothing. */
function memoryStorage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const values = new Map<string, string>();
  return {
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => void values.set(key, value),
    removeItem: (key) => void values.delete(key),
  };
}

/**
 * The markup of `#root` for this page: the layout and the screen the app renders first,
 * cut to the first screen. '' when the page has no data to paint (an error page, a route
 * the server does not paint): the app then renders it itself.
 */
export async function renderFirstScreen(input: FirstScreenInput): Promise<string> {
  const payload = parsePayload(JSON.stringify(input.payload));
  if (!payload || payload.status !== 200 || payload.calls.length === 0) return '';
  const clock = Date.now;
  Date.now = () => input.now_ms;
  try {
    const jar = memoryCookieJar();
    for (const [name, value] of parseCookies(input.cookie)) jar.set(name, value, { days: 1 });
    const services = createServices({
      payload,
      initialUrl: new URL(input.url, 'http://localhost'),
      // The first screen comes from the payload: nothing is asked for.
      fetch: () => Promise.reject(new Error('the first screen asks for nothing')),
      cookieJar: jar,
      hardNavigate: () => undefined,
      buildId: payload.build,
      storage: memoryStorage(),
    });
    const router = createMemoryRouter(createAppRoutes(services), { initialEntries: [input.url] });
    try {
      await routerReady(router);
      if (router.state.navigation.state !== 'idle' || router.state.errors) return '';
      await prepareLocale(payload.locale);
      switchLocale(payload.locale);
      const markup = renderToStaticMarkup(
        <FirstScreenContext.Provider value={true}>
          <ServicesContext.Provider value={services}>
            <QueryClientProvider client={services.queryClient}>
              <RouterProvider router={router} />
            </QueryClientProvider>
          </ServicesContext.Provider>
        </FirstScreenContext.Provider>,
      );
      // React hoists the images' preloads before the markup; the page's head has its own
      // (D147), and `#root` holds the screen only.
      return markup.replace(/^(?:<link [^>]*>)+/, '');
    } finally {
      router.dispose();
      services.queryClient.clear();
    }
  } finally {
    Date.now = clock;
  }
}
