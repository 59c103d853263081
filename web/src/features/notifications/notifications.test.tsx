import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, guestUser, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { feedPage, ledger, newsItem } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { installPushHandlers, type PushScope } from '../../sw/push';

const signedIn = {
  cookies: { deviceId: 'd', token: 't' },
  routes: {
    'POST /api/user/info': () =>
      envelope({ ...guestUser, account_type: 3, name: 'Ada', email: 'ada@example.org' }),
  } as Record<string, Handler>,
};

const defaults = {
  enabled: true,
  daily_budget: 3,
  quiet_start: '22:00',
  quiet_end: '07:00',
  digest_hour: null,
  media_off: [],
  topics_off: [],
  subscriptions: 0,
};

const sent = (id: number, title: string) => ({
  id,
  news_id: id,
  news_title: title,
  news_content: '',
  news_img_url: '',
  create_time: Date.now() - 2 * 3600_000,
  publish_time: Date.now() - 3 * 3600_000,
  type: 1,
  media: { media_id: 7, name: 'The Capitol Ledger', icon_url: '', home_url: '' },
});

function open(routes: Record<string, Handler>) {
  return renderApp('/user/notification', {
    cookies: signedIn.cookies,
    routes: {
      ...signedIn.routes,
      'POST /api/user/push/settings': () => envelope(defaults),
      'POST /api/news/feed/byNotification': () => envelope({ list: [], token: '' }),
      ...routes,
    },
  });
}

const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

/** The §6.4 permission statuses the app's reporter has sent to /api/report (after its debounce). */
async function reportedPermissions(server: ReturnType<typeof renderApp>['server']) {
  let found: unknown[] = [];
  await waitFor(
    () => {
      found = posts(server, '/api/report').flatMap((r) =>
        (r.body as { data: Array<{ event: string; permission?: number }> }).data
          .filter((e) => e.event === 'permissionStatus')
          .map((e) => e.permission),
      );
      expect(found.length).toBeGreaterThan(0);
    },
    { timeout: 4000 },
  );
  return found;
}

/** The browser's push APIs (jsdom has none): a permission prompt and a push manager. */
function installBrowserPush(answer: NotificationPermission) {
  let subscription: { endpoint: string; unsubscribe: () => Promise<boolean> } | null = null;
  const requestPermission = vi.fn(async () => {
    state.permission = answer;
    return answer;
  });
  const state = { permission: 'default' as NotificationPermission };
  vi.stubGlobal('Notification', {
    get permission() {
      return state.permission;
    },
    requestPermission,
  });
  vi.stubGlobal('PushManager', function PushManager() {});
  // Like a browser, a subscription made after an unsubscribe has a new endpoint.
  let made = 0;
  const pushManager = {
    getSubscription: async () => subscription,
    subscribe: vi.fn(async () => {
      made += 1;
      const endpoint = made === 1 ? 'https://push.example/abc' : `https://push.example/abc-${made}`;
      subscription = {
        endpoint,
        unsubscribe: async () => {
          subscription = null;
          return true;
        },
        toJSON: () => ({ endpoint, keys: { p256dh: 'BPub', auth: 'c2VjcmV0' } }),
      } as never;
      return subscription;
    }),
  };
  const registration = { pushManager };
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: vi.fn(async () => registration),
      ready: Promise.resolve(registration),
      getRegistration: async () => registration,
    },
  });
  return { requestPermission, pushManager };
}

beforeEach(() => {
  installIntersectionObserver();
});

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('/user/notification: what was sent (§7.6)', () => {
  it('d310_lists_the_stories_sent_newest_first_and_pages_by_token', async () => {
    const { server } = open({
      'POST /api/news/feed/byNotification': (req) =>
        (req.body as { page_no?: string }).page_no === 'next'
          ? envelope({ list: [sent(1, 'Older story')], token: '' })
          : envelope({ list: [sent(2, 'Bridge closed')], token: 'next' }),
    });
    const link = await screen.findByRole('link', { name: 'Bridge closed' }, { timeout: 3000 });
    expect(link).toHaveAttribute('href', '/article/2');
    expect(within(link.closest('li')!).getByText('Sent 2 hours ago')).toBeInTheDocument();
    // The next page comes as the end nears, or with the "more" button.
    const more = screen.queryByRole('button', { name: /more/i });
    if (more) await userEvent.click(more);
    expect(await screen.findByRole('link', { name: 'Older story' })).toBeInTheDocument();
    const asked = posts(server, '/api/news/feed/byNotification').map((r) => r.body);
    expect(asked).toContainEqual({ size: 20, page_no: 'next' });
  });

  it('d310_says_when_nothing_was_sent_and_offers_a_retry_on_failure', async () => {
    open({});
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });

  it('d310_shows_an_error_with_a_retry_when_the_list_fails', async () => {
    open({
      'POST /api/news/feed/byNotification': () => ({
        status: 503,
        body: { code: 503, message: 'busy' },
      }),
    });
    expect(await screen.findByRole('button', { name: /try again/i })).toBeInTheDocument();
  });
});

describe('notification settings', () => {
  it('d313_saves_the_budget_quiet_hours_and_digest_hour', async () => {
    const { server } = open({
      'POST /api/user/push/settings/update': (req) => envelope(req.body),
    });
    const budget = await screen.findByRole('spinbutton', { name: 'At most per day' });
    expect(budget).toHaveValue(3);
    expect(screen.getByLabelText('Quiet from')).toHaveValue('22:00');
    expect(screen.getByLabelText('Quiet until')).toHaveValue('07:00');
    await userEvent.clear(budget);
    await userEvent.type(budget, '5');
    await userEvent.click(screen.getByRole('radio', { name: 'One daily digest' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Digest at' }), '18');
    await userEvent.type(screen.getByRole('textbox', { name: /Topics switched off/ }), 'Sports');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved.');
    const body = posts(server, '/api/user/push/settings/update')[0].body as typeof defaults;
    expect(body).toMatchObject({ daily_budget: 5, digest_hour: 18, topics_off: ['Sports'] });
  });

  it('d313_shows_the_servers_words_when_a_setting_is_refused', async () => {
    open({
      'POST /api/user/push/settings/update': () => ({
        status: 400,
        body: { code: 400, message: 'Field `daily_budget`: at most 24 a day.' },
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('at most 24 a day');
  });
});

describe('turning notifications on and off', () => {
  it('says so when the browser cannot show notifications', async () => {
    open({});
    expect(await screen.findByText('This browser cannot show notifications.')).toBeInTheDocument();
  });

  it('spec_6_4_asks_for_permission_only_when_the_reader_asks_and_reports_granted_as_1', async () => {
    const browser = installBrowserPush('granted');
    const { server } = open({
      'GET /api/push/key': () => envelope({ public_key: 'BPzAAA' }),
      'POST /api/user/push/subscribe': () => envelope({ subscribed: true }),
      'POST /api/user/push/unsubscribe': () => envelope({ subscribed: false }),
    });
    const on = await screen.findByRole('button', { name: 'Turn on notifications' });
    expect(browser.requestPermission).not.toHaveBeenCalled();
    await userEvent.click(on);
    expect(await screen.findByText('Notifications are on in this browser.')).toBeInTheDocument();
    expect(browser.requestPermission).toHaveBeenCalledTimes(1);
    expect(await reportedPermissions(server)).toEqual([1]);
    expect(posts(server, '/api/user/push/subscribe')[0].body).toEqual({
      endpoint: 'https://push.example/abc',
      keys: { p256dh: 'BPub', auth: 'c2VjcmV0' },
      city_id: 4140963,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Turn off notifications' }));
    expect(
      await screen.findByRole('button', { name: 'Turn on notifications' }),
    ).toBeInTheDocument();
    expect(posts(server, '/api/user/push/unsubscribe')[0].body).toEqual({
      endpoint: 'https://push.example/abc',
    });
  });

  it('d356_when_another_reader_holds_the_endpoint_the_browser_subscribes_anew', async () => {
    const browser = installBrowserPush('granted');
    // The server holds the first endpoint for someone else (and §7.19's client tries a
    // 409 twice before the app sees it).
    const { server } = open({
      'GET /api/push/key': () => envelope({ public_key: 'BPzAAA' }),
      'POST /api/user/push/subscribe': (req) =>
        (req.body as { endpoint: string }).endpoint === 'https://push.example/abc'
          ? { status: 409, body: { code: 409, message: 'belongs to another reader' } }
          : envelope({ subscribed: true }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText('Notifications are on in this browser.')).toBeInTheDocument();
    const sent = posts(server, '/api/user/push/subscribe').map(
      (r) => (r.body as { endpoint: string }).endpoint,
    );
    expect(sent).toEqual([
      'https://push.example/abc',
      'https://push.example/abc',
      'https://push.example/abc-2',
    ]);
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(2);
    expect(browser.requestPermission).toHaveBeenCalledTimes(2);
  });

  it('spec_6_4_reports_a_refused_permission_as_0_and_says_how_to_undo_it', async () => {
    installBrowserPush('denied');
    const { server } = open({ 'GET /api/push/key': () => envelope({ public_key: 'BPzAAA' }) });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText(/blocked for this site/)).toBeInTheDocument();
    expect(await reportedPermissions(server)).toEqual([0]);
    expect(posts(server, '/api/user/push/subscribe')).toHaveLength(0);
  });
});

describe('/local: a guest turns notifications on for their city', () => {
  it('d310_offers_the_switch_below_the_local_feed_and_subscribes_a_guest', async () => {
    installBrowserPush('granted');
    const { server } = renderApp('/local', {
      routes: {
        'GET /api/push/key': () => envelope({ public_key: 'BPzAAA' }),
        'POST /api/user/push/subscribe': () => envelope({ subscribed: true }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Turn on notifications' }));
    expect(await screen.findByText('Notifications are on in this browser.')).toBeInTheDocument();
    const sub = posts(server, '/api/user/push/subscribe')[0];
    expect(sub.headers.token).toBe('tok-guest');
    expect(sub.body).toMatchObject({ city_id: 4140963 });
  });

  it('d313_a_guest_sets_the_budget_below_the_switch_once_notifications_are_on', async () => {
    installBrowserPush('granted');
    const { server } = renderApp('/local', {
      routes: {
        'GET /api/push/key': () => envelope({ public_key: 'BPzAAA' }),
        'POST /api/user/push/subscribe': () => envelope({ subscribed: true }),
        'POST /api/user/push/settings': () => envelope({ ...defaults, subscriptions: 1 }),
        'POST /api/user/push/settings/update': (req) => envelope(req.body),
      },
    });
    const summary = 'Notification settings: how many a day, quiet hours, a daily digest';
    await screen.findByRole('button', { name: 'Turn on notifications' });
    // Off in this browser: nothing to set yet.
    expect(screen.queryByText(summary)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Turn on notifications' }));
    await userEvent.click(await screen.findByText(summary));
    const budget = await screen.findByRole('spinbutton', { name: 'At most per day' });
    await userEvent.clear(budget);
    await userEvent.type(budget, '1');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    const update = posts(server, '/api/user/push/settings/update')[0];
    expect(update.headers.token).toBe('tok-guest');
    expect(update.body).toMatchObject({ daily_budget: 1 });
  });
});

describe('a publisher page: notifications from this publisher (D311 media_off)', () => {
  const page = (settings: object) =>
    renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([newsItem(1, { title: 'Council approves the budget' })], '', {
              media: ledger,
            }),
          ),
        'POST /api/user/media/followList': () => envelope({ list: [] }),
        'POST /api/user/media/blockList': () => envelope({ list: [], token: '' }),
        'POST /api/user/push/settings': () => envelope({ ...defaults, ...settings }),
        'POST /api/user/push/settings/update': (req) => envelope(req.body),
      },
    });

  it('d311_a_reader_with_notifications_switches_one_publisher_off_and_on_again', async () => {
    const { server } = page({ subscriptions: 1, media_off: [12] });
    const name = 'Notifications from The Capitol Ledger';
    const button = await screen.findByRole('button', { name, pressed: true });
    await userEvent.click(button);
    expect(await screen.findByRole('button', { name, pressed: false })).toBeInTheDocument();
    expect(posts(server, '/api/user/push/settings/update')[0].body).toMatchObject({
      media_off: [12, 7],
    });
    await userEvent.click(screen.getByRole('button', { name, pressed: false }));
    expect(await screen.findByRole('button', { name, pressed: true })).toBeInTheDocument();
    expect(posts(server, '/api/user/push/settings/update')[1].body).toMatchObject({
      media_off: [12],
    });
  });

  it('d311_offers_no_switch_to_a_reader_without_notifications', async () => {
    page({ subscriptions: 0 });
    await screen.findByRole('button', { name: 'Block publisher' });
    expect(
      screen.queryByRole('button', { name: 'Notifications from The Capitol Ledger' }),
    ).not.toBeInTheDocument();
  });
});

describe('the service worker (src/sw/push.ts)', () => {
  function loadWorker() {
    const listeners: Record<string, (event: unknown) => void> = {};
    const showNotification = vi.fn(async () => undefined);
    const openWindow = vi.fn(async () => null);
    const self = {
      location: { origin: 'https://news.example' },
      registration: { showNotification },
      clients: { matchAll: async () => [], openWindow },
      addEventListener: (name: string, fn: (event: unknown) => void) => {
        listeners[name] = fn;
      },
    };
    installPushHandlers(self as unknown as PushScope);
    return { listeners, showNotification, openWindow };
  }

  it('d311_shows_the_pushed_story_and_opens_its_article_when_tapped', async () => {
    const sw = loadWorker();
    let waited: Promise<unknown> = Promise.resolve();
    sw.listeners.push({
      data: {
        json: () => ({
          title: 'Bridge closed',
          body: 'City Paper',
          url: '/es/article/42',
          tag: 'story-42',
        }),
      },
      waitUntil: (p: Promise<unknown>) => (waited = p),
    });
    await waited;
    expect(sw.showNotification).toHaveBeenCalledWith('Bridge closed', {
      body: 'City Paper',
      tag: 'story-42',
      icon: '/favicon.svg',
      data: { url: '/es/article/42' },
    });
    const close = vi.fn();
    sw.listeners.notificationclick({
      notification: { close, data: { url: '/es/article/42' } },
      waitUntil: (p: Promise<unknown>) => (waited = p),
    });
    await waited;
    expect(close).toHaveBeenCalled();
    expect(sw.openWindow).toHaveBeenCalledWith('https://news.example/es/article/42');
  });

  it('never opens another site from a notification', async () => {
    const sw = loadWorker();
    sw.listeners.notificationclick({
      notification: { close: vi.fn(), data: { url: 'https://evil.example/' } },
      waitUntil: () => undefined,
    });
    await Promise.resolve();
    expect(sw.openWindow).not.toHaveBeenCalled();
  });
});
