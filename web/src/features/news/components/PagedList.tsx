import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import { Fragment, useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../../i18n';
import { EmptyState } from '../../../components/Screen';
import { watchNear } from '../../../lib/viewport';
import { FIRST_SCREEN_CARDS, useFirstScreen } from '../../../lib/firstScreen';
import type { NewsItem, Page } from '../../../lib/news';
import { NewsCard } from './NewsCard';
import { dataFetchStatus, ErrorState, ListSkeleton } from './StatusViews';

type PagedQuery<P> = UseInfiniteQueryResult<InfiniteData<P, string>, Error>;

/** The items of every loaded page, each story once (a cluster may recur across pages). */
export function pagedItems<T>(
  data: InfiniteData<Page<T>, string> | undefined,
  key: (item: T) => unknown,
): T[] {
  const seen = new Set<unknown>();
  const out: T[] = [];
  for (const page of data?.pages ?? []) {
    for (const item of page.list) {
      const id = key(item);
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(item);
    }
  }
  return out;
}

/** The class of a list entry that is not one of the items (an ad slot). */
const EXTRA_ENTRY = 'news-list__extra';

/**
 * The §4 states of a paged list: pending (skeleton), error (retry), success empty
 * (empty state) or the items, then more pages: automatically when the end comes within
 * reach (IntersectionObserver), or with the "Load more" button (keyboard, no scrolling).
 */
export function PagedList<T, P extends Page<T>>({
  query,
  itemKey,
  renderItem,
  limit,
  empty,
  skeleton = 4,
  listClassName = 'news-list',
  moreLabel,
  after,
}: {
  query: PagedQuery<P>;
  itemKey: (item: T) => string | number;
  renderItem: (item: T, index: number) => ReactNode;
  /** What follows the item at an index in a list entry of its own (an ad slot, D345). */
  after?: (index: number) => ReactNode;
  /** Show only the first items and never page (home sections). */
  limit?: number;
  empty: ReactNode;
  skeleton?: number;
  listClassName?: string;
  moreLabel?: string;
}) {
  const { t } = useTranslation();
  const firstScreen = useFirstScreen();
  const status = dataFetchStatus(query);
  const all = pagedItems<T>(query.data as InfiniteData<Page<T>, string> | undefined, itemKey);
  const items = limit ? all.slice(0, limit) : firstScreen ? all.slice(0, FIRST_SCREEN_CARDS) : all;
  const list = useRef<HTMLUListElement>(null);
  const focusFrom = useRef<number | null>(null);

  // After "Load more", the keyboard continues at the first new story.
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || query.isFetchingNextPage || items.length <= from) return;
    focusFrom.current = null;
    const entries = Array.from(list.current?.children ?? []).filter(
      (li) => !li.classList.contains(EXTRA_ENTRY),
    );
    entries[from]?.querySelector<HTMLElement>('a')?.focus();
  }, [query.isFetchingNextPage, items.length]);

  if (status === 'idle') return null;
  if (items.length === 0) {
    if (status === 'pending')
      return <ListSkeleton count={limit ? Math.min(limit, skeleton) : skeleton} />;
    if (status === 'error')
      return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
    return <>{empty}</>;
  }

  const canPage = !limit && !firstScreen && query.hasNextPage;
  return (
    <div className="paged-list" aria-busy={query.isFetching || query.isPlaceholderData}>
      <ul
        ref={list}
        className={listClassName}
        data-placeholder={query.isPlaceholderData || undefined}
      >
        {items.map((item, index) => {
          const extra = after?.(index);
          return (
            <Fragment key={itemKey(item)}>
              <li>{renderItem(item, index)}</li>
              {extra != null && <li className={EXTRA_ENTRY}>{extra}</li>}
            </Fragment>
          );
        })}
      </ul>
      {!limit && query.isFetchNextPageError && (
        <ErrorState compact error={query.error} onRetry={() => void query.fetchNextPage()} />
      )}
      {canPage && !query.isFetchNextPageError && (
        <LoadMore
          loading={query.isFetchingNextPage}
          label={moreLabel ?? t('News_LoadMore')}
          onLoad={(byKeyboard) => {
            if (byKeyboard) focusFrom.current = items.length;
            void query.fetchNextPage();
          }}
        />
      )}
      {!limit && (
        <p className="visually-hidden" role="status">
          {query.isFetchingNextPage ? t('News_LoadingMore') : ''}
        </p>
      )}
    </div>
  );
}

function LoadMore({
  loading,
  label,
  onLoad,
}: {
  loading: boolean;
  label: string;
  onLoad: (byButton: boolean) => void;
}) {
  const { t } = useTranslation();
  const sentinel = useRef<HTMLDivElement>(null);
  const onLoadRef = useRef(onLoad);
  useEffect(() => {
    onLoadRef.current = onLoad;
  });

  // Watching again after each page: if the end is still within reach, load on.
  useEffect(() => {
    const element = sentinel.current;
    if (!element || loading) return;
    return watchNear(element, (near) => {
      if (near) onLoadRef.current(false);
    });
  }, [loading]);

  return (
    <div className="load-more">
      <div ref={sentinel} className="load-more__sentinel" aria-hidden="true" />
      <button type="button" className="button" disabled={loading} onClick={() => onLoad(true)}>
        {loading ? t('News_LoadingMore') : label}
      </button>
    </div>
  );
}

/**
 * A home section's few cards (local, top): the first `limit` stories, no paging and no ad
 * slots (D345: a slot would push the server's first screen down). Without the ads' code,
 * which a paging feed brings (NewsFeed), so home's first load does not fetch it (D425).
 */
export function NewsList({
  query,
  limit,
  empty,
  leadFirst = false,
}: {
  query: PagedQuery<Page<NewsItem>>;
  limit: number;
  empty: ReactNode;
  leadFirst?: boolean;
}) {
  return (
    <PagedList<NewsItem, Page<NewsItem>>
      query={query}
      itemKey={(item) => item.news_id}
      limit={limit}
      empty={empty}
      renderItem={(item, index) => (
        <NewsCard item={item} variant={leadFirst && index === 0 ? 'lead' : 'row'} />
      )}
    />
  );
}

export function NoStories({ title, hint }: { title?: string; hint?: string }) {
  const { t } = useTranslation();
  return <EmptyState title={title ?? t('Empty_Stories')} hint={hint ?? t('Empty_StoriesHint')} />;
}
