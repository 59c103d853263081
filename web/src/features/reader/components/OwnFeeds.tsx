import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { EmptyState, Section } from '../../../components/Screen';
import { localizePath } from '../../../lib/locale';
import { NewsFeed } from '../../news';
import type { OwnFeedName } from '../api';
import { useOwnFeed } from '../hooks';
import '../reader.css';

/** One of the reader's own feeds as story cards, paged like every other feed (D271). */
function OwnFeedSection({
  name,
  title,
  empty,
}: {
  name: OwnFeedName;
  title: string;
  empty: ReactNode;
}) {
  const query = useOwnFeed(name);
  return (
    <Section title={title}>
      <NewsFeed query={query} empty={empty} />
    </Section>
  );
}

/** /user/following, below the publishers: their stories, newest first. */
export function FollowingFeedSection() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  return (
    <OwnFeedSection
      name="following"
      title={t('OwnFeed_FollowingTitle')}
      empty={
        <EmptyState title={t('OwnFeed_FollowingEmpty')} hint={t('OwnFeed_FollowingEmptyHint')}>
          <Link className="button" to={localizePath(locale, '/search/media')}>
            {t('OwnFeed_FindPublishers')}
          </Link>
        </EmptyState>
      }
    />
  );
}

/** /setting/following-tags, below the topics (D272): stories on them, newest first. */
export function TopicsFeedSection() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  return (
    <OwnFeedSection
      name="topics"
      title={t('OwnFeed_TopicsTitle')}
      empty={
        <EmptyState title={t('OwnFeed_TopicsEmpty')} hint={t('OwnFeed_TopicsEmptyHint')}>
          <Link className="button" to={localizePath(locale, '/latest')}>
            {t('OwnFeed_BrowseLatest')}
          </Link>
        </EmptyState>
      }
    />
  );
}
