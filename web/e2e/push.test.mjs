// Notifications by Web Push (issue 19, D310–D314) in Chromium against the release binary
// with the demo corpus and one fresh breaking Washington story (see BREAKING): a guest on
// /local turns notifications on (the permission prompt
// only after they ask), the app registers the real service worker /sw.js and hands the
// subscription to our server, whose notifier pushes a breaking local story through a
// loopback push service that speaks the real protocol (VAPID JWT checked, aes128gcm
// decrypted); the decrypted message is delivered to the real service worker, which shows
// the notification; turned off, the server forgets the subscription.
//
// What is replaced, and why: Chromium's own push service is Google's FCM on the internet,
// which this offline machine (and CI) cannot reach; and in the journeys' browser contexts,
// which are incognito ones, Chromium has no Push API at all: a native
// `pushManager.subscribe()` rejects with "AbortError: Registration failed - permission
// denied" and logs "Chrome currently does not support the Push API in incognito mode"
// (crbug.com/41124656), notifications granted or not. So the one thing this journey
// stands in for is the browser's push service: an init script makes
// `PushManager.prototype.subscribe` / `getSubscription` hand back a subscription whose
// endpoint is the loopback push service (helpers.mjs `loopbackPushService`) and whose keys
// (p256dh, auth) the test made, keeping the private key in Node to decrypt; and, as FCM
// would wake the browser, the test delivers the decrypted message to the service worker
// through the DevTools protocol (`ServiceWorker.deliverPushMessage`). Everything of ours is
// real: the app's subscribe flow, the service worker's registration and its push handler,
// the server's key, VAPID signing, aes128gcm encryption and the notifier's choice.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import {
  binary,
  decryptPush,
  launchBrowser,
  loopbackPushService,
  newPage,
  signedPost,
  startServer,
  waitForCookie,
} from './helpers.mjs';

const skip = existsSync(binary) ? false : `no localwire binary at ${binary} (build it first)`;
const DESKTOP = { width: 1280, height: 900 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, check, timeoutMs = 30_000, everyMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      const why = typeof what === 'function' ? what() : what;
      throw new Error(`timed out after ${timeoutMs} ms: ${why}`);
    }
    await sleep(everyMs);
  }
}

/**
 * Breaking news in Washington, DC (the guest's city). The demo corpus has none: its
 * events are days old and its developing storm is told as separate one-item stories, so
 * no story scores the 5 D311 asks for, and a notifier that pushed a demo story would be
 * wrong. So three loopback Washington publishers report one event minutes ago, in their
 * own words (three items, three publishers, fresh: a score near 9). `serve --demo` ingests
 * them with the corpus before it listens (LOCALWIRE_ALLOW_PRIVATE_FEEDS for loopback
 * feeds), and they cluster into one story as any publishers' feeds would.
 */
const BREAKING = [
  [
    'Potomac Bulletin',
    'Water main break floods Pennsylvania Avenue near Eastern Market in Washington',
    'A 36-inch water main broke under Pennsylvania Avenue near Eastern Market in Washington on Wednesday, flooding the avenue and cutting water to hundreds of homes on Capitol Hill. DC Water crews closed the avenue between 7th and 9th streets and expect repairs to take until Thursday.',
  ],
  [
    'Anacostia Courier',
    'Pennsylvania Avenue flooded as water main breaks near Eastern Market',
    'DC Water said a 36-inch water main broke beneath Pennsylvania Avenue by Eastern Market on Wednesday, sending water across the avenue and leaving hundreds of Capitol Hill homes without water. The avenue is closed between 7th and 9th streets until repairs finish, likely Thursday.',
  ],
  [
    'Rock Creek Observer',
    'Water main break near Eastern Market closes Pennsylvania Avenue on Capitol Hill',
    'Hundreds of homes on Capitol Hill lost water on Wednesday after a 36-inch water main broke under Pennsylvania Avenue near Eastern Market. DC Water closed Pennsylvania Avenue between 7th and 9th streets; crews expect the repair to last until Thursday.',
  ],
];

/** A loopback server with one RSS feed per BREAKING publisher, items dated minutes ago. */
async function breakingFeeds() {
  const published = new Date(Date.now() - 10 * 60_000).toUTCString();
  const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const server = createServer((req, res) => {
    const index = Number(/^\/feed\/(\d)\.xml$/.exec(req.url ?? '')?.[1] ?? -1);
    const entry = BREAKING[index];
    if (!entry) {
      res.writeHead(404);
      res.end();
      return;
    }
    const [name, title, text] = entry;
    const home = `https://publisher-${index}.localwire.invalid/`;
    res.writeHead(200, { 'content-type': 'application/rss+xml; charset=utf-8' });
    res.end(`<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>${escape(name)}</title><link>${home}</link>
<description>Washington news</description><language>en-us</language>
<item><title>${escape(title)}</title><link>${home}news/water-main-break</link>
<guid isPermaLink="true">${home}news/water-main-break</guid><pubDate>${published}</pubDate>
<category>Local</category><description>${escape(text)}</description></item>
</channel></rss>`);
  });
  server.unref();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${server.address().port}`;
  const outlines = BREAKING.map(
    ([name], i) =>
      `<outline text="${name}" title="${name}" type="rss" xmlUrl="${base}/feed/${i}.xml" ` +
      `htmlUrl="https://publisher-${i}.localwire.invalid/" localwire:country="US" ` +
      `localwire:state="DC" localwire:city="Washington" localwire:lang="en" ` +
      `localwire:category="local"/>`,
  );
  const opml = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0" xmlns:localwire="https://localwire.invalid/ns/opml">
<head><title>Loopback Washington publishers</title></head>
<body>
${outlines.join('\n')}
</body>
</opml>
`;
  return { opml, stop: () => new Promise((r) => server.close(r)) };
}

/**
 * Runs in the page before the app: counts the permission prompts and subscriptions, and
 * stands in for Chromium's unreachable push service (see the top of this file). The
 * subscription checks what Chromium checks (permission granted, an active service worker,
 * userVisibleOnly, a P-256 applicationServerKey) and tells the loopback push service the
 * key it subscribed with, and that it unsubscribed, as a browser tells its push service.
 */
function standInForThePushService({ id, endpoint, keys }) {
  const calls = { requestPermission: 0, subscribe: 0, unsubscribe: 0 };
  Object.defineProperty(window, '__pushCalls', { value: calls });
  if (typeof Notification !== 'undefined') {
    const request = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args) => {
      calls.requestPermission += 1;
      return request(...args);
    };
  }
  if (typeof PushManager === 'undefined') return;
  const STORED = 'loopback-push-subscription';
  const toB64url = (bytes) =>
    btoa(String.fromCharCode(...bytes))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  const fromB64url = (text) =>
    Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
  const subscription = (applicationServerKey) => ({
    endpoint,
    expirationTime: null,
    options: {
      userVisibleOnly: true,
      applicationServerKey: fromB64url(applicationServerKey).buffer,
    },
    getKey: (name) => (keys[name] ? fromB64url(keys[name]).buffer : null),
    toJSON: () => ({ endpoint, expirationTime: null, keys: { ...keys } }),
    async unsubscribe() {
      calls.unsubscribe += 1;
      localStorage.removeItem(STORED);
      await window.__loopbackPushUnsubscribed(id);
      return true;
    },
  });
  async function ownRegistration(manager) {
    const registrations = await navigator.serviceWorker.getRegistrations();
    return registrations.find((r) => r.pushManager === manager);
  }
  PushManager.prototype.subscribe = async function subscribe(options = {}) {
    calls.subscribe += 1;
    if (Notification.permission !== 'granted')
      throw new DOMException('Registration failed - permission denied', 'NotAllowedError');
    if (!(await ownRegistration(this))?.active)
      throw new DOMException('Subscription failed - no active Service Worker', 'AbortError');
    if (options.userVisibleOnly !== true)
      throw new DOMException('userVisibleOnly must be true', 'NotAllowedError');
    const raw = options.applicationServerKey;
    const bytes =
      typeof raw === 'string'
        ? fromB64url(raw)
        : ArrayBuffer.isView(raw)
          ? new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength)
          : new Uint8Array(raw ?? []);
    if (bytes.length !== 65 || bytes[0] !== 4)
      throw new DOMException('applicationServerKey is not a P-256 key', 'InvalidAccessError');
    const key = toB64url(bytes);
    await window.__loopbackPushSubscribed(id, key);
    localStorage.setItem(STORED, key);
    return subscription(key);
  };
  PushManager.prototype.getSubscription = async function getSubscription() {
    const key = localStorage.getItem(STORED);
    return key && (await ownRegistration(this)) ? subscription(key) : null;
  };
}

describe('Notifications by Web Push in a browser', { skip }, () => {
  let pushService;
  let feeds;
  let server;
  let browser;

  before(async () => {
    [pushService, feeds] = await Promise.all([loopbackPushService(), breakingFeeds()]);
    [server, browser] = await Promise.all([
      startServer({
        demo: true,
        // A notifier round a second (default 60 s); the loopback push service is on
        // 127.0.0.1 over plain http, which D314 refuses unless told.
        args: ['--push-interval', '1', '--allow-private-push'],
        env: { LOCALWIRE_ALLOW_PRIVATE_FEEDS: '1' },
        async prepare(dataDir) {
          const file = join(dataDir, 'breaking.opml');
          await writeFile(file, feeds.opml);
          await promisify(execFile)(binary, ['import-opml', file, '--data-dir', dataDir], {
            env: { ...process.env, LOCALWIRE_LOG: 'warn' },
          });
        },
      }),
      launchBrowser(),
    ]);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    await feeds?.stop();
    await pushService?.stop();
  });

  it("the loopback push service decrypts RFC 8291's worked example (§5)", () => {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from('q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94', 'base64url'));
    const body = Buffer.from(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLoc' +
        'InmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBW' +
        'LVWGNWQexSgSxsj_Qulcy4a-fN',
      'base64url',
    );
    const auth = Buffer.from('BTBZMqHH6r4Tts7J_aSIgg', 'base64url');
    assert.equal(
      decryptPush({ ecdh, auth }, body).toString(),
      'When I grow up, I want to be a watermelon',
    );
  });

  it('issue 19: a guest turns notifications on from /local, gets a breaking story through the service worker, and turns them off', async () => {
    const { context, page, problems } = await newPage(browser, { viewport: DESKTOP });
    const origin = server.url;
    const sub = pushService.subscription();
    try {
      // The reader allows notifications when asked; Chromium shows no prompt headless.
      await context.grantPermissions(['notifications'], { origin });
      await context.exposeFunction('__loopbackPushSubscribed', (id, key) =>
        pushService.subscribed(id, key),
      );
      await context.exposeFunction('__loopbackPushUnsubscribed', (id) =>
        pushService.unsubscribed(id),
      );
      await context.addInitScript(standInForThePushService, sub);

      await page.goto(`${origin}/local`);
      const token = decodeURIComponent((await waitForCookie(context, 'token')).value);
      const deviceId = decodeURIComponent((await waitForCookie(context, 'deviceId')).value);
      await waitForCookie(context, 'inited');
      const call = async (path, body = {}) => {
        const answer = await signedPost(origin, path, { deviceId, token, body });
        assert.equal(answer.status, 200, `${path}: ${JSON.stringify(answer.body)}`);
        return answer.body.data;
      };

      // The journey must not depend on the hour it runs at: the guest's quiet hours
      // (default 22:00–07:00 in Washington's time) are turned off (equal start and end,
      // D313). Guests have no settings form yet (docs/issue-19-status.md, item 4), so this
      // goes through the API the form uses.
      const defaults = await call('/user/push/settings');
      assert.equal(defaults.subscriptions, 0);
      await call('/user/push/settings/update', {
        ...defaults,
        quiet_start: '00:00',
        quiet_end: '00:00',
      });

      // The switch is below the feed, after the first paint. Nothing was asked, no
      // service worker registered and nothing subscribed before the reader clicks.
      const turnOn = page.getByRole('button', { name: 'Turn on notifications' });
      await turnOn.waitFor();
      await sleep(500);
      assert.deepEqual(await page.evaluate(() => ({ ...window.__pushCalls })), {
        requestPermission: 0,
        subscribe: 0,
        unsubscribe: 0,
      });
      // The worker is there for reading offline (D390), but nothing is subscribed.
      assert.equal(
        await page.evaluate(async () =>
          Boolean(await (await navigator.serviceWorker.ready).pushManager.getSubscription()),
        ),
        false,
        'no push subscription before the reader asks',
      );

      const clicked = Date.now();
      await turnOn.click();
      await page
        .getByRole('status')
        .filter({ hasText: 'Notifications are on in this browser.' })
        .waitFor()
        .catch(async (error) => {
          const state = await page.evaluate(async () => {
            const reg = await navigator.serviceWorker.getRegistration();
            return {
              calls: window.__pushCalls,
              toggle: document.querySelector('.push-toggle')?.outerHTML,
              worker: reg && [reg.installing?.state, reg.waiting?.state, reg.active?.state],
            };
          });
          throw new Error(`${error.message}\nafter the click: ${JSON.stringify(state)}`);
        });
      assert.deepEqual(await page.evaluate(() => ({ ...window.__pushCalls })), {
        requestPermission: 1,
        subscribe: 1,
        unsubscribe: 0,
      });
      const registration = await page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration();
        return reg && { scope: reg.scope, script: reg.active?.scriptURL, state: reg.active?.state };
      });
      assert.deepEqual(registration, {
        scope: `${origin}/`,
        script: `${origin}/sw.js`,
        state: 'activated',
      });

      // The server has the subscription, made with its own key.
      const { public_key: serverKey } = await (
        await fetch(`${origin}/api/push/key`)
      )
        .json()
        .then((envelope) => envelope.data);
      assert.equal((await call('/user/push/settings')).subscriptions, 1);

      // The notifier pushes a breaking story of Washington to it: signed with the server's
      // key for the push service's origin, encrypted for this browser.
      const [push] = await until('a push reaches the loopback push service', () => {
        const refused = pushService.refused();
        if (refused.length > 0) throw new Error(`refused: ${JSON.stringify(refused)}`);
        const got = pushService.received(sub.id);
        return got.length > 0 && got;
      });
      const pushSeconds = (push.at - clicked) / 1000;
      assert.deepEqual(pushService.refused(), [], 'the push service refused nothing');
      assert.equal(push.vapidKey, serverKey);
      assert.equal(push.ttl, 6 * 3600, 'TTL 6 h (D311)');
      assert.equal(push.urgency, 'normal');
      const { title, body, url, tag } = push.payload;
      assert.equal(typeof title, 'string');
      assert.ok(title.length > 0, 'a title');
      assert.ok(typeof body === 'string' && body.length > 0, 'a body');
      // An English reader: the article's path without a locale prefix.
      const [, newsId] = /^\/article\/(\d+)$/.exec(url) ?? [];
      assert.ok(newsId, `url ${url} is an article's path in the reader's locale`);
      // One notification per story, however many items it gains, and a push service
      // replaces rather than stacks (Topic; D311).
      assert.match(tag, /^story-\d+$/);
      // The Topic carries the story's id (its first stored item) while the tag carries
      // the pushed item's id, so the two differ when another item of the story is the one
      // pushed (D311 names both after the story); only their shapes are checked here.
      assert.match(push.topic ?? '', /^s\d+$/);
      // The breaking story: one of the three Washington reports, with its publisher.
      const report = BREAKING.find(([, reported]) => reported === title);
      assert.ok(report, `"${title}" is the breaking Washington story`);
      assert.ok(body.startsWith(`${report[0]} · `), `the body "${body}" names the publisher`);
      const detail = await (await fetch(`${origin}/api/news/detail?news_id=${newsId}`)).json();
      assert.equal(detail.code, 0, JSON.stringify(detail));
      assert.equal(detail.data.news.lang, 'en', 'a story in the reader language');
      const fullTitle = detail.data.news.title.trim();
      assert.ok(
        title === fullTitle || (title.endsWith('…') && fullTitle.startsWith(title.slice(0, -1))),
        `the title "${title}" is the article's "${fullTitle}"`,
      );
      console.log(`the push reached the loopback push service ${pushSeconds} s after the click`);

      // What was sent is on the reader's list (§7.6).
      const sent = await call('/news/feed/byNotification', { size: 20 });
      assert.ok(
        sent.list.some((item) => String(item.news_id) === newsId),
        `byNotification lists ${newsId}: ${JSON.stringify(sent.list.map((i) => i.news_id))}`,
      );

      // As the push service would wake the browser: the decrypted message goes to the
      // real service worker, which shows it.
      const cdp = await context.newCDPSession(page);
      const registrations = [];
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) =>
        registrations.push(...updated),
      );
      // What the worker went through, for the message when it shows nothing.
      const workerLog = [];
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) =>
        workerLog.push(...versions.map((v) => `${v.versionId} ${v.runningStatus} ${v.status}`)),
      );
      cdp.on('ServiceWorker.workerErrorReported', ({ errorMessage }) =>
        workerLog.push(`error: ${errorMessage.errorMessage} (${errorMessage.sourceURL})`),
      );
      await cdp.send('ServiceWorker.enable');
      const { registrationId } = await until('the service worker registration over CDP', () =>
        registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted),
      );
      const notifications = () =>
        page.evaluate(async () => {
          const reg = await navigator.serviceWorker.getRegistration();
          const all = await reg.getNotifications();
          return (
            all.length > 0 &&
            all.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }))
          );
        });
      // Now and then (3 runs in 47 here) headless Chromium shows nothing for a message
      // delivered this way, the worker running and reporting no error; a second delivery
      // of the same message shows it. A push service redelivers what the browser did not
      // take, so this one does too, at most three times; the tag makes a repeat replace,
      // so exactly one notification is expected either way.
      let shown = false;
      for (let attempt = 1; !shown; attempt++) {
        await cdp.send('ServiceWorker.deliverPushMessage', {
          origin,
          registrationId,
          data: push.text,
        });
        shown = await until(
          () => `the service worker shows the notification; the worker: ${workerLog.join('; ')}`,
          notifications,
          attempt < 3 ? 5_000 : 30_000,
        ).catch((error) => {
          if (attempt >= 3) throw error;
          console.log(`delivery ${attempt} showed nothing; the worker: ${workerLog.join('; ')}`);
          return false;
        });
      }
      assert.deepEqual(shown, [{ title, body, tag, data: { url } }]);
      await cdp.detach();

      // A reload finds notifications still on.
      await page.reload();
      const turnOff = page.getByRole('button', { name: 'Turn off notifications' });
      await turnOff.waitFor();
      await page
        .getByRole('status')
        .filter({ hasText: 'Notifications are on in this browser.' })
        .waitFor();

      // Turned off: the browser gives the subscription up (its push service answers 410
      // from then on) and the server forgets it. (The one breaking story was pushed
      // already and a story reaches a reader once, D312, so "no more pushes" would prove
      // nothing here; the server's own count does.)
      await turnOff.click();
      await turnOn.waitFor();
      assert.equal((await page.evaluate(() => ({ ...window.__pushCalls }))).unsubscribe, 1);
      assert.equal(
        await page.evaluate(async () =>
          Boolean(
            await (await navigator.serviceWorker.getRegistration()).pushManager.getSubscription(),
          ),
        ),
        false,
      );
      assert.equal((await call('/user/push/settings')).subscriptions, 0);
      await page.reload();
      await turnOn.waitFor();
      assert.deepEqual(problems, [], 'no console errors or CSP violations');
    } finally {
      await context.close();
    }
  });
});
