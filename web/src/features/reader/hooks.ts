/** Query hooks and optimistic mutations for the reader's things (TanStack Query). */
import { useEffect, useRef } from 'react';
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { useTranslation } from '../../i18n';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';
import {
  readFeedPage,
  type FeedPage,
  type MediaSource,
  type NewsItem,
  type Page,
} from '../../lib/news';
import {
  dropFromList,
  readerKey,
  useReaderKey,
  writeOptimistically,
  type ListData,
  type OptimisticWrite,
} from './cache';
import { QUEUED } from '../offline';
import { emitPopup } from '../../components/popup';
import {
  BLOCK_PATH,
  FOLLOW_LIST_PATH,
  FOLLOW_PATH,
  LIST_PAGE_SIZE,
  LISTS,
  OWN_FEED_PAGE_SIZE,
  OWN_FEEDS,
  REACT_PATH,
  REACTIONS_PATH,
  READ_CLEAR_PATH,
  READ_PATH,
  READ_REMOVE_PATH,
  toPage,
  UNBLOCK_PATH,
  UNFOLLOW_PATH,
  type BlockedDoc,
  type BlockState,
  type FollowedDoc,
  type FollowList,
  type FollowState,
  type ListItems,
  type ListName,
  type OwnFeedName,
  type PersonalFeedRequest,
  type Reaction,
  type ReactionSummary,
} from './api';

type FeedData = InfiniteData<FeedPage, string>;

/**
 * Asks again for everything a reader's blocks, mutes and publisher follows shape (D270,
 * D271): the public read answers under `['api']` (the server keeps them per reader's view
 * and marks the followed publishers) and the reader's own feeds.
 */
export function invalidateFeeds(client: QueryClient, userId: number | null) {
  void client.invalidateQueries({ queryKey: ['api'] });
  void client.invalidateQueries({ queryKey: readerKey(userId, 'feed') });
}

/** Where an own feed's pages are kept: per reader and per language of place names. */
export const ownFeedKey = (userId: number | null, name: OwnFeedName, lang: string): QueryKey =>
  readerKey(userId, 'feed', name, lang);

/**
 * One of the reader's own feeds (D271): Following (the followed publishers' stories) or
 * Your topics (followed tags and categories), newest first, paged by the answer's token. A
 * page may be short and still have a token; an empty token is the last page.
 */
export function useOwnFeed(name: OwnFeedName) {
  const services = useServices();
  const { locale } = useRouteHandle();
  const { userId, ready } = useReaderKey();
  return useInfiniteQuery<FeedPage, Error, FeedData, QueryKey, string>({
    queryKey: ownFeedKey(userId, name, locale),
    queryFn: async ({ pageParam }) => {
      const body: PersonalFeedRequest = {
        size: OWN_FEED_PAGE_SIZE,
        lang: locale,
        ...(pageParam ? { page_token: pageParam } : {}),
      };
      return readFeedPage(await services.api.post<unknown>(OWN_FEEDS[name], body));
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    enabled: ready,
  });
}

/** A paged list of the reader's things as an infinite query (`page_no` ← the answer's token). */
export function useReaderList<N extends ListName>(name: N) {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  const { path, next } = LISTS[name];
  return useInfiniteQuery<Page<ListItems[N]>, Error, ListData<ListItems[N]>, QueryKey, string>({
    queryKey: readerKey(userId, 'list', name),
    queryFn: async ({ pageParam }) =>
      toPage<ListItems[N]>(
        await services.api.post<unknown>(path, {
          size: LIST_PAGE_SIZE,
          ...(pageParam ? { page_no: pageParam } : {}),
        }),
        next,
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    enabled: ready,
  });
}

/**
 * A write whose state a screen shows (a button disabled while it runs): the optimistic
 * write (cache.ts) as a TanStack mutation.
 */
export function useOptimistic<V>(write: OptimisticWrite<V>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: (vars: V) => writeOptimistically(client, write, vars) });
}

// ── History ─────────────────────────────────────────────────────────────────────

/**
 * Records that the reader opened a story: once per article view, never waited for,
 * failure ignored (history is a convenience, not something to interrupt reading for).
 */
export function useRecordRead(newsId: number) {
  const services = useServices();
  const client = useQueryClient();
  const { userId, ready } = useReaderKey();
  const recorded = useRef<number | null>(null);
  useEffect(() => {
    if (!ready || newsId <= 0 || recorded.current === newsId) return;
    recorded.current = newsId;
    services.api.post(READ_PATH, { news_id: newsId }).then(
      () => void client.invalidateQueries({ queryKey: readerKey(userId, 'list', 'history') }),
      () => undefined,
    );
  }, [ready, newsId, services, client, userId]);
}

export function useRemoveRead() {
  const { t } = useTranslation();
  const services = useServices();
  const { userId } = useReaderKey();
  const listKey = readerKey(userId, 'list', 'history');
  return useOptimistic<number>({
    keys: () => [listKey],
    apply: (client, newsId) =>
      dropFromList<ListItems['history']>(client, listKey, (i) => i.news_id === newsId),
    call: (newsId) => services.api.post(READ_REMOVE_PATH, { news_id: newsId }),
    failure: t('Reader_RemoveFailed'),
  });
}

export function useClearHistory() {
  const { t } = useTranslation();
  const services = useServices();
  const { userId } = useReaderKey();
  const listKey = readerKey(userId, 'list', 'history');
  return useOptimistic<void>({
    keys: () => [listKey],
    apply: (client) =>
      client.setQueryData<ListData<ListItems['history']>>(listKey, (data) =>
        data ? { pages: [{ list: [], next_page_token: '' }], pageParams: [''] } : data,
      ),
    call: () => services.api.post(READ_CLEAR_PATH, {}),
    failure: t('Reader_ClearFailed'),
  });
}

// ── Reactions ───────────────────────────────────────────────────────────────────

/** What the reactions become when the reader picks `next` (null: takes theirs back). */
export function applyReaction(summary: ReactionSummary, next: Reaction | null): ReactionSummary {
  const counts = { ...summary.counts };
  let total = summary.total;
  const mine = summary.mine ?? null;
  if (mine) {
    counts[mine] = Math.max(0, (counts[mine] ?? 0) - 1);
    if (counts[mine] === 0) delete counts[mine];
    total = Math.max(0, total - 1);
  }
  if (next) {
    counts[next] = (counts[next] ?? 0) + 1;
    total += 1;
  }
  return { counts, total, mine: next };
}

export function useReactions(newsId: number) {
  const { t } = useTranslation();
  const services = useServices();
  const { userId, ready } = useReaderKey();
  const key = readerKey(userId, 'reactions', newsId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => services.api.post<ReactionSummary>(REACTIONS_PATH, { news_id: newsId }),
    enabled: ready && newsId > 0,
  });
  const mutation = useOptimistic<Reaction | null>({
    keys: () => [key],
    apply: (client, next) =>
      client.setQueryData<ReactionSummary>(key, (now) => (now ? applyReaction(now, next) : now)),
    call: (reaction) =>
      services.outbox.send<ReactionSummary>(`react:${newsId}`, REACT_PATH, {
        news_id: newsId,
        reaction,
      }),
    failure: t('Reader_ReactFailed'),
    settle: (client, _next, answer) => {
      if (answer && typeof answer === 'object') client.setQueryData(key, answer);
      void client.invalidateQueries({ queryKey: readerKey(userId, 'list', 'reactions') });
    },
  });
  /** Picks a reaction, or takes it back when it is already the reader's. */
  const react = (reaction: Reaction) =>
    mutation.mutate(query.data?.mine === reaction ? null : reaction);
  return { query, react };
}

// ── Publishers: following and blocking ──────────────────────────────────────────

export function useFollowList() {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  return useQuery({
    queryKey: readerKey(userId, 'follows'),
    queryFn: async () => (await services.api.post<FollowList>(FOLLOW_LIST_PATH, {}))?.list ?? [],
    enabled: ready,
  });
}

/**
 * Follow or unfollow a publisher; the follow list is the one place its state lives. An
 * unfollowed publisher's stories leave the Following feed at once; on success every feed
 * is asked again (the follow marks and the Following feed change).
 */
export function useFollow() {
  const { t } = useTranslation();
  const services = useServices();
  const { locale } = useRouteHandle();
  const { userId } = useReaderKey();
  const key = readerKey(userId, 'follows');
  const feedKey = ownFeedKey(userId, 'following', locale);
  return useOptimistic<{ media: MediaSource; follow: boolean }>({
    keys: () => [key, feedKey],
    apply: (client, { media, follow }) => {
      client.setQueryData<FollowedDoc[]>(key, (list = []) => {
        const rest = list.filter((m) => m.media_id !== media.media_id);
        return follow ? [{ ...media, follow_status: 1, followed_at: Date.now() }, ...rest] : rest;
      });
      if (!follow) {
        dropFromList<NewsItem>(client, feedKey, (item) => item.media_id === media.media_id);
      }
    },
    call: ({ media, follow }) =>
      services.outbox.send<FollowState>(
        `follow:${media.media_id}`,
        follow ? FOLLOW_PATH : UNFOLLOW_PATH,
        { media_id: media.media_id },
      ),
    failure: t('Reader_FollowFailed'),
    settle: (client) => {
      void client.invalidateQueries({ queryKey: key });
      invalidateFeeds(client, userId);
    },
  });
}

/** The block list's entry for a publisher just blocked (until the list is asked again). */
const blockedDoc = (media: MediaSource): BlockedDoc => ({
  media_id: media.media_id,
  media_name: media.name,
  icon_url: media.icon_url,
  home_url: media.home_url,
  update_time: Date.now(),
});

/**
 * Blocks a publisher (after the reader confirmed): once the server agrees it heads the
 * block list, which is where the publisher page learns it is blocked, and every feed is
 * asked again (what a block hides is decided by the server, D270).
 */
export function useBlock() {
  const { t } = useTranslation();
  const services = useServices();
  const client = useQueryClient();
  const { userId } = useReaderKey();
  const listKey = readerKey(userId, 'list', 'blocked');
  return useMutation({
    mutationFn: (media: MediaSource) =>
      services.outbox.send<BlockState>(`block:${media.media_id}`, BLOCK_PATH, {
        media_id: media.media_id,
      }),
    onError: () => emitPopup({ text: t('Reader_BlockFailed'), kind: 'error' }),
    onSuccess: (answer, media) => {
      emitPopup({ text: t('Reader_Blocked'), kind: 'success' });
      client.setQueryData<ListData<BlockedDoc>>(listKey, (data) => {
        const rest = (data?.pages ?? [{ list: [], next_page_token: '' }]).map((page) => ({
          ...page,
          list: page.list.filter((m) => m.media_id !== media.media_id),
        }));
        const [first, ...others] = rest;
        return {
          pages: [{ ...first, list: [blockedDoc(media), ...first.list] }, ...others],
          pageParams: data?.pageParams ?? [''],
        };
      });
      if (answer === QUEUED) return;
      void client.invalidateQueries({ queryKey: listKey });
      invalidateFeeds(client, userId);
    },
  });
}

export function useUnblock() {
  const { t } = useTranslation();
  const services = useServices();
  const { userId } = useReaderKey();
  const listKey = readerKey(userId, 'list', 'blocked');
  return useOptimistic<number>({
    keys: () => [listKey],
    apply: (client, mediaId) =>
      dropFromList<ListItems['blocked']>(client, listKey, (m) => m.media_id === mediaId),
    call: (mediaId) =>
      services.outbox.send<BlockState>(`block:${mediaId}`, UNBLOCK_PATH, { media_id: mediaId }),
    failure: t('Reader_UnblockFailed'),
    settle: (client) => invalidateFeeds(client, userId),
  });
}

/**
 * Whether the reader has blocked a publisher, from their block list (the one the block-list
 * screen shows, so an unblock anywhere shows everywhere): true once found, false once every
 * page is read without it (or the list cannot be read), undefined until then. Pages after
 * the first are read only while the publisher is not found.
 */
export function useBlockedPublisher(mediaId: number): boolean | undefined {
  const list = useReaderList('blocked');
  const { fetchNextPage } = list;
  const found =
    list.data?.pages.some((page) => page.list.some((m) => m.media_id === mediaId)) ?? false;
  const readOn =
    !found &&
    list.hasNextPage &&
    !list.isFetchingNextPage &&
    !list.isFetchNextPageError &&
    !list.isRefetching;
  useEffect(() => {
    if (readOn) void fetchNextPage({ cancelRefetch: false });
  }, [readOn, fetchNextPage]);
  if (found) return true;
  if (!list.data) return list.isError ? false : undefined;
  return list.hasNextPage && !list.isFetchNextPageError ? undefined : false;
}
