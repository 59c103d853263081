/**
 * The worker's Web Push side (issue 19): show the server's notification and open its
 * story when tapped, on this site only. The payload is the server's JSON
 * `{ title, body, url, tag }` (api::push::notifier).
 *
 * Typed by the few members it uses (not the WebWorker library), so the app's tests load
 * it as they are and hand it a stand-in for the worker's global scope.
 */

interface WaitingEvent {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushLike extends WaitingEvent {
  data: { json(): unknown; text(): string } | null;
}
interface ClickLike extends WaitingEvent {
  notification: { close(): void; data: unknown };
}
interface WindowLike {
  url: string;
  focus(): Promise<WindowLike>;
  navigate(url: string): Promise<unknown>;
}
export interface PushScope {
  location: { origin: string };
  registration: {
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
  };
  clients: {
    matchAll(options: {
      type: 'window';
      includeUncontrolled: boolean;
    }): Promise<readonly unknown[]>;
    openWindow(url: string): Promise<unknown>;
  };
  addEventListener(type: 'push', listener: (event: PushLike) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: ClickLike) => void): void;
}

export function installPushHandlers(scope: PushScope): void {
  scope.addEventListener('push', (event) => {
    let data: Record<string, unknown> = {};
    try {
      data = event.data ? (event.data.json() as Record<string, unknown>) : {};
    } catch {
      data = { title: event.data ? event.data.text() : '' };
    }
    const title = typeof data.title === 'string' && data.title ? data.title : 'Localwire';
    event.waitUntil(
      scope.registration.showNotification(title, {
        body: typeof data.body === 'string' ? data.body : '',
        tag: typeof data.tag === 'string' ? data.tag : undefined,
        icon: '/favicon.svg',
        data: { url: typeof data.url === 'string' ? data.url : '/' },
      }),
    );
  });

  scope.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const wanted = (event.notification.data as { url?: unknown } | null)?.url;
    const target = new URL(typeof wanted === 'string' ? wanted : '/', scope.location.origin);
    // Only pages of this site open from a notification.
    if (target.origin !== scope.location.origin) return;
    event.waitUntil(
      scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
        for (const w of windows as WindowLike[]) {
          if (new URL(w.url).origin === target.origin && 'focus' in w && 'navigate' in w) {
            return w.focus().then(() => w.navigate(target.href));
          }
        }
        return scope.clients.openWindow(target.href);
      }),
    );
  });
}
