/** GET /api/app/config: locales, countries, default location and cities, route rules. */
import type { ApiClient } from '../../lib/api';
import type { RouteRule } from '../../lib/routeRules';
import type { CityInfo } from './model';

export interface CountryEntry {
  country: string;
  iso: string;
  languages: Array<{ name: string; code: string }>;
}

export interface AppConfig {
  build_id: string;
  locales: string[];
  default_locale: string;
  countries: CountryEntry[];
  default_location: {
    country: string;
    lang: string;
    postal_code: string;
    admin_code: string;
    city: string;
    lat: number;
    lon: number;
  };
  default_cities: Record<string, CityInfo>;
  route_rules: RouteRule[];
  /** §9.11 lazy-image attempts (the app setting; D104). Absent: the default, 3. */
  image_attempts?: number;
}

export const appConfigKey = ['app-config'] as const;

export function fetchAppConfig(api: ApiClient): Promise<AppConfig> {
  return api.get<AppConfig>('/app/config');
}
