import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fixture from '../../shared/fixtures/report-validation.json';
import { postOnUnload, type ApiClient } from '../../lib/api';
import {
  QUEUE_LIMITS,
  REPORT_RULES,
  cleanEvent,
  createReporter,
  isBotUserAgent,
  privacyRefuses,
  reportPage,
  reportPermissionStatus,
  reportingActive,
  startReporting,
  type ReportRequestBody,
} from './index';

const property = () => ({ os: 5, device_id: 'dev-1' });

function setup(overrides: Partial<Parameters<typeof createReporter>[0]> = {}) {
  const sent: ReportRequestBody[] = [];
  const beacons: ReportRequestBody[] = [];
  let fail = false;
  const log = vi.fn();
  const reporter = createReporter({
    api: '/api/report',
    request: async (_api, body) => {
      if (fail) throw new Error('offline');
      sent.push(body);
    },
    unload: (_api, body) => beacons.push(body),
    property,
    log,
    ...overrides,
  });
  return {
    reporter,
    sent,
    beacons,
    log,
    failNext: (v: boolean) => {
      fail = v;
    },
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('report rules (D330: one file for the server and the app)', () => {
  it('s9_11 report limits: debounce 1000 ms, queue 5000, batch 20, fail limit 3', () => {
    expect(QUEUE_LIMITS).toEqual({ debounceMs: 1000, limit: 5000, batch: 20, failLimit: 3 });
    expect([REPORT_RULES.appId, REPORT_RULES.source, REPORT_RULES.os]).toEqual([20310, 4, 5]);
    expect([REPORT_RULES.nonceLength, REPORT_RULES.userAgentMax, REPORT_RULES.adnId]).toEqual([
      16, 500, 37,
    ]);
  });

  it.each(fixture.cases)('s5_7 shared validation case: $name', (c) => {
    const got = cleanEvent(c.event);
    if ('error' in c && c.error !== undefined) {
      expect(got).toEqual({ ok: false, error: c.error });
    } else {
      expect(got).toEqual({ ok: true, ...(c as { ok: object }).ok });
    }
  });

  it('s1_8 bot user agents', () => {
    expect(isBotUserAgent('Mozilla/5.0 (compatible; bingbot/2.0)')).toBe(true);
    expect(isBotUserAgent('Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/130.0')).toBe(true);
    expect(isBotUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36')).toBe(
      false,
    );
  });

  it('d334 Do-Not-Track and Global Privacy Control refuse reporting', () => {
    expect(privacyRefuses({ doNotTrack: '1' })).toBe(true);
    expect(privacyRefuses({ globalPrivacyControl: true })).toBe(true);
    expect(privacyRefuses({ doNotTrack: '0', globalPrivacyControl: false })).toBe(false);
    expect(privacyRefuses({})).toBe(false);
  });
});

describe('the report queue (§4.14, §9.11)', () => {
  it('s9_11 debounce: sends 1000 ms after the last event, not before', async () => {
    const { reporter, sent } = setup();
    reporter.track('install');
    await vi.advanceTimersByTimeAsync(600);
    reporter.track('launch');
    await vi.advanceTimersByTimeAsync(999);
    expect(sent).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0].data.map((e) => e.event)).toEqual(['install', 'launch']);
  });

  it('s3_16 the request: app_id, timestamp, nonce_str of 16, source 4, data, property with os 5', async () => {
    const { reporter, sent } = setup();
    reporter.track(' search ', { keyword: '  flood ' });
    await vi.advanceTimersByTimeAsync(1000);
    const body = sent[0];
    expect(body.app_id).toBe(20310);
    expect(body.source).toBe(4);
    expect(body.nonce_str).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(typeof body.timestamp).toBe('number');
    expect(body.property).toEqual({ os: 5, device_id: 'dev-1' });
    expect(body.data[0]).toMatchObject({ event: 'search', keyword: 'flood' });
  });

  it('s9_11 batches of 20', async () => {
    const { reporter, sent } = setup();
    for (let i = 0; i < 45; i++) reporter.track('clientBehavior', { behavior_id: `b${i}` });
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.map((b) => b.data.length)).toEqual([20, 20, 5]);
    expect(sent[2].data[4]).toMatchObject({ behavior_id: 'b44' });
  });

  it('s9_11 queue limit 5000: the oldest are dropped', () => {
    const { reporter } = setup({ api: undefined });
    for (let i = 0; i < 5003; i++) reporter.track('clientBehavior', { behavior_id: `b${i}` });
    expect(reporter.size()).toBe(5000);
  });

  it('s4_14 s8_12 a failed batch is re-queued, retried while failures are under 3, then sending stops', async () => {
    const { reporter, sent, failNext } = setup();
    failNext(true);
    reporter.track('install');
    await vi.advanceTimersByTimeAsync(1000);
    expect(reporter.failures()).toBe(1);
    expect(reporter.size()).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reporter.failures()).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(reporter.failures()).toBe(3);
    failNext(false);
    reporter.track('launch');
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(0);
    expect(reporter.size()).toBe(2);
  });

  it('s4_14 a success after a failure sends the re-queued events first and resets the count', async () => {
    const { reporter, sent, failNext } = setup();
    failNext(true);
    reporter.track('install');
    await vi.advanceTimersByTimeAsync(1000);
    failNext(false);
    reporter.track('launch');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent[0].data.map((e) => e.event)).toEqual(['install', 'launch']);
    expect(reporter.failures()).toBe(0);
  });

  it("s8_13 without an api address nothing is sent and 'need options.api' is logged", async () => {
    const { reporter, sent, log } = setup({ api: undefined });
    reporter.track('install');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent).toHaveLength(0);
    expect(log).toHaveBeenCalledWith('need options.api');
  });

  it("s5_7 an unknown event is refused with 'No event model' and never queued", () => {
    const { reporter, log } = setup();
    expect(reporter.track('nope')).toBe(false);
    expect(log).toHaveBeenCalledWith('No event model: nope');
    expect(reporter.size()).toBe(0);
  });

  it('s4_14 s7_15 on unload the whole queue goes by beacon, in batches', async () => {
    const { reporter, sent, beacons } = setup();
    for (let i = 0; i < 25; i++) reporter.track('install');
    reporter.unload();
    expect(beacons.map((b) => b.data.length)).toEqual([20, 5]);
    expect(reporter.size()).toBe(0);
    await vi.advanceTimersByTimeAsync(2000);
    expect(sent).toHaveLength(0);
  });
});

describe('postOnUnload (§7.15)', () => {
  it('s7_15 sends a JSON beacon', () => {
    const sendBeacon = vi.fn(() => true);
    expect(postOnUnload('/api/report', { a: 1 }, { sendBeacon })).toBe(true);
    const [url, blob] = sendBeacon.mock.calls[0] as unknown as [string, Blob];
    expect(url).toBe('/api/report');
    expect(blob.type).toBe('application/json');
  });

  it('s7_15 falls back to a synchronous POST when there is no beacon or it is refused', () => {
    const calls: unknown[][] = [];
    const xhr = {
      status: 200,
      open: (...a: unknown[]) => calls.push(['open', ...a]),
      setRequestHeader: (...a: unknown[]) => calls.push(['header', ...a]),
      send: (...a: unknown[]) => calls.push(['send', ...a]),
    } as unknown as XMLHttpRequest;
    expect(postOnUnload('/api/report', { a: 1 }, { sendBeacon: () => false }, () => xhr)).toBe(
      true,
    );
    expect(calls[0]).toEqual(['open', 'POST', '/api/report', false]);
    expect(calls[2]).toEqual(['send', '{"a":1}']);
  });
});

describe('startReporting (the app)', () => {
  const ua = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';
  function nav(extra: Record<string, unknown> = {}) {
    return {
      userAgent: ua,
      language: 'en-US',
      sendBeacon: vi.fn(() => true),
      ...extra,
    } as unknown as Navigator;
  }
  const context = () => ({ deviceId: 'dev-9', appLang: 'en', country: 'US' });
  function fakeApi() {
    const posts: Array<{ path: string; body: ReportRequestBody }> = [];
    const api = {
      post: async (path: string, body: ReportRequestBody) => {
        posts.push({ path, body });
        return {};
      },
    } as unknown as ApiClient;
    return { api, posts };
  }

  it('d334 reports nothing at all under Do-Not-Track or Global Privacy Control', async () => {
    for (const extra of [{ doNotTrack: '1' }, { globalPrivacyControl: true }]) {
      const { api, posts } = fakeApi();
      const stop = startReporting({ api, channel: '', context, nav: nav(extra) });
      expect(reportingActive()).toBe(false);
      reportPermissionStatus(true);
      reportPage('article', { origin: 'http://x', pathname: '/article/7' }, 'Story');
      await vi.advanceTimersByTimeAsync(5000);
      expect(posts).toHaveLength(0);
      stop();
    }
  });

  it('s1_8 reports nothing for a bot user agent', async () => {
    const { api, posts } = fakeApi();
    const stop = startReporting({
      api,
      channel: '',
      context,
      nav: nav({ userAgent: 'Googlebot/2.1' }),
    });
    expect(reportingActive()).toBe(false);
    await vi.advanceTimersByTimeAsync(5000);
    expect(posts).toHaveLength(0);
    stop();
  });

  it('s2_26 s6_4 s3_14 launch, channel, page view with origin/path/title, core function, permission', async () => {
    const { api, posts } = fakeApi();
    const stop = startReporting({ api, channel: 'metaweb_int', context, nav: nav() });
    reportPage('article', { origin: 'http://news.test', pathname: '/article/42' }, 'Flood warning');
    reportPage('weather', { origin: 'http://news.test', pathname: '/weather' }, 'Weather');
    reportPage(
      'today-in-history',
      { origin: 'http://news.test', pathname: '/today-in-history' },
      'History',
    );
    reportPermissionStatus(true);
    reportPermissionStatus(false);
    await vi.advanceTimersByTimeAsync(1000);
    expect(posts[0].path).toBe('/report');
    const body = posts[0].body;
    expect(body.property).toMatchObject({
      os: 5,
      device_id: 'dev-9',
      channel: 'metaweb_int',
      app_lang: 'en',
    });
    const events = body.data;
    expect(events.find((e) => e.event === 'adSource')).toMatchObject({ type: 'ads' });
    expect(events.find((e) => e.event === 'registerChannel')).toMatchObject({
      media_source: 'metaweb_int',
    });
    expect(events.find((e) => e.event === 'pageView')).toMatchObject({
      location_origin: 'http://news.test',
      page_path: '/article/42',
      page_title: 'Flood warning',
      news_id: '42',
    });
    const core = events
      .filter((e) => e.event === 'coreBehavior')
      .map((e) => [e.behavior_id, e.is_base]);
    expect(core).toEqual([
      ['NewsDetail_Show', 1],
      ['WeatherDetail_Show', 1],
      ['HistoryToday_Show', 1],
    ]);
    expect(events.filter((e) => e.event === 'permissionStatus').map((e) => e.permission)).toEqual([
      1, 0,
    ]);
    stop();
  });

  it('s4_14 the queue goes by beacon when the page is hidden or unloads', () => {
    const { api } = fakeApi();
    const n = nav();
    const stop = startReporting({ api, channel: '', context, nav: n });
    window.dispatchEvent(new Event('pagehide'));
    expect(n.sendBeacon).toHaveBeenCalledTimes(1);
    const [url] = (n.sendBeacon as unknown as { mock: { calls: unknown[][] } }).mock.calls[0];
    expect(url).toBe('/api/report');
    stop();
  });

  it('s4_14 a tab that is hidden and then unloads counts its time in view once', async () => {
    const { api } = fakeApi();
    const n = nav();
    let clock = 1_000_000;
    const stop = startReporting({ api, channel: '', context, nav: n, now: () => clock });
    const beacons = n.sendBeacon as unknown as { mock: { calls: unknown[][] } };
    clock += 4000;
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('pagehide'));
    visibility.mockRestore();
    // One beacon: the second leave has no second usingTime to send.
    expect(beacons.mock.calls).toHaveLength(1);
    const read = new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(beacons.mock.calls[0][1] as Blob);
    });
    await vi.advanceTimersByTimeAsync(10); // jsdom's FileReader answers on a timer
    const text = await read;
    const sent = (JSON.parse(text) as ReportRequestBody).data;
    expect(sent.filter((e) => e.event === 'usingTime').map((e) => e.duration)).toEqual([4000]);
    stop();
  });

  it('uncaught errors become clientException', async () => {
    const { api, posts } = fakeApi();
    const stop = startReporting({ api, channel: '', context, nav: nav() });
    window.dispatchEvent(
      new ErrorEvent('error', { error: new TypeError('x is undefined'), message: 'x' }),
    );
    await vi.advanceTimersByTimeAsync(1000);
    const ex = posts[0].body.data.find((e) => e.event === 'clientException');
    expect(ex).toMatchObject({
      type: 'TypeError',
      message: 'x is undefined',
      module: 'window.onerror',
    });
    stop();
  });
});
