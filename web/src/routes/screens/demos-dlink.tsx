import { useTranslation } from '../../i18n';
import { Link, Navigate, useLocation } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { Screen } from '../../components/Screen';
import { deepLinkTarget } from '../../lib/deepLink';
import { localizePath } from '../../lib/locale';

/** SPEC §2.19 demo link page: opens the linked item; without one, shows how links work. */
export default function DemosDlink() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { search } = useLocation();
  const target = deepLinkTarget(search, locale, window.location.origin);
  if (target) return <Navigate to={target} replace />;
  return (
    <Screen>
      <p>{t('Demo_LinkText')}</p>
      <ul className="link-list">
        <li>
          <Link to={localizePath(locale, '/demos/article')}>{t('Title_demos_article')}</Link>
        </li>
        <li>
          <Link to={localizePath(locale, '/latest')}>{t('Title_latest')}</Link>
        </li>
      </ul>
    </Screen>
  );
}
