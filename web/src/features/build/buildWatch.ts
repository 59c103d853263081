/**
 * SPEC §4.13 new build: poll `/_app/version.json?t=…` (D7) and, when its id differs from
 * the page's build id, reload on the next navigation. §7.12: fetch the build manifest
 * (route rules) about a second after start unless the connection is very slow.
 */
import { readRouteRules, type RouteRule } from '../../lib/routeRules';

/** §9.8 leaves the interval open; D7 sets five minutes. */
export const BUILD_POLL_INTERVAL_MS = 5 * 60 * 1000;
export const MANIFEST_DELAY_MS = 1000;

export interface BuildWatchOptions {
  currentId: string;
  fetch?: typeof fetch;
  now?: () => number;
  intervalMs?: number;
}

export function createBuildWatch(options: BuildWatchOptions) {
  const now = options.now ?? Date.now;
  const intervalMs = options.intervalMs ?? BUILD_POLL_INTERVAL_MS;
  let latestId: string | null = null;

  async function check(): Promise<boolean> {
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    try {
      const response = await fetchImpl(`/_app/version.json?t=${now()}`, { cache: 'no-store' });
      if (!response.ok) return false;
      const body = (await response.json()) as { id?: unknown };
      if (typeof body.id === 'string' && body.id && body.id !== options.currentId) {
        latestId = body.id;
      }
    } catch {
      // Offline or a server restart: try again at the next tick.
    }
    return latestId !== null;
  }

  /** Starts polling; checks again whenever the page becomes visible. Returns a stop function. */
  function start(doc: Document = document): () => void {
    const timer = setInterval(() => void check(), intervalMs);
    const onVisible = () => {
      if (doc.visibilityState === 'visible') void check();
    };
    doc.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      doc.removeEventListener('visibilitychange', onVisible);
    };
  }

  return {
    check,
    start,
    /** True once a different build has been seen: the next navigation reloads the page. */
    hasNewBuild: () => latestId !== null,
    latestId: () => latestId,
  };
}

export type BuildWatch = ReturnType<typeof createBuildWatch>;

interface NetworkInformationLike {
  effectiveType?: string;
  saveData?: boolean;
}

/** §7.12: skipped on a very slow connection (or when the visitor asked to save data). */
export function isSlowConnection(connection: NetworkInformationLike | undefined): boolean {
  if (!connection) return false;
  return (
    connection.saveData === true ||
    connection.effectiveType === 'slow-2g' ||
    connection.effectiveType === '2g'
  );
}

export async function fetchBuildManifest(
  buildId: string,
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
): Promise<RouteRule[]> {
  const response = await fetchImpl(`/_app/builds/${encodeURIComponent(buildId)}.json`);
  if (!response.ok) return [];
  const body = (await response.json()) as { route_rules?: unknown };
  return readRouteRules(body.route_rules);
}
