/**
 * Notifications over HTTP (issue 19): the server's key, subscribe and unsubscribe, the
 * reader's settings and what was sent (§7.6 byNotification: list, token). Every call is a
 * signed POST with the reader's token (guests too), except the key (a public GET).
 */
import type { components } from '../../lib/api/schema';
import type { Page } from '../../lib/news';

type Schemas = components['schemas'];

export type SettingsDoc = Schemas['SettingsDoc'];
export type NotificationList = Schemas['NotificationList'];
export type SentNews = NotificationList['list'][number];

export const KEY_PATH = '/push/key';
export const SUBSCRIBE_PATH = '/user/push/subscribe';
export const UNSUBSCRIBE_PATH = '/user/push/unsubscribe';
export const SETTINGS_PATH = '/user/push/settings';
export const SETTINGS_UPDATE_PATH = '/user/push/settings/update';
export const SENT_LIST_PATH = '/news/feed/byNotification';
export const SENT_PAGE_SIZE = 20;
/** The server's bound (store::push::MAX_DAILY_BUDGET). */
export const MAX_DAILY_BUDGET = 24;

/** byNotification's answer as a page of the news feature's paged lists. */
export function toSentPage(raw: unknown): Page<SentNews> {
  const answer = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  return {
    list: Array.isArray(answer.list) ? (answer.list as SentNews[]) : [],
    next_page_token: typeof answer.token === 'string' ? answer.token : '',
  };
}
