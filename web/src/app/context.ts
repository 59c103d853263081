import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { useMatches } from 'react-router';
import { userQueryKey, type User } from '../features/user';
import type { RouteHandle } from '../routes/routes';
import type { Services } from './services';

export const ServicesContext = createContext<Services | null>(null);

export function useServices(): Services {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices needs <ServicesContext.Provider>');
  return services;
}

/** The visitor's user (server form), from the data layer; null while unknown. */
export function useUser(): User | null {
  const services = useServices();
  const { data } = useQuery({
    queryKey: userQueryKey,
    queryFn: async () => (await services.currentUser()) ?? null,
    staleTime: Infinity,
  });
  return data ?? null;
}

/** The matched route's definition and locale. */
export function useRouteHandle(): RouteHandle {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle && 'locale' in handle) return handle;
  }
  return { def: null, locale: 'en' };
}
