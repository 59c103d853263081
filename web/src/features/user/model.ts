/** SPEC §3.1–§3.4 user and city shapes. */
import type { components } from '../../lib/api/schema';
import { toMillis, toNumber, toText } from '../../lib/parse';

/** §3.2 account types. */
export const AccountType = {
  guest: 0,
  email: 1,
  facebook: 2,
  google: 3,
  apple: 4,
  robot: 99,
} as const;

type Schemas = components['schemas'];

/**
 * §3.1 user, server form, as the app keeps it: account_type is always filled in (the
 * location-update reply omits it; the app keeps the previous one).
 */
export type User = Required<Schemas['User']>;

/** §3.13 login result: user and token. */
export type LoginResult = Schemas['UserAndToken'];

/** §7.1 `/user/init` body. */
export type InitRequest = Schemas['InitRequest'];

/** §7.11 `/user/location/update` body. */
export type LocationRequest = Schemas['LocationRequest'];

/** §3.4 city info. */
export type CityInfo = Schemas['CityInfo'];

/**
 * §3.3 the display string "City, AdminCode": just the city without an admin code, and
 * nothing without a city (an admin code alone names no city). Parts are trimmed.
 */
export function cityShow(city: string, adminCode: string): string {
  const name = city.trim();
  const admin = adminCode.trim();
  if (!name) return '';
  return admin ? `${name}, ${admin}` : name;
}

/** The city fields of a user that name the reader's city. */
export type UserCity = Pick<User, 'city_show' | 'city' | 'admin_code'>;

/**
 * The reader's city as the header and the local screens name it (D235, shared fixture
 * `shared/fixtures/city.json`): the user's city_show, else cityShow of the user's own city
 * and admin code, else cityShow of the `city` and `adminCode` app settings; '' for none.
 * A user's city is never paired with the settings' admin code.
 */
export function readerCityLabel(
  user: UserCity | null | undefined,
  settings: { city?: string; adminCode?: string },
): string {
  const fromUser = user ? user.city_show.trim() || cityShow(user.city, user.admin_code) : '';
  return fromUser || cityShow(settings.city ?? '', settings.adminCode ?? '');
}

/** The city a local section names: the reader's, else the local feed's own (D235). */
export function localSectionCity(label: string, feedCity: string | undefined): string {
  return label || feedCity?.trim() || '';
}

/** Reads a user from the server's loosely typed JSON (§3.1, §5.4). */
export function normalizeUser(raw: unknown): User {
  const r = (raw ?? {}) as Record<string, unknown>;
  const city = toText(r.city);
  const adminCode = toText(r.admin_code);
  return {
    id: toNumber(r.id),
    name: toText(r.name),
    photo: toText(r.photo),
    email: toText(r.email),
    is_new_user: toNumber(r.is_new_user),
    account_type: toNumber(r.account_type),
    join_time: toMillis(r.join_time),
    last_time: toMillis(r.last_time),
    app_lang: toText(r.app_lang),
    postal_code: toText(r.postal_code),
    country: toText(r.country).toUpperCase(),
    admin_code: adminCode,
    city,
    city_show: toText(r.city_show) || cityShow(city, adminCode),
    city_id: toNumber(r.city_id),
    lat: toNumber(r.lat),
    lon: toNumber(r.lon),
    user_type: toNumber(r.user_type),
  };
}

export function isGuest(user: Pick<User, 'account_type'> | null | undefined): boolean {
  return !user || user.account_type === AccountType.guest;
}

export function cityFromUser(user: User): CityInfo {
  return {
    id: user.city_id,
    name: user.city,
    iso: user.country,
    lang: user.app_lang,
    adminCode: user.admin_code,
    postalCode: user.postal_code,
    lat: user.lat,
    lon: user.lon,
  };
}
