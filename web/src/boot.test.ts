import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  afterFirstPaint,
  hasFirstPaint,
  modulesToLoad,
  reloadOnce,
  START_AT_LATEST_MS,
  startApp,
} from './boot';
import { RELOAD_GUARD_MS, RELOAD_STORAGE_KEY } from './features/build';

function page(head: string, root: string): Document {
  const doc = document.implementation.createHTMLDocument('t');
  doc.head.innerHTML = head;
  doc.body.innerHTML = `<div id="root">${root}</div>`;
  return doc;
}

const LOAD = '<meta name="lw-load" content="/assets/index-A.js /assets/en-B.js /assets/home-C.js">';

describe('boot script (D156)', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the entry and the chunks the page names, and nothing that is not a path', () => {
    expect(modulesToLoad(page(LOAD, ''))).toEqual([
      '/assets/index-A.js',
      '/assets/en-B.js',
      '/assets/home-C.js',
    ]);
    expect(modulesToLoad(page('<meta name="lw-load" content="javascript:x  ">', ''))).toEqual([]);
    expect(modulesToLoad(page('', ''))).toEqual([]);
  });

  it('knows whether the server wrote the first screen', () => {
    expect(hasFirstPaint(page(LOAD, '<div class="layout"></div>'))).toBe(true);
    expect(hasFirstPaint(page(LOAD, ''))).toBe(false);
  });

  it('imports the entry and preloads the other chunks in parallel', () => {
    const doc = page(LOAD, '');
    const load = vi.fn(() => Promise.resolve());
    startApp(doc, load);
    expect(load).toHaveBeenCalledExactlyOnceWith('/assets/index-A.js');
    const links = [...doc.head.querySelectorAll('link[rel="modulepreload"]')].map((l) =>
      l.getAttribute('href'),
    );
    expect(links).toEqual(['/assets/en-B.js', '/assets/home-C.js']);
  });

  it('starts nothing without an entry', () => {
    const load = vi.fn(() => Promise.resolve());
    startApp(page('', ''), load);
    expect(load).not.toHaveBeenCalled();
  });

  it('starts two frames after load (once content painted), once, or at the latest after 3 s', () => {
    vi.useFakeTimers();
    const listeners: Array<() => void> = [];
    const win = {
      document: { readyState: 'interactive' },
      addEventListener: (_: string, f: () => void) => listeners.push(f),
      requestAnimationFrame: (f: () => void) => setTimeout(f, 16),
      setTimeout: (f: () => void, ms: number) => setTimeout(f, ms),
    } as unknown as Window;
    const start = vi.fn();
    afterFirstPaint(win, start);
    vi.advanceTimersByTime(1000);
    expect(start).not.toHaveBeenCalled();
    listeners.forEach((f) => f());
    vi.advanceTimersByTime(20);
    expect(start).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(start).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(START_AT_LATEST_MS);
    expect(start).toHaveBeenCalledOnce();

    const late = vi.fn();
    afterFirstPaint(win, late);
    vi.advanceTimersByTime(START_AT_LATEST_MS);
    expect(late).toHaveBeenCalledOnce();
  });

  it('§8.4 an entry gone after a deployment reloads the page, at most once per 10 s', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    const reload = vi.fn();
    reloadOnce(storage, 1_000_000, reload);
    expect(reload).toHaveBeenCalledOnce();
    expect(store.get(RELOAD_STORAGE_KEY)).toBe('1000000');
    reloadOnce(storage, 1_000_000 + RELOAD_GUARD_MS - 1, reload);
    expect(reload).toHaveBeenCalledOnce();
    reloadOnce(storage, 1_000_000 + RELOAD_GUARD_MS, reload);
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
