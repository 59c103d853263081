/**
 * React Router routes built from routes.json (D1): every route with no prefix and with
 * `/es` and `/fr`, one lazy module per screen, the global guard in each loader.
 */
import type { ComponentType } from 'react';
import { redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { ApiError } from '../lib/api';
import { LOCALES, type Locale } from '../lib/locale';
import { isExternalTarget, matchRouteRule } from '../lib/routeRules';
import { sameOriginPath } from '../lib/sameOrigin';
import { isGuest } from '../features/user';
import { prepareLocale } from '../i18n';
import { localizedRoutePath, ROUTES, type RouteDef, type RouteHandle } from '../routes/routes';
import { globalGuard } from './guard';
import { NotFound } from './NotFound';
import { RootLayout } from './RootLayout';
import { RouteErrorScreen } from './RouteErrorScreen';
import type { Services } from '../lib/services';

/** A screen, and what it needs before its first render (its messages, D423), if anything. */
type ScreenModule = { default: ComponentType; ready?: Promise<unknown> };

const screenModules = import.meta.glob<ScreenModule>('../routes/screens/*.tsx');

export function screenModulePath(name: string): string {
  return `../routes/screens/${name}.tsx`;
}

export function hasScreenModule(name: string): boolean {
  return screenModulePath(name) in screenModules;
}

/** Never settles: used while the page is being replaced by a full load. */
const pageUnloading = () => new Promise<never>(() => undefined);

export function createRouteLoader(services: Services, def: RouteDef | null, locale: Locale) {
  return async ({ request }: LoaderFunctionArgs) => {
    const url = new URL(request.url);
    const first = services.takeFirstNavigation();

    // §4.13: a new deployment was seen, so this navigation loads the page afresh.
    if (!first && services.buildWatch?.hasNewBuild()) {
      services.hardNavigate(url.pathname + url.search + url.hash);
      return pageUnloading();
    }

    // §2.22: route rules may redirect, also to an external address.
    const rule = matchRouteRule(url.pathname, services.routeRules());
    if (rule) {
      if (isExternalTarget(rule.to)) {
        services.hardNavigate(rule.to);
        return pageUnloading();
      }
      throw redirect(rule.to, rule.status);
    }

    const auth = def?.auth ?? false;
    const result = globalGuard({
      pathname: url.pathname,
      search: url.search,
      routeLocale: locale,
      auth,
      storedCode: services.settings.storedLocale(),
      isGuest: auth ? isGuest(await services.currentUser()) : true,
      browserLanguages: first && !services.payload ? services.browserLanguages : undefined,
    });
    if (result.kind === 'redirect') throw redirect(result.to);

    if (result.code) {
      // D3: a valid c in the URL is an explicit choice, stored for 365 days.
      services.settings.storeLocale(result.code.code);
      void services.applyLocaleCode(result.code.code);
    }
    // The language switches when the route commits (RootLayout), not here: until then
    // the page on screen stays one language with the data it asked for (D144).
    await prepareLocale(result.locale);

    // The server's first payload may carry an error for this page (e.g. a missing article).
    const payloadError = services.payload?.error;
    if (first && def && payloadError && services.payload!.status >= 400) {
      throw new ApiError({
        status: payloadError.status,
        code: payloadError.code,
        message: payloadError.message,
        url: url.pathname + url.search,
      });
    }
    return null;
  };
}

function lazyScreen(name: string) {
  const load = screenModules[screenModulePath(name)];
  if (!load) throw new Error(`No screen module for route "${name}"`);
  return async () => {
    const screen = await load();
    await screen.ready;
    return { Component: screen.default };
  };
}

export function createAppRoutes(services: Services): RouteObject[] {
  const children: RouteObject[] = [];
  for (const locale of LOCALES) {
    for (const def of ROUTES) {
      const handle: RouteHandle = { def, locale };
      children.push({
        id: `${locale}:${def.name}`,
        path: localizedRoutePath(locale, def.path),
        loader: createRouteLoader(services, def, locale),
        lazy: lazyScreen(def.name),
        handle,
        errorElement: <RouteErrorScreen />,
      });
    }
  }
  // D3: /en/… is the unprefixed path.
  children.push({
    id: 'en-prefix',
    path: '/en/*',
    loader: ({ request }) => {
      const url = new URL(request.url);
      // D360: `/en//host` must not become `//host`, another site.
      return redirect(sameOriginPath(url.pathname.replace(/^\/en(?=\/|$)/, '') + url.search));
    },
  });
  for (const locale of LOCALES) {
    const handle: RouteHandle = { def: null, locale };
    children.push({
      id: `${locale}:not-found`,
      path: locale === 'en' ? '*' : `/${locale}/*`,
      loader: createRouteLoader(services, null, locale),
      element: <NotFound />,
      handle,
      errorElement: <RouteErrorScreen />,
    });
  }
  return [
    {
      id: 'root',
      element: <RootLayout />,
      errorElement: <RouteErrorScreen />,
      hydrateFallbackElement: <div className="boot" aria-busy="true" />,
      children,
    },
  ];
}
