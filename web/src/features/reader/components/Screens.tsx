import type { ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useRouteHandle } from '../../../lib/routeHandle';
import { EmptyState, Screen, Section } from '../../../components/Screen';
import { localizePath } from '../../../lib/locale';
import { fullDate, relativeTime, type Page } from '../../../lib/news';
import { articlePath, ErrorState, ListSkeleton, mediaPath, PagedList } from '../../news';
import { isReaction, REACTION_EMOJI, reactionLabelKey, type AltNews, type ListItems } from '../api';
import {
  useClearHistory,
  useFollow,
  useFollowList,
  useReaderList,
  useRemoveRead,
  useUnblock,
} from '../hooks';
import { useSaved } from '../saved';
import { ConfirmAction } from './Confirm';
import { FollowingFeedSection } from './OwnFeeds';
import { MutesSection, SettingsLinks } from './Settings';
import { ExportOpml } from './ExportOpml';
import '../reader.css';

/** A publisher's icon, or its initial, in a reserved square. */
function PublisherIcon({ name, icon }: { name: string; icon: string }) {
  return icon ? (
    <img className="thing__icon" src={icon} alt="" width={40} height={40} loading="lazy" />
  ) : (
    <span className="thing__icon thing__icon--initial" aria-hidden="true">
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}

/** When: a relative time in the reader's language, the full date on hover. */
function When({ ms, label }: { ms: number; label: (time: string) => string }) {
  const { locale } = useRouteHandle();
  if (!ms) return null;
  return (
    <time dateTime={new Date(ms).toISOString()} title={fullDate(ms, locale)}>
      {label(relativeTime(ms, locale))}
    </time>
  );
}

/** One story of the reader's lists (§3 alternative shape), with its own action. */
function StoryRow({
  item,
  when,
  extra,
  action,
}: {
  item: AltNews;
  when: (time: string) => string;
  extra?: ReactNode;
  action?: ReactNode;
}) {
  const { locale } = useRouteHandle();
  return (
    <div className="thing">
      {item.news_img_url ? (
        <img
          className="thing__image"
          src={item.news_img_url}
          alt=""
          width={96}
          height={54}
          loading="lazy"
        />
      ) : (
        <span className="thing__image thing__image--none" aria-hidden="true" />
      )}
      <div className="thing__text">
        <Link className="thing__title" to={localizePath(locale, articlePath(item.news_id))}>
          {item.news_title}
        </Link>
        <p className="thing__meta">
          {item.media?.name && <span>{item.media.name}</span>}
          {extra}
          <When ms={item.create_time} label={when} />
        </p>
      </div>
      {action && <div className="thing__action">{action}</div>}
    </div>
  );
}

function UnsaveButton({ item }: { item: AltNews }) {
  const { t } = useTranslation();
  const { setSaved } = useSaved(item.news_id);
  return (
    <button
      type="button"
      className="button"
      aria-label={t('Reader_UnsaveOne', { title: item.news_title })}
      onClick={() => setSaved(false)}
    >
      {t('Reader_Unsave')}
    </button>
  );
}

/** §2 /user/favorites: the saved stories, newest first. */
export function SavedScreen() {
  const { t } = useTranslation();
  const query = useReaderList('saved');
  return (
    <Screen>
      <Section title={t('Section_Stories')}>
        <PagedList<ListItems['saved'], Page<ListItems['saved']>>
          query={query}
          itemKey={(item) => item.news_id}
          listClassName="thing-list"
          empty={<EmptyState title={t('Empty_Favorites')} hint={t('Reader_EmptySavedHint')} />}
          renderItem={(item) => (
            <StoryRow
              item={item}
              when={(time) => t('Reader_SavedAgo', { time })}
              action={<UnsaveButton item={item} />}
            />
          )}
        />
      </Section>
    </Screen>
  );
}

/** §2 /user/read: the reading history, with remove-one and clear-all. */
export function HistoryScreen() {
  const { t } = useTranslation();
  const query = useReaderList('history');
  const remove = useRemoveRead();
  const clear = useClearHistory();
  const hasItems = query.data?.pages.some((page) => page.list.length > 0) ?? false;
  return (
    <Screen>
      <Section title={t('Section_Stories')}>
        {hasItems && (
          <div className="thing-tools">
            <ConfirmAction
              label={t('Reader_ClearHistory')}
              question={t('Reader_ClearQuestion')}
              confirmLabel={t('Reader_ClearConfirm')}
              onConfirm={() => clear.mutate()}
            />
          </div>
        )}
        <PagedList<ListItems['history'], Page<ListItems['history']>>
          query={query}
          itemKey={(item) => item.news_id}
          listClassName="thing-list"
          empty={<EmptyState title={t('Empty_ReadHistory')} hint={t('Reader_EmptyHistoryHint')} />}
          renderItem={(item) => (
            <StoryRow
              item={item}
              when={(time) => t('Reader_ReadAgo', { time })}
              action={
                <button
                  type="button"
                  className="button"
                  aria-label={t('Reader_RemoveOne', { title: item.news_title })}
                  onClick={() => remove.mutate(item.news_id)}
                >
                  {t('Reader_Remove')}
                </button>
              }
            />
          )}
        />
      </Section>
    </Screen>
  );
}

/** §2 /user/reaction: the stories the reader reacted to, with the reaction. */
export function ReactionsScreen() {
  const { t } = useTranslation();
  const query = useReaderList('reactions');
  return (
    <Screen>
      <Section title={t('Section_Stories')}>
        <PagedList<ListItems['reactions'], Page<ListItems['reactions']>>
          query={query}
          itemKey={(item) => item.news_id}
          listClassName="thing-list"
          empty={<EmptyState title={t('Empty_Reactions')} hint={t('Reader_EmptyReactionsHint')} />}
          renderItem={(item) => (
            <StoryRow
              item={item}
              when={(time) => t('Reader_ReactedAgo', { time })}
              extra={
                isReaction(item.reaction) && (
                  <span className="badge">
                    <span aria-hidden="true">{REACTION_EMOJI[item.reaction]} </span>
                    {t(reactionLabelKey(item.reaction))}
                  </span>
                )
              }
            />
          )}
        />
      </Section>
    </Screen>
  );
}

/**
 * §2 /setting/block-list: blocked publishers (§3 Blocked media) with unblock, then the
 * reader's mutes (D265): what the reader does not want to see, in one place.
 */
export function BlockListScreen() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const query = useReaderList('blocked');
  const unblock = useUnblock();
  return (
    <Screen>
      <Section title={t('Section_Publishers')}>
        <PagedList<ListItems['blocked'], Page<ListItems['blocked']>>
          query={query}
          itemKey={(item) => item.media_id}
          listClassName="thing-list"
          skeleton={3}
          moreLabel={t('Reader_LoadMorePublishers')}
          empty={<EmptyState title={t('Empty_BlockList')} hint={t('Reader_EmptyBlockedHint')} />}
          renderItem={(item) => (
            <div className="thing">
              <PublisherIcon name={item.media_name} icon={item.icon_url} />
              <div className="thing__text">
                <Link className="thing__title" to={localizePath(locale, mediaPath(item.media_id))}>
                  {item.media_name}
                </Link>
                {item.update_time > 0 && (
                  <p className="thing__meta">
                    {t('Reader_BlockedOn', {
                      date: fullDate(item.update_time, locale, { withTime: false }),
                    })}
                  </p>
                )}
              </div>
              <div className="thing__action">
                <button
                  type="button"
                  className="button"
                  aria-label={t('Reader_UnblockOne', { name: item.media_name })}
                  onClick={() => unblock.mutate(item.media_id)}
                >
                  {t('Reader_Unblock')}
                </button>
              </div>
            </div>
          )}
        />
      </Section>
      <MutesSection />
      <SettingsLinks />
    </Screen>
  );
}

/**
 * §2 /user/following: followed publishers (one list, no paging: at most 1 000), then
 * their stories (D271).
 */
export function FollowingScreen() {
  const { t } = useTranslation();
  const { locale } = useRouteHandle();
  const query = useFollowList();
  const follow = useFollow();
  let body: ReactNode;
  if (query.isPending) body = <ListSkeleton count={3} />;
  else if (query.isError)
    body = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  else if (query.data.length === 0)
    body = <EmptyState title={t('Empty_Following')} hint={t('Reader_EmptyFollowingHint')} />;
  else
    body = (
      <ul className="thing-list">
        {query.data.map((media) => (
          <li key={media.media_id}>
            <div className="thing">
              <PublisherIcon name={media.name} icon={media.icon_url} />
              <div className="thing__text">
                <Link className="thing__title" to={localizePath(locale, mediaPath(media.media_id))}>
                  {media.name}
                </Link>
              </div>
              <div className="thing__action">
                <button
                  type="button"
                  className="button"
                  aria-label={t('Reader_UnfollowOne', { name: media.name })}
                  onClick={() => follow.mutate({ media, follow: false })}
                >
                  {t('Reader_Unfollow')}
                </button>
              </div>
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <Screen>
      <Section title={t('Section_Publishers')}>
        {body}
        <ExportOpml />
      </Section>
      <FollowingFeedSection />
    </Screen>
  );
}
