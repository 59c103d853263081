import { useTranslation } from '../../i18n';
import { useParams } from 'react-router';
import { Screen } from '../../components/Screen';
import { isNotFound, MissingState, NewsFeed, NoStories, useFeed } from '../../features/news';
import { leadsWithFirst } from '../../shared/screens';

/**
 * SPEC §2.15 location: a city (`/location/4975802`) or a state or province
 * (`/location/US-ME`) with its news, in every language (D102).
 */
export default function Location() {
  const { t } = useTranslation();
  const { location = '' } = useParams();
  const feed = useFeed({ channel: 'location', location, scoped: false });
  const area = feed.data?.pages[0]?.context.area;
  if (isNotFound(feed.error) && !feed.data) {
    return <MissingState title={t('Missing_Place')} hint={t('Missing_PlaceHint')} />;
  }
  return (
    <Screen
      title={area?.name}
      description={area ? t('Location_Lede', { place: area.name }) : undefined}
    >
      <NewsFeed query={feed} leadFirst={leadsWithFirst('location')} empty={<NoStories />} />
    </Screen>
  );
}
