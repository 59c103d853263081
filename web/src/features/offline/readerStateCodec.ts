/**
 * Reading and writing the reader's kept state (D393; see `readerState.ts`), with
 * TanStack Query's own dehydrate and hydrate.
 */
import { dehydrate, hydrate, type Query, type QueryClient } from '@tanstack/react-query';
import { READER_STATE_KEY } from './storageKeys';

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
