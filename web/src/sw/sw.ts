/// <reference lib="webworker" />
/**
 * Localwire's service worker (issues 19 and 31): Web Push notifications, and reading
 * offline. Built by vite-plugin-pwa (injectManifest) into `/sw.js`, with Workbox.
 *
 * - The app's scripts, styles and icons are precached, so the app starts offline.
 * - Pages and the public news reads are asked of the network first (a copy answers only
 *   when the network fails or is slower than NETWORK_WAIT_S), and kept as they arrive:
 *   the reader's home and the last 50 stories they opened (features/offline/cacheRules).
 * - A page never opened here falls back to the home of its language, whose app draws the
 *   page from the kept reads, else to `offline.html`.
 * - A new build's worker takes over at once and drops the old precache; the page itself
 *   still reloads on the next navigation as SPEC §4.13 says (features/build).
 */
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import {
  homeFor,
  IMAGES_CACHE,
  IMAGES_KEPT,
  IMAGES_MAX_AGE_S,
  keepsPage,
  NETWORK_WAIT_S,
  OFFLINE_PAGE,
  PAGES_CACHE,
  PAGES_KEPT,
  READS_CACHE,
  READS_KEPT,
  readKind,
  STORIES_CACHE,
  STORIES_KEPT,
} from '../features/offline/cacheRules';
import { installPushHandlers, type PushScope } from './push';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string }> };

self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);

/** Only whole, successful answers are kept: never an error page or a redirect. */
const onlyOk = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 && response.type === 'basic' ? response : null,
};

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: NETWORK_WAIT_S,
  plugins: [onlyOk, new ExpirationPlugin({ maxEntries: PAGES_KEPT })],
});
registerRoute(({ request, url }) => request.mode === 'navigate' && keepsPage(url), pages);

registerRoute(
  ({ url, request }) => request.method === 'GET' && readKind(url, self.location.origin) === 'story',
  new NetworkFirst({
    cacheName: STORIES_CACHE,
    networkTimeoutSeconds: NETWORK_WAIT_S,
    plugins: [onlyOk, new ExpirationPlugin({ maxEntries: STORIES_KEPT })],
  }),
);
registerRoute(
  ({ url, request }) => request.method === 'GET' && readKind(url, self.location.origin) === 'list',
  new NetworkFirst({
    cacheName: READS_CACHE,
    networkTimeoutSeconds: NETWORK_WAIT_S,
    plugins: [onlyOk, new ExpirationPlugin({ maxEntries: READS_KEPT })],
  }),
);
registerRoute(
  ({ url, request }) => request.method === 'GET' && readKind(url, self.location.origin) === 'image',
  new CacheFirst({
    cacheName: IMAGES_CACHE,
    plugins: [
      onlyOk,
      new ExpirationPlugin({
        maxEntries: IMAGES_KEPT,
        maxAgeSeconds: IMAGES_MAX_AGE_S,
        purgeOnQuotaError: true,
      }),
    ],
  }),
);

/** Offline and never kept: a page stands in (see the file's comment); a read fails. */
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== 'navigate' || !keepsPage(url)) return Response.error();
  const cache = await caches.open(PAGES_CACHE);
  // The kept home was asked for with the browser's headers, which its Vary names.
  const home = await cache.match(new URL(homeFor(url), self.location.origin).href, {
    ignoreVary: true,
  });
  if (home) return home;
  return (await matchPrecache(OFFLINE_PAGE)) ?? Response.error();
});

// Web Push (issue 19): notifications and what a tap opens.
installPushHandlers(self as unknown as PushScope);
