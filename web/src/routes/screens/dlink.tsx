import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteHandle } from '../../app/context';
import { usePageHead } from '../../components/Screen';
import { localizePath } from '../../lib/locale';

/** SPEC §2.19 link page, in the page layout (no main navigation). */
export default function Dlink() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  usePageHead(t('Title_dlink'), t('Desc_dlink'));
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
