/**
 * The one HTTP client of the app (SPEC §5, §7, §8; D5, D6): base URL, request signing,
 * the `{code, data, message}` envelope, encrypted answers (D220), typed errors and the
 * retry policy of §7.19.
 */
import { answerKey, ENCRYPTED_FIELD, openAnswer } from './answerCipher';
import { md5 } from './md5';

export const PACKAGE_NAME = 'localwire.web';
export const APP_VERSION = '30010200';
export const SIGN_OS = 3;
export const NONCE_LENGTH = 10;
export const DEFAULT_SIGN_WORD = 'localwire';
export const DEFAULT_TIMEOUT_MS = 20_000;

/** §7.19: methods that are retried (once) and the statuses that trigger it. */
export const RETRIED_METHODS = new Set(['POST', 'PATCH']);
export const RETRY_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

export const REQUEST_TIMEOUT_MESSAGE = 'Request timeout.';

const STATUS_MESSAGES: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Server Error',
};

/** §8 status messages: 'Not Found', 'Server Error', 'Forbidden', 'Unauthorized'. */
export function statusText(status: number): string | undefined {
  return STATUS_MESSAGES[status];
}

/** §8: the message for a failed call: fixed texts for 401/403/404/500, else the server's. */
export function errorMessage(status: number, serverMessage?: unknown): string {
  const fixed = STATUS_MESSAGES[status];
  if (fixed) return fixed;
  if (typeof serverMessage === 'string' && serverMessage.trim() !== '') return serverMessage;
  return 'Unknown Error';
}

export class ApiError extends Error {
  readonly status: number;
  /** The envelope's code (D5: equals the HTTP status on errors), when there was one. */
  readonly code: number | undefined;
  readonly data: unknown;
  readonly url: string;

  constructor(init: {
    status: number;
    message: string;
    code?: number;
    data?: unknown;
    url: string;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.data = init.data;
    this.url = init.url;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export type QueryValue = string | number | boolean | null | undefined | readonly unknown[];

/** §5.3: array parameters are repeated `key[]=` entries, each element JSON-encoded. */
export function buildQuery(params: Record<string, QueryValue> | undefined): string {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) search.append(`${key}[]`, JSON.stringify(item));
    } else {
      search.append(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** "GMT+01:00" for a zone one hour east of UTC (`Date#getTimezoneOffset` is -60 there). */
export function gmtOffset(timezoneOffsetMinutes: number): string {
  const east = -timezoneOffsetMinutes;
  const sign = east < 0 ? '-' : '+';
  const abs = Math.abs(east);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = String(abs % 60).padStart(2, '0');
  return `GMT${sign}${hours}:${minutes}`;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = '';
  // 62 does not divide 256, so reject the top values to keep the draw uniform.
  for (let i = 0; out.length < length; i++) {
    if (i >= bytes.length) {
      crypto.getRandomValues(bytes);
      i = 0;
    }
    if (bytes[i] < 248) out += ALPHANUMERIC[bytes[i] % 62];
  }
  return out;
}

/** D6: uppercase hex MD5 over base header text + path after /api + sign word + device id. */
export function signature(base: string, path: string, signWord: string, deviceId: string): string {
  return md5(base + path + signWord + deviceId).toUpperCase();
}

export interface SigningContext {
  deviceId: string;
  appLang: string;
  country: string;
  token?: string;
}

export interface ApiClientOptions {
  /** Defaults to `/api`. */
  baseUrl?: string;
  fetch?: typeof fetch;
  signWord?: string;
  /** Read at every call, so a new token or language is used at once. */
  context: () => SigningContext;
  now?: () => number;
  nonce?: () => string;
  timezoneOffset?: () => number;
  timeoutMs?: number;
  /** Where a failed decryption is reported (default `console.warn`). */
  warn?: (message: string, error: unknown) => void;
}

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

/** A file the server sent instead of an envelope (e.g. an NDJSON export). */
export interface DownloadedFile {
  blob: Blob;
  /** The `Content-Disposition` file name, when the server gave one. */
  fileName: string | null;
}

export interface ApiClient {
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T>;
  post<T>(path: string, body?: unknown): Promise<T>;
  /**
   * A signed POST whose answer is a file, not an envelope (D341): a signed call cannot be a
   * plain link. Errors still come as envelopes and throw the same `ApiError`s.
   */
  download(path: string, body?: unknown): Promise<DownloadedFile>;
}

/** `attachment; filename="a.ndjson"` → `a.ndjson`. */
export function dispositionFileName(header: string | null): string | null {
  if (!header) return null;
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1].trim());
  } catch {
    return match[1].trim();
  }
}

interface Envelope {
  code?: unknown;
  data?: unknown;
  message?: unknown;
  [ENCRYPTED_FIELD]?: unknown;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = (options.baseUrl ?? '/api').replace(/\/$/, '');
  const signWord = options.signWord ?? DEFAULT_SIGN_WORD;
  const now = options.now ?? Date.now;
  const nonce = options.nonce ?? (() => randomAlphanumeric(NONCE_LENGTH));
  const timezoneOffset = options.timezoneOffset ?? (() => new Date().getTimezoneOffset());
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const warn = options.warn ?? ((message: string, error: unknown) => console.warn(message, error));
  let key: Promise<CryptoKey> | undefined;

  /**
   * D220: the data of an encrypted answer. When it cannot be read (tampered, wrong key, no
   * WebCrypto) the caller gets §7.22's empty result: an object with no fields, so every
   * field reads as absent and no caller needs a null check.
   */
  async function decrypted(edata: unknown, url: string): Promise<unknown> {
    try {
      if (typeof edata !== 'string') throw new Error(`${ENCRYPTED_FIELD} is not a string`);
      key ??= answerKey(signWord);
      return JSON.parse(await openAnswer(await key, edata)) as unknown;
    } catch (error) {
      warn(`Could not decrypt the answer of ${url}; using an empty result.`, error);
      return {};
    }
  }

  function headersFor(method: string, path: string): Record<string, string> {
    const ctx = options.context();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (ctx.token) headers.token = ctx.token;
    if (method === 'GET') return headers;
    const base = JSON.stringify({
      device_id: ctx.deviceId,
      os: SIGN_OS,
      app_lang: ctx.appLang,
      package_name: PACKAGE_NAME,
      country: ctx.country,
      app_version: APP_VERSION,
      time_zone: gmtOffset(timezoneOffset()),
    });
    headers['content-type'] = 'application/json';
    headers.base = base;
    headers.timestamp = String(now());
    headers.nonce = nonce();
    headers.sign = signature(base, path, signWord, ctx.deviceId);
    return headers;
  }

  async function attempt(
    method: string,
    path: string,
    url: string,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ response: Response; text: string }> {
    const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetchImpl(url, {
      method,
      headers: headersFor(method, path),
      body,
      credentials: 'same-origin',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    return { response, text: await response.text() };
  }

  /** Sends with §7.19's retry policy; the answer's text is read whole. */
  async function send(
    verb: string,
    path: string,
    opts: RequestOptions,
  ): Promise<{ response: Response; text: string; url: string }> {
    const url = `${baseUrl}${path}${buildQuery(opts.query)}`;
    // §5.2: every non-GET request carries a JSON body, `{}` when there is none.
    const body = verb === 'GET' || verb === 'HEAD' ? undefined : JSON.stringify(opts.body ?? {});
    const maxAttempts = RETRIED_METHODS.has(verb) ? 2 : 1;

    let result: { response: Response; text: string } | undefined;
    for (let n = 1; n <= maxAttempts; n++) {
      try {
        result = await attempt(verb, path, url, body, opts.signal);
      } catch (error) {
        if (opts.signal?.aborted) throw error;
        // No answer at all (network failure or our own timeout).
        throw new ApiError({ status: 0, message: REQUEST_TIMEOUT_MESSAGE, url });
      }
      if (n < maxAttempts && RETRY_STATUSES.has(result.response.status)) continue;
      break;
    }
    return { ...result!, url };
  }

  /** The envelope of an answer; throws the `ApiError` of a failed one (§5.1, §7.19, §8). */
  function readEnvelope(response: Response, text: string, url: string): Envelope {
    if (text.trim() === '') {
      throw new ApiError({ status: response.status, message: REQUEST_TIMEOUT_MESSAGE, url });
    }

    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      const status = response.ok ? 500 : response.status;
      throw new ApiError({ status, message: errorMessage(status), url });
    }
    if (envelope === null || typeof envelope !== 'object') {
      const status = response.ok ? 500 : response.status;
      throw new ApiError({ status, message: errorMessage(status), url });
    }

    const code = typeof envelope.code === 'number' ? envelope.code : Number(envelope.code);
    // §7.19: statuses 400–599 are errors; §5.1: so is any non-zero code.
    if (response.status >= 400 || code !== 0) {
      const status = response.status >= 400 ? response.status : Number.isFinite(code) ? code : 500;
      throw new ApiError({
        status,
        code: Number.isFinite(code) ? code : undefined,
        message: errorMessage(status, envelope.message),
        data: envelope.data,
        url,
      });
    }
    return envelope;
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const verb = method.toUpperCase();
    const { response, text, url } = await send(verb, path, opts);
    const envelope = readEnvelope(response, text, url);
    // §7.22: a non-GET answer may carry its data encrypted in a separate field.
    if (verb !== 'GET' && verb !== 'HEAD' && ENCRYPTED_FIELD in envelope) {
      return (await decrypted(envelope[ENCRYPTED_FIELD], url)) as T;
    }
    return envelope.data as T;
  }

  async function download(path: string, body?: unknown): Promise<DownloadedFile> {
    const { response, text, url } = await send('POST', path, { body });
    // A failure is an envelope like any other call's; an empty file is a file.
    if (response.status >= 400) readEnvelope(response, text, url);
    const type = response.headers.get('content-type') ?? 'application/octet-stream';
    return {
      blob: new Blob([text], { type }),
      fileName: dispositionFileName(response.headers.get('content-disposition')),
    };
  }

  return {
    request,
    get: (path, query) => request('GET', path, { query }),
    post: (path, body) => request('POST', path, { body }),
    download,
  };
}

/**
 * SPEC §4.14, §7.15: a POST that must leave as the page unloads: a beacon carrying the
 * JSON (the browser sends it after the page is gone), else a synchronous POST. No
 * signing headers: a beacon cannot set them (D333). Answers whether it was handed over.
 */
export function postOnUnload(
  url: string,
  body: unknown,
  nav: Pick<Navigator, 'sendBeacon'> | undefined = typeof navigator === 'undefined'
    ? undefined
    : navigator,
  makeRequest: () => XMLHttpRequest = () => new XMLHttpRequest(),
): boolean {
  const text = JSON.stringify(body);
  if (nav && typeof nav.sendBeacon === 'function') {
    try {
      if (nav.sendBeacon(url, new Blob([text], { type: 'application/json' }))) return true;
    } catch {
      // Fall through to the synchronous POST.
    }
  }
  try {
    const xhr = makeRequest();
    xhr.open('POST', url, false);
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.send(text);
    return xhr.status >= 200 && xhr.status < 300;
  } catch {
    return false;
  }
}
