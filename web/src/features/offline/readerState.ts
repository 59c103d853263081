/**
 * What the app knows about the reader, kept on this device for a start without a
 * connection (D393): who they are, which stories they saved, what they reacted to,
 * whom they follow and block. Without it an offline start would not know the reader,
 * and the save and reaction buttons (shown only once the reader's state is known, so
 * they never flip) could not be offered.
 *
 * Read back only when the browser starts offline: online, the server is asked as always,
 * so a save made on another device shows. Written a second after the reader's data
 * changes, and as the page is left; emptied on sign-out with the other copies.
 *
 * The reading and writing (TanStack's dehydrate and hydrate) is a chunk of its own,
 * fetched after start-up: it is not part of the first screen's weight.
 */
import type { QueryClient } from '@tanstack/react-query';

import { READER_STATE_KEY } from './storageKeys';

export { READER_STATE_KEY };
const WRITE_AFTER_MS = 1000;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;
type Codec = typeof import('./readerStateCodec');

let codec: Promise<Codec> | undefined;
let loaded: Codec | undefined;
function loadCodec(): Promise<Codec> {
  codec ??= import('./readerStateCodec').then((m) => (loaded = m));
  return codec;
}

/** Puts the kept state back into the app's query cache; false when there was none. */
export async function restoreReaderState(client: QueryClient, storage: Storage): Promise<boolean> {
  try {
    return (await loadCodec()).restoreReaderState(client, storage);
  } catch {
    return false;
  }
}

/** Keeps the state as it changes; returns a stop function. */
export function keepReaderState(client: QueryClient, storage: Storage): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = () => {
    clearTimeout(timer);
    // Before the chunk has come (the first second of a visit) there is nothing new to keep.
    loaded?.saveReaderState(client, storage);
  };
  const stop = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return;
    clearTimeout(timer);
    timer = setTimeout(save, WRITE_AFTER_MS);
  });
  void loadCodec().catch(() => undefined);
  // Leaving the page (a reload, a link, a closed tab) writes at once: the wait above
  // would be cut short.
  if (typeof window !== 'undefined') window.addEventListener('pagehide', save);
  return () => {
    clearTimeout(timer);
    stop();
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', save);
  };
}

export function forgetReaderState(storage: Storage): void {
  storage.removeItem(READER_STATE_KEY);
}
