/** SPEC §2.22 route rules: a path may redirect, also to an external address. */
import type { components } from './api/schema';

export type RouteRule = components['schemas']['RouteRule'];

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The rule whose `from` is this path (a trailing slash does not matter). */
export function matchRouteRule(pathname: string, rules: readonly RouteRule[]): RouteRule | null {
  const path = trimSlash(pathname);
  return rules.find((rule) => trimSlash(rule.from) === path) ?? null;
}

export function isExternalTarget(to: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(to);
}

/** Keeps only well-formed rules from server JSON. */
export function readRouteRules(raw: unknown): RouteRule[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (r): r is RouteRule =>
      !!r &&
      typeof r === 'object' &&
      typeof (r as RouteRule).from === 'string' &&
      (r as RouteRule).from.startsWith('/') &&
      typeof (r as RouteRule).to === 'string' &&
      (r as RouteRule).to !== '',
  );
}
