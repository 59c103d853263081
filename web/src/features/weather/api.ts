/** `GET /api/weather` (D280): the forecast for a city, in the reader's unit. */
import type { components } from '../../lib/api/schema';
import type { ApiClient } from '../../lib/api';
import type { TemperatureUnit } from '../../lib/settings';

export type WeatherDoc = components['schemas']['WeatherDoc'];

export const WEATHER_PATH = '/weather';

/** `now`: the current conditions alone, `hourly` and `daily` empty (home's widget, D425). */
export type WeatherPart = 'all' | 'now';

export function fetchWeather(
  api: ApiClient,
  cityId: number,
  unit: TemperatureUnit,
  part: WeatherPart = 'all',
) {
  return api.get<WeatherDoc>(WEATHER_PATH, {
    city_id: cityId,
    unit,
    ...(part === 'now' ? { part } : {}),
  });
}
