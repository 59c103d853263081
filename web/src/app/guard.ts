/**
 * SPEC §2.21 global guard and §6.2 auth guard on client navigation (D3, D8), as a pure
 * function of the URL and what the app knows. The route loaders carry out its answer.
 */
import {
  DEFAULT_LOCALE,
  localeFromBrowser,
  localizePath,
  resolveLocaleCode,
  splitLocalePath,
  type Locale,
  type ProductCode,
  type ResolvedCode,
} from '../lib/locale';
import { sameOriginPath } from '../lib/sameOrigin';

export interface GuardInput {
  pathname: string;
  search: string;
  /** The locale of the matched route (its path prefix). */
  routeLocale: Locale;
  /** Whether the matched route needs a signed-in account. */
  auth: boolean;
  /** D3: the stored locale code (cookie `lw_locale`). */
  storedCode: ProductCode | null;
  isGuest: boolean;
  /**
   * §4.10 first access without a server decision (no payload, e.g. `vite dev`): the
   * browser's languages may pick the locale of an unprefixed path.
   */
  browserLanguages?: readonly string[];
}

export type GuardResult =
  { kind: 'redirect'; to: string } | { kind: 'render'; locale: Locale; code: ResolvedCode | null };

function withParam(search: string, key: string, value: string): string {
  const params = new URLSearchParams(search);
  params.set(key, value);
  return `?${params.toString()}`;
}

/** Every redirect it answers is a path on this site (D360: `sameOriginPath`). */
export function globalGuard(input: GuardInput): GuardResult {
  const params = new URLSearchParams(input.search);
  const rawC = params.get('c');
  const hasC = rawC !== null && rawC.trim() !== '';
  const { path } = splitLocalePath(input.pathname);

  // §2.21: c missing and a stored code → the same route with that code in c (D3 step 1).
  if (!hasC && input.storedCode) {
    const stored = resolveLocaleCode(input.storedCode)!;
    return {
      kind: 'redirect',
      to: sameOriginPath(
        localizePath(stored.lang, path) + withParam(input.search, 'c', stored.code),
      ),
    };
  }

  // §2.21: a c whose language is a configured locale switches to it (D3 step 2).
  const code = hasC ? resolveLocaleCode(rawC) : null;
  if (code && code.lang !== input.routeLocale) {
    return {
      kind: 'redirect',
      to: sameOriginPath(localizePath(code.lang, path) + withParam(input.search, 'c', code.code)),
    };
  }

  // §4.10 / D3 step 3: first access on an unprefixed path may follow the browser.
  if (!code && input.browserLanguages && input.routeLocale === DEFAULT_LOCALE) {
    const browser = localeFromBrowser(input.browserLanguages);
    if (browser && browser !== DEFAULT_LOCALE) {
      return { kind: 'redirect', to: sameOriginPath(localizePath(browser, path) + input.search) };
    }
  }

  // §6.2 / D8: /user/* needs a signed-in account; guests go to the sign-in dialog.
  if (input.auth && input.isGuest) {
    const target = sameOriginPath(input.pathname + input.search);
    const home = localizePath(input.routeLocale, '/');
    return {
      kind: 'redirect',
      to: `${home}?login=1&redirect=${encodeURIComponent(target)}`,
    };
  }

  return { kind: 'render', locale: input.routeLocale, code };
}
