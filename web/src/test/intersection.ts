import { act } from '@testing-library/react';
import { vi } from 'vitest';

/**
 * A controllable IntersectionObserver for jsdom (which has none): tests say when an
 * element comes near with `setNear(element, true)`.
 */
export function installIntersectionObserver() {
  const instances: MockObserver[] = [];
  class MockObserver {
    readonly rootMargin: string;
    readonly elements = new Set<Element>();
    constructor(
      private readonly callback: IntersectionObserverCallback,
      options: IntersectionObserverInit = {},
    ) {
      this.rootMargin = options.rootMargin ?? '0px';
      instances.push(this);
    }
    observe(element: Element) {
      this.elements.add(element);
    }
    unobserve(element: Element) {
      this.elements.delete(element);
    }
    disconnect() {
      this.elements.clear();
    }
    takeRecords() {
      return [];
    }
    fire(element: Element, isIntersecting: boolean) {
      this.callback(
        [{ target: element, isIntersecting } as IntersectionObserverEntry],
        this as unknown as IntersectionObserver,
      );
    }
  }
  vi.stubGlobal('IntersectionObserver', MockObserver);
  return {
    instances,
    observed: () => instances.flatMap((o) => [...o.elements]),
    setNear(element: Element, near = true) {
      act(() => {
        for (const o of instances) if (o.elements.has(element)) o.fire(element, near);
      });
    },
    /** Everything watched comes near (e.g. the whole page is in view). */
    allNear() {
      act(() => {
        for (const o of instances) for (const el of [...o.elements]) o.fire(el, true);
      });
    },
  };
}
