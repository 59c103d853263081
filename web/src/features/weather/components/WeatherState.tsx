import { useTranslation } from '../../../i18n';
import { isApiError } from '../../../lib/api';

// The widget's and the screen's loading and error states: a module of their own, so home's
// widget does not bring the forecast screen's code with it (D425).

/** Loading, with the box the forecast will fill. */
export function WeatherLoading({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className={compact ? 'weather-state weather-state--compact' : 'weather-state'}
      role="status"
    >
      {t('Weather_Loading')}
    </div>
  );
}

/** The provider is down (503) or the call failed: say so, and offer to ask again. */
export function WeatherError({
  error,
  onRetry,
  compact = false,
}: {
  error: unknown;
  onRetry: () => void;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const unreachable = !isApiError(error) || error.status === 0 || error.status >= 500;
  return (
    <div
      className={compact ? 'weather-state weather-state--compact' : 'weather-state'}
      role="alert"
    >
      <p className="weather-state__title">{t('Weather_Unavailable')}</p>
      {!compact && <p>{unreachable ? t('Weather_UnavailableHint') : (error as Error).message}</p>}
      <button type="button" className="button" onClick={onRetry}>
        {t('News_Retry')}
      </button>
    </div>
  );
}
