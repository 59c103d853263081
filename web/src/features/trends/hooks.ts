import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import { apiKey, cleanParams } from '../../lib/news';
import { useReader } from '../news';
import { readTrendsPage, TRENDS_PATH, type TrendsPage } from './api';

/**
 * The reader's trends (their country and language). Asked after the first paint: no
 * server-written first screen carries them, so no page's first bytes change (D302).
 */
export function useTrends({
  size,
  stories,
  trendKey,
}: {
  size?: number;
  stories?: number;
  trendKey?: string;
} = {}) {
  const services = useServices();
  const reader = useReader();
  const params = cleanParams({
    country: reader.country,
    lang: reader.lang,
    state: reader.adminCode || undefined,
    size,
    stories,
    key: trendKey,
  });
  return useQuery<TrendsPage>({
    queryKey: apiKey(TRENDS_PATH, params),
    queryFn: async ({ signal }) =>
      readTrendsPage(
        await services.api.request<unknown>('GET', TRENDS_PATH, { query: params, signal }),
      ),
    staleTime: 60_000,
  });
}
