import { useState } from 'react';
import { loadMessages, useTranslation } from '../../i18n';
import { useServices } from '../../lib/services';
import { useUser } from '../../features/user';
import { Screen } from '../../components/Screen';
import { useReader } from '../../features/news';
import { WeatherAlerts, WeatherDetail } from '../../features/weather';
import type { TemperatureUnit } from '../../lib/settings';

/**
 * The forecast's and the alert list's messages are a part of their own (D425): home's widget
 * needs only a few of them, and every first load fetched them all. The route waits for it.
 */
export const ready = loadMessages('weather');

/** SPEC §2.7 weather detail: the reader's city now, 48 hours, 7 days, in the `tu` unit (§4.8). */
export default function Weather() {
  const { t } = useTranslation();
  const { settings } = useServices();
  const user = useUser();
  const reader = useReader();
  const [unit, setUnit] = useState<TemperatureUnit>(() => settings.temperatureUnit());
  const city = user?.city_show || reader.label || settings.get('city') || t('Web_CityUnknown');

  function choose(next: TemperatureUnit) {
    if (next !== settings.temperatureUnit()) settings.toggleTemperatureUnit();
    setUnit(next);
  }

  return (
    <Screen>
      {/* Official alerts first, above the forecast (issue 20 ★, D288). */}
      <WeatherAlerts cityId={reader.cityId} city={city} locale={reader.lang} />
      <fieldset className="segmented">
        <legend>{t('Weather_Unit')}</legend>
        {(['F', 'C'] as const).map((value) => (
          <label key={value} className="segmented__option">
            <input
              type="radio"
              name="temperature-unit"
              value={value}
              checked={unit === value}
              onChange={() => choose(value)}
            />
            <span>{t(value === 'F' ? 'Weather_Fahrenheit' : 'Weather_Celsius')}</span>
          </label>
        ))}
      </fieldset>
      <WeatherDetail cityId={reader.cityId} city={city} unit={unit} locale={reader.lang} />
    </Screen>
  );
}
