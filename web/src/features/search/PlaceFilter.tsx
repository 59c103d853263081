import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../../i18n';
import { useServices } from '../../lib/services';
import { searchCities, type GeoCity } from '../user';

/** How many cities the place filter offers at once. */
const PLACE_SUGGESTIONS = 6;

/** The search's place filter: a chosen city (removable), or a small city search. */
export function PlaceFilter({
  value,
  label,
  lang,
  country,
  onChange,
}: {
  value: string;
  label: string;
  lang: string;
  country: string;
  onChange: (city: GeoCity | null) => void;
}) {
  const { t } = useTranslation();
  const { api } = useServices();
  const id = useId();
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(text.trim()), 250);
    return () => clearTimeout(timer);
  }, [text]);
  const cities = useQuery({
    queryKey: ['geo', 'search', country, lang, q],
    queryFn: ({ signal }) => searchCities(api, q, country, lang, signal),
    enabled: q !== '' && !value,
    staleTime: 5 * 60_000,
  });

  if (value) {
    return (
      <div className="field">
        <span>{t('Search_Place')}</span>
        <span className="chip">
          {label || value}{' '}
          <button
            type="button"
            className="chip__remove"
            aria-label={t('Search_RemovePlace', { place: label || value })}
            onClick={() => onChange(null)}
          >
            ×
          </button>
        </span>
      </div>
    );
  }
  const list = (cities.data ?? []).slice(0, PLACE_SUGGESTIONS);
  return (
    <div className="field place-filter">
      <label htmlFor={id}>{t('Search_Place')}</label>
      <input
        id={id}
        type="search"
        autoComplete="off"
        placeholder={t('Search_PlaceHint')}
        value={text}
        onChange={(event) => setText(event.target.value)}
      />
      {q !== '' && (
        <ul className="place-filter__list" aria-label={t('Search_PlaceResults')}>
          {list.map((city) => (
            <li key={city.id}>
              <button
                type="button"
                className="city-option"
                onClick={() => {
                  setText('');
                  onChange(city);
                }}
              >
                {city.city_show}
              </button>
            </li>
          ))}
          {cities.isSuccess && list.length === 0 && (
            <li className="place-filter__none">{t('City_NoResults', { q })}</li>
          )}
        </ul>
      )}
    </div>
  );
}
