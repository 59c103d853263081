/** SPEC §4.12 / §9.7 popup messages: grouping, counter badge and constants. */

export const POPUP_DURATION_MS = 3000;
export const POPUP_OFFSET_PX = 16;
export const POPUP_PLACEMENT = 'top';
export const POPUP_BADGE_MAX = 99;
export const POPUP_Z_INDEX = 2000;

export type PopupKind = 'info' | 'success' | 'error';

export interface PopupMessage {
  id: number;
  text: string;
  kind: PopupKind;
  /** How many times this same message was shown while it was open. */
  count: number;
  duration: number;
}

export interface PopupInput {
  text: string;
  kind?: PopupKind;
  duration?: number;
  /** Identical messages are grouped (one entry, a repeat counter) unless this is false. */
  group?: boolean;
}

/** Adds a message, or bumps the counter of an identical open one. Returns the entry's id. */
export function addPopup(
  list: readonly PopupMessage[],
  input: PopupInput,
  nextId: number,
): { list: PopupMessage[]; id: number } {
  const kind = input.kind ?? 'info';
  const duration = input.duration ?? POPUP_DURATION_MS;
  if (input.group !== false) {
    const same = list.find((m) => m.text === input.text && m.kind === kind);
    if (same) {
      return {
        list: list.map((m) => (m === same ? { ...m, count: m.count + 1, duration } : m)),
        id: same.id,
      };
    }
  }
  return {
    list: [...list, { id: nextId, text: input.text, kind, count: 1, duration }],
    id: nextId,
  };
}

export function removePopup(list: readonly PopupMessage[], id: number): PopupMessage[] {
  return list.filter((m) => m.id !== id);
}

/** The badge text: nothing for a single message, the count, or "99+" past the maximum. */
export function badgeText(count: number, max: number = POPUP_BADGE_MAX): string | null {
  if (count <= 1) return null;
  return count > max ? `${max}+` : String(count);
}

type Listener = (input: PopupInput) => void;
const listeners = new Set<Listener>();

/** Shows a popup from code outside React (loaders, session flows). */
export function emitPopup(input: PopupInput): void {
  for (const listener of listeners) listener(input);
}

export function onPopup(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
