/**
 * `AbortController`, `Headers`, `Request` and `Response` as far as React Router's first
 * navigation uses them, for the server's QuickJS (D424): a loader gets a request it does
 * not send (the first screen's data is in the page), and `redirect` builds a response.
 */
const g = globalThis as Record<string, unknown>;

type Listener = (event: { type: string }) => void;

class Signal {
  aborted = false;
  reason: unknown = undefined;
  onabort: Listener | null = null;
  readonly #listeners = new Set<Listener>();
  addEventListener(_type: 'abort', listener: Listener): void {
    this.#listeners.add(listener);
  }
  removeEventListener(_type: 'abort', listener: Listener): void {
    this.#listeners.delete(listener);
  }
  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason ?? new Error('This operation was aborted');
    const event = { type: 'abort' };
    this.onabort?.(event);
    for (const listener of [...this.#listeners]) listener(event);
  }
}

class Controller {
  readonly signal = new Signal();
  abort(reason?: unknown): void {
    this.signal.abort(reason);
  }
}

type HeaderPairs = Iterable<[string, string]> | Record<string, string> | HeaderMap | undefined;

class HeaderMap {
  readonly #values = new Map<string, string>();
  constructor(init?: HeaderPairs) {
    if (!init) return;
    const pairs =
      init instanceof HeaderMap
        ? init.entries()
        : Symbol.iterator in init
          ? (init as Iterable<[string, string]>)
          : Object.entries(init);
    for (const [name, value] of pairs) this.append(name, value);
  }
  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }
  set(name: string, value: string): void {
    this.#values.set(name.toLowerCase(), String(value));
  }
  append(name: string, value: string): void {
    const old = this.get(name);
    this.set(name, old === null ? String(value) : `${old}, ${value}`);
  }
  delete(name: string): void {
    this.#values.delete(name.toLowerCase());
  }
  entries(): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
  forEach(fn: (value: string, name: string) => void): void {
    this.#values.forEach(fn);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

interface PageRequestInit {
  method?: string;
  headers?: HeaderPairs;
  signal?: Signal;
  body?: unknown;
}

class PageRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: HeaderMap;
  readonly signal: Signal;
  readonly body: unknown;
  constructor(input: string | { url: string } | URL, init: PageRequestInit = {}) {
    this.url = typeof input === 'object' && 'url' in input ? input.url : String(input);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = new HeaderMap(init.headers);
    this.signal = init.signal ?? new Signal();
    this.body = init.body ?? null;
  }
}

class PageResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderMap;
  readonly body: unknown;
  constructor(
    body: unknown = null,
    init: { status?: number; statusText?: string; headers?: HeaderPairs } = {},
  ) {
    this.body = body;
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = new HeaderMap(init.headers);
  }
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }
  static json(data: unknown, init?: { status?: number; headers?: HeaderPairs }): PageResponse {
    const headers = new HeaderMap(init?.headers);
    headers.set('content-type', 'application/json');
    return new PageResponse(JSON.stringify(data), { ...init, headers });
  }
  text(): Promise<string> {
    return Promise.resolve(typeof this.body === 'string' ? this.body : '');
  }
  json(): Promise<unknown> {
    return this.text().then((text) => JSON.parse(text) as unknown);
  }
}

if (typeof g.AbortController === 'undefined') {
  g.AbortController = Controller;
  g.AbortSignal = Signal;
}
if (typeof g.Headers === 'undefined') g.Headers = HeaderMap;
if (typeof g.Request === 'undefined') g.Request = PageRequest;
if (typeof g.Response === 'undefined') g.Response = PageResponse;
