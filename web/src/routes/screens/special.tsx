import { useTranslation } from '../../i18n';
import { useParams } from 'react-router';
import { Screen } from '../../components/Screen';
import { isNotFound, MissingState, NewsFeed, NoStories, useFeed } from '../../features/news';
import { leadsWithFirst } from '../../shared/screens';

/** SPEC §2.13 special collection: the operator's title, description and stories. */
export default function Special() {
  const { t } = useTranslation();
  const { special = '' } = useParams();
  const feed = useFeed({ channel: 'special', special, scoped: false });
  const info = feed.data?.pages[0]?.context.special;
  if (isNotFound(feed.error) && !feed.data) {
    return <MissingState title={t('Missing_Special')} hint={t('Missing_SpecialHint')} />;
  }
  return (
    <Screen title={info?.title} description={info?.description || undefined}>
      <NewsFeed query={feed} leadFirst={leadsWithFirst('special')} empty={<NoStories />} />
    </Screen>
  );
}
