/**
 * The read API calls (docs/api-reading.md) and their query keys. A key is
 * `['api', path, params]` with params reduced to non-empty strings, so the same call
 * always has the same key (and the first-load payload can be matched against it).
 */
import type { ApiClient } from '../api';
import type { components } from '../api/schema';
import { normalizeMediaSource, normalizeNewsItem, normalizePage, type NewsItem } from './model';

export type Params = Record<string, string>;

/** Drops empty values and turns the rest into strings (numbers, booleans). */
export function cleanParams(params: Record<string, string | number | undefined | null>): Params {
  const out: Params = {};
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === null || value === '') continue;
    out[key] = String(value);
  }
  return out;
}

export function apiKey(path: string, params: Params = {}) {
  return ['api', path, params] as const;
}

export const FEED_PATH = '/news/feed';
export const DETAIL_PATH = '/news/detail';
export const MEDIA_PATH = '/media/detail';
export const CATEGORIES_PATH = '/news/categories';
export const SEARCH_NEWS_PATH = '/search/news';
export const SEARCH_MEDIA_PATH = '/search/media';

/** The paged calls: their payload data is page one of an infinite query. */
export const PAGED_PATHS = new Set([FEED_PATH, SEARCH_NEWS_PATH, SEARCH_MEDIA_PATH]);

export type FeedChannel =
  'local' | 'latest' | 'top' | 'category' | 'location' | 'media' | 'special';

type Schemas = components['schemas'];

/** What a feed is about: local scope and city, location area, publisher or special. */
export type FeedContext = Schemas['FeedContext'];

/** A generated shape with its news items as the app reads them (`reason` may be null, D385). */
type WithItems<T, K extends keyof T> = Omit<T, K> & {
  [P in K]: T[P] extends unknown[] ? NewsItem[] : NewsItem;
};

export type FeedPage = WithItems<Schemas['FeedPage'], 'list'>;

export type SearchNewsPage = WithItems<Schemas['SearchNewsPage'], 'list'>;

export type MediaPage = Schemas['MediaPage'];

export type NewsDetail = WithItems<Schemas['NewsDetail'], 'news' | 'cluster' | 'related'>;

export type Category = Schemas['CategoryDoc'];

type Raw = Record<string, unknown>;
const record = (value: unknown): Raw => (value && typeof value === 'object' ? (value as Raw) : {});
const items = (value: unknown): NewsItem[] =>
  Array.isArray(value) ? value.map(normalizeNewsItem) : [];

export function readFeedPage(raw: unknown): FeedPage {
  const context = { ...record(record(raw).context) } as FeedContext;
  if (context.media) context.media = normalizeMediaSource(context.media);
  return { ...normalizePage(raw, normalizeNewsItem), context };
}

export function readSearchNewsPage(raw: unknown): SearchNewsPage {
  const terms = record(raw).terms;
  return {
    ...normalizePage(raw, normalizeNewsItem),
    terms: Array.isArray(terms) ? terms.filter((t): t is string => typeof t === 'string') : [],
  };
}

export function readMediaPage(raw: unknown): MediaPage {
  return normalizePage(raw, normalizeMediaSource);
}

export function readDetail(raw: unknown): NewsDetail {
  const r = record(raw);
  const news = normalizeNewsItem(r.news);
  const media = normalizeMediaSource(r.media);
  return {
    news,
    media: media.media_id ? media : normalizeMediaSource({ ...(r.news as Raw) }),
    cluster: items(r.cluster),
    related: items(r.related),
  };
}

export function readCategories(raw: unknown): Category[] {
  const list = record(raw).list;
  if (!Array.isArray(list)) return [];
  return list
    .map((entry) => record(entry))
    .filter((entry) => typeof entry.id === 'string')
    .map((entry) => ({
      id: entry.id as string,
      name: typeof entry.name === 'string' ? entry.name : '',
    }));
}

/** How a call's raw `data` becomes what the screens read. */
export const READERS: Record<string, (raw: unknown) => unknown> = {
  [FEED_PATH]: readFeedPage,
  [SEARCH_NEWS_PATH]: readSearchNewsPage,
  [SEARCH_MEDIA_PATH]: readMediaPage,
  [DETAIL_PATH]: readDetail,
  [MEDIA_PATH]: normalizeMediaSource,
  [CATEGORIES_PATH]: readCategories,
};

export async function getPage<T>(
  api: ApiClient,
  path: string,
  params: Params,
  pageToken: string,
): Promise<T> {
  const raw = await api.get<unknown>(
    path,
    pageToken ? { ...params, page_token: pageToken } : params,
  );
  return READERS[path](raw) as T;
}

export async function getOne<T>(api: ApiClient, path: string, params: Params): Promise<T> {
  return READERS[path](await api.get<unknown>(path, params)) as T;
}
