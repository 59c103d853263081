/** Query hooks for notifications (TanStack Query), under `['reader', userId, 'push', …]`. */
import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
} from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import { useUser } from '../user';
import { isApiError } from '../../lib/api';
import type { Page } from '../../lib/news';
import {
  KEY_PATH,
  SENT_LIST_PATH,
  SENT_PAGE_SIZE,
  SETTINGS_PATH,
  SETTINGS_UPDATE_PATH,
  SUBSCRIBE_PATH,
  toSentPage,
  UNSUBSCRIBE_PATH,
  type SentNews,
  type SettingsDoc,
} from './api';
import {
  currentSubscription,
  permission,
  pushSupport,
  subscribeBrowser,
  unsubscribeBrowser,
  type BrowserSubscription,
} from './push';
import { reportPermissionStatus } from '../report';

function useKeyBase() {
  const user = useUser();
  return { userId: user?.id ?? null, ready: user !== null, user };
}

const pushKey = (userId: number | null, ...rest: unknown[]): QueryKey => [
  'reader',
  userId,
  'push',
  ...rest,
];

/** What was sent to the reader, newest first (§7.6: list, token). */
export function useSentList() {
  const services = useServices();
  const { userId, ready } = useKeyBase();
  return useInfiniteQuery<
    Page<SentNews>,
    Error,
    InfiniteData<Page<SentNews>, string>,
    QueryKey,
    string
  >({
    queryKey: pushKey(userId, 'sent'),
    queryFn: async ({ pageParam }) =>
      toSentPage(
        await services.api.post<unknown>(SENT_LIST_PATH, {
          size: SENT_PAGE_SIZE,
          ...(pageParam ? { page_no: pageParam } : {}),
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_page_token || undefined,
    enabled: ready,
  });
}

export function useSettings() {
  const services = useServices();
  const { userId, ready } = useKeyBase();
  return useQuery({
    queryKey: pushKey(userId, 'settings'),
    queryFn: () => services.api.post<SettingsDoc>(SETTINGS_PATH, {}),
    enabled: ready,
  });
}

export function useSaveSettings() {
  const services = useServices();
  const client = useQueryClient();
  const { userId } = useKeyBase();
  return useMutation({
    mutationFn: (settings: SettingsDoc) =>
      services.api.post<SettingsDoc>(SETTINGS_UPDATE_PATH, settings),
    onSuccess: (stored) => client.setQueryData(pushKey(userId, 'settings'), stored),
  });
}

/** This browser's state: unsupported, blocked by the reader, on or off. */
export type BrowserState = 'unsupported' | 'denied' | 'on' | 'off';

export function useBrowserState() {
  const { userId } = useKeyBase();
  return useQuery({
    queryKey: pushKey(userId, 'browser'),
    queryFn: async (): Promise<BrowserState> => {
      if (pushSupport() === 'unsupported') return 'unsupported';
      if (permission() === 'denied') return 'denied';
      return (await currentSubscription()) ? 'on' : 'off';
    },
  });
}

/**
 * Turn notifications on for the reader's city: the permission prompt appears only now,
 * the status is reported (§6.4), and the subscription goes to the server.
 */
export function useTurnOn() {
  const services = useServices();
  const client = useQueryClient();
  const { userId, user } = useKeyBase();
  return useMutation({
    mutationFn: async (): Promise<BrowserState> => {
      const { public_key } = await services.api.get<{ public_key: string }>(KEY_PATH);
      const { granted, subscription } = await subscribeBrowser(public_key);
      // SPEC §6.4: through the app's one reporter, granted 1, otherwise 0.
      reportPermissionStatus(granted);
      if (!granted || !subscription) return permission() === 'denied' ? 'denied' : 'off';
      const send = (sub: BrowserSubscription) =>
        services.api.post(SUBSCRIBE_PATH, {
          ...sub,
          ...(user?.city_id ? { city_id: user.city_id } : {}),
        });
      try {
        await send(subscription);
      } catch (error) {
        // D356: another reader (an earlier account on this browser) holds this endpoint,
        // and the server never moves it. A new browser subscription has a new endpoint.
        if (!isApiError(error) || error.status !== 409) throw error;
        await unsubscribeBrowser();
        const fresh = await subscribeBrowser(public_key);
        if (!fresh.subscription) return 'off';
        await send(fresh.subscription);
      }
      return 'on';
    },
    onSuccess: (state) => {
      client.setQueryData(pushKey(userId, 'browser'), state);
      void client.invalidateQueries({ queryKey: pushKey(userId, 'settings') });
    },
  });
}

export function useTurnOff() {
  const services = useServices();
  const client = useQueryClient();
  const { userId } = useKeyBase();
  return useMutation({
    mutationFn: async (): Promise<BrowserState> => {
      const endpoint = await unsubscribeBrowser();
      if (endpoint) await services.api.post(UNSUBSCRIBE_PATH, { endpoint });
      return 'off';
    },
    onSuccess: (state) => {
      client.setQueryData(pushKey(userId, 'browser'), state);
      void client.invalidateQueries({ queryKey: pushKey(userId, 'settings') });
    },
  });
}
