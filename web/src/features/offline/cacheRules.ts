/**
 * What the service worker keeps for reading offline (issue 31, D390), as plain rules the
 * worker and the app share and the tests read. Pages and the news reads are asked of the
 * network first and kept as they arrive; a copy answers only when the network does not.
 *
 * The offline feature's second public entry: the service worker (src/sw, its own build,
 * with no DOM and no React) imports this file, never the feature's index.ts (D419).
 */

/** Cache names: the app empties the reader's ones when the reader signs out (D391). */
export const PAGES_CACHE = 'lw-pages';
export const READS_CACHE = 'lw-reads';
export const STORIES_CACHE = 'lw-stories';
export const IMAGES_CACHE = 'lw-images';
export const READER_CACHES = [PAGES_CACHE, READS_CACHE, STORIES_CACHE] as const;

/** Issue 31: the last 50 stories the reader opened read offline. */
export const STORIES_KEPT = 50;
/** Pages (the reader's home, sections, opened stories' own pages) and list reads kept. */
export const PAGES_KEPT = 60;
export const READS_KEPT = 120;
export const IMAGES_KEPT = 300;
export const IMAGES_MAX_AGE_S = 30 * 24 * 3600;
/** A slow network answers from the copy after this long (the copy is then refreshed). */
export const NETWORK_WAIT_S = 4;

/** The page shown for a page never opened on this device while offline. */
export const OFFLINE_PAGE = '/offline.html';

/** The public news reads (GET) a reader's home and stories are made of. */
const LIST_READS = new Set([
  '/api/news/feed',
  '/api/news/categories',
  '/api/media/detail',
  '/api/weather',
  '/api/weather/alerts',
]);
const STORY_READS = new Set(['/api/news/detail']);

export type ReadKind = 'list' | 'story' | 'image' | null;

/** Which kept read a same-origin GET is (null: never kept, always asked of the network). */
export function readKind(url: URL, origin: string): ReadKind {
  if (url.origin !== origin) return null;
  if (STORY_READS.has(url.pathname)) return 'story';
  if (LIST_READS.has(url.pathname)) return 'list';
  // Pictures: our own files, and publishers' pictures through the image proxy (D380).
  if (/\.(?:png|jpe?g|webp|gif|avif)$/i.test(url.pathname) || url.pathname.startsWith('/proxy/'))
    return 'image';
  return null;
}

/**
 * Which page stands in when a page never opened on this device is asked for offline: the
 * home of the same language (`/es/…` → `/es/`, English unprefixed: `/`), whose app then
 * draws the asked page from the kept reads. The locale rule of `lib/locale.ts`, written
 * here without its imports so the worker's bundle stays small (a test keeps them alike).
 */
export function homeFor(url: URL): string {
  const match = /^\/(es|fr)(?=\/|$)/.exec(url.pathname);
  return match ? `/${match[1]}/` : '/';
}

/** Pages never kept: sign-in flows, the operator's screens, the server's own files. */
export function keepsPage(url: URL): boolean {
  return !/^\/(?:api|auth|admin|_app|feeds|opensearch)(?:\/|$)/.test(url.pathname);
}
