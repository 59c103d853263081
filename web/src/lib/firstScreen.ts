/**
 * The first screen (D156, D424): the server renders the app's own components once, into
 * the page, so the reader sees the screen before the scripts arrive. That render is the
 * app's first screen, cut to what paints at once: a paging list shows its first
 * `FIRST_SCREEN_CARDS` cards and no "Load more" (the app renders the rest and pages on),
 * and a placeholder image has no loading sweep (nothing would end it until the app runs).
 * The components read this context; only the server's render sets it.
 */
import { createContext, useContext } from 'react';

/** The cards a paging list's first screen shows. */
export const FIRST_SCREEN_CARDS = 6;

export const FirstScreenContext = createContext(false);

/** True while the server renders the first screen. */
export function useFirstScreen(): boolean {
  return useContext(FirstScreenContext);
}
