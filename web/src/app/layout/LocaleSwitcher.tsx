import { useId } from 'react';
import { useTranslation } from '../../i18n';
import { useLocation, useNavigate } from 'react-router';
import {
  localizePath,
  PRODUCT_CODES,
  resolveLocaleCode,
  splitLocalePath,
  type ProductCode,
} from '../../lib/locale';
import { useRouteHandle } from '../../lib/routeHandle';
import { useServices } from '../../lib/services';

/** SPEC §2.24 flag image of a country. */
export function flagSrc(country: string): string {
  return `/static/country/${country.toLowerCase()}.png`;
}

/** The product pair shown as current: c in the URL, else the stored code, else locale + country. */
export function currentCode(
  search: string,
  stored: ProductCode | null,
  locale: string,
  country: string | undefined,
): ProductCode {
  return (
    resolveLocaleCode(new URLSearchParams(search).get('c'))?.code ??
    stored ??
    resolveLocaleCode(`${locale}_${country ?? ''}`)?.code ??
    'en_US'
  );
}

/** The four language/country pairs (D3). A choice is stored and moves to its locale path. */
export function LocaleSwitcher() {
  const { t } = useTranslation();
  const id = useId();
  const services = useServices();
  const { locale } = useRouteHandle();
  const location = useLocation();
  const navigate = useNavigate();
  const value = currentCode(
    location.search,
    services.settings.storedLocale(),
    locale,
    services.settings.get('iso'),
  );
  const country = value.split('_')[1];

  function choose(code: ProductCode) {
    const resolved = resolveLocaleCode(code)!;
    services.settings.storeLocale(resolved.code);
    const params = new URLSearchParams(location.search);
    params.set('c', resolved.code);
    const { path } = splitLocalePath(location.pathname);
    navigate(`${localizePath(resolved.lang, path)}?${params.toString()}`);
  }

  return (
    <div className="locale-switcher">
      <img className="locale-switcher__flag" src={flagSrc(country)} alt="" width={24} height={12} />
      <label className="visually-hidden" htmlFor={id}>
        {t('Web_LanguageCountry')}
      </label>
      <select
        id={id}
        className="locale-switcher__select"
        value={value}
        onChange={(event) => choose(event.target.value as ProductCode)}
      >
        {PRODUCT_CODES.map((code) => (
          <option key={code} value={code}>
            {t(`Locale_${code}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
