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
