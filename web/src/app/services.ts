/**
 * The app's long-lived objects, created once at boot (and per test): API client,
 * settings, query client, session, build watch and route rules.
 */
import { QueryClient } from '@tanstack/react-query';
import { createApiClient, DEFAULT_SIGN_WORD } from '../lib/api';
import { acquisitionChannel } from '../lib/channel';
import type { CookieJar } from '../lib/cookies';
import { DEFAULT_COUNTRY, DEFAULT_LOCALE, resolveLocaleCode } from '../lib/locale';
import type { RouteRule } from '../lib/routeRules';
import { createAppSettings } from '../lib/settings';
import {
  createBuildWatch,
  fetchBuildManifest,
  isSlowConnection,
  MANIFEST_DELAY_MS,
} from '../features/build';
import {
  createOutbox,
  forgetReaderCopies,
  forgetReaderState,
  isOnline,
  keepReaderState,
  restoreReaderState,
} from '../features/offline';
import { emitPopup } from '../components/popup';
import { startReporting } from '../features/report';
import { i18n, prepareLocale } from '../i18n';
import {
  accountQueryKey,
  appConfigKey,
  closeSignInWindow,
  createSession,
  fetchAppConfig,
  userQueryKey,
  type User,
} from '../features/user';
import { readBuildId, type Payload } from '../lib/payload';
import type { Services } from '../lib/services';

export interface ServicesOptions {
  payload: Payload | null;
  /** The URL the app started on (channel and c are read from it, SPEC §2.20). */
  initialUrl: URL;
  fetch?: typeof fetch;
  cookieJar?: CookieJar;
  browserLanguages?: readonly string[];
  buildId?: string;
  /** Full page load, for new builds, external route rules and failed chunks. */
  hardNavigate?: (href: string) => void;
  connection?: { effectiveType?: string; saveData?: boolean };
  signWord?: string;
  /** Where changes made offline are kept (default: localStorage). */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

export function createServices(options: ServicesOptions): Services {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const settings = createAppSettings(options.cookieJar);
  const queryClient = new QueryClient({
    defaultOptions: {
      // The API client owns the retry policy (§7.19).
      // Reads are tried offline too: the service worker may answer from its copy (D390).
      queries: {
        retry: false,
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        networkMode: 'offlineFirst',
      },
      // Changes go out even offline: the outbox keeps them (features/offline), where
      // TanStack's pause would hold them only in this tab's memory.
      mutations: { retry: false, networkMode: 'always' },
    },
  });
  const storage = options.storage ?? window.localStorage;
  const api = createApiClient({
    fetch: fetchImpl,
    // The page's word (the server's own) first; a build-time word only without a page
    // payload (`vite dev`), then the default (D200).
    signWord: options.payload?.signWord ?? options.signWord ?? DEFAULT_SIGN_WORD,
    context: () => ({
      deviceId: settings.get('deviceId') ?? '',
      appLang: settings.get('lng') ?? options.payload?.locale ?? DEFAULT_LOCALE,
      country: settings.get('iso') ?? options.payload?.country ?? DEFAULT_COUNTRY,
      token: settings.get('token'),
    }),
  });
  const getConfig = () =>
    queryClient.fetchQuery({
      queryKey: appConfigKey,
      queryFn: () => fetchAppConfig(api),
      staleTime: Infinity,
    });
  const session = createSession({
    api,
    settings,
    getUser: () => queryClient.getQueryData<User>(userQueryKey) ?? undefined,
    setUser: (user) => queryClient.setQueryData(userQueryKey, user),
    getConfig,
    // §4.5: the provider's own session is not ours to end; what is ours is a sign-in
    // window still open and its wait, and the old account's cached pages and the copies
    // kept for reading offline (D391).
    socialSignOut: async () => {
      closeSignInWindow();
      queryClient.removeQueries({ queryKey: accountQueryKey });
      await forgetReaderCopies();
      forgetReaderState(storage);
    },
  });

  const outbox = createOutbox({
    storage,
    send: (path, body) => api.post(path, body),
    token: () => settings.get('token'),
    online: isOnline,
  });
  /** Sends what was changed offline; then every screen asks again for what it shows. */
  const flushOutbox = async () => {
    if (outbox.size() === 0) return;
    try {
      const { sent, refused } = await outbox.flush();
      if (sent + refused > 0) void queryClient.invalidateQueries();
      if (refused > 0) {
        emitPopup({ text: i18n.t('Offline_Refused', { count: refused }), kind: 'error' });
      }
    } catch (error) {
      // Storage refused: the changes stay where they are; the next chance sends them.
      console.warn('Could not send the changes made offline', error);
    }
  };

  const buildId = options.buildId ?? readBuildId(options.payload);
  const buildWatch = buildId ? createBuildWatch({ currentId: buildId, fetch: fetchImpl }) : null;
  let rules: readonly RouteRule[] = [];
  const hardNavigate = options.hardNavigate ?? ((href: string) => window.location.assign(href));

  let resolveReady!: (user: User | undefined) => void;
  const ready = new Promise<User | undefined>((resolve) => {
    resolveReady = resolve;
  });

  let firstNavigation = true;
  const previousVisit = settings.get('visit');
  const pendingCodes = new Map<string, Promise<void>>();

  const services: Services = {
    api,
    settings,
    queryClient,
    session,
    payload: options.payload,
    outbox,
    loadedAt: Date.now(),
    buildWatch,
    browserLanguages: options.browserLanguages ?? [],
    hardNavigate,
    routeRules: () => rules,
    setRouteRules: (next) => {
      rules = next;
    },
    ready,
    currentUser: async () => {
      const started = await ready;
      // Later flows (set city, logout) update the cache; it is the latest word.
      return queryClient.getQueryData<User>(userQueryKey) ?? started;
    },
    getConfig,
    previousVisit,
    takeFirstNavigation: () => {
      const first = firstNavigation;
      firstNavigation = false;
      return first;
    },
    applyLocaleCode: (code) => {
      const pending = pendingCodes.get(code);
      if (pending) return pending;
      const run = ready
        .then(() => session.applyLocaleCode(code))
        .then(async (ok) => {
          if (ok !== false) return;
          // In the chosen language: the page may not have switched to it yet (D144).
          const lang = resolveLocaleCode(code)?.lang ?? DEFAULT_LOCALE;
          await prepareLocale(lang);
          emitPopup({ text: i18n.t('Web_LocationFailed', { lng: lang }), kind: 'error' });
        })
        .finally(() => pendingCodes.delete(code));
      pendingCodes.set(code, run);
      return run;
    },
    start: () => {
      const channel = acquisitionChannel(options.initialUrl.searchParams);
      // Started without a connection: the reader as this device last knew them (D393).
      const restored = isOnline()
        ? Promise.resolve(false)
        : restoreReaderState(queryClient, storage);
      restored
        .then(() => session.startup({ channel, c: options.initialUrl.searchParams.get('c') }))
        .then(
          (user) => resolveReady(user),
          (error: unknown) => {
            // The server could not create a session: the app still renders, as a guest.
            console.error('init error', error);
            resolveReady(undefined);
          },
        )
        .finally(() => settings.markVisit())
        // Changes kept from an earlier visit go out once the session is known.
        .then(flushOutbox);

      const stops: Array<() => void> = [keepReaderState(queryClient, storage)];
      if (typeof window !== 'undefined') {
        const onOnline = () => {
          void flushOutbox();
          // Started offline: the reader's things wait for the user, asked for now.
          if (!queryClient.getQueryData(userQueryKey)) {
            session.fetchUserInfo().catch(() => undefined);
          }
        };
        window.addEventListener('online', onOnline);
        stops.push(() => window.removeEventListener('online', onOnline));
      }
      // Usage reports to our own server only; off under DNT/GPC and for bots (issue 21).
      if (typeof window !== 'undefined') {
        stops.push(
          startReporting({
            api,
            channel,
            context: () => ({
              deviceId: settings.get('deviceId') ?? '',
              appLang: settings.get('lng') ?? options.payload?.locale ?? DEFAULT_LOCALE,
              country: settings.get('iso') ?? options.payload?.country ?? DEFAULT_COUNTRY,
            }),
          }),
        );
      }
      if (buildWatch) stops.push(buildWatch.start());
      if (buildId && !isSlowConnection(options.connection)) {
        const timer = setTimeout(() => {
          fetchBuildManifest(buildId, fetchImpl).then(services.setRouteRules, () => undefined);
        }, MANIFEST_DELAY_MS);
        stops.push(() => clearTimeout(timer));
      }
      return () => stops.forEach((stop) => stop());
    },
  };
  return services;
}
