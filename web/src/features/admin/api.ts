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

/** One feed as `localwire feeds list` shows it; times are UTC milliseconds (D336). */
export type FeedRow = Schemas['FeedRow'];
export type FeedList = Schemas['FeedList'];
export type FeedAnswer = Schemas['FeedAnswer'];
export type PauseFeedRequest = Schemas['PauseRequest'];
export type RemoveFeedAnswer = Schemas['Removed'];
export type OpmlImportAnswer = Schemas['ImportAnswer'];

export type FeedCountry = 'US' | 'CA';
export type FeedLang = 'en' | 'es' | 'fr';

/** The add form's fields: the server's request, with the country and language the form offers. */
export type AddFeedRequest = Schemas['AddFeedRequest'] & { country: FeedCountry; lang: FeedLang };

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
