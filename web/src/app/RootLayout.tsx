import { useEffect, useLayoutEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { switchLocale } from '../i18n';
import { useRouteHandle, useServices } from './context';
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

function afterNextPaint(run: () => void) {
  if (typeof requestAnimationFrame !== 'function') return void setTimeout(run, 0);
  requestAnimationFrame(() => setTimeout(run, 0));
}

export function RootLayout() {
  const { def, locale } = useRouteHandle();
  const services = useServices();
  // Once the first screen has painted: the frame after the one it is drawn in.
  useEffect(() => afterNextPaint(services.screenShown), [services]);
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
