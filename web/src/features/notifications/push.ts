/**
 * The browser's side of Web Push: the service worker, the permission prompt (only when
 * the reader asks) and the push subscription. Everything the server needs is the
 * subscription's JSON: endpoint and keys (p256dh, auth).
 */
import { SERVICE_WORKER_URL } from '../offline';

export { SERVICE_WORKER_URL };

export type PushSupport = 'supported' | 'unsupported';

export function pushSupport(): PushSupport {
  return typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
    ? 'supported'
    : 'unsupported';
}

/** The current permission: 'granted', 'denied' or 'default' (not asked yet). */
export function permission(): NotificationPermission {
  return typeof Notification === 'undefined' ? 'denied' : Notification.permission;
}

/** The VAPID key (base64url) as the bytes `applicationServerKey` wants. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(padded + '='.repeat((4 - (padded.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

function asJson(sub: PushSubscription): BrowserSubscription {
  const json = sub.toJSON();
  return {
    endpoint: json.endpoint ?? sub.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  };
}

async function registration(): Promise<ServiceWorkerRegistration> {
  await navigator.serviceWorker.register(SERVICE_WORKER_URL);
  return navigator.serviceWorker.ready;
}

/** This browser's subscription, if it has one. */
export async function currentSubscription(): Promise<BrowserSubscription | null> {
  if (pushSupport() === 'unsupported') return null;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  return sub ? asJson(sub) : null;
}

/** Ask for permission (the prompt), then subscribe with the server's key. */
export async function subscribeBrowser(
  publicKey: string,
): Promise<{ granted: boolean; subscription: BrowserSubscription | null }> {
  const answer = await Notification.requestPermission();
  if (answer !== 'granted') return { granted: false, subscription: null };
  const reg = await registration();
  const sub = await reg.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  });
  return { granted: true, subscription: asJson(sub) };
}

/** Unsubscribe this browser; the endpoint it had, if any. */
export async function unsubscribeBrowser(): Promise<string | null> {
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  if (!sub) return null;
  const endpoint = sub.endpoint;
  await sub.unsubscribe();
  return endpoint;
}
