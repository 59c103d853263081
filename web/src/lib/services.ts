/**
 * The app's long-lived objects as every part of the app reads them: the type, the React
 * context that carries them and its hook. `app/services.ts` creates them once at boot (and
 * per test) and `app/App.tsx` provides them; features and shared components only read
 * them here, so nothing below `app/` imports `app/`.
 *
 * A member whose type a feature owns is declared by that feature's index.ts (interface
 * merging), so this file names no feature: `features/user` adds `session`, `ready`,
 * `currentUser` and `getConfig`; `features/offline` adds `outbox`; `features/build` adds
 * `buildWatch`.
 */
import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import type { ApiClient } from './api';
import type { Payload } from './payload';
import type { RouteRule } from './routeRules';
import type { AppSettings } from './settings';

export interface Services {
  api: ApiClient;
  settings: AppSettings;
  queryClient: QueryClient;
  payload: Payload | null;
  /** When this page loaded (ms): the payload's data is as old as that. */
  loadedAt: number;
  browserLanguages: readonly string[];
  hardNavigate: (href: string) => void;
  routeRules: () => readonly RouteRule[];
  setRouteRules: (rules: readonly RouteRule[]) => void;
  /** True exactly once: for the first navigation of this page load. */
  takeFirstNavigation: () => boolean;
  /** Applies a `c` code to the user's location (§4.3), reporting failure in a popup. */
  applyLocaleCode: (code: string) => Promise<void>;
  /** The `visit` cookie as it was before this page load (§4.9). */
  previousVisit: string | undefined;
  start: () => () => void;
}

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs <ServicesContext.Provider>');
  return services;
}
