import { useMatches } from 'react-router';
import type { RouteHandle } from '../routes/routes';

/** The matched route's definition and locale. */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle && 'locale' in handle) return handle;
  }
  return { def: null, locale: 'en' };
}
