import { useEffect } from 'react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { ErrorScreen, type ErrorInfo } from '../components/ErrorScreen';
import { browserReloadDeps, isChunkLoadError, reloadForFailedChunk } from '../features/build';
import { isApiError } from '../lib/api';

export function describeError(error: unknown): ErrorInfo {
  if (isApiError(error)) {
    return { status: error.status, code: error.code, message: error.message, url: error.url };
  }
  if (isRouteErrorResponse(error)) {
    const data = typeof error.data === 'string' ? error.data : undefined;
    return { status: error.status, message: error.statusText || data };
  }
  if (error instanceof Error) {
    return { status: 500, message: error.message, stack: error.stack };
  }
  return { status: 500 };
}

/** SPEC §8.14 / §2.25 for route errors; §8.4 reloads once for a failed lazy chunk. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const location = useLocation();
  const href = location.pathname + location.search + location.hash;
  const chunkFailed = isChunkLoadError(error);

  // The page is replaced at once when the reload happens; if the guard refuses (a second
  // failure within 10 s), the error screen below stays.
  useEffect(() => {
    if (chunkFailed) reloadForFailedChunk(href, browserReloadDeps());
  }, [chunkFailed, href]);

  return <ErrorScreen {...describeError(error)} />;
}
