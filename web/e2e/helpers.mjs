// Shared set-up for the end-to-end journeys: start the real `localwire` binary on a free
// port with a fresh data directory, and one headless Chromium per test file.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createInterface } from 'node:readline';
import { createHash, randomBytes } from 'node:crypto';
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
 * they answer the API tests' fixtures (`startServer({ alerts: true })`).
 */
function loopbackWeather() {
  weatherProviders ??= new Promise((resolveUrl) => {
    const fixtures = resolve(webDir, '../crates/api/tests/fixtures');
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
 * fixtures' alerts; `args` are more flags) and waits for GET /healthz to answer 200 (at most
 * 60 s).
 */
export async function startServer({ demo = false, alerts = false, args: extraArgs = [] } = {}) {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'localwire-e2e-'));
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
  const child = spawn(binary, args, {
    env: { ...process.env, LOCALWIRE_LOG: process.env.LOCALWIRE_LOG ?? 'warn' },
  });
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

export async function launchBrowser() {
  await mkdir(screenshotDir, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
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

/** Starts `fake-providers --port 0`; resolves with its JSON line (URLs, client ids). */
export async function startFakeProviders() {
  const child = spawn(fakeProvidersBinary, ['--port', '0']);
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake-providers exited (${code})`)));
  });
  return { ...JSON.parse(first), stop: () => child.kill('SIGTERM') };
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
