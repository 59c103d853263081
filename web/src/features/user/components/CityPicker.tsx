import './picker.css';
import { useModalDialog } from '../../../components/useModalDialog';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n';
import { useLocation, useNavigate } from 'react-router';
import type { ApiClient } from '../../../lib/api';
import { usePopup } from '../../../components/popup';
import {
  COUNTRIES,
  localizePath,
  splitLocalePath,
  type Country,
  type Locale,
} from '../../../lib/locale';
import type { AppSettings } from '../../../lib/settings';
import {
  currentPosition,
  defaultCities,
  nearestCity,
  productCodeFor,
  searchCities,
  toCityInfo,
  type GeoCity,
} from '../geo';
import { cityShow, readerCityLabel, type User } from '../model';
import type { Session } from '../session';

/**
 * What the picker works with, handed down by the app's header (the feature sits below
 * the app and does not read the app's context, D225).
 */
export interface CityPickerProps {
  onClose: () => void;
  api: ApiClient;
  session: Session;
  settings: AppSettings;
  /** The visitor's user (server form); null while unknown. */
  user: User | null;
  /** The page's locale. */
  locale: Locale;
}

/** Typing pauses this long before the gazetteer is asked. */
export const CITY_SEARCH_DEBOUNCE_MS = 250;

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * The city and country picker: searches the gazetteer as you type, offers the §9.5 list
 * for the country and language, can use the browser's location (nearest city), and runs
 * §4.4 set city (another country: the matching language/country code first, D103) or
 * §4.3 country change.
 */
export default function CityPicker({
  onClose,
  api,
  session,
  settings,
  user,
  locale,
}: CityPickerProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const popup = usePopup();
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const searchId = useId();
  const hintId = useId();
  const currentCountry = (user?.country || settings.get('iso') || 'US') as Country;
  const [country, setCountry] = useState<Country>(
    (COUNTRIES as readonly string[]).includes(currentCountry) ? currentCountry : 'US',
  );
  const [query, setQuery] = useState('');
  const [busy, setBusy] = useState(false);
  const [locating, setLocating] = useState(false);
  const [locateError, setLocateError] = useState('');
  const q = useDebounced(query.trim(), CITY_SEARCH_DEBOUNCE_MS);

  useModalDialog(dialog, onClose);

  const defaults = useQuery({
    queryKey: ['geo', 'default', country, locale],
    queryFn: () => defaultCities(api, country, locale),
    staleTime: Infinity,
  });
  const results = useQuery({
    queryKey: ['geo', 'search', country, locale, q],
    queryFn: ({ signal }) => searchCities(api, q, country, locale, signal),
    enabled: q !== '',
    staleTime: 5 * 60_000,
  });

  /** Moves the page to a language/country code, as the switcher does (D3, D21). */
  function goToCode(code: string) {
    const params = new URLSearchParams(location.search);
    params.set('c', code);
    const { path } = splitLocalePath(location.pathname);
    navigate(`${localizePath(code.split('_')[0] as never, path)}?${params.toString()}`);
  }

  async function choose(city: GeoCity) {
    setBusy(true);
    let lang: string = locale;
    let code: string | null = null;
    if (city.iso && city.iso !== currentCountry) {
      code = productCodeFor(locale, city.iso);
      lang = code.split('_')[0];
      settings.storeLocale(code as never);
    }
    const ok = await session.setCity(toCityInfo(city, lang), lang);
    setBusy(false);
    if (!ok) {
      popup.show({ text: t('Web_LocationFailed'), kind: 'error' });
      return;
    }
    popup.show({
      text: t('City_Changed', { city: city.city_show || cityShow(city.name, city.admin_code) }),
      kind: 'success',
    });
    onClose();
    if (code) goToCode(code);
  }

  /** §4.3 country change: the country's default city, through the c code. */
  function chooseCountry(next: Country) {
    setCountry(next);
    setQuery('');
    if (next === currentCountry) return;
    const code = productCodeFor(locale, next);
    settings.storeLocale(code);
    goToCode(code);
  }

  async function locateMe() {
    setLocating(true);
    setLocateError('');
    try {
      const position = await currentPosition();
      const city = await nearestCity(api, position.lat, position.lon, locale);
      setLocating(false);
      await choose(city);
    } catch (error) {
      setLocating(false);
      const denied = (error as GeolocationPositionError | null)?.code === 1;
      setLocateError(denied ? t('City_LocationDenied') : t('City_LocationUnavailable'));
    }
  }

  const current = readerCityLabel(user, {
    city: settings.get('city'),
    adminCode: settings.get('adminCode'),
  });
  const searching = q !== '';
  const shown = searching ? (results.data ?? []) : (defaults.data ?? []);
  const status = searching
    ? results.isFetching
      ? t('City_Searching')
      : results.isError
        ? t('City_SearchFailed')
        : shown.length === 0
          ? t('City_NoResults', { q })
          : t('City_Results', { count: shown.length })
    : defaults.isError
      ? t('City_SearchFailed')
      : '';

  return (
    <dialog ref={dialog} className="dialog city-picker" aria-labelledby={titleId}>
      <h2 id={titleId} className="dialog__title">
        {t('City_Title')}
      </h2>
      {current && <p className="dialog__note">{t('City_Current', { city: current })}</p>}

      <fieldset className="segmented">
        <legend>{t('City_Country')}</legend>
        {COUNTRIES.map((iso) => (
          <label key={iso} className="segmented__option">
            <input
              type="radio"
              name="city-picker-country"
              value={iso}
              checked={country === iso}
              onChange={() => chooseCountry(iso)}
            />
            <img src={`/static/country/${iso.toLowerCase()}.png`} alt="" width={24} height={12} />
            <span>{t(`Country_${iso}`)}</span>
          </label>
        ))}
      </fieldset>

      <div className="field">
        <label htmlFor={searchId}>{t('City_Search')}</label>
        <input
          id={searchId}
          type="search"
          autoComplete="off"
          value={query}
          aria-describedby={hintId}
          onChange={(event) => setQuery(event.target.value)}
        />
      </div>
      <p id={hintId} className="visually-hidden">
        {t('City_SearchHint')}
      </p>

      <button
        type="button"
        className="button"
        disabled={locating || busy}
        onClick={() => void locateMe()}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            fill="currentColor"
            d="M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm9 3h-2.1A7 7 0 0 0 13 5.1V3h-2v2.1A7 7 0 0 0 5.1 11H3v2h2.1a7 7 0 0 0 5.9 5.9V21h2v-2.1a7 7 0 0 0 5.9-5.9H21v-2Zm-9 6a5 5 0 1 1 0-10 5 5 0 0 1 0 10Z"
          />
        </svg>
        {locating ? t('City_Locating') : t('City_UseLocation')}
      </button>
      {locateError && (
        <p className="city-picker__error" role="alert">
          {locateError}
        </p>
      )}

      <section className="city-picker__list" aria-labelledby={`${titleId}-list`}>
        <h3 id={`${titleId}-list`} className="city-picker__heading">
          {searching
            ? t('City_ResultsTitle')
            : t('City_Popular', { country: t(`Country_${country}`) })}
        </h3>
        <p className="city-picker__status" role="status">
          {status}
        </p>
        <ul className="city-picker__cities" aria-busy={busy || results.isFetching}>
          {shown.map((city) => (
            <li key={city.id}>
              <button
                type="button"
                className="city-picker__city"
                disabled={busy}
                onClick={() => void choose(city)}
              >
                <span className="city-picker__name">{city.city_show}</span>
                {city.admin_name && (
                  <span className="city-picker__admin">
                    {city.admin_name}, {t(`Country_${city.iso}`)}
                  </span>
                )}
              </button>
            </li>
          ))}
        </ul>
      </section>

      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('Web_Close')}
        </button>
      </div>
    </dialog>
  );
}
