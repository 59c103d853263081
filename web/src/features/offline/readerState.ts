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
 */
import { dehydrate, hydrate, type Query, type QueryClient } from '@tanstack/react-query';

export const READER_STATE_KEY = 'lw:reader-state';
const WRITE_AFTER_MS = 1000;
/** Reactions to at most this many stories are kept (the stories kept for offline). */
const REACTIONS_KEPT = 50;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

function kept(query: Query): boolean {
  const [root, , kind] = query.queryKey as readonly unknown[];
  if (query.state.status !== 'success') return false;
  if (root === 'user') return true;
  return (
    root === 'reader' &&
    (kind === 'savedIds' || kind === 'follows' || kind === 'reactions' || kind === 'list')
  );
}

/** The reader's queries to keep: the newest reactions only, and only blocked of the lists. */
function chosen(client: QueryClient): Set<Query> {
  const all = client.getQueryCache().getAll().filter(kept);
  const reactions = all
    .filter((q) => q.queryKey[2] === 'reactions')
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)
    .slice(0, REACTIONS_KEPT);
  return new Set([
    ...all.filter((q) => q.queryKey[2] !== 'reactions' && q.queryKey[2] !== 'list'),
    ...all.filter((q) => q.queryKey[2] === 'list' && q.queryKey[3] === 'blocked'),
    ...reactions,
  ]);
}

export function saveReaderState(client: QueryClient, storage: Storage): void {
  const keep = chosen(client);
  const state = dehydrate(client, { shouldDehydrateQuery: (q) => keep.has(q) });
  try {
    storage.setItem(READER_STATE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or refused: an offline start then just does not know the reader.
  }
}

/** Puts the kept state back into the app's query cache; false when there was none. */
export function restoreReaderState(client: QueryClient, storage: Storage): boolean {
  try {
    const text = storage.getItem(READER_STATE_KEY);
    if (!text) return false;
    hydrate(client, JSON.parse(text));
    return true;
  } catch {
    return false;
  }
}

/** Keeps the state as it changes; returns a stop function. */
export function keepReaderState(client: QueryClient, storage: Storage): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' && event.type !== 'removed') return;
    clearTimeout(timer);
    timer = setTimeout(() => saveReaderState(client, storage), WRITE_AFTER_MS);
  });
  // Leaving the page (a reload, a link, a closed tab) writes at once: the wait above
  // would be cut short.
  const now = () => {
    clearTimeout(timer);
    saveReaderState(client, storage);
  };
  if (typeof window !== 'undefined') window.addEventListener('pagehide', now);
  return () => {
    clearTimeout(timer);
    stop();
    if (typeof window !== 'undefined') window.removeEventListener('pagehide', now);
  };
}

export function forgetReaderState(storage: Storage): void {
  storage.removeItem(READER_STATE_KEY);
}
