/**
 * The operator's calls (issue 21, D335, D342): usage over a range of UTC days and its
 * NDJSON export, and the feeds the server reads. Every call is a signed POST through the
 * one client; anyone but an operator gets 403 (a signed-out reader 401).
 */
import type { ApiClient, DownloadedFile } from '../../lib/api';
import type { components } from '../../lib/api/schema';

type Schemas = components['schemas'];

export type UsageRange = Schemas['RangeRequest'];
export type UsageAnswer = Schemas['UsageAnswer'];
export type UsageDay = Schemas['UsageDay'];
export type UsageCount = Schemas['UsageCount'];

// The feeds calls are being built beside this screen: until the regenerated OpenAPI types
// land in `lib/api/schema.d.ts`, their shapes are written here, once (D342). Swap each for
// `Schemas['…']` then; nothing outside this file names them differently.

/** One feed as `localwire feeds list` shows it; times are UTC milliseconds. */
export interface FeedRow {
  feed_id: number;
  media_id: number;
  publisher: string;
  url: string;
  lang: string;
  /** Null: never fetched. */
  last_fetch: number | null;
  /** The HTTP status of the last fetch; null when it got none. */
  last_status: number | null;
  /** New items of the last fetch. */
  last_items: number;
  /** Items stored from this feed. */
  items: number;
  /** '' when the last fetch went well. */
  last_error: string;
  next_due: number;
  consecutive_errors: number;
  paused: boolean;
}

export interface FeedList {
  list: FeedRow[];
}

export type FeedCountry = 'US' | 'CA';
export type FeedLang = 'en' | 'es' | 'fr';

export interface AddFeedRequest {
  url: string;
  name?: string;
  country: FeedCountry;
  state?: string;
  city?: string;
  lang: FeedLang;
  category?: string;
}

export interface FeedAnswer {
  feed: FeedRow;
}

export interface PauseFeedRequest {
  feed_id: number;
  paused: boolean;
}

export interface RemoveFeedAnswer {
  removed: true;
}

export interface OpmlImportAnswer {
  media_added: number;
  feeds_added: number;
  skipped: Array<{ url: string; why: string }>;
}

export const USAGE_PATH = '/admin/usage';
export const USAGE_EXPORT_PATH = '/admin/usage/export';
export const FEEDS_PATH = '/admin/feeds';
export const FEEDS_ADD_PATH = '/admin/feeds/add';
export const FEEDS_PAUSE_PATH = '/admin/feeds/pause';
export const FEEDS_REMOVE_PATH = '/admin/feeds/remove';
export const FEEDS_IMPORT_OPML_PATH = '/admin/feeds/importOpml';
/** The server's bound on an OPML file's text. */
export const MAX_OPML_BYTES = 1024 * 1024;

export function fetchUsage(api: ApiClient, range: UsageRange): Promise<UsageAnswer> {
  return api.post<UsageAnswer>(USAGE_PATH, range);
}

export function exportUsage(api: ApiClient, range: UsageRange): Promise<DownloadedFile> {
  return api.download(USAGE_EXPORT_PATH, range);
}

export async function fetchFeeds(api: ApiClient): Promise<FeedRow[]> {
  const answer = await api.post<FeedList>(FEEDS_PATH, {});
  return Array.isArray(answer?.list) ? answer.list : [];
}

/** Only the fields the operator filled in: blank optional fields are left out. */
export function addFeedBody(form: AddFeedRequest): AddFeedRequest {
  const body: AddFeedRequest = { url: form.url.trim(), country: form.country, lang: form.lang };
  for (const key of ['name', 'state', 'city', 'category'] as const) {
    const value = form[key]?.trim();
    if (value) body[key] = value;
  }
  return body;
}

export async function addFeed(api: ApiClient, form: AddFeedRequest): Promise<FeedRow> {
  return (await api.post<FeedAnswer>(FEEDS_ADD_PATH, addFeedBody(form))).feed;
}

export async function pauseFeed(api: ApiClient, request: PauseFeedRequest): Promise<FeedRow> {
  return (await api.post<FeedAnswer>(FEEDS_PAUSE_PATH, request)).feed;
}

export function removeFeed(api: ApiClient, feedId: number): Promise<RemoveFeedAnswer> {
  return api.post<RemoveFeedAnswer>(FEEDS_REMOVE_PATH, { feed_id: feedId });
}

export function importOpml(api: ApiClient, opml: string): Promise<OpmlImportAnswer> {
  return api.post<OpmlImportAnswer>(FEEDS_IMPORT_OPML_PATH, { opml });
}

/** Offers a downloaded file to the person (an object URL on a temporary link). */
export function saveFile(file: DownloadedFile, fallbackName: string, doc: Document = document) {
  const url = URL.createObjectURL(file.blob);
  const link = doc.createElement('a');
  link.href = url;
  link.download = file.fileName || fallbackName;
  link.hidden = true;
  doc.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // After the click has handed the file over; revoking at once can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
