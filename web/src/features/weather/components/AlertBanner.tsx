import { useState } from 'react';
import { useTranslation } from '../../../i18n';
import { Link } from 'react-router';
import { useWeatherAlerts } from '../hooks';
import { SEVERITY_KEYS, useTimeRange } from './alertWords';

const HIDDEN_KEY = 'localwire.hiddenAlert';

function hiddenAlert(): string | null {
  try {
    return sessionStorage.getItem(HIDDEN_KEY);
  } catch {
    return null;
  }
}

/**
 * Home's banner for the reader's city (issue 20 ★, D288): the most severe alert in force,
 * shown after the first paint in a fixed bar at the bottom of the window, so nothing on
 * the page moves when it arrives. Loading, no alerts and an unreachable issuer show
 * nothing here: /weather says which it is.
 */
export function AlertBanner({
  cityId,
  city,
  locale,
  to,
}: {
  cityId: number;
  city: string;
  locale: string;
  /** The localised /weather path. */
  to: string;
}) {
  const { t } = useTranslation();
  const query = useWeatherAlerts(cityId, locale);
  const range = useTimeRange();
  const [hidden, setHidden] = useState(hiddenAlert);
  const doc = query.data;
  const first = doc?.alerts[0];
  if (!doc || !first || hidden === first.id) return null;
  const asIssued = first.language !== locale ? first.language : undefined;
  const when = range(first, doc, locale);
  function hide() {
    if (!first) return;
    try {
      sessionStorage.setItem(HIDDEN_KEY, first.id);
    } catch {
      // Private mode: hidden until the page is left.
    }
    setHidden(first.id);
  }
  return (
    <section
      className={`alert-banner weather-alert--${first.severity.toLowerCase()}`}
      aria-label={t('Weather_AlertBanner', { city })}
    >
      <p className="alert-banner__text">
        <strong>{t(SEVERITY_KEYS[first.severity])}</strong>
        {': '}
        <span lang={asIssued}>{first.event}</span>
        {when && <span className="alert-banner__when"> · {when}</span>}
        {doc.source === 'demo' && (
          <span className="alert-banner__demo"> · {t('Weather_AlertsDemoShort')}</span>
        )}
      </p>
      <Link className="alert-banner__more" to={`${to}#alerts`}>
        {t('Weather_AlertBannerMore', { count: doc.alerts.length })}
      </Link>
      <button type="button" className="button alert-banner__hide" onClick={hide}>
        {t('Weather_AlertBannerHide')}
      </button>
    </section>
  );
}
