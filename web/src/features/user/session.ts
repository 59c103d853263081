/**
 * The visitor's session: app init (SPEC §4.2), start-up (§7.17), country change (§4.3),
 * set city (§4.4) and logout (§4.5). Plain functions over injected dependencies, so the
 * flows are tested with a fake fetch.
 */
import type { ApiClient } from '../../lib/api';
import { isApiError } from '../../lib/api';
import { userTypeForChannel } from '../../lib/channel';
import { DEFAULT_COUNTRY, DEFAULT_LOCALE, isLocale, resolveLocaleCode } from '../../lib/locale';
import type { AppSettings } from '../../lib/settings';
import type { AppConfig } from './config';
import {
  cityFromUser,
  cityShow,
  normalizeUser,
  type CityInfo,
  type InitRequest,
  type LocationRequest,
  type LoginResult,
  type User,
} from './model';

export interface SessionDeps {
  api: ApiClient;
  settings: AppSettings;
  getUser: () => User | undefined;
  setUser: (user: User) => void;
  getConfig: () => Promise<AppConfig>;
  /** Where errors are logged; console by default. */
  log?: (message: string, error?: unknown) => void;
  /** Social sign-out: closes any sign-in window; its failure is ignored (§4.5, §8.11). */
  socialSignOut?: () => Promise<void>;
}

export interface InitOptions {
  channel: string;
  /** The `c` query parameter, when present. */
  c?: string | null;
}

export function newDeviceId(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function createSession(deps: SessionDeps) {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const { api, settings } = deps;

  function saveUser(user: User, token?: string) {
    if (token) settings.set('token', token);
    if (user.city) settings.set('city', user.city);
    if (user.city_id) settings.set('cityId', user.city_id);
    if (user.admin_code) settings.set('adminCode', user.admin_code);
    if (user.postal_code) settings.set('postalCode', user.postal_code);
    deps.setUser(user);
  }

  /** §4.2 app init. Resolves whether a new user was created. */
  async function init({ channel, c }: InitOptions): Promise<{ isNew: boolean }> {
    if (!settings.get('deviceId')) settings.set('deviceId', newDeviceId());

    let isNew = false;
    let user = deps.getUser();
    if (!settings.get('token')) {
      const request: InitRequest = { user_type: userTypeForChannel(channel) };
      const result = await api.post<LoginResult>('/user/init', request);
      user = normalizeUser(result.user);
      isNew = user.is_new_user === 1;
      saveUser(user, result.token);
    }

    // Language and country come from c, else from the user.
    const code = resolveLocaleCode(c);
    const userLang = user?.app_lang;
    const lang = code?.lang ?? (isLocale(userLang) ? userLang : settings.get('lng'));
    const country = code?.country ?? (user?.country || settings.get('iso'));
    settings.set('lng', lang || DEFAULT_LOCALE);
    settings.set('iso', country || DEFAULT_COUNTRY);
    settings.set('isNew', isNew ? 1 : 0);
    settings.set('inited', 1);
    return { isNew };
  }

  async function fetchUserInfo(): Promise<User> {
    const user = normalizeUser(await api.post<unknown>('/user/info'));
    saveUser(user);
    return user;
  }

  /** §4.4 set city: true on success (and cityShow set), false with a logged error otherwise. */
  async function setCity(city: CityInfo, lang: string): Promise<boolean> {
    const body = {
      lat: city.lat,
      lon: city.lon,
      country: city.iso,
      city: city.name,
      city_id: city.id,
      lang,
      admin_code: city.adminCode,
      postal_code: city.postalCode,
    } satisfies LocationRequest;
    try {
      const result = await api.post<LoginResult>('/user/location/update', body);
      const reply = normalizeUser(result.user);
      const previous = deps.getUser();
      const user: User = {
        ...reply,
        // §7: missing admin_code and postal_code in the reply come from the request;
        admin_code: reply.admin_code || body.admin_code,
        postal_code: reply.postal_code || body.postal_code,
        // …and account_type is dropped from it.
        account_type: previous?.account_type ?? reply.account_type,
      };
      user.city_show = cityShow(user.city || body.city, user.admin_code);
      saveUser(user, result.token);
      settings.set('iso', user.country || city.iso);
      settings.set('lng', lang);
      return true;
    } catch (error) {
      log('set city failed', error);
      return false;
    }
  }

  /**
   * §4.3 country change from c. The same country reuses the current city; another one
   * takes that country's default city (or the default country's, when `fallback`).
   */
  async function changeCountry(
    target: { country: string; lang?: string },
    { fallback = true }: { fallback?: boolean } = {},
  ): Promise<boolean> {
    const user = deps.getUser();
    const current = user?.country || settings.get('iso');
    let city: CityInfo | undefined;
    if (user && user.city && current === target.country) {
      city = cityFromUser(user);
    } else {
      let config: AppConfig;
      try {
        config = await deps.getConfig();
      } catch (error) {
        log('set city failed', error);
        return false;
      }
      city =
        config.default_cities[target.country] ??
        (fallback ? config.default_cities[config.default_location.country] : undefined);
    }
    if (!city) {
      log('set city failed', new Error(`No default city for ${target.country}`));
      return false;
    }
    const lang = target.lang || settings.get('lng') || DEFAULT_LOCALE;
    return setCity(city, lang);
  }

  /** Applies a `c` code when it names another language or country than the user's. */
  async function applyLocaleCode(c: string | null | undefined): Promise<boolean | null> {
    const code = resolveLocaleCode(c);
    if (!code) return null;
    const user = deps.getUser();
    if (user && user.country === code.country && user.app_lang === code.lang) return null;
    return changeCountry({ country: code.country, lang: code.lang });
  }

  /**
   * §7.17 start-up: init with the channel, then fetch user info (failure only logged
   * 'user error'). A token the server no longer knows (401) is dropped and init runs
   * again once, so a reset server does not leave the visitor without a session.
   */
  async function startup(options: InitOptions): Promise<User | undefined> {
    await init(options);
    try {
      return await fetchUserInfo();
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        settings.remove('token');
        try {
          await init(options);
          return await fetchUserInfo();
        } catch (retryError) {
          log('user error', retryError);
          return deps.getUser();
        }
      }
      log('user error', error);
      return deps.getUser();
    }
  }

  /** §4.5 logout: server logout, update user info, then social sign-out (failure ignored). */
  async function logout(): Promise<User> {
    const result = await api.post<LoginResult>('/user/logout');
    const user = normalizeUser(result.user);
    saveUser(user, result.token);
    try {
      await deps.socialSignOut?.();
    } catch {
      // §8.11: social sign-out failure is ignored.
    }
    return user;
  }

  /**
   * Deletes the signed-in reader's account and everything stored about them; the server
   * answers a new guest session, saved as logout saves it.
   */
  async function deleteAccount(): Promise<User> {
    const result = await api.post<LoginResult>('/user/delete', { confirm: 'delete' });
    const user = normalizeUser(result.user);
    saveUser(user, result.token);
    try {
      await deps.socialSignOut?.();
    } catch {
      // As for logout (§8.11): the account is gone either way.
    }
    return user;
  }

  return {
    init,
    startup,
    fetchUserInfo,
    setCity,
    changeCountry,
    applyLocaleCode,
    logout,
    deleteAccount,
  };
}

export type Session = ReturnType<typeof createSession>;
