import './offline.css';

export { useOnline, isOnline } from './connection';
export { createOutbox, QUEUED, type Outbox, type FlushResult } from './outbox';
export { forgetReaderCopies, registerServiceWorker, SERVICE_WORKER_URL } from './register';
export { OfflineIndicator } from './OfflineIndicator';
export { forgetReaderState, keepReaderState, restoreReaderState } from './readerState';
