// Shared set-up for the end-to-end journeys: start the real `localwire` binary on a free
// port with a fresh data directory, and one headless Chromium per test file.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createInterface } from 'node:readline';
import {
  createDecipheriv,
  createECDH,
  createHash,
  createHmac,
  createPublicKey,
  randomBytes,
  verify,
} from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const screenshotDir = join(webDir, 'e2e', 'screenshots');
export const binary = resolve(webDir, process.env.LOCALWIRE_BIN ?? '../target/release/localwire');
// Every journey runs the server with a word other than the default (issue 16, defect 1):
// the app must sign with the word the server runs with, not the one it was built with.
export const signWord = process.env.LOCALWIRE_SIGN_WORD ?? 'e2e-not-the-default-word';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let weatherProviders;
/**
 * A loopback Open-Meteo, NWS and MSC GeoMet (one per test process) answering
 * `/v1/forecast`, `/alerts/active` and `/collections/weather-alerts/items`: the machine is
 * offline, and the home's weather widget and alert check must find their answers as they
 * would in production instead of logging a 503. The alert issuers answer an empty
 * collection (no banner over the journeys' pages) unless asked under `/with-alerts`, where
 * they answer the providers' test fixtures (`startServer({ alerts: true })`).
 */
function loopbackWeather() {
  weatherProviders ??= new Promise((resolveUrl) => {
    const fixtures = resolve(webDir, '../crates/providers/tests/fixtures');
    const answers = [
      [
        '/v1/forecast',
        'application/json',
        readFileSync(join(fixtures, 'open-meteo-forecast.json')),
      ],
      [
        '/alerts/active',
        'application/geo+json',
        readFileSync(join(fixtures, 'nws-alerts-active.geojson')),
      ],
      [
        '/collections/weather-alerts/items',
        'application/geo+json',
        readFileSync(join(fixtures, 'eccc-weather-alerts.geojson')),
      ],
    ];
    const none = Buffer.from('{"type":"FeatureCollection","features":[]}');
    const server = createHttpServer((req, res) => {
      const withAlerts = req.url?.startsWith('/with-alerts/');
      const url = withAlerts ? req.url.slice('/with-alerts'.length) : req.url;
      const answer = answers.find(([path]) => url?.startsWith(path));
      if (answer && !withAlerts && answer[0] !== '/v1/forecast') {
        res.writeHead(200, { 'content-type': answer[1] });
        res.end(none);
      } else if (answer) {
        res.writeHead(200, { 'content-type': answer[1] });
        res.end(answer[2]);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    server.unref();
    server.listen(0, '127.0.0.1', () => resolveUrl(`http://127.0.0.1:${server.address().port}`));
  });
  return weatherProviders;
}

let onThisDay;
/**
 * A loopback Wikipedia on-this-day feed (`/{lang}/feed/onthisday/all/{MM}/{DD}`) answering
 * every date with the demo corpus's days (origin in data/demo/onthisday/README.md); pass
 * its address as `--onthisday-url`.
 */
export function loopbackOnThisDay() {
  onThisDay ??= new Promise((resolveUrl) => {
    const days = Object.fromEntries(
      ['en', 'es', 'fr'].map((lang) => [
        lang,
        readFileSync(resolve(webDir, `../data/demo/onthisday/onthisday-${lang}-07-01.json`)),
      ]),
    );
    const server = createHttpServer((req, res) => {
      const match = /^\/(en|es|fr)\/feed\/onthisday\/all\/\d\d\/\d\d$/.exec(req.url ?? '');
      if (match) {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(days[match[1]]);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    server.unref();
    server.listen(0, '127.0.0.1', () =>
      resolveUrl(`http://127.0.0.1:${server.address().port}/{lang}/feed/onthisday`),
    );
  });
  return onThisDay;
}

const b64url = (bytes) => Buffer.from(bytes).toString('base64url');
const fromB64url = (text) => Buffer.from(String(text).replace(/=+$/, ''), 'base64url');
const hmac = (key, ...parts) => {
  const mac = createHmac('sha256', key);
  for (const part of parts) mac.update(part);
  return mac.digest();
};

/**
 * RFC 8292 §3: `Authorization: vapid t=<JWT>, k=<key>`. The JWT must be ES256, signed by
 * k, for this push service's origin (aud), expire within 24 h and name its sender (sub,
 * mailto: or https:). Returns k, or throws why not.
 */
export function checkVapid(header, origin) {
  if (!header?.startsWith('vapid ')) throw new Error('Authorization is not vapid');
  const fields = Object.fromEntries(
    header
      .slice('vapid '.length)
      .split(',')
      .map((part) => part.trim())
      .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]),
  );
  const { t, k } = fields;
  if (!t || !k) throw new Error('Authorization has no t= or no k=');
  const key = fromB64url(k);
  if (key.length !== 65 || key[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  const publicKey = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: b64url(key.subarray(1, 33)),
      y: b64url(key.subarray(33, 65)),
    },
    format: 'jwk',
  });
  const [head, claims, signature] = t.split('.');
  if (!signature) throw new Error('the JWT has no signature');
  const signed = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key: publicKey, dsaEncoding: 'ieee-p1363' },
    fromB64url(signature),
  );
  if (!signed) throw new Error('the JWT signature does not verify with k');
  if (JSON.parse(fromB64url(head).toString()).alg !== 'ES256') throw new Error('not ES256');
  const { aud, exp, sub } = JSON.parse(fromB64url(claims).toString());
  if (aud !== origin) throw new Error(`the JWT's aud ${aud} is not ${origin}`);
  const now = Date.now() / 1000;
  if (!(exp > now && exp <= now + 24 * 3600))
    throw new Error(`the JWT's exp ${exp} is out of range`);
  if (!/^(mailto|https):/.test(sub ?? '')) throw new Error(`the JWT's sub ${sub} is no address`);
  return k;
}

/**
 * RFC 8291 §3.4 over RFC 8188 (aes128gcm, one record): ECDH of the browser's private key
 * with the sender's key from the header, HKDF-SHA-256 with the auth secret, AES-128-GCM.
 */
export function decryptPush(browser, body) {
  if (body.length < 21) throw new Error('the body is shorter than its header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  if (idLength !== 65) throw new Error('the key id is not a P-256 public key');
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  if (record.length < 17) throw new Error('the record is shorter than its tag');
  if (record.length > recordSize) throw new Error('more than one record');
  const shared = browser.ecdh.computeSecret(senderKey);
  const prkKey = hmac(browser.auth, shared);
  const ikm = hmac(
    prkKey,
    Buffer.from('WebPush: info\0'),
    browser.ecdh.getPublicKey(),
    senderKey,
    Buffer.from([1]),
  );
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, Buffer.from('Content-Encoding: aes128gcm\0'), Buffer.from([1]));
  const nonce = hmac(prk, Buffer.from('Content-Encoding: nonce\0'), Buffer.from([1]));
  const decipher = createDecipheriv('aes-128-gcm', cek.subarray(0, 16), nonce.subarray(0, 12));
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([
    decipher.update(record.subarray(0, record.length - 16)),
    decipher.final(),
  ]);
  // The last record ends with the delimiter 2, then any zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (end < 0 || plain[end] !== 2) throw new Error("the last record's delimiter is not 2");
  return plain.subarray(0, end);
}

/**
 * A loopback Web Push service (RFC 8030) speaking the real protocol, in Node like
 * `fake_providers::push` is in Rust: `POST /push/{id}` with `TTL`, `Content-Encoding:
 * aes128gcm` and `Authorization: vapid t=…, k=…`; it checks the VAPID JWT, that k is the
 * key the browser subscribed with (RFC 8292 §4.2, else 403), decrypts the body with the
 * subscription's private key and auth secret and answers 201, keeping the plaintext.
 * A subscription the browser gave up answers 410 Gone, as a real push service does.
 *
 * `subscription()` plays the browser's push service at subscribe time: it makes the P-256
 * key pair and auth secret (the private key stays here) and returns what
 * `PushSubscription.toJSON()` would, plus its id.
 */
export function loopbackPushService() {
  const browsers = new Map();
  const received = [];
  const refused = [];
  const requests = [];
  let origin = '';
  let next = 1;
  const server = createHttpServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const match = /^\/push\/(\d+)$/.exec(req.url ?? '');
      const id = match ? Number(match[1]) : 0;
      const browser = browsers.get(id);
      requests.push({ id, at: Date.now() });
      const answer = (status, why) => {
        if (why) refused.push({ id, status, why });
        res.writeHead(status);
        res.end();
      };
      if (req.method !== 'POST' || !browser) return answer(404);
      if (browser.gone) return answer(410);
      try {
        const ttl = Number(req.headers.ttl);
        if (req.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0)
          throw new Error('no TTL header');
        if (req.headers['content-encoding'] !== 'aes128gcm')
          throw new Error('Content-Encoding is not aes128gcm');
        const vapidKey = checkVapid(req.headers.authorization, origin);
        if (browser.applicationServerKey && vapidKey !== browser.applicationServerKey)
          return answer(403, 'k is not the key the browser subscribed with');
        const text = decryptPush(browser, Buffer.concat(chunks)).toString('utf8');
        received.push({
          id,
          text,
          payload: JSON.parse(text),
          ttl,
          topic: req.headers.topic ?? null,
          urgency: req.headers.urgency ?? null,
          vapidKey,
          at: Date.now(),
        });
        return answer(201);
      } catch (error) {
        return answer(400, String(error.message ?? error));
      }
    });
  });
  server.unref();
  return new Promise((resolveService) => {
    server.listen(0, '127.0.0.1', () => {
      origin = `http://127.0.0.1:${server.address().port}`;
      resolveService({
        origin,
        subscription() {
          const ecdh = createECDH('prime256v1');
          ecdh.generateKeys();
          const id = next++;
          const browser = { ecdh, auth: randomBytes(16), applicationServerKey: null, gone: false };
          browsers.set(id, browser);
          return {
            id,
            endpoint: `${origin}/push/${id}`,
            keys: { p256dh: b64url(ecdh.getPublicKey()), auth: b64url(browser.auth) },
          };
        },
        /** The browser subscribed with this VAPID key (base64url). */
        subscribed(id, applicationServerKey) {
          const browser = browsers.get(id);
          browser.applicationServerKey = applicationServerKey;
          browser.gone = false;
        },
        /** The browser unsubscribed: pushes to it answer 410 from now on. */
        unsubscribed(id) {
          browsers.get(id).gone = true;
        },
        received: (id) => received.filter((r) => r.id === id),
        refused: () => [...refused],
        requests: (id) => requests.filter((r) => r.id === id),
        stop: () => new Promise((r) => server.close(r)),
      });
    });
  });
}

/** A loopback upstream that takes every request and never answers (a hung provider). */
export function hangingUpstream() {
  return new Promise((resolveUrl) => {
    const server = createHttpServer(() => {});
    server.unref();
    server.listen(0, '127.0.0.1', () => resolveUrl(`http://127.0.0.1:${server.address().port}`));
  });
}

/**
 * Starts `localwire serve` (with `demo: true`, `serve --demo`: the built-in demo corpus is
 * ingested before it listens; `alerts: true`: the loopback NWS and GeoMet answer the
 * fixtures' alerts; `args` are more flags, `env` more environment; `prepare(dataDir)` runs
 * before the server starts, e.g. `localwire import-opml`) and waits for GET /healthz to
 * answer 200 (at most 60 s).
 */
export async function startServer({
  demo = false,
  alerts = false,
  args: extraArgs = [],
  env = {},
  prepare,
} = {}) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'localwire-e2e-'));
  if (prepare) await prepare(dataDir);
  const output = [];
  const args = [
    'serve',
    '--addr',
    `127.0.0.1:${port}`,
    '--data-dir',
    dataDir,
    '--sign-word',
    signWord,
  ];
  if (demo) args.push('--demo');
  if (!demo) {
    const providers = await loopbackWeather();
    if (!extraArgs.includes('--weather-url')) args.push('--weather-url', providers);
    for (const flag of ['--nws-url', '--eccc-url']) {
      if (!extraArgs.includes(flag))
        args.push(flag, alerts ? `${providers}/with-alerts` : providers);
    }
  }
  args.push(...extraArgs);
  // Sign-in needs the public address, never the Host header (D362).
  const signIn = ['--google-client-id', '--facebook-app-id'].some((f) => extraArgs.includes(f));
  if (signIn && !extraArgs.includes('--public-url'))
    args.push('--public-url', `http://127.0.0.1:${port}`);
  const child = owned(
    spawn(binary, args, {
      env: { ...process.env, LOCALWIRE_LOG: process.env.LOCALWIRE_LOG ?? 'warn', ...env },
    }),
  );
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) {
      throw new Error(
        `localwire exited early (${JSON.stringify(exited)}):\n${Buffer.concat(output)}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`localwire did not become healthy:\n${Buffer.concat(output)}`);
    }
    await sleep(100);
  }
  return {
    url,
    output: () => Buffer.concat(output).toString(),
    async stop() {
      if (!exited) {
        const done = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `userAgent` sets the browser's own (a context's override does not reach the requests
 * the browser sends after a page is gone, such as beacons).
 */
export async function launchBrowser({ userAgent } = {}) {
  await mkdir(screenshotDir, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: userAgent ? [...CHROMIUM_ARGS, `--user-agent=${userAgent}`] : CHROMIUM_ARGS,
  });
}

/** A fresh context: its own cookies, English browser, collecting CSP and console errors. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  if (options.javaScriptEnabled !== false) {
    // The server writes the first screen and the app replaces it once it has painted
    // (D156): a journey starts when the app is running, not on the server's markup.
    for (const name of ['goto', 'reload']) {
      const navigate = page[name].bind(page);
      page[name] = async (...args) => {
        const response = await navigate(...args);
        await waitForApp(page);
        return response;
      };
    }
  }
  return { context, page, problems };
}

/** Waits until the app has rendered (it sets `html[data-app]`, D156). */
export async function waitForApp(page, timeout = 15_000) {
  await page.waitForSelector('html[data-app]', { state: 'attached', timeout });
}

export async function cookieValue(context, name) {
  const cookies = await context.cookies();
  return cookies.find((c) => c.name === name);
}

/** Waits until the page has set a cookie (the SPA's app init writes them). */
export async function waitForCookie(context, name, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cookie = await cookieValue(context, name);
    if (cookie?.value) return cookie;
    if (Date.now() > deadline) throw new Error(`cookie ${name} was not set`);
    await sleep(100);
  }
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A signed non-GET API call, built as SPEC §7 / D6 describe it, independent of the SPA. */
export async function signedPost(baseUrl, path, { deviceId, token, body = {} }) {
  const base = JSON.stringify({
    device_id: deviceId,
    os: 3,
    app_lang: 'en',
    package_name: 'localwire.web',
    country: 'US',
    app_version: '30010200',
    time_zone: 'GMT+00:00',
  });
  const nonce = Array.from(randomBytes(10), (b) => ALPHANUMERIC[b % 62]).join('');
  const sign = createHash('md5')
    .update(base + path + signWord + deviceId)
    .digest('hex')
    .toUpperCase();
  const headers = {
    'content-type': 'application/json',
    base,
    timestamp: String(Date.now()),
    nonce,
    sign,
  };
  if (token) headers.token = token;
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The loopback Google and Facebook (`fake-providers`, built beside `localwire`). */
export const fakeProvidersBinary =
  process.env.FAKE_PROVIDERS_BIN ?? join(dirname(binary), 'fake-providers');

/** Why journeys that need both binaries are skipped, or false when they can run. */
export function skipWithoutBinaries() {
  return existsSync(binary) && existsSync(fakeProvidersBinary)
    ? false
    : `no localwire or fake-providers binary beside ${binary} (build them first)`;
}

/**
 * A child process that ends with this test file's process. A setup that throws leaves its
 * children running; the runner then ends the file (`--test-force-exit`, so a broken setup
 * fails instead of hanging CI) and this kills what the file started.
 */
function owned(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}
const children = new Set();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `fake-providers --port 0`; resolves with its JSON line (URLs, client ids). */
export async function startFakeProviders() {
  const child = owned(spawn(fakeProvidersBinary, ['--port', '0']));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake-providers exited (${code})`)));
  });
  return { ...JSON.parse(first), stop: () => child.kill('SIGTERM') };
}

/** Tells the loopback providers who signs in next, or resets them (`{ reset: true }`). */
export async function controlProviders(fakes, body) {
  const response = await fetch(fakes.control_url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`fake-providers control answered ${response.status}`);
}

/** `localwire serve` flags that point sign-in at the loopback providers. */
export function providerArgs(fakes, { facebook = true } = {}) {
  const args = [
    '--google-client-id',
    fakes.google_client_id,
    '--google-client-secret',
    fakes.google_client_secret,
    '--google-issuer',
    fakes.google_issuer,
  ];
  if (facebook) {
    args.push(
      '--facebook-app-id',
      fakes.facebook_app_id,
      '--facebook-app-secret',
      fakes.facebook_app_secret,
      '--facebook-graph-url',
      fakes.facebook_graph_url,
      '--facebook-dialog-url',
      fakes.facebook_dialog_url,
    );
  }
  return args;
}
