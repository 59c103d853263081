/**
 * "Near the viewport" for lazy images and infinite lists (SPEC §4 images, §9.11): one
 * IntersectionObserver per margin, shared by every element that waits on it.
 */

/** §9.11 lazy-image preload factor: load when within 1.3 viewports. */
export const PRELOAD_FACTOR = 1.3;

/** The IntersectionObserver margin for a preload factor: 1.3 → the viewport plus 30 %. */
export function rootMarginFor(factor: number): string {
  const extra = Math.max(0, Math.round((factor - 1) * 100));
  return `${extra}% 0px`;
}

type Callback = (near: boolean) => void;
const observers = new Map<
  string,
  { io: IntersectionObserver; callbacks: Map<Element, Callback> }
>();

/**
 * Calls `callback(true)` whenever `element` comes within the margin and `callback(false)`
 * when it leaves. Without IntersectionObserver (very old browsers) everything counts as
 * near. Returns the function that stops watching.
 */
export function watchNear(
  element: Element,
  callback: Callback,
  factor: number = PRELOAD_FACTOR,
): () => void {
  if (typeof IntersectionObserver === 'undefined') {
    callback(true);
    return () => undefined;
  }
  const margin = rootMarginFor(factor);
  let entry = observers.get(margin);
  if (!entry) {
    const callbacks = new Map<Element, Callback>();
    const io = new IntersectionObserver(
      (records) => {
        for (const record of records) callbacks.get(record.target)?.(record.isIntersecting);
      },
      { rootMargin: margin },
    );
    entry = { io, callbacks };
    observers.set(margin, entry);
  }
  const current = entry;
  current.callbacks.set(element, callback);
  current.io.observe(element);
  return () => {
    current.callbacks.delete(element);
    current.io.unobserve(element);
    if (current.callbacks.size === 0) {
      current.io.disconnect();
      observers.delete(margin);
    }
  };
}
