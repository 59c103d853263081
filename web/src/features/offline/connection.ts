/**
 * Whether the browser has a connection, as React state (the offline indicator) and as
 * a function (the outbox). `navigator.onLine` false is certain (no network at all); true
 * may still mean a network that reaches nothing, which the outbox learns from a call
 * that gets no answer.
 */
import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
}

export const isOnline = () => (typeof navigator === 'undefined' ? true : navigator.onLine);

export function useOnline(): boolean {
  return useSyncExternalStore(subscribe, isOnline, () => true);
}
