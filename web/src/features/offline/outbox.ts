/**
 * Changes made without a connection (issue 31, D392): saves, reactions, follows and
 * blocks are kept on this device and sent when the connection returns, nothing lost and
 * nothing doubled.
 *
 * - Each change says what the reader wants (saved or not, this reaction or none, followed
 *   or not, blocked or not), never "toggle", so sending one twice changes nothing.
 * - One entry per thing: a later change to the same story or publisher replaces the
 *   earlier one (save then unsave offline sends one unsave), and a call made online drops
 *   a queued change to the same thing before it goes out.
 * - Entries are kept in localStorage, so a reload or a closed tab loses nothing; each
 *   remembers whose they are (a digest of the session's token, never the token), and a
 *   change made by a reader who has since signed out is not sent for the next one.
 * - Sending stops at the first failure without an answer (still offline) and goes on
 *   later; an answer the server refuses (the story is gone) is dropped and counted.
 */
import { isApiError } from '../../lib/api';
import { md5 } from '../../lib/md5';

export const OUTBOX_KEY = 'lw:outbox';
/** Bounded like everything a caller stores: far above what a reader does offline. */
export const OUTBOX_LIMIT = 200;

export interface OutboxEntry {
  /** The thing changed: `save:12`, `react:12`, `follow:7`, `block:7`. */
  key: string;
  path: string;
  body: Record<string, unknown>;
  /** Whose change it is (`ownerOf(token)`). */
  owner: string;
  queuedAt: number;
}

export interface OutboxDeps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  send: (path: string, body: Record<string, unknown>) => Promise<unknown>;
  /** The session's token now (its digest names the owner of new entries). */
  token: () => string | undefined;
  /** False when the browser knows it has no connection: the call is not even tried. */
  online?: () => boolean;
  now?: () => number;
}

export interface FlushResult {
  sent: number;
  refused: number;
  left: number;
}

/** The answer of a call that was kept to send later instead of sent. */
export const QUEUED = Symbol('queued');

export const ownerOf = (token: string | undefined) => (token ? md5(token) : 'none');

export function createOutbox(deps: OutboxDeps) {
  const now = deps.now ?? Date.now;
  const online = deps.online ?? (() => true);
  const listeners = new Set<() => void>();
  let flushing: Promise<FlushResult> | null = null;

  function read(): OutboxEntry[] {
    try {
      const list = JSON.parse(deps.storage.getItem(OUTBOX_KEY) ?? '[]') as unknown;
      return Array.isArray(list) ? (list as OutboxEntry[]).filter(isEntry) : [];
    } catch {
      return [];
    }
  }

  function write(list: OutboxEntry[]) {
    if (list.length === 0) deps.storage.removeItem(OUTBOX_KEY);
    else deps.storage.setItem(OUTBOX_KEY, JSON.stringify(list));
    for (const listener of listeners) listener();
  }

  function drop(key: string) {
    const list = read();
    if (list.some((e) => e.key === key)) write(list.filter((e) => e.key !== key));
  }

  function enqueue(key: string, path: string, body: Record<string, unknown>) {
    const rest = read().filter((e) => e.key !== key);
    const entry = { key, path, body, owner: ownerOf(deps.token()), queuedAt: now() };
    write([...rest, entry].slice(-OUTBOX_LIMIT));
  }

  /**
   * Sends a change now, or keeps it for later when there is no connection. Resolves with
   * the server's answer, or `QUEUED`; a refusal from the server still throws.
   */
  async function send<T>(key: string, path: string, body: Record<string, unknown>) {
    drop(key);
    if (!online()) {
      enqueue(key, path, body);
      return QUEUED;
    }
    try {
      return (await deps.send(path, body)) as T;
    } catch (error) {
      // Status 0: no answer at all. The change may or may not have arrived; sending it
      // again is harmless, since it says what the reader wants.
      if (isApiError(error) && error.status === 0) {
        enqueue(key, path, body);
        return QUEUED;
      }
      throw error;
    }
  }

  async function sendAll(): Promise<FlushResult> {
    // The browser knows it has no connection: nothing to try.
    if (!online()) return { sent: 0, refused: 0, left: read().length };
    const owner = ownerOf(deps.token());
    let sent = 0;
    let refused = 0;
    for (const entry of read()) {
      const same = (e: OutboxEntry) => e.key === entry.key && e.queuedAt === entry.queuedAt;
      // A change made since (online, or a newer one offline) replaced this one.
      if (!read().some(same)) continue;
      if (entry.owner !== owner) {
        drop(entry.key);
        continue;
      }
      try {
        await deps.send(entry.path, entry.body);
        sent++;
      } catch (error) {
        if (!isApiError(error) || error.status === 0 || error.status >= 500) break;
        refused++;
      }
      // Only what was sent or refused leaves, and only if no newer change replaced it.
      write(read().filter((e) => !same(e)));
    }
    return { sent, refused, left: read().length };
  }

  /** Sends what is kept, oldest first; one run at a time. */
  function flush(): Promise<FlushResult> {
    flushing ??= sendAll().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  return {
    send,
    flush,
    /** How many changes wait to be sent. */
    size: () => read().length,
    entries: read,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

function isEntry(e: unknown): e is OutboxEntry {
  if (!e || typeof e !== 'object') return false;
  const x = e as Partial<OutboxEntry>;
  return (
    typeof x.key === 'string' &&
    typeof x.path === 'string' &&
    typeof x.owner === 'string' &&
    typeof x.queuedAt === 'number' &&
    !!x.body &&
    typeof x.body === 'object'
  );
}
