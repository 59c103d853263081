/* global self */
/*
 * Localwire's service worker (issue 19): it only shows Web Push notifications and opens
 * the story when one is tapped. No caching, no fetch handler: the app loads as before.
 * The payload is the server's JSON: { title, body, url, tag } (api::push::notifier).
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Localwire';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/favicon.svg',
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL(
    (event.notification.data && event.notification.data.url) || '/',
    self.location.origin,
  );
  // Only pages of this site open from a notification.
  if (target.origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (new URL(w.url).origin === target.origin && 'focus' in w && 'navigate' in w) {
          return w.focus().then(() => w.navigate(target.href));
        }
      }
      return self.clients.openWindow(target.href);
    }),
  );
});
