/**
 * The page's only script tag (D156). The server writes the first screen as HTML; the app
 * (its entry and the chunks of this screen and locale, named by the page in
 * `<meta name="lw-load">`) starts loading only once that screen has painted, so on a slow
 * phone the story shows before 120 KB of script arrive, not after. A page without
 * server-written content (a screen the server does not write) starts the app at once.
 *
 * Kept tiny and free of imports: it is fetched before the app and runs on every page.
 */

/** An image that never arrives must not keep the app from starting. */
export const START_AT_LATEST_MS = 3000;

export function modulesToLoad(doc: Document): string[] {
  const content = doc.querySelector('meta[name="lw-load"]')?.getAttribute('content') ?? '';
  return content.split(' ').filter((file) => file.startsWith('/'));
}

/** The server wrote the first screen (`#root` has content), so it paints before the app. */
export function hasFirstPaint(doc: Document): boolean {
  return doc.getElementById('root')?.firstElementChild != null;
}

export function startApp(doc: Document, load: (entry: string) => Promise<unknown>): void {
  const [entry, ...chunks] = modulesToLoad(doc);
  if (!entry) return;
  // Fetched in parallel with the entry, not one after another as the app asks for them.
  for (const file of chunks) {
    const link = doc.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = file;
    doc.head.append(link);
  }
  void load(entry);
}

/** Has the page painted content yet (Paint Timing)? Unknown counts as yes. */
function whenContentPainted(win: Window, then: () => void): void {
  const perf = win.performance;
  if (!perf?.getEntriesByType || typeof PerformanceObserver === 'undefined') return then();
  if (perf.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint'))
    return then();
  const observer = new PerformanceObserver(() => {
    observer.disconnect();
    then();
  });
  observer.observe({ type: 'paint' });
}

/**
 * Calls `start` once: after `load` (the lead image is in), once content has painted, in
 * a task after the next two frames (so the frame with that image has been drawn before
 * the app's scripts compete for the network and the main thread); at the latest 3 s
 * after the boot script ran.
 */
export function afterFirstPaint(win: Window, start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  const afterNextPaint = () =>
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => win.setTimeout(once, 0)));
  const ready = () => whenContentPainted(win, afterNextPaint);
  if (win.document.readyState === 'complete') ready();
  else win.addEventListener('load', ready, { once: true });
  win.setTimeout(once, START_AT_LATEST_MS);
}

/**
 * SPEC §8.4 for the entry itself: a page written before a new deployment names scripts
 * that are gone; load the page afresh, at most once per 10 s (the same guard and key as
 * `features/build/chunkReload.ts`, which handles the app's own chunks; not imported, so
 * this file stays one small request).
 */
export function reloadOnce(
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  now: number,
  reload: () => void,
) {
  const last = Number(storage.getItem('lw:chunk-reload-at'));
  if (Number.isFinite(last) && last > 0 && now - last < 10_000) return;
  storage.setItem('lw:chunk-reload-at', String(now));
  reload();
}

if (typeof window !== 'undefined' && !import.meta.env.VITEST) {
  const importEntry = (entry: string) =>
    import(/* @vite-ignore */ entry).catch(() =>
      reloadOnce(sessionStorage, Date.now(), () => window.location.reload()),
    );
  const start = () => startApp(document, importEntry);
  if (hasFirstPaint(document)) afterFirstPaint(window, start);
  else start();
}
