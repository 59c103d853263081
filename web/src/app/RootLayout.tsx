import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { OfflineIndicator } from '../features/offline';
import { reportPage, reportSearch } from '../features/report';
import { switchLocale } from '../i18n';
import { useRouteHandle } from '../lib/routeHandle';
import { useServices } from '../lib/services';
import { DefaultLayout } from './layout/DefaultLayout';
import { PageLayout } from './layout/PageLayout';

/** Moves focus to the main landmark after a client navigation, for keyboard and screen readers. */
function useFocusOnNavigation() {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus({ preventScroll: true });
  }, [pathname]);
}

/** Page views and core-function events (§2.26), once the page head has its title (§9: 100 ms). */
function useReportNavigation(routeName: string | null) {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const timer = setTimeout(() => {
      reportPage(routeName, window.location, document.title);
      if (routeName?.startsWith('search')) {
        reportSearch(new URLSearchParams(search).get('q') ?? '');
      }
    }, PAGE_HEAD_WAIT_MS);
    return () => clearTimeout(timer);
  }, [routeName, pathname, search]);
}

const PAGE_HEAD_WAIT_MS = 100;

export function RootLayout() {
  const { def, locale } = useRouteHandle();
  const { outbox } = useServices();
  useReportNavigation(def?.name ?? null);
  // The committed route's locale is the page's language, switched before paint (D144).
  useLayoutEffect(() => switchLocale(locale), [locale]);
  useFocusOnNavigation();
  const Layout = def?.layout === 'page' ? PageLayout : DefaultLayout;
  return (
    <>
      {/* §2.23: scroll to top on page change, restore the position on back navigation. */}
      <ScrollRestoration />
      <OfflineIndicator outbox={outbox} />
      <Layout>
        <Outlet />
      </Layout>
    </>
  );
}
