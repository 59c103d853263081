import type { Locale } from '../../lib/locale';
import { localizePath } from '../../lib/locale';
import type { RouteDef } from '../../routes/routes';
import feeds from '../../shared/feeds.json';

export interface FeedFormat {
  format: string;
  type: string;
  label: string;
}

/** RSS, Atom and JSON Feed, as `/feeds/{format}` names them (shared with the server). */
export const FEED_FORMATS: readonly FeedFormat[] = feeds.formats;

/**
 * What follows `/feeds/{format}` for the page of `def` at `path` (without the locale
 * prefix) and `search`, for a reader in `cityId`; null when the page has no list to
 * follow (D376). The query keeps `c` and, on a search, the words. The server's
 * `pages::feed_links::feed_path` applies the same rule (shared fixture `feed-path.json`).
 */
export function feedPath(
  def: RouteDef | null,
  locale: Locale,
  path: string,
  search: string,
  cityId: number,
): string | null {
  if (!def?.feed) return null;
  let rest: string;
  if (def.feed === 'reader-city') {
    if (cityId <= 0) return null;
    rest = `/local/${cityId}`;
  } else {
    rest = path.replace(/\/+$/, '') || '/';
  }
  const query = new URLSearchParams(search);
  const params: string[] = [];
  if (def.name === 'search-news') {
    const words = (query.get('q') ?? '').trim();
    if (!words) return null;
    params.push(`q=${encodeURIComponent(words)}`);
  }
  const c = (query.get('c') ?? '').trim();
  if (c) params.push(`c=${encodeURIComponent(c)}`);
  const localized = localizePath(locale, rest);
  return params.length > 0 ? `${localized}?${params.join('&')}` : localized;
}
