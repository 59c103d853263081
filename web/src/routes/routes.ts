/** The route table shared with the server (D1). */
import routesJson from './routes.json';
import { DEFAULT_LOCALE, type Locale } from '../lib/locale';

export interface RouteDef {
  name: string;
  /** React Router pattern without locale prefix, e.g. `/article/:id`. */
  path: string;
  /** Message keys of the page title and meta description (D2). */
  title: string;
  description: string;
  /** Needs a signed-in (non-guest) account (SPEC §6.2, D8). */
  auth: boolean;
  layout: 'default' | 'page';
  /** The SPEC §2 line the route implements; `1.8` for the operator's /admin (D340). */
  spec: string;
  /**
   * The list a reader can follow as a feed (D376): the page's own (`/feeds/{format}` and
   * the page's address), or the reader's city's (`/local/{cityId}`).
   */
  feed?: 'page' | 'reader-city';
  /** The server renders this screen into the page before the scripts run (D156, D424). */
  first_screen?: boolean;
}

export const ROUTES: readonly RouteDef[] = routesJson as RouteDef[];

/** `/latest` in `es` is `/es/latest`; home in `es` is `/es`. */
export function localizedRoutePath(locale: Locale, path: string): string {
  if (locale === DEFAULT_LOCALE) return path;
  return path === '/' ? `/${locale}` : `/${locale}${path}`;
}

/** What every route of the SPA carries in its React Router `handle`. */
export interface RouteHandle {
  def: RouteDef | null;
  locale: Locale;
}
