import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import { apiKey, cleanParams } from '../../lib/news';
import { useReader } from '../news';
import { HISTORY_PATH, type HistoryDay } from './api';

/** The reader's day: their language, and their city for the date and the local entries. */
export function useHistoryDay() {
  const services = useServices();
  const { lang, cityId } = useReader();
  const params = cleanParams({ lang, city_id: cityId || undefined });
  const query = useQuery({
    queryKey: apiKey(HISTORY_PATH, params),
    queryFn: ({ signal }) =>
      services.api.request<HistoryDay>('GET', HISTORY_PATH, { query: params, signal }),
  });
  return { query, lang };
}
