import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import type { TemperatureUnit } from '../../../lib/settings';
import { temperature } from '../format';
import { useWeather } from '../hooks';
import { WeatherError, WeatherLoading } from './WeatherState';
import { useConditionWords, WeatherIcon } from './WeatherIcon';

/** Home's weather slot: the current conditions and a link to /weather (issue 20). */
export function WeatherWidget({
  cityId,
  city,
  unit,
  to,
}: {
  cityId: number;
  city: string;
  unit: TemperatureUnit;
  /** The localised /weather path. */
  to: string;
}) {
  const { t } = useTranslation();
  const words = useConditionWords();
  const query = useWeather(cityId, unit, 'now');
  if (!cityId) return null;
  if (query.isPending) return <WeatherLoading compact />;
  if (query.isError)
    return <WeatherError compact error={query.error} onRetry={() => void query.refetch()} />;
  const doc = query.data;
  const c = doc.current;
  const label = words(c.weather_code, c.is_day);
  return (
    <section className="weather-widget" aria-label={t('Weather_Widget', { city })}>
      <WeatherIcon code={c.weather_code} isDay={c.is_day} label={label} />
      <p className="weather-widget__temp">{temperature(c.temperature, doc.units)}</p>
      <p className="weather-widget__words">{label}</p>
      <Link className="weather-widget__more" to={to}>
        {t('Weather_More')}
      </Link>
      {doc.source === 'demo' && (
        <span className="weather-widget__demo" title={t('Weather_Demo')}>
          {t('Weather_DemoShort')}
        </span>
      )}
    </section>
  );
}
