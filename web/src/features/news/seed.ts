/**
 * The first-load payload as query data (DESIGN "Pages", docs/api-reading.md "Inline
 * payload"): the server inlines the first screen's calls as `{query: {path, params}, data}`
 * and the screens start from them instead of asking again.
 */
import type { Payload, PayloadCall } from '../../lib/payload';
import type { Params } from '../../lib/news';

/** The payload is used for this long after the page loaded (then the API is asked again). */
export const PAYLOAD_FRESH_MS = 60_000;

/** Paging and page size never decide which call a payload answers. */
const IGNORED = new Set(['page_token', 'size']);

function samePath(a: string, b: string): boolean {
  const strip = (p: string) => p.replace(/^\/api(?=\/)/, '');
  return strip(a) === strip(b);
}

/**
 * A payload call answers the screen's call when the paths are the same and every
 * parameter the screen sends has the same value in the payload's (the server may have
 * filled more, e.g. the default city it chose).
 */
export function callMatches(call: PayloadCall, path: string, params: Params): boolean {
  if (!samePath(call.path, path)) return false;
  for (const [key, value] of Object.entries(params)) {
    if (IGNORED.has(key)) continue;
    if (String(call.params[key] ?? '') !== value) return false;
  }
  return true;
}

/** The payload's raw data for this call, if the page's payload answers it and is fresh. */
export function payloadDataFor(
  payload: Payload | null,
  loadedAt: number,
  path: string,
  params: Params,
  now: number = Date.now(),
): unknown {
  if (!payload || payload.error || now - loadedAt > PAYLOAD_FRESH_MS) return undefined;
  for (const call of payload.calls) {
    if (call.data != null && callMatches(call, path, params)) return call.data;
  }
  return undefined;
}
