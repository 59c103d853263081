/**
 * The first-load payload the server inlines as
 * `<script type="application/json" id="lw-payload">` (D20). Absent in `vite dev`.
 */
import { isLocale, type Locale } from '../lib/locale';

export interface PayloadError {
  status: number;
  message: string;
  code?: number;
}

export interface Payload {
  route: string | null;
  status: number;
  locale: Locale;
  country: string;
  c: string | null;
  build: string;
  params: Record<string, string>;
  error: PayloadError | null;
  data: unknown;
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
