import { lazy, Suspense, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from '../../i18n';
import { useSearchParams } from 'react-router';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';
import { Screen } from '../../components/Screen';
import {
  CategoryTabs,
  FeedSection,
  ListSkeleton,
  NewsList,
  NoStories,
  ScopeNote,
  useAfterFirstPaint,
  useFeed,
  useReader,
} from '../../features/news';
import { SignInDialog } from '../../features/account';
import { useHomeChannels } from '../../features/reader';
import { AlertBanner, WeatherWidget } from '../../features/weather';
import { localSectionCity, openCityPicker } from '../../features/user';
import { localizePath } from '../../lib/locale';
import { watchNear } from '../../lib/viewport';
import { HOME_SECTION_SIZE, leadsWithFirst } from '../../shared/screens';

/**
 * The top trends sit below the first screen: their code and their call wait until the
 * reader scrolls near them (D415).
 */
const TopTrends = lazy(() =>
  import('../../features/trends').then((trends) => ({ default: trends.TopTrends })),
);

/**
 * The latest list pages on and carries ad slots: its code, the ads' with it, comes when the
 * reader comes near it, as its call does (D425).
 */
const LatestFeed = lazy(() =>
  import('../../features/news/feed').then((feed) => ({ default: feed.NewsFeed })),
);

/**
 * True once the element after `slot` (the slot itself is empty, so not displayed, until
 * filled) comes within the lazy-loading margin (1.3 viewports, as images).
 */
function useNearAfter(slot: RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const target = slot.current?.nextElementSibling ?? slot.current;
    if (!enabled || near || !target) return;
    return watchNear(target, (isNear) => isNear && setNear(true));
  }, [slot, enabled, near]);
  return near;
}

/**
 * SPEC §2.1 home: the reader's city, local stories first, then top and latest (which
 * pages on), category tabs; slots for weather and trends; `?login=1` opens sign-in (D8).
 */
export default function Home() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const reader = useReader();
  const { settings } = useServices();
  const [params, setParams] = useSearchParams();
  const closeLogin = useCallback(() => {
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('login');
        next.delete('redirect');
        return next;
      },
      { replace: true },
    );
  }, [setParams]);

  const local = useFeed({
    channel: 'local',
    city_id: reader.cityId || undefined,
    size: HOME_SECTION_SIZE,
    keepPrevious: true,
  });
  const top = useFeed({ channel: 'top', size: HOME_SECTION_SIZE });
  // Below the first screen: rendered once the local and top stories are on screen.
  const belowFold = useAfterFirstPaint();
  const trendsSlot = useRef<HTMLDivElement>(null);
  // The trends and the latest list follow the top stories: their code and their calls
  // wait until the latest section comes near (D415, D425). The page inlines no latest
  // list, so nothing is asked for before then.
  const laterNear = useNearAfter(trendsSlot, belowFold);
  const latest = useFeed({ channel: 'latest', enabled: laterNear });
  // The reader's own tabs once known (D264); until then, and without a list, the default row.
  const channels = useHomeChannels();
  const city = localSectionCity(reader.label, local.data?.pages[0]?.context.city?.city_show);

  return (
    <Screen>
      <div className="home">
        <div className="home__city">
          <p>{city ? t('Home_YourCity', { city }) : t('Home_NoCity')}</p>
          <button type="button" className="button" aria-haspopup="dialog" onClick={openCityPicker}>
            {t('City_Change')}
          </button>
        </div>
        <CategoryTabs channels={channels.data} />
        {/* Filled after the first paint, so the server's first screen stays as written
            (D262, D266); its box is reserved by CSS (news.css). */}
        <div className="home__slot" data-slot="weather">
          {belowFold && (
            <WeatherWidget
              cityId={reader.cityId}
              city={city || reader.city}
              unit={settings.temperatureUnit()}
              to={localizePath(locale, '/weather')}
            />
          )}
        </div>
        <FeedSection
          title={city ? t('Section_Local', { city }) : t('Section_LocalNoCity')}
          more={{ to: localizePath(locale, '/local'), label: t('Home_MoreLocal') }}
        >
          <ScopeNote context={local.data?.pages[0]?.context} city={city} />
          <NewsList
            query={local}
            limit={HOME_SECTION_SIZE}
            leadFirst={leadsWithFirst('home')}
            empty={<NoStories />}
          />
        </FeedSection>
        <FeedSection
          title={t('Section_TopStories')}
          more={{ to: localizePath(locale, '/top-news'), label: t('Home_MoreTop') }}
        >
          <NewsList query={top} limit={HOME_SECTION_SIZE} empty={<NoStories />} />
        </FeedSection>
        <div className="home__slot" data-slot="trends" ref={trendsSlot}>
          {laterNear && (
            <Suspense fallback={null}>
              <TopTrends />
            </Suspense>
          )}
        </div>
        <FeedSection title={t('Section_Latest')}>
          {laterNear && (
            <Suspense fallback={<ListSkeleton />}>
              <LatestFeed query={latest} empty={<NoStories />} />
            </Suspense>
          )}
        </FeedSection>
      </div>
      {/* Official alerts for the reader's city: a fixed bar, after the first paint, so
          nothing on the page moves (D288). */}
      {belowFold && (
        <AlertBanner
          cityId={reader.cityId}
          city={city || reader.city}
          locale={reader.lang}
          to={localizePath(locale, '/weather')}
        />
      )}
      {params.get('login') === '1' && (
        <SignInDialog redirect={params.get('redirect')} onClose={closeLogin} />
      )}
    </Screen>
  );
}
