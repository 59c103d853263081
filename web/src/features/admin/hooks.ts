/** Query hooks for the operator's screens (TanStack Query), under `['admin', userId, …]`. */
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import { useUser } from '../user';
import {
  addFeed,
  exportUsage,
  fetchFeeds,
  fetchUsage,
  importOpml,
  pauseFeed,
  removeFeed,
  saveFile,
  type AddFeedRequest,
  type FeedRow,
  type PauseFeedRequest,
  type UsageRange,
} from './api';

function useAdminKey() {
  const user = useUser();
  const userId = user?.id ?? null;
  return {
    ready: user !== null,
    key: (...rest: unknown[]): QueryKey => ['admin', userId, ...rest],
  };
}

export function useUsage(range: UsageRange) {
  const { api } = useServices();
  const { ready, key } = useAdminKey();
  return useQuery({
    queryKey: key('usage', range.from, range.to),
    queryFn: () => fetchUsage(api, range),
    enabled: ready,
  });
}

/** Fetches the range's NDJSON and offers it as a file. */
export function useExportUsage() {
  const { api } = useServices();
  return useMutation({
    mutationFn: (range: UsageRange) => exportUsage(api, range),
    onSuccess: (file, range) => saveFile(file, `localwire-usage-${range.from}-${range.to}.ndjson`),
  });
}

export function useFeeds() {
  const { api } = useServices();
  const { ready, key } = useAdminKey();
  return useQuery({ queryKey: key('feeds'), queryFn: () => fetchFeeds(api), enabled: ready });
}

function useFeedsCache() {
  const client = useQueryClient();
  const { key } = useAdminKey();
  const feedsKey = key('feeds');
  return {
    feedsKey,
    client,
    update: (change: (list: FeedRow[]) => FeedRow[]) =>
      client.setQueryData<FeedRow[]>(feedsKey, (list) => (list ? change(list) : list)),
  };
}

const replaceRow = (row: FeedRow) => (list: FeedRow[]) =>
  list.map((r) => (r.feed_id === row.feed_id ? row : r));

export function useAddFeed() {
  const { api } = useServices();
  const cache = useFeedsCache();
  return useMutation({
    mutationFn: (form: AddFeedRequest) => addFeed(api, form),
    onSuccess: (row) =>
      cache.update((list) =>
        list.some((r) => r.feed_id === row.feed_id) ? replaceRow(row)(list) : [...list, row],
      ),
  });
}

/**
 * Pause or resume at once (the row shows the new state while the call runs); a failure puts
 * the row back as it was, and the caller says why.
 */
export function usePauseFeed() {
  const { api } = useServices();
  const cache = useFeedsCache();
  return useMutation({
    mutationFn: (request: PauseFeedRequest) => pauseFeed(api, request),
    onMutate: async (request) => {
      await cache.client.cancelQueries({ queryKey: cache.feedsKey });
      const before = cache.client.getQueryData<FeedRow[]>(cache.feedsKey);
      cache.update((list) =>
        list.map((r) => (r.feed_id === request.feed_id ? { ...r, paused: request.paused } : r)),
      );
      return { before };
    },
    onError: (_error, _request, context) => {
      if (context?.before) cache.client.setQueryData(cache.feedsKey, context.before);
    },
    onSuccess: (row) => cache.update(replaceRow(row)),
  });
}

export function useRemoveFeed() {
  const { api } = useServices();
  const cache = useFeedsCache();
  return useMutation({
    mutationFn: (feedId: number) => removeFeed(api, feedId),
    onSuccess: (_answer, feedId) =>
      cache.update((list) => list.filter((r) => r.feed_id !== feedId)),
  });
}

export function useImportOpml() {
  const { api } = useServices();
  const cache = useFeedsCache();
  return useMutation({
    mutationFn: (opml: string) => importOpml(api, opml),
    onSuccess: () => cache.client.invalidateQueries({ queryKey: cache.feedsKey }),
  });
}
