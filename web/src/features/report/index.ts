/**
 * Usage and page-view reporting (issue 21): the one reporter of the app and the calls
 * other features make. Private by default: Do-Not-Track, Global Privacy Control and bot
 * user agents turn it off entirely; nothing goes anywhere but our own server.
 */
import { APP_VERSION, postOnUnload, type ApiClient } from '../../lib/api';
import { AD_CHANNELS } from '../../lib/channel';
import { isBotUserAgent, privacyRefuses } from './events';
import { createReporter, type ReportProperty, type Reporter } from './reporter';
import { REPORT_RULES } from './rules';

export { cleanEvent, isBotUserAgent, privacyRefuses } from './events';
export { createReporter } from './reporter';
export type { Reporter, ReportProperty, ReportRequestBody } from './reporter';
export { REPORT_RULES, QUEUE_LIMITS } from './rules';

/** The server's report endpoint (D333). */
export const REPORT_PATH = '/report';

let current: Reporter | null = null;

export interface ReportingOptions {
  api: ApiClient;
  /** `/api` unless the app is served elsewhere. */
  baseUrl?: string;
  win?: Window;
  nav?: Navigator;
  channel: string;
  /** Device, language and country as the settings hold them now. */
  context: () => { deviceId: string; appLang: string; country: string };
  now?: () => number;
}

type Connection = { effectiveType?: string; type?: string };

function networkType(nav: Navigator): string {
  const c = (nav as Navigator & { connection?: Connection }).connection;
  const kind = c?.type === 'wifi' ? 'wifi' : (c?.effectiveType ?? '');
  const known = kind.replace('slow-2g', '2g');
  return REPORT_RULES.networkTypes.includes(known) ? known : 'other';
}

function browserOf(ua: string): { browser: string; version: string } {
  const m = /(Edg|OPR|Firefox|Chrome|Version)\/([\d.]+)/.exec(ua) ?? /(Safari)\/([\d.]+)/.exec(ua);
  if (!m) return { browser: 'other', version: '' };
  const name = m[1] === 'Version' ? 'Safari' : m[1] === 'Edg' ? 'Edge' : m[1];
  return { browser: name, version: m[2] };
}

/**
 * Start reporting for this page: launch, device and acquisition events, uncaught errors
 * as clientException, and the queue sent by beacon when the page is hidden or unloads.
 * Returns a stop function. With DNT/GPC or a bot user agent nothing starts.
 */
export function startReporting(options: ReportingOptions): () => void {
  const win = options.win ?? window;
  const nav = options.nav ?? navigator;
  const navPrivacy = nav as Navigator & { globalPrivacyControl?: boolean };
  if (privacyRefuses(navPrivacy) || isBotUserAgent(nav.userAgent ?? '')) {
    current = null;
    return () => undefined;
  }
  const now = options.now ?? Date.now;
  const api = `${(options.baseUrl ?? '/api').replace(/\/$/, '')}${REPORT_PATH}`;
  const property = (): ReportProperty | undefined => {
    const ctx = options.context();
    if (!ctx.deviceId) return undefined;
    const mem = (nav as Navigator & { deviceMemory?: number }).deviceMemory;
    return {
      os: REPORT_RULES.os,
      device_id: ctx.deviceId,
      app_lang: ctx.appLang,
      country: ctx.country,
      sys_lang: nav.language ?? '',
      app_version: APP_VERSION,
      network_type: networkType(nav),
      screen_width: win.screen?.width ?? 0,
      screen_height: win.screen?.height ?? 0,
      memory: typeof mem === 'number' ? mem : 0,
      channel: options.channel,
    };
  };
  const reporter = createReporter({
    api,
    // The app's one client (signing headers and all; the server ignores them here).
    request: (_url, body) => options.api.post(REPORT_PATH, body),
    unload: (url, body) => {
      postOnUnload(url, body, nav);
    },
    property,
    now,
  });
  current = reporter;
  const startedAt = now();
  let visibleSince = startedAt;

  const { browser, version } = browserOf(nav.userAgent);
  reporter.track('launch', { mode: 'auto' });
  reporter.track('device', {
    browser,
    version,
    system: (nav as Navigator & { platform?: string }).platform ?? '',
    type: /Mobi|Android|iPhone|iPad/.test(nav.userAgent) ? 2 : 1,
  });
  reporter.track('adSource', {
    type: (AD_CHANNELS as readonly string[]).includes(options.channel) ? 'ads' : 'organic',
  });
  if (options.channel) reporter.track('registerChannel', { media_source: options.channel });

  // Leaving fires twice as a tab closes (visibilitychange to hidden, then pagehide): the
  // time in view is counted once, from the moment the page was last shown.
  let inView = true;
  const leave = () => {
    if (inView) {
      inView = false;
      const duration = now() - visibleSince;
      if (duration > 0) reporter.track('usingTime', { duration });
    }
    reporter.unload();
  };
  const onVisibility = () => {
    if (win.document.visibilityState === 'hidden') leave();
    else {
      inView = true;
      visibleSince = now();
    }
  };
  const onError = (e: ErrorEvent) => reportException(e.error ?? e.message, 'window.onerror');
  const onRejection = (e: PromiseRejectionEvent) => reportException(e.reason, 'unhandledrejection');
  win.addEventListener('pagehide', leave);
  win.document.addEventListener('visibilitychange', onVisibility);
  win.addEventListener('error', onError);
  win.addEventListener('unhandledrejection', onRejection);
  return () => {
    win.removeEventListener('pagehide', leave);
    win.document.removeEventListener('visibilitychange', onVisibility);
    win.removeEventListener('error', onError);
    win.removeEventListener('unhandledrejection', onRejection);
    if (current === reporter) current = null;
  };
}

/** Queue any model's event; does nothing while reporting is off. */
export function reportEvent(event: string, fields: Record<string, unknown> = {}): void {
  current?.track(event, fields);
}

/** SPEC §6.4: the notification permission, granted 1 else 0. */
export function reportPermissionStatus(granted: boolean): void {
  reportEvent('permissionStatus', { permission: granted ? 1 : 0 });
}

/** An uncaught error (§8 fatal errors) as clientException. */
export function reportException(error: unknown, module: string): void {
  const e = error instanceof Error ? error : null;
  reportEvent('clientException', {
    type: e?.name ?? 'Error',
    module,
    code: '',
    message: e?.message ?? String(error),
    stack_trace: e?.stack ?? '',
    app_version: APP_VERSION,
  });
}

/** A search asked (its words). */
export function reportSearch(keyword: string): void {
  if (keyword.trim()) reportEvent('search', { keyword });
}

/**
 * SPEC §2.26: a page opened. Every page sends a page view (location origin, path,
 * title); the article, today-in-history and weather pages also send their core-function
 * event (is_base 1). `title` is read when it is called: the caller waits for the page
 * head to update (§9: 100 ms).
 */
export function reportPage(
  routeName: string | null,
  location: { origin: string; pathname: string },
  title: string,
): void {
  if (!current) return;
  const newsId = routeName === 'article' ? (location.pathname.split('/').pop() ?? '') : '';
  reportEvent('pageView', {
    location_origin: location.origin,
    page_path: location.pathname,
    page_title: title,
    news_id: newsId,
  });
  const core = routeName ? REPORT_RULES.coreFunctions[routeName] : undefined;
  if (core) {
    reportEvent('coreBehavior', {
      behavior_id: core,
      sub_behavior_id: newsId,
      nonce_id: '',
      is_base: REPORT_RULES.isBase.coreFunction,
    });
  }
}

/** Whether a reporter is running (false under DNT/GPC, for bots, before start). */
export function reportingActive(): boolean {
  return current !== null;
}
