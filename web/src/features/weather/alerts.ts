/** `GET /api/weather/alerts` (D286): official alerts for a city, in the reader's language. */
import type { components } from '../../lib/api/schema';
import type { ApiClient } from '../../lib/api';

export type AlertsDoc = components['schemas']['AlertsDoc'];
export type AlertItem = components['schemas']['AlertItem'];
export type Severity = AlertItem['severity'];

export const ALERTS_PATH = '/weather/alerts';

export function fetchAlerts(api: ApiClient, cityId: number, lang: string) {
  return api.get<AlertsDoc>(ALERTS_PATH, { city_id: cityId, lang });
}
