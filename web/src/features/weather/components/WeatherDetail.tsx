import { useTranslation } from '../../../i18n';
import { EmptyState, Section } from '../../../components/Screen';
import type { TemperatureUnit } from '../../../lib/settings';
import type { WeatherDoc } from '../api';
import { amount, hourOf, speed, temperature, timeOf, weekdayOf } from '../format';
import { useWeather } from '../hooks';
import { useConditionWords, WeatherIcon } from './WeatherIcon';
import { WeatherError, WeatherLoading } from './WeatherState';
import '../weather-detail.css';

/** `serve --demo`'s weather is made up: it says so wherever it shows (D282). */
export function DemoNote({ doc }: { doc: WeatherDoc }) {
  const { t } = useTranslation();
  return doc.source === 'demo' ? <p className="weather-demo">{t('Weather_Demo')}</p> : null;
}

function Current({ doc, city, locale }: { doc: WeatherDoc; city: string; locale: string }) {
  const { t } = useTranslation();
  const words = useConditionWords();
  const c = doc.current;
  const today = doc.daily[0];
  const label = words(c.weather_code, c.is_day);
  return (
    <Section title={t('Weather_Now', { city })}>
      <div className="weather-now">
        <WeatherIcon code={c.weather_code} isDay={c.is_day} label={label} />
        <p className="weather-now__temp">{temperature(c.temperature, doc.units)}</p>
        <p className="weather-now__words">{label}</p>
        <ul className="weather-now__facts">
          {c.apparent_temperature != null && (
            <li>
              {t('Weather_FeelsLike', { value: temperature(c.apparent_temperature, doc.units) })}
            </li>
          )}
          {today && (
            <li>
              {t('Weather_HighLow', {
                high: temperature(today.temperature_max, doc.units),
                low: temperature(today.temperature_min, doc.units),
              })}
            </li>
          )}
          {today?.precipitation_probability != null && (
            <li>{t('Weather_PrecipChance', { value: today.precipitation_probability })}</li>
          )}
          <li>{t('Weather_Wind', { value: speed(c.wind_speed, doc.units) })}</li>
          {c.humidity != null && <li>{t('Weather_Humidity', { value: c.humidity })}</li>}
          {today?.sunrise != null && (
            <li>{t('Weather_Sunrise', { time: timeOf(today.sunrise, doc.timezone, locale) })}</li>
          )}
          {today?.sunset != null && (
            <li>{t('Weather_Sunset', { time: timeOf(today.sunset, doc.timezone, locale) })}</li>
          )}
        </ul>
      </div>
    </Section>
  );
}

function Hours({ doc, locale }: { doc: WeatherDoc; locale: string }) {
  const { t } = useTranslation();
  const words = useConditionWords();
  return (
    <Section title={t('Weather_Next48')}>
      <ol className="weather-hours">
        {doc.hourly.map((h) => (
          <li key={h.time} className="weather-hours__hour">
            <span className="weather-hours__time">{hourOf(h.time, doc.timezone, locale)}</span>
            <WeatherIcon
              code={h.weather_code}
              isDay={h.is_day}
              label={words(h.weather_code, h.is_day)}
            />
            <span>{temperature(h.temperature, doc.units)}</span>
            {h.precipitation_probability != null && (
              <span className="weather-hours__chance">
                {t('Weather_PrecipChance', { value: h.precipitation_probability })}
              </span>
            )}
          </li>
        ))}
      </ol>
    </Section>
  );
}

function Days({ doc, locale }: { doc: WeatherDoc; locale: string }) {
  const { t } = useTranslation();
  const words = useConditionWords();
  return (
    <Section title={t('Weather_Next7')}>
      <ol className="weather-days">
        {doc.daily.map((d) => (
          <li key={d.date} className="weather-days__day">
            <span className="weather-days__name">{weekdayOf(d.date, locale)}</span>
            <WeatherIcon code={d.weather_code} isDay label={words(d.weather_code)} />
            <span className="weather-days__words">{words(d.weather_code)}</span>
            <span>
              {t('Weather_HighLow', {
                high: temperature(d.temperature_max, doc.units),
                low: temperature(d.temperature_min, doc.units),
              })}
            </span>
            {d.precipitation_probability != null && (
              <span>{t('Weather_PrecipChance', { value: d.precipitation_probability })}</span>
            )}
            {d.precipitation_sum > 0 && (
              <span>{t('Weather_Precip', { value: amount(d.precipitation_sum, doc.units) })}</span>
            )}
            <span>{t('Weather_Wind', { value: speed(d.wind_speed_max, doc.units) })}</span>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** /weather's forecast for the reader's city, in their unit (issue 20). */
export function WeatherDetail({
  cityId,
  city,
  unit,
  locale,
}: {
  cityId: number;
  city: string;
  unit: TemperatureUnit;
  locale: string;
}) {
  const { t } = useTranslation();
  const query = useWeather(cityId, unit);
  if (!cityId) return <EmptyState title={t('Weather_NoCity')} />;
  if (query.isPending) return <WeatherLoading />;
  if (query.isError)
    return <WeatherError error={query.error} onRetry={() => void query.refetch()} />;
  const doc = query.data;
  return (
    <div className="weather">
      <DemoNote doc={doc} />
      <Current doc={doc} city={city} locale={locale} />
      <Hours doc={doc} locale={locale} />
      <Days doc={doc} locale={locale} />
      <p className="weather-credit">
        {doc.source === 'demo' ? t('Weather_Demo') : t('Weather_Attribution')}
        {' · '}
        {t('Weather_Updated', { time: timeOf(doc.fetched_at, doc.timezone, locale) })}
      </p>
    </div>
  );
}
