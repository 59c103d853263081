/**
 * What the app's screens list, shared with the server's first screen (D235): the main
 * navigation, the footer's links, the home sections' size and the screens whose feed
 * leads with a large first card. The server reads the same file (`pages::shared`).
 */
import screensJson from './screens.json';

export interface NavLinkDef {
  path: string;
  /** Message key of the link's name. */
  key: string;
}

interface Screens {
  nav: NavLinkDef[];
  footer: NavLinkDef[];
  homeSectionSize: number;
  leadFirst: string[];
}

const screens: Screens = screensJson;

export const NAV_ITEMS: readonly NavLinkDef[] = screens.nav;
export const FOOTER_LINKS: readonly NavLinkDef[] = screens.footer;

/** Stories shown in each of the home's local and top sections. */
export const HOME_SECTION_SIZE: number = screens.homeSectionSize;

const LEAD_FIRST = new Set(screens.leadFirst);

/** Does route `screen`'s main feed show its first story as a lead card? */
export function leadsWithFirst(screen: string): boolean {
  return LEAD_FIRST.has(screen);
}
