/**
 * The app's one reporter (SPEC §4.14, §7.15, §8.12, §8.13, §9.11): events are held in a
 * queue (at most 5000, the oldest dropped), sent 1000 ms after the last one in batches of
 * 20, put back at the front when a send fails; sending retries while consecutive failures
 * are under 3, then stops for this page. On unload the queue goes by beacon (or a
 * synchronous POST where there is no beacon). Without an api address nothing is sent and
 * 'need options.api' is logged.
 */
import { randomAlphanumeric } from '../../lib/api';
import { cleanEvent, type EventFields } from './events';
import { QUEUE_LIMITS, REPORT_RULES, type QueueLimits } from './rules';

export type ReportProperty = Record<string, string | number>;
export type QueuedEvent = { event: string; time: number } & EventFields;

export interface ReportRequestBody {
  app_id: number;
  timestamp: number;
  nonce_str: string;
  source: number;
  data: QueuedEvent[];
  property: ReportProperty;
}

export interface ReporterOptions {
  /** The report endpoint, e.g. `/api/report`. */
  api?: string;
  /** The request handler: resolves when the server took the batch. */
  request?: (api: string, body: ReportRequestBody) => Promise<unknown>;
  /** The unload transport (beacon, else a synchronous POST). */
  unload?: (api: string, body: ReportRequestBody) => void;
  /** The §3.15 property record; undefined until it is known. */
  property: () => ReportProperty | undefined;
  now?: () => number;
  log?: (message: string) => void;
  limits?: Partial<QueueLimits>;
}

export interface Reporter {
  /** Queue an event; false when it is not one of the models (logged). */
  track: (event: string, fields?: Record<string, unknown>) => boolean;
  /** Send now what is queued (the debounce's job). */
  flush: () => Promise<void>;
  /** The page is going away: everything queued goes by beacon. */
  unload: () => void;
  size: () => number;
  failures: () => number;
}

export function createReporter(options: ReporterOptions): Reporter {
  const limits = { ...QUEUE_LIMITS, ...options.limits };
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.warn(message));
  const queue: QueuedEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let failures = 0;
  let sending = false;

  function trim() {
    // §9.11: past the limit the oldest go.
    if (queue.length > limits.limit) queue.splice(0, queue.length - limits.limit);
  }

  function schedule() {
    if (failures >= limits.failLimit) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, limits.debounceMs);
  }

  function body(data: QueuedEvent[], property: ReportProperty): ReportRequestBody {
    return {
      app_id: REPORT_RULES.appId,
      timestamp: now(),
      nonce_str: randomAlphanumeric(REPORT_RULES.nonceLength),
      source: REPORT_RULES.source,
      data,
      property: { ...property, os: REPORT_RULES.os },
    };
  }

  /** §5.7: sending needs a request handler, the property set and an api address. */
  function ready(): { api: string; property: ReportProperty } | null {
    if (!options.api) {
      log('need options.api');
      return null;
    }
    if (!options.request) {
      log('need options.request');
      return null;
    }
    const property = options.property();
    if (!property) {
      log('need options.property');
      return null;
    }
    return { api: options.api, property };
  }

  async function flush() {
    if (sending || queue.length === 0 || failures >= limits.failLimit) return;
    const target = ready();
    if (!target) return;
    sending = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, limits.batch);
        try {
          await options.request!(target.api, body(batch, target.property));
          failures = 0;
        } catch {
          // §4.14, §8.12: put back, count, retry while under the limit.
          queue.unshift(...batch);
          trim();
          failures += 1;
          if (failures < limits.failLimit) schedule();
          return;
        }
      }
    } finally {
      sending = false;
    }
  }

  return {
    track(event, fields = {}) {
      const clean = cleanEvent({ ...fields, event });
      if (!clean.ok) {
        log(clean.error);
        return false;
      }
      queue.push({ ...clean.fields, event: clean.event, time: now() });
      trim();
      schedule();
      return true;
    },
    flush,
    unload() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      if (queue.length === 0) return;
      if (!options.api) {
        log('need options.api');
        return;
      }
      const property = options.property();
      if (!property || !options.unload) return;
      while (queue.length > 0) {
        options.unload(options.api, body(queue.splice(0, limits.batch), property));
      }
    },
    size: () => queue.length,
    failures: () => failures,
  };
}
