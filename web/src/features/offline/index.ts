import './offline.css';
import type { Outbox } from './outbox';

export { useOnline, isOnline } from './connection';
export { createOutbox, QUEUED, type Outbox, type FlushResult } from './outbox';
export { forgetReaderCopies, registerServiceWorker, SERVICE_WORKER_URL } from './register';
export { OfflineIndicator } from './OfflineIndicator';
export { forgetReaderState, keepReaderState, restoreReaderState } from './readerState';

/** What this feature adds to the app's services (lib/services.ts). */
declare module '../../lib/services' {
  interface Services {
    /** Saves, reactions, follows and blocks made offline, sent when the connection returns. */
    outbox: Outbox;
  }
}
