/** The gazetteer calls the city picker uses (D32, D33) and §3 city conversions. */
import type { ApiClient } from '../../lib/api';
import type { components } from '../../lib/api/schema';
import { toNumber, toText } from '../../lib/parse';
import { PRODUCT_CODES, type ProductCode } from '../../lib/locale';
import type { CityInfo } from './model';

/** §3 City (catalogue) as the geo API answers it (D32): the fields the app reads. */
export type GeoCity = Pick<
  components['schemas']['CityDoc'],
  | 'id'
  | 'name'
  | 'name_ascii'
  | 'lat'
  | 'lon'
  | 'admin_name'
  | 'admin_code'
  | 'country'
  | 'iso'
  | 'postal_code'
  | 'city_show'
>;

export function normalizeGeoCity(raw: unknown): GeoCity {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const name = toText(r.name);
  const adminCode = toText(r.admin_code);
  const adminName = toText(r.admin_name);
  return {
    id: toNumber(r.id),
    name,
    // §3: name_ascii falls back to name.
    name_ascii: toText(r.name_ascii) || name,
    lat: toNumber(r.lat),
    lon: toNumber(r.lon),
    admin_name: adminName,
    admin_code: adminCode,
    country: toText(r.country),
    iso: toText(r.iso).toUpperCase(),
    postal_code: toText(r.postal_code),
    city_show: toText(r.city_show) || [name, adminCode].filter(Boolean).join(', '),
  };
}

/** §3.4 city info for the set-city flow (§4.4). */
export function toCityInfo(city: GeoCity, lang: string): CityInfo {
  return {
    id: city.id,
    name: city.name,
    iso: city.iso,
    lang,
    adminCode: city.admin_code,
    postalCode: city.postal_code,
    lat: city.lat,
    lon: city.lon,
  };
}

const list = (raw: unknown): GeoCity[] => {
  const items = (raw as { list?: unknown } | null)?.list;
  return Array.isArray(items) ? items.map(normalizeGeoCity) : [];
};

export async function searchCities(
  api: ApiClient,
  q: string,
  country: string,
  lang: string,
  signal?: AbortSignal,
): Promise<GeoCity[]> {
  return list(
    await api.request('GET', '/geo/cities/search', { query: { q, country, lang }, signal }),
  );
}

/** §9.5 the static list of 20 cities for a country and language. */
export async function defaultCities(
  api: ApiClient,
  country: string,
  lang: string,
): Promise<GeoCity[]> {
  return list(await api.get('/geo/cities/default', { country, lang }));
}

export async function nearestCity(
  api: ApiClient,
  lat: number,
  lon: number,
  lang: string,
): Promise<GeoCity> {
  return normalizeGeoCity(await api.get('/geo/cities/nearest', { lat, lon, lang }));
}

export async function cityDetail(api: ApiClient, cityId: number, lang: string): Promise<GeoCity> {
  return normalizeGeoCity(await api.get('/geo/cities/detail', { city_id: cityId, lang }));
}

/** The browser's position, as a promise (rejects with the GeolocationPositionError). */
export function currentPosition(
  geolocation: Geolocation | undefined = typeof navigator !== 'undefined'
    ? navigator.geolocation
    : undefined,
): Promise<{ lat: number; lon: number }> {
  return new Promise((resolve, reject) => {
    if (!geolocation) {
      reject(new Error('unsupported'));
      return;
    }
    geolocation.getCurrentPosition(
      (position) => resolve({ lat: position.coords.latitude, lon: position.coords.longitude }),
      reject,
      { timeout: 15_000, maximumAge: 600_000 },
    );
  });
}

/**
 * The language/country pair (D3) for a reader moving to `country`: their language when
 * that country offers it, else English (a Spanish reader choosing a Canadian city reads
 * en_CA).
 */
export function productCodeFor(lang: string, country: string): ProductCode {
  const pair = `${lang}_${country}`;
  if ((PRODUCT_CODES as readonly string[]).includes(pair)) return pair as ProductCode;
  const english = `en_${country}`;
  return (PRODUCT_CODES as readonly string[]).includes(english)
    ? (english as ProductCode)
    : 'en_US';
}
