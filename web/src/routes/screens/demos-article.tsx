import { useTranslation } from '../../i18n';
import { Navigate, useLocation } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { Screen } from '../../components/Screen';
import { NewsCard, useFeed } from '../../features/news';
import { deepLinkTarget } from '../../lib/deepLink';

/**
 * SPEC §2.19 demo story page: opens the linked story; without one, presents the newest
 * story as an example of a story card.
 */
export default function DemosArticle() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const { search } = useLocation();
  const target = deepLinkTarget(search, locale, window.location.origin);
  const feed = useFeed({ channel: 'latest', size: 1, enabled: !target });
  if (target) return <Navigate to={target} replace />;
  const item = feed.data?.pages[0]?.list[0];
  return (
    <Screen>
      <p>{t('Demo_Text')}</p>
      {item && <NewsCard item={item} variant="lead" headingLevel={2} />}
    </Screen>
  );
}
