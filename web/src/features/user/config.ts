/** GET /api/app/config: locales, countries, default location and cities, route rules. */
import type { ApiClient } from '../../lib/api';
import type { components } from '../../lib/api/schema';

type Schemas = components['schemas'];

export type CountryEntry = Schemas['CountryEntry'];

/** The start-up configuration; `image_attempts` is the §9.11 lazy-image setting (D104). */
export type AppConfig = Schemas['AppConfig'];

export const appConfigKey = ['app-config'] as const;

export function fetchAppConfig(api: ApiClient): Promise<AppConfig> {
  return api.get<AppConfig>('/app/config');
}
