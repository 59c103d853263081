/**
 * SPEC §8.4: a lazy script chunk that fails to load (usually after a new deployment
 * removed it) triggers a full reload of that path, at most once per 10 seconds (§9.8).
 */
export const RELOAD_GUARD_MS = 10_000;
export const RELOAD_STORAGE_KEY = 'lw:chunk-reload-at';

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'ChunkLoadError' ||
    /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i.test(
      error.message,
    )
  );
}

export interface ReloadDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
  reload: (href: string) => void;
}

/** Reloads `href` unless a reload happened within the guard window. True if it reloaded. */
export function reloadForFailedChunk(href: string, deps: ReloadDeps): boolean {
  const last = Number(deps.storage.getItem(RELOAD_STORAGE_KEY));
  const now = deps.now();
  if (Number.isFinite(last) && last > 0 && now - last < RELOAD_GUARD_MS) return false;
  deps.storage.setItem(RELOAD_STORAGE_KEY, String(now));
  deps.reload(href);
  return true;
}

export function browserReloadDeps(): ReloadDeps {
  return {
    storage: sessionStorage,
    now: Date.now,
    reload: (href) => window.location.assign(href),
  };
}
