/** Query hooks for the read API (TanStack Query), seeded from the first-load payload. */
import { useDeferredValue } from 'react';
import {
  keepPreviousData,
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
} from '@tanstack/react-query';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';
import { readerCityLabel, useUser } from '../user';
import {
  apiKey,
  CATEGORIES_PATH,
  cleanParams,
  DETAIL_PATH,
  FEED_PATH,
  READERS,
  SEARCH_MEDIA_PATH,
  SEARCH_NEWS_PATH,
  type Category,
  type FeedChannel,
  type FeedPage,
  type MediaPage,
  type NewsDetail,
  type Params,
  type SearchNewsPage,
} from '../../lib/news';
import type { Page } from '../../lib/news';
import { payloadDataFor } from './seed';

/** Who is reading: the UI language, the country and the city (user, else cookies). */
export function useReader() {
  const { locale } = useRouteHandle();
  const user = useUser();
  const { settings, payload } = useServices();
  const country = user?.country || settings.get('iso') || payload?.country || 'US';
  const cityId = user?.city_id || Number(settings.get('cityId')) || 0;
  const city = user?.city || settings.get('city') || '';
  // The state or province (a city's admin code): trends ask for its own when it has enough news.
  const adminCode = user?.admin_code || settings.get('adminCode') || '';
  const label = readerCityLabel(user, {
    city: settings.get('city'),
    adminCode: settings.get('adminCode'),
  });
  return { lang: locale, country, cityId, city, adminCode, label };
}

function usePayloadData(path: string, params: Params) {
  const services = useServices();
  return () => {
    const raw = payloadDataFor(services.payload, services.loadedAt, path, params);
    return raw === undefined ? undefined : READERS[path](raw);
  };
}

/** A paged list (§3 "a list plus a next-page token") as an infinite query. */
export function usePagedQuery<P extends Page<unknown>>(
  path: string,
  params: Params,
  { enabled = true, keepPrevious = false }: { enabled?: boolean; keepPrevious?: boolean } = {},
) {
  const services = useServices();
  const seed = usePayloadData(path, params);
  return useInfiniteQuery<P, Error, InfiniteData<P, string>, readonly unknown[], string>({
    queryKey: apiKey(path, params),
    queryFn: async ({ pageParam, signal }) => {
      const query = pageParam ? { ...params, page_token: pageParam } : params;
      const raw = await services.api.request<unknown>('GET', path, { query, signal });
      return READERS[path](raw) as P;
    },
    initialPageParam: '',
    getNextPageParam: (last: P) => last.next_page_token || undefined,
    initialData: (): InfiniteData<P, string> | undefined => {
      const first = seed() as P | undefined;
      return first ? { pages: [first], pageParams: [''] } : undefined;
    },
    initialDataUpdatedAt: services.loadedAt,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
    enabled,
  });
}

/** One call answering one object. */
export function useOneQuery<T>(path: string, params: Params, { enabled = true } = {}) {
  const services = useServices();
  const seed = usePayloadData(path, params);
  return useQuery({
    queryKey: apiKey(path, params),
    queryFn: async ({ signal }) =>
      READERS[path](
        await services.api.request<unknown>('GET', path, { query: params, signal }),
      ) as T,
    initialData: seed as () => T | undefined,
    initialDataUpdatedAt: services.loadedAt,
    enabled,
  });
}

export interface FeedOptions {
  channel: FeedChannel;
  city_id?: number | string;
  category?: string;
  location?: string;
  media_id?: number | string;
  special?: string;
  size?: number;
  /** Filter by the reader's language and country (not for one publisher or place). */
  scoped?: boolean;
  enabled?: boolean;
  keepPrevious?: boolean;
}

/** GET /api/news/feed for a channel. */
export function useFeed({ enabled, keepPrevious, scoped = true, ...options }: FeedOptions) {
  const reader = useReader();
  const params = cleanParams({
    ...options,
    lang: scoped ? reader.lang : undefined,
    country: scoped ? reader.country : undefined,
  });
  return usePagedQuery<FeedPage>(FEED_PATH, params, { enabled, keepPrevious });
}

export function feedItems(data: InfiniteData<{ list: unknown[] }> | undefined) {
  return data?.pages.flatMap((page) => page.list) ?? [];
}

/** GET /api/news/detail. */
export function useNewsDetail(newsId: number) {
  return useOneQuery<NewsDetail>(DETAIL_PATH, cleanParams({ news_id: newsId }), {
    enabled: newsId > 0,
  });
}

/** GET /api/news/categories in the reader's language. */
export function useCategories() {
  const { lang } = useReader();
  return useOneQuery<Category[]>(CATEGORIES_PATH, cleanParams({ lang }));
}

export interface NewsSearch {
  q: string;
  city_id?: string;
  category?: string;
  since?: number;
}

/** GET /api/search/news; idle while there is no query. */
export function useSearchNews(search: NewsSearch) {
  const reader = useReader();
  // Search reaches every language of the reader's country (D102), the reader's own city
  // first (D426).
  const params = cleanParams({
    ...search,
    country: reader.country,
    near_city_id: reader.cityId || undefined,
  });
  return usePagedQuery<SearchNewsPage>(SEARCH_NEWS_PATH, params, {
    enabled: search.q.trim() !== '',
  });
}

/** GET /api/search/media; idle while there is no query. */
export function useSearchMedia(q: string) {
  return usePagedQuery<MediaPage>(SEARCH_MEDIA_PATH, cleanParams({ q }), {
    enabled: q.trim() !== '',
  });
}

/**
 * False for a screen's first render, true right after: React renders what waits for it
 * in the background once the first screen has painted. For content below the first
 * screen (D147), so the first paint does not wait for it.
 */
export function useAfterFirstPaint(): boolean {
  return useDeferredValue(true, false);
}
