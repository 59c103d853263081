import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../lib/services';
import type { TemperatureUnit } from '../../lib/settings';
import { fetchWeather, type WeatherPart } from './api';
import { fetchAlerts } from './alerts';

/** The server keeps a forecast 15 minutes; asking again sooner would get the same one. */
const WEATHER_STALE_MS = 5 * 60_000;

/**
 * The forecast for a city in a unit; off without a city. `now` asks for the current
 * conditions alone: home's widget shows nothing else (D425).
 */
export function useWeather(cityId: number, unit: TemperatureUnit, part: WeatherPart = 'all') {
  const { api } = useServices();
  return useQuery({
    queryKey: ['weather', cityId, unit, part],
    queryFn: () => fetchWeather(api, cityId, unit, part),
    enabled: cityId > 0,
    staleTime: WEATHER_STALE_MS,
    // A 503 means the provider is down; the server already waited for it.
    retry: false,
  });
}

/** The server keeps alerts 5 minutes and browsers a minute: ask again after that. */
const ALERTS_STALE_MS = 60_000;

/** Official alerts for a city, in the reader's language; off without a city (D288). */
export function useWeatherAlerts(cityId: number, lang: string) {
  const { api } = useServices();
  return useQuery({
    queryKey: ['weather-alerts', cityId, lang],
    queryFn: () => fetchAlerts(api, cityId, lang),
    enabled: cityId > 0,
    staleTime: ALERTS_STALE_MS,
    retry: false,
  });
}
