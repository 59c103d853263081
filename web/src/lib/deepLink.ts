/**
 * Deep-link landing pages (SPEC §2.19, D106): which in-app page a link opens.
 * `?news_id=1042` (or `id`) → the article, `?media_id=7` → the publisher,
 * `?url=/article/1042` (or `link`, `path`) → that path when it stays on this site.
 */
import { localizePath, splitLocalePath, type Locale } from './locale';

const ID = /^\d+$/;

/** An in-app path from a link parameter; null for anything that would leave the site. */
export function internalPath(value: string, origin: string): string | null {
  const text = value.trim();
  if (!text) return null;
  let url: URL;
  try {
    url = new URL(text, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  if (!text.startsWith('/') && !/^https?:\/\//i.test(text)) return null;
  return url.pathname + url.search + url.hash;
}

/** The page a deep link opens, in the reader's locale; null when it names nothing. */
export function deepLinkTarget(search: string, locale: Locale, origin: string): string | null {
  const params = new URLSearchParams(search);
  const newsId = params.get('news_id') ?? params.get('id');
  if (newsId && ID.test(newsId.trim())) return localizePath(locale, `/article/${newsId.trim()}`);
  const mediaId = params.get('media_id');
  if (mediaId && ID.test(mediaId.trim())) return localizePath(locale, `/media/${mediaId.trim()}`);
  for (const key of ['url', 'link', 'path']) {
    const value = params.get(key);
    if (!value) continue;
    const path = internalPath(value, origin);
    if (!path) continue;
    // A path that already names its locale keeps it; otherwise the reader's applies.
    const { locale: inPath } = splitLocalePath(path);
    if (inPath !== 'en' || /^\/en(\/|$)/.test(path)) return path;
    return localizePath(locale, path);
  }
  return null;
}
