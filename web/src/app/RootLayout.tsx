import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { switchLocale } from '../i18n';
import { useRouteHandle } from './context';
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

export function RootLayout() {
  const { def, locale } = useRouteHandle();
  // The committed route's locale is the page's language, switched before paint (D144).
  useLayoutEffect(() => switchLocale(locale), [locale]);
  useFocusOnNavigation();
  const Layout = def?.layout === 'page' ? PageLayout : DefaultLayout;
  return (
    <>
      {/* §2.23: scroll to top on page change, restore the position on back navigation. */}
      <ScrollRestoration />
      <Layout>
        <Outlet />
      </Layout>
    </>
  );
}
