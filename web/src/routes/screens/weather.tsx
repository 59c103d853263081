import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices, useUser } from '../../app/context';
import { EmptyState, Screen, Section } from '../../components/Screen';
import type { TemperatureUnit } from '../../lib/settings';

/** SPEC §2.7 weather detail; the unit choice (§4.8, cookie `tu`) works already. */
export default function Weather() {
  const { t } = useTranslation();
  const { settings } = useServices();
  const user = useUser();
  const [unit, setUnit] = useState<TemperatureUnit>(() => settings.temperatureUnit());
  const city = user?.city_show || settings.get('city') || t('Web_CityUnknown');

  function choose(next: TemperatureUnit) {
    if (next !== settings.temperatureUnit()) settings.toggleTemperatureUnit();
    setUnit(next);
  }

  return (
    <Screen>
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
      <Section title={t('Section_Forecast')}>
        <EmptyState title={t('Empty_Weather', { city })} hint={t('Empty_WeatherHint')} />
      </Section>
    </Screen>
  );
}
