/**
 * What the app needs of a browser and QuickJS lacks, for the server's first-screen
 * render (D424). Each part is installed only where the engine has none, so the same
 * script also runs under Node (the golden test's check of this file).
 *
 * - `Intl`: the first screen's plurals, relative times and dates (`intl.ts`).
 * - Timers: React Router settles its first navigation through a zero-delay timer. QuickJS
 *   has no event loop: timers wait in a queue that the host runs with `__tick()` when no
 *   job is left (crates/render). Timers with a delay (TanStack Query's clean-up) never
 *   come due in a render, and the render clears them.
 * - `URL`, `URLSearchParams` (whatwg-url, the reference implementation the browsers
 *   follow), `TextEncoder`/`TextDecoder` (UTF-8, which whatwg-url needs).
 * - `AbortController`, `Headers`, `Request`, `Response`: the router's loaders take a
 *   request; the first screen's loaders read no network.
 * - `console`: the host has none; messages are dropped (a failed render says why itself).
 */
import './textEncoding';
import './requests';
import { URL as WhatwgUrl, URLSearchParams as WhatwgSearchParams } from 'whatwg-url';
import { installIntl } from './intl';

const g = globalThis as Record<string, unknown>;

installIntl();
if (typeof g.URL === 'undefined') {
  g.URL = WhatwgUrl;
  g.URLSearchParams = WhatwgSearchParams;
}

if (typeof g.console === 'undefined') {
  const quiet = () => undefined;
  g.console = { log: quiet, info: quiet, warn: quiet, error: quiet, debug: quiet };
}

if (typeof g.setTimeout === 'undefined') {
  interface Timer {
    id: number;
    fn: () => void;
    delay: number;
  }
  let next = 1;
  let queue: Timer[] = [];
  g.setTimeout = (fn: () => void, delay = 0, ...args: unknown[]) => {
    const id = next++;
    queue.push({ id, fn: () => fn(...(args as [])), delay: Number(delay) || 0 });
    return id;
  };
  g.clearTimeout = (id: number) => {
    queue = queue.filter((timer) => timer.id !== id);
  };
  // Intervals never come due in a render (they need time to pass).
  g.setInterval = () => next++;
  g.clearInterval = () => undefined;
  /** Runs the zero-delay timers due now; true when one ran. Delayed ones are dropped. */
  g.__tick = () => {
    const due = queue.filter((timer) => timer.delay <= 0);
    queue = [];
    for (const timer of due) timer.fn();
    return due.length > 0;
  };
}

if (typeof g.queueMicrotask === 'undefined') {
  g.queueMicrotask = (fn: () => void) => void Promise.resolve().then(fn);
}
