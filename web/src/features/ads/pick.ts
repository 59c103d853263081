/**
 * Which creative a slot shows and where feed slots go (D345). Pure, so a slot's choice is
 * the same on every render: no shuffle, no clock.
 */
import type { components } from '../../lib/api/schema';
import { FIRST_SCREEN_CARDS } from '../../lib/firstScreen';

export type AdClient = components['schemas']['AdClient'];
export type Creative = components['schemas']['Creative'];
export type Placement = Creative['placement'];

/**
 * A feed's first slot comes after this many stories: the cards a paging list's first
 * screen shows (`FIRST_SCREEN_CARDS`, lib/firstScreen.ts), so the slot arrives below what
 * was painted and moves nothing (D345).
 */
export const FIRST_FEED_SLOT_AFTER = FIRST_SCREEN_CARDS;
/** And then one after every this many more. */
export const FEED_SLOT_EVERY = 10;

/**
 * The slot that follows the story at `index` (0-based) in a paging feed, numbered from 0,
 * or null when none does: after the 6th story, the 16th, the 26th…
 */
export function feedSlotAfter(index: number): number | null {
  const after = index + 1 - FIRST_FEED_SLOT_AFTER;
  if (after < 0 || after % FEED_SLOT_EVERY !== 0) return null;
  return after / FEED_SLOT_EVERY;
}

/**
 * The creative for a slot: those of its placement that show in the page's language, taken
 * in the file's order, in turn by slot number (slot 0 the first, slot 1 the next, …).
 */
export function pickCreative(
  client: AdClient,
  placement: Placement,
  lang: string,
  slot: number,
): Creative | null {
  const fitting = client.creatives.filter(
    (c) => c.placement === placement && (c.langs.length === 0 || c.langs.includes(lang)),
  );
  if (fitting.length === 0) return null;
  return fitting[((slot % fitting.length) + fitting.length) % fitting.length];
}

/** §3.17 placement id: the operator's client id and the slot's placement (D345). */
export function placementId(client: AdClient, creative: Creative): string {
  return `${client.client_id}:${creative.placement}`;
}
