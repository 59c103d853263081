/**
 * The reader's things in the query cache: their keys, and the optimistic write every change
 * of them makes. No `useMutation` here: a news card's Save loads this module on every list,
 * and TanStack's mutation code waits for a screen that needs a write's state (D429).
 */
import type { InfiniteData, QueryClient, QueryKey } from '@tanstack/react-query';
import { emitPopup } from '../../components/popup';
import type { Page } from '../../lib/news';
import { QUEUED } from '../offline';
import { useUser } from '../user';

/** The reader whose things these are: keys carry their id; calls wait until it is known. */
export function useReaderKey() {
  const user = useUser();
  return { userId: user?.id ?? null, ready: user !== null };
}

export const readerKey = (userId: number | null, ...rest: unknown[]): QueryKey => [
  'reader',
  userId,
  ...rest,
];

export type ListData<T> = InfiniteData<Page<T>, string>;

/** Takes the items `drop` matches out of every loaded page of a list. */
export function dropFromList<T>(client: QueryClient, key: QueryKey, drop: (item: T) => boolean) {
  client.setQueryData<ListData<T>>(key, (data) =>
    data
      ? { ...data, pages: data.pages.map((p) => ({ ...p, list: p.list.filter((i) => !drop(i)) })) }
      : data,
  );
}

/** A change of the reader's things, as `writeOptimistically` makes it. */
export interface OptimisticWrite<V> {
  keys: (vars: V) => QueryKey[];
  apply: (client: QueryClient, vars: V) => void;
  call: (vars: V) => Promise<unknown>;
  /** The popup's text when the server refuses (from the error, for a 400 worth explaining). */
  failure: string | ((error: Error) => string);
  settle?: (client: QueryClient, vars: V, answer: unknown) => void;
}

/**
 * The shape every write here has: change the cache at once, put it back and say so if
 * the server refuses (and reject), then ask again for what the change touched.
 */
export async function writeOptimistically<V>(
  client: QueryClient,
  { keys, apply, call, failure, settle }: OptimisticWrite<V>,
  vars: V,
): Promise<unknown> {
  const touched = keys(vars);
  await Promise.all(touched.map((queryKey) => client.cancelQueries({ queryKey })));
  const before = touched.map((key) => [key, client.getQueryData(key)] as const);
  apply(client, vars);
  let answer: unknown;
  try {
    answer = await call(vars);
  } catch (error) {
    for (const [key, data] of before) client.setQueryData(key, data);
    const text = typeof failure === 'string' ? failure : failure(error as Error);
    emitPopup({ text, kind: 'error' });
    throw error;
  }
  // A change kept for later (offline) keeps its optimistic state until it is sent; the
  // outbox then has every screen ask again.
  if (answer !== QUEUED) settle?.(client, vars, answer);
  return answer;
}
