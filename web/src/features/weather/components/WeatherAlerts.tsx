import { useTranslation } from '../../../i18n';
import { Section } from '../../../components/Screen';
import type { AlertItem, AlertsDoc } from '../alerts';
import { useWeatherAlerts } from '../hooks';
import { SEVERITY_KEYS, useTimeRange } from './alertWords';
import '../weather-detail.css';

function Alert({ alert, doc, locale }: { alert: AlertItem; doc: AlertsDoc; locale: string }) {
  const { t } = useTranslation();
  const range = useTimeRange()(alert, doc, locale);
  // The issuer's words keep their language: NWS writes English only (D288).
  const asIssued = alert.language !== locale ? alert.language : undefined;
  return (
    <li className={`weather-alert weather-alert--${alert.severity.toLowerCase()}`}>
      <article aria-label={alert.headline || alert.event}>
        <p className="weather-alert__severity">{t(SEVERITY_KEYS[alert.severity])}</p>
        <h3 className="weather-alert__headline" lang={asIssued}>
          {alert.headline || alert.event}
        </h3>
        <p className="weather-alert__meta">
          <span lang={asIssued}>{alert.event}</span>
          {' · '}
          {t('Weather_AlertIssuer', { sender: alert.sender })}
        </p>
        {range && <p className="weather-alert__range">{range}</p>}
        {alert.area && (
          <p className="weather-alert__area" lang={asIssued}>
            {t('Weather_AlertArea', { area: alert.area })}
          </p>
        )}
        {asIssued === 'en' && <p className="weather-alert__note">{t('Weather_AlertInEnglish')}</p>}
        {(alert.description || alert.instruction) && (
          <details className="weather-alert__details">
            <summary>{t('Weather_AlertDetails')}</summary>
            {alert.description && (
              <p className="weather-alert__text" lang={asIssued}>
                {alert.description}
              </p>
            )}
            {alert.instruction && (
              <>
                <h4 className="weather-alert__subhead">{t('Weather_AlertInstruction')}</h4>
                <p className="weather-alert__text" lang={asIssued}>
                  {alert.instruction}
                </p>
              </>
            )}
          </details>
        )}
        {alert.url && (
          <a className="weather-alert__link" href={alert.url} rel="noopener noreferrer">
            {t('Weather_AlertLink')}
          </a>
        )}
      </article>
    </li>
  );
}

/** /weather's official alerts, above the forecast (issue 20 ★, D288). */
export function WeatherAlerts({
  cityId,
  city,
  locale,
}: {
  cityId: number;
  city: string;
  locale: string;
}) {
  const { t } = useTranslation();
  const query = useWeatherAlerts(cityId, locale);
  if (!cityId) return null;
  let body;
  if (query.isPending) {
    body = <p className="weather-alerts__state">{t('Weather_AlertsLoading')}</p>;
  } else if (query.isError) {
    // Not role=alert: the forecast below is still there; this is one missing part.
    body = (
      <div className="weather-alerts__state">
        <p>{t('Weather_AlertsUnavailable')}</p>
        <button type="button" className="button" onClick={() => void query.refetch()}>
          {t('News_Retry')}
        </button>
      </div>
    );
  } else {
    const doc = query.data;
    body = (
      <>
        {doc.source === 'demo' && <p className="weather-demo">{t('Weather_AlertsDemo')}</p>}
        {doc.alerts.length === 0 ? (
          <p className="weather-alerts__state">{t('Weather_AlertsNone', { city })}</p>
        ) : (
          <ul className="weather-alerts__list">
            {doc.alerts.map((a) => (
              <Alert key={a.id} alert={a} doc={doc} locale={locale} />
            ))}
          </ul>
        )}
        {doc.source === 'nws' && <p className="weather-credit">{t('Weather_AlertsSource_nws')}</p>}
        {doc.source === 'eccc' && (
          <p className="weather-credit">{t('Weather_AlertsSource_eccc')}</p>
        )}
      </>
    );
  }
  return (
    <div id="alerts" className="weather-alerts" aria-busy={query.isPending && cityId > 0}>
      <Section title={t('Weather_Alerts')}>{body}</Section>
    </div>
  );
}
