import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import type { User } from './model';

export const userQueryKey = ['user'] as const;

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
