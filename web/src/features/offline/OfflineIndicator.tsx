/**
 * The honest offline indicator (issue 31): says when there is no connection, what still
 * reads, and how many of the reader's changes wait to be sent (and that they are being
 * sent once the connection is back). Nothing shows while online with nothing waiting.
 */
import { useCallback, useDeferredValue, useSyncExternalStore } from 'react';
import { useTranslation } from '../../i18n';
import { useOnline } from './connection';
import { OUTBOX_KEY, type Outbox } from './outbox';

/** Changes waiting, in this tab and in any other tab of the app. */
function useWaiting(outbox: Outbox): number {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const stop = outbox.subscribe(onChange);
      const onStorage = (e: StorageEvent) => {
        if (e.key === OUTBOX_KEY) onChange();
      };
      window.addEventListener('storage', onStorage);
      return () => {
        stop();
        window.removeEventListener('storage', onStorage);
      };
    },
    [outbox],
  );
  return useSyncExternalStore(subscribe, outbox.size, () => 0);
}

/** `outbox`: the app's (services), handed in so this feature does not reach up into `app/`. */
export function OfflineIndicator({ outbox }: { outbox: Outbox }) {
  const { t } = useTranslation();
  const online = useOnline();
  const waiting = useWaiting(outbox);
  const showing = !online || waiting > 0;
  // The (empty) live region joins the page after its first screen, which the server wrote
  // without it (D230); with something to say it shows at once.
  const afterFirstPaint = useDeferredValue(true, false);
  if (!showing && !afterFirstPaint) return null;
  return (
    <div className="offline-indicator" role="status" aria-live="polite" hidden={!showing}>
      {!online && <p className="offline-indicator__state">{t('Offline_Now')}</p>}
      {waiting > 0 && (
        <p className="offline-indicator__waiting">
          {online
            ? t('Offline_Sending', { count: waiting })
            : t('Offline_Waiting', { count: waiting })}
        </p>
      )}
    </div>
  );
}
