import { useTranslation } from '../../../i18n';
import { isApiError } from '../../../lib/api';

// The §4 status sits beside the views it picks: in a module of its own it was a chunk, and a
// request, of its own on every reading page (D425).

/** SPEC §4 data fetch status: idle, pending, success, error. */
export type DataFetchStatus = 'idle' | 'pending' | 'success' | 'error';

/**
 * The §4 status of a TanStack query: a query that is not asked for (disabled) is idle; a
 * first load or a retry after an error is pending; data shown is success (background
 * refreshes keep it); a failed load is error.
 */
export function dataFetchStatus(query: {
  status: 'pending' | 'error' | 'success';
  fetchStatus: 'fetching' | 'paused' | 'idle';
}): DataFetchStatus {
  if (query.status === 'success') return 'success';
  if (query.fetchStatus !== 'idle') return 'pending';
  return query.status === 'error' ? 'error' : 'idle';
}

/** §4 pending: the shape of the list to come, announced once as loading. */
export function ListSkeleton({ count = 4, label }: { count?: number; label?: string }) {
  const { t } = useTranslation();
  return (
    <div className="news-skeleton" role="status">
      <span className="visually-hidden">{label ?? t('News_Loading')}</span>
      <ul className="news-list" aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="news-card news-card--skeleton">
            <div className="news-card__body">
              <span className="skeleton-line skeleton-line--short" />
              <span className="skeleton-line" />
              <span className="skeleton-line" />
              <span className="skeleton-line skeleton-line--meta" />
            </div>
            <span className="news-image news-card__image skeleton-box" />
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The message of a failed call, for people: offline and server failures in words. */
export function useErrorText(error: unknown): string {
  const { t } = useTranslation();
  if (isApiError(error)) {
    if (error.status === 0) return t('News_ErrorOffline');
    if (error.status >= 500) return t('News_ErrorServer');
    return error.message;
  }
  return t('Web_UnknownError');
}

/** §4 error: what failed, and a way to try again. */
export function ErrorState({
  error,
  onRetry,
  title,
  compact = false,
}: {
  error: unknown;
  onRetry: () => void;
  title?: string;
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const text = useErrorText(error);
  return (
    <div className={compact ? 'state-error state-error--compact' : 'state-error'} role="alert">
      <p className="state-error__title">{title ?? t('News_ErrorTitle')}</p>
      <p className="state-error__text">{text}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('News_Retry')}
      </button>
    </div>
  );
}

/** A 404 envelope: the thing asked for does not exist. */
export function isNotFound(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}
