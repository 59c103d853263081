/**
 * Home's channel tabs (D264), apart from the other settings: home reads them on every
 * first load, and the settings module (topics, mutes, their writes) is not needed there
 * (D425).
 */
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import { CHANNELS_LIST_PATH, type Channels } from './api';
import { readerKey, useReaderKey } from './cache';

/** The reader's home tabs in order; an empty list means the default tabs. Once a session. */
export function useHomeChannels() {
  const services = useServices();
  const { userId, ready } = useReaderKey();
  return useQuery({
    queryKey: readerKey(userId, 'channels'),
    queryFn: async () =>
      (await services.api.post<Channels>(CHANNELS_LIST_PATH, {}))?.channels ?? [],
    staleTime: Infinity,
    enabled: ready,
  });
}
