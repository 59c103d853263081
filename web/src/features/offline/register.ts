/**
 * The service worker's side in the app (D390): registered once the page has loaded (it
 * then precaches the app's files in the background, never competing with the first
 * screen), and the reader's kept copies emptied when the reader signs out (D391).
 */
import { READER_CACHES } from './cacheRules';

/** The worker's address: also the push worker's (features/notifications). */
export const SERVICE_WORKER_URL = '/sw.js';

export function registerServiceWorker(win: Window = window): void {
  if (!('serviceWorker' in win.navigator)) return;
  const register = () =>
    void win.navigator.serviceWorker.register(SERVICE_WORKER_URL).catch((error: unknown) => {
      // Reading online does not need it: say why offline reading is missing, and go on.
      console.warn('The service worker could not be registered; no offline reading.', error);
    });
  if (win.document.readyState === 'complete') register();
  else win.addEventListener('load', register, { once: true });
}

/**
 * Empties the copies that hold one reader's pages and reads, so the next person to sign
 * in on this device does not read the last one's feeds offline. The app's own files stay.
 */
export async function forgetReaderCopies(store: CacheStorage | undefined = globalThis.caches) {
  if (!store) return;
  await Promise.all(READER_CACHES.map((name) => store.delete(name)));
}
