// Weather, realtime trends and today in history (issue 20) in Chromium against the release
// binary: the forecast from a loopback Open-Meteo with the °F/°C toggle kept in the `tu`
// cookie, today in history from a loopback Wikipedia feed, both failing soft when their
// provider hangs, and the demo corpus's trends opened to their stories.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  cookieValue,
  hangingUpstream,
  launchBrowser,
  loopbackOnThisDay,
  newPage,
  skipWithoutBinaries,
  startServer,
} from './helpers.mjs';

if (process.env.LOCALWIRE_BIN && skipWithoutBinaries()) {
  throw new Error(skipWithoutBinaries());
}
const skip = skipWithoutBinaries();

async function waitForCookieValue(context, name, value, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while ((await cookieValue(context, name))?.value !== value) {
    if (Date.now() > deadline) throw new Error(`cookie ${name} did not become ${value}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("The reader's place: weather, trends, today in history", { skip }, () => {
  let server;
  let hung;
  let demo;
  let browser;

  before(async () => {
    const stalled = await hangingUpstream();
    [server, hung, demo, browser] = await Promise.all([
      // Its Open-Meteo is the helpers' loopback one (startServer adds it).
      startServer({ args: ['--onthisday-url', await loopbackOnThisDay()] }),
      startServer({ args: ['--weather-url', stalled, '--onthisday-url', stalled] }),
      startServer({ demo: true }),
      launchBrowser(),
    ]);
  });

  after(async () => {
    await browser?.close();
    await Promise.all([server?.stop(), hung?.stop(), demo?.stop()]);
  });

  it('issue 20 /weather shows now, 48 hours and 7 days; Celsius is kept in the tu cookie', async () => {
    const { context, page, problems } = await newPage(browser);
    try {
      await page.goto(`${server.url}/weather`);
      await page.getByRole('heading', { name: /^Now in / }).waitFor();
      const hours = page.getByRole('region', { name: 'Next 48 hours' });
      assert.equal(await hours.getByRole('listitem').count(), 48);
      const days = page.getByRole('region', { name: 'Next 7 days' });
      assert.equal(await days.getByRole('listitem').count(), 7);
      await page.getByText(/Open-Meteo\.com \(CC BY 4\.0\)/).waitFor();
      assert.match(await page.locator('main').innerText(), /\d°F/);

      await page.getByRole('radio', { name: 'Celsius (°C)' }).check();
      await page.getByText(/\d°C/).first().waitFor();
      assert.equal((await cookieValue(context, 'tu'))?.value, 'C');
      // A new visit keeps the reader's unit.
      await page.reload();
      await page.getByRole('heading', { name: /^Now in / }).waitFor();
      assert.ok(await page.getByRole('radio', { name: 'Celsius (°C)' }).isChecked());
      assert.doesNotMatch(await page.locator('main').innerText(), /\d°F/);
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });

  it('issue 20 /today-in-history lists the day with local entries first and the CC BY-SA attribution', async () => {
    const { context, page, problems } = await newPage(browser);
    try {
      // A reader in Canada (§4 country change: Ottawa, Ontario): the day's Ontario entries
      // are theirs.
      await page.goto(`${server.url}/?c=en_CA`);
      await waitForCookieValue(context, 'iso', 'CA');
      await page.goto(`${server.url}/today-in-history`);
      const selected = page.getByRole('region', { name: 'Selected anniversaries' });
      await selected.waitFor();
      for (const name of ['Events', 'Births', 'Deaths', 'Holidays and observances']) {
        await page.getByRole('region', { name }).waitFor();
      }
      // Toronto's first Dominion Day is not the first event of the day in the feed; here it
      // leads, marked in words.
      const first = page.getByRole('region', { name: 'Events' }).getByRole('listitem').first();
      assert.match(await first.innerText(), /About Ottawa and its region/);
      assert.match(await first.innerText(), /Dominion Day/);
      const source = page.getByRole('link', { name: 'From Wikipedia, the free encyclopedia' });
      assert.match(await source.getAttribute('href'), /wikipedia\.org/);
      assert.match(
        await page.getByRole('link', { name: /^Text under CC BY-SA/ }).getAttribute('href'),
        /creativecommons\.org/,
      );
      // The entries' thumbnails live on upload.wikimedia.org, which this offline machine
      // cannot resolve: through the image proxy (D380) each answers 502, and falls back to
      // its placeholder. Nothing else may fail.
      assert.deepEqual(
        problems.filter(
          (p) => !p.includes('net::ERR_NAME_NOT_RESOLVED') && !p.includes('502 (Bad Gateway)'),
        ),
        [],
      );
    } finally {
      await context.close();
    }
  });

  it('issue 20 a hung weather or history provider leaves an "unavailable" state, not a hung page', async () => {
    const { context, page } = await newPage(browser);
    try {
      for (const [path, words] of [
        ['/weather', 'Weather is unavailable right now'],
        ['/today-in-history', 'Today in history is unavailable'],
      ]) {
        const asked = Date.now();
        await page.goto(`${hung.url}${path}`);
        await page.getByRole('alert').filter({ hasText: words }).waitFor({ timeout: 10_000 });
        // The server gives up on its provider within 0.8 s (D281, D290); the page says so
        // instead of waiting the provider's 30 s out. A loose bound: this is not a benchmark.
        assert.ok(Date.now() - asked < 5_000, `${path} took ${Date.now() - asked} ms`);
        // The rest of the page is there: the header's navigation still works.
        await page.getByRole('navigation').first().waitFor();
      }
    } finally {
      await context.close();
    }
  });

  it('issue 20 /realtime-trends lists the demo corpus trends; opening one lists its stories', async () => {
    const { context, page, problems } = await newPage(browser);
    try {
      await page.goto(`${demo.url}/realtime-trends`);
      const list = page.locator('ol.trend-list');
      await list.waitFor();
      const first = list.getByRole('listitem').first();
      const phrase = await first.getByRole('link').innerText();
      assert.match(await first.innerText(), /\d+ stories from \d+ publishers in the last 6 hours/);
      // The sparkline has its words (§ accessibility).
      assert.match(
        await first.getByRole('img').getAttribute('aria-label'),
        /stories in the last 24 hours, per hour: /,
      );
      await first.getByRole('link').click();
      await page.getByRole('heading', { name: `Stories about ${phrase}` }).waitFor();
      assert.ok((await page.locator('main article, main li a[href^="/article/"]').count()) > 0);
      await page.getByRole('link', { name: 'All trends' }).click();
      await list.waitFor();
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  });
});
