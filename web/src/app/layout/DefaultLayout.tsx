import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useNavigation } from 'react-router';
import { localizePath } from '../../lib/locale';
import { useRouteHandle } from '../context';
import { Header } from './Header';
import { SkipLink } from './SkipLink';

const NAV_ITEMS = [
  { path: '/', key: 'Nav_Home' },
  { path: '/local', key: 'Nav_Local' },
  { path: '/latest', key: 'Nav_Latest' },
  { path: '/top-news', key: 'Nav_Top' },
  { path: '/search', key: 'Nav_Search' },
  { path: '/weather', key: 'Nav_Weather' },
  { path: '/realtime-trends', key: 'Nav_Trends' },
  { path: '/today-in-history', key: 'Nav_History' },
] as const;

const FOOTER_LINKS = [
  { path: '/setting/block-list', key: 'Title_setting_block_list' },
  { path: '/setting/following-tags', key: 'Title_setting_following_tags' },
  { path: '/setting/explore-channels', key: 'Title_setting_explore_channels' },
  { path: '/user', key: 'Nav_Account' },
] as const;

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
