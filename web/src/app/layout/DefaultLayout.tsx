import type { ReactNode } from 'react';
import { useTranslation } from '../../i18n';
import { Link, NavLink, useNavigation } from 'react-router';
import { FollowAsFeed } from '../../features/feeds';
import { localizePath } from '../../lib/locale';
import { FOOTER_LINKS, NAV_ITEMS } from '../../shared/screens';
import { useRouteHandle } from '../../lib/routeHandle';
import { Header } from './Header';
import { SkipLink } from './SkipLink';

export function DefaultLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const navigation = useNavigation();
  return (
    <div className="layout">
      <SkipLink />
      <Header />
      <nav className="main-nav" aria-label={t('Web_MainNav')}>
        <ul className="main-nav__list">
          {NAV_ITEMS.map((item) => (
            <li key={item.path}>
              <NavLink
                className="main-nav__link"
                to={localizePath(locale, item.path)}
                end={item.path === '/'}
              >
                {t(item.key)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <main
        id="main"
        className="layout-main"
        tabIndex={-1}
        aria-busy={navigation.state === 'loading'}
      >
        {children}
      </main>
      <footer className="site-footer">
        <FollowAsFeed />
        <p>{t('Footer_About')}</p>
        <nav aria-label={t('Footer_Settings')}>
          <ul className="site-footer__links">
            {FOOTER_LINKS.map((item) => (
              <li key={item.path}>
                <Link to={localizePath(locale, item.path)}>{t(item.key)}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </footer>
    </div>
  );
}
