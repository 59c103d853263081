/**
 * The first-load payload the server inlines as
 * `<script type="application/json" id="lw-payload">` (D20). Absent in `vite dev`.
 */
import type { components } from './api/schema';
import { isLocale, type Locale } from './locale';

/** The operator's ad client as the app config gives it (D345). */
type AdClient = components['schemas']['AdClient'];

export interface PayloadError {
  status: number;
  message: string;
  code?: number;
}

/** One API call the server answered for the first screen (docs/api-reading.md). */
export interface PayloadCall {
  /** The API path, e.g. `/api/news/feed`. */
  path: string;
  /** The query parameters the server used, as strings. */
  params: Record<string, string>;
  /** The call's `data`, exactly as the API would answer it. */
  data: unknown;
}

export interface Payload {
  route: string | null;
  status: number;
  locale: Locale;
  country: string;
  c: string | null;
  build: string;
  /** The word the server checks request signatures with (§7, D200). */
  signWord?: string;
  params: Record<string, string>;
  error: PayloadError | null;
  data: unknown;
  /** `query` + `data`, then each of `extra`: the first screen's calls and their data. */
  calls: PayloadCall[];
  /**
   * The app config's `ads` (D345): `null` when the server has no ad client; absent
   * (undefined) when the page has no payload field for it (`vite dev`, an older server).
   */
  ads?: AdClient | null;
}

function readQuery(raw: unknown, data: unknown): PayloadCall | null {
  if (!raw || typeof raw !== 'object') return null;
  const q = raw as Record<string, unknown>;
  if (typeof q.path !== 'string' || !q.path) return null;
  const params: Record<string, string> = {};
  if (q.params && typeof q.params === 'object') {
    for (const [key, value] of Object.entries(q.params as Record<string, unknown>)) {
      if (value !== null && value !== undefined && value !== '') params[key] = String(value);
    }
  }
  return { path: q.path, params, data: data ?? null };
}

function readCalls(raw: Record<string, unknown>): PayloadCall[] {
  const calls: PayloadCall[] = [];
  const main = readQuery(raw.query, raw.data);
  if (main) calls.push(main);
  if (Array.isArray(raw.extra)) {
    for (const entry of raw.extra) {
      const e = entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
      const call = readQuery(e.query, e.data);
      if (call) calls.push(call);
    }
  }
  return calls;
}

export function parsePayload(text: string | null | undefined): Payload | null {
  if (!text) return null;
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') return null;
  const error = raw.error as Record<string, unknown> | null | undefined;
  return {
    route: typeof raw.route === 'string' ? raw.route : null,
    status: typeof raw.status === 'number' ? raw.status : 200,
    locale: isLocale(raw.locale) ? raw.locale : 'en',
    country: typeof raw.country === 'string' ? raw.country : 'US',
    c: typeof raw.c === 'string' ? raw.c : null,
    build: typeof raw.build === 'string' ? raw.build : '',
    signWord: typeof raw.signWord === 'string' && raw.signWord ? raw.signWord : undefined,
    params:
      raw.params && typeof raw.params === 'object' ? (raw.params as Record<string, string>) : {},
    error:
      error && typeof error === 'object'
        ? {
            status: typeof error.status === 'number' ? error.status : Number(raw.status) || 500,
            message: typeof error.message === 'string' ? error.message : '',
            code: typeof error.code === 'number' ? error.code : undefined,
          }
        : null,
    data: raw.data ?? null,
    calls: readCalls(raw),
    ads:
      raw.ads === null || (raw.ads && typeof raw.ads === 'object')
        ? (raw.ads as AdClient | null)
        : undefined,
  };
}

export function readPayload(doc: Document = document): Payload | null {
  return parsePayload(doc.getElementById('lw-payload')?.textContent);
}

/** The page's build id: the payload's, else `<meta name="lw-build">` (D7). */
export function readBuildId(payload: Payload | null, doc: Document = document): string {
  return (
    payload?.build || doc.querySelector<HTMLMetaElement>('meta[name="lw-build"]')?.content || ''
  );
}
