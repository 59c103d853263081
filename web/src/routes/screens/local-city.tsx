import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { useParams } from 'react-router';
import { useServices } from '../../lib/services';
import { Screen } from '../../components/Screen';
import {
  ErrorState,
  isNotFound,
  FeedSection,
  ListSkeleton,
  MissingState,
  NewsFeed,
  NoStories,
  ScopeNote,
  useFeed,
  useReader,
} from '../../features/news';
import { searchCities } from '../../features/user';
import { leadsWithFirst } from '../../shared/screens';

/**
 * `/local/4140963`, `/local/washington-dc-4140963` → 4140963 (D105); a name without an
 * id (`/local/portland`) is looked up in the gazetteer.
 */
export function cityIdFromSlug(slug: string): number {
  const match = /(?:^|[-_])(\d+)$/.exec(slug.trim());
  return match ? Number(match[1]) : 0;
}

/** SPEC §2.3 local news of a named city. */
export default function LocalCity() {
  const { t } = useTranslation();
  const { local = '' } = useParams();
  const { api } = useServices();
  const reader = useReader();
  const idInPath = cityIdFromSlug(local);
  const name = decodeURIComponent(local).replace(/[-_]+/g, ' ').trim();
  const lookup = useQuery({
    queryKey: ['geo', 'slug', name, reader.lang],
    queryFn: () => searchCities(api, name, '', reader.lang),
    enabled: idInPath === 0 && name !== '',
    staleTime: Infinity,
  });
  const cityId = idInPath || lookup.data?.[0]?.id || 0;
  const feed = useFeed({ channel: 'local', city_id: cityId, enabled: cityId > 0 });
  const context = feed.data?.pages[0]?.context;
  const city = context?.city?.city_show || lookup.data?.[0]?.city_show || '';

  if (idInPath === 0 && lookup.isSuccess && !lookup.data.length) {
    return <MissingState title={t('Missing_City', { name })} hint={t('Missing_CityHint')} />;
  }
  if (isNotFound(feed.error) && !feed.data) {
    return <MissingState title={t('Missing_City', { name })} hint={t('Missing_CityHint')} />;
  }
  return (
    <Screen title={city ? t('Local_CityTitle', { city }) : undefined}>
      <FeedSection title={city ? t('Section_Local', { city }) : t('Section_LocalNoCity')}>
        {lookup.isPending && idInPath === 0 && <ListSkeleton />}
        {lookup.isError && (
          <ErrorState error={lookup.error} onRetry={() => void lookup.refetch()} />
        )}
        <ScopeNote context={context} city={city} />
        <NewsFeed query={feed} leadFirst={leadsWithFirst('local-city')} empty={<NoStories />} />
      </FeedSection>
    </Screen>
  );
}
