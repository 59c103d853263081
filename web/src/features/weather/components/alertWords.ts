import { useTranslation } from '../../../i18n';
import type { AlertItem, AlertsDoc, Severity } from '../alerts';
import { dateTimeOf } from '../format';

// What home's alert banner shares with the alerts list, without the list (D425).

/** Catalogue keys of the CAP severities: the words carry the severity, colour only helps. */
export const SEVERITY_KEYS: Record<Severity, string> = {
  Extreme: 'Weather_Severity_Extreme',
  Severe: 'Weather_Severity_Severe',
  Moderate: 'Weather_Severity_Moderate',
  Minor: 'Weather_Severity_Minor',
  Unknown: 'Weather_Severity_Unknown',
};

/** "From … until …" in the reader's locale and the city's time zone. */
export function useTimeRange() {
  const { t } = useTranslation();
  return (alert: AlertItem, doc: AlertsDoc, locale: string) => {
    const start = alert.onset != null ? dateTimeOf(alert.onset, doc.timezone, locale) : null;
    const end = alert.ends != null ? dateTimeOf(alert.ends, doc.timezone, locale) : null;
    if (start && end) return t('Weather_AlertFromUntil', { start, end });
    if (start) return t('Weather_AlertFrom', { start });
    if (end) return t('Weather_AlertUntil', { end });
    return null;
  };
}
