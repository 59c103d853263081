import { useTranslation } from '../../i18n';
import { Link, Navigate, useLocation } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { usePageHead } from '../../components/Screen';
import { deepLinkTarget } from '../../lib/deepLink';
import { localizePath } from '../../lib/locale';

/** SPEC §2.19 link page, in the page layout: opens the linked item, else offers the app. */
export default function Dlink() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { search } = useLocation();
  usePageHead(t('Title_dlink'), t('Desc_dlink'));
  const target = deepLinkTarget(search, locale, window.location.origin);
  if (target) return <Navigate to={target} replace />;
  return (
    <section className="dlink" aria-labelledby="dlink-title">
      <h1 id="dlink-title">{t('Dlink_Heading')}</h1>
      <p>{t('Dlink_Text')}</p>
      <p>
        <Link className="button button--primary" to={localizePath(locale, '/')}>
          {t('Dlink_Open')}
        </Link>
      </p>
    </section>
  );
}
