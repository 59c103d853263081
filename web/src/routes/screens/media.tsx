import { useTranslation } from '../../i18n';
import { useParams } from 'react-router';
import { usePageHead } from '../../components/Screen';
import { MEDIA_PATH, type MediaSource } from '../../lib/news';
import {
  isNotFound,
  MediaHeader,
  MissingState,
  NewsFeed,
  NoStories,
  FeedSection,
  useFeed,
  useOneQuery,
} from '../../features/news';
import { PublisherActions, useBlockedPublisher } from '../../features/reader';
import { toNumber } from '../../lib/parse';

/** SPEC §2.12 publisher page: the §3 media source and its stories (all languages). */
export default function Media() {
  const { t } = useTranslation();
  const { media = '' } = useParams();
  const mediaId = toNumber(media);
  const feed = useFeed({
    channel: 'media',
    media_id: mediaId,
    scoped: false,
    enabled: mediaId > 0,
  });
  const fromFeed = feed.data?.pages[0]?.context.media;
  // The feed's context names the publisher; ask separately only if it does not.
  const detail = useOneQuery<MediaSource>(
    MEDIA_PATH,
    { media_id: String(mediaId) },
    { enabled: mediaId > 0 && feed.isSuccess && !fromFeed?.media_id },
  );
  const source = fromFeed?.media_id ? fromFeed : detail.data;
  // A blocked publisher's feed is empty for this reader (D270): the empty state says why.
  const blocked = useBlockedPublisher(mediaId) === true;
  usePageHead(source?.name || t('Title_media'), source?.about || t('Desc_media'));
  const missing = mediaId <= 0 || ((isNotFound(feed.error) || isNotFound(detail.error)) && !source);
  if (missing) {
    return <MissingState title={t('Missing_Media')} hint={t('Missing_MediaHint')} />;
  }
  return (
    <div className="screen">
      {source ? (
        <MediaHeader media={source} actions={<PublisherActions media={source} />} />
      ) : (
        <h1 className="screen__title">{t('Title_media')}</h1>
      )}
      <FeedSection title={t('Media_Latest')}>
        <NewsFeed
          query={feed}
          empty={
            blocked ? (
              <NoStories
                title={t('Media_BlockedStories', { name: source?.name ?? '' })}
                hint={t('Media_BlockedStoriesHint')}
              />
            ) : (
              <NoStories title={t('Empty_MediaStories')} />
            )
          }
        />
      </FeedSection>
    </div>
  );
}
