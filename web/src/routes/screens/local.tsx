import { useTranslation } from '../../i18n';
import { Screen } from '../../components/Screen';
import {
  FeedSection,
  NewsFeed,
  NoStories,
  ScopeNote,
  useFeed,
  useAfterFirstPaint,
  useReader,
} from '../../features/news';
import { NotificationSettingsDetails, NotificationsToggle } from '../../features/notifications';
import { localSectionCity, openCityPicker } from '../../features/user';
import { leadsWithFirst } from '../../shared/screens';

/** SPEC §2.3 local news for the reader's city, widened (and saying so) when it is quiet. */
export default function Local() {
  const { t } = useTranslation();
  const reader = useReader();
  const feed = useFeed({
    channel: 'local',
    city_id: reader.cityId || undefined,
    keepPrevious: true,
  });
  const context = feed.data?.pages[0]?.context;
  const city = localSectionCity(reader.label, context?.city?.city_show);
  // Notifications for this city (issue 19), for guests too: below the feed and after the
  // first paint, so the server-written first screen is unchanged and nothing moves.
  const later = useAfterFirstPaint();
  return (
    <Screen>
      <p>
        <button type="button" className="button" aria-haspopup="dialog" onClick={openCityPicker}>
          {t('City_Change')}
        </button>
      </p>
      <FeedSection title={city ? t('Section_Local', { city }) : t('Section_LocalNoCity')}>
        <ScopeNote context={context} city={city} />
        <NewsFeed query={feed} leadFirst={leadsWithFirst('local')} empty={<NoStories />} />
      </FeedSection>
      {later && (
        <>
          <NotificationsToggle />
          <NotificationSettingsDetails />
        </>
      )}
    </Screen>
  );
}
