// Weather alerts journeys (issue 20 ★, D284–D288) in Chromium against the release binary:
// one server whose NWS, GeoMet and Open-Meteo are the loopback stand-ins of helpers.mjs
// (the API tests' fixtures), and one `serve --demo` server with no network at all.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { binary, launchBrowser, newPage, startServer } from './helpers.mjs';

const skip = existsSync(binary) ? false : `no localwire binary at ${binary} (build it first)`;
const DESKTOP = { width: 1280, height: 800 };

describe('Official weather alerts in a browser', { skip }, () => {
  let live;
  let demo;
  let browser;

  before(async () => {
    [live, demo, browser] = await Promise.all([
      startServer({ alerts: true }),
      startServer({ demo: true }),
      launchBrowser(),
    ]);
  });

  after(async () => {
    await browser?.close();
    await live?.stop();
    await demo?.stop();
  });

  it('d288 home shows the most severe NWS alert in a fixed banner that leads to the list on /weather', async () => {
    const { context, page } = await newPage(browser, { viewport: DESKTOP });
    try {
      await page.goto(`${live.url}/`);
      const banner = page.getByRole('region', { name: 'Weather alert for Washington, DC' });
      await banner.waitFor();
      assert.match(await banner.innerText(), /Severe: Winter Storm Warning/);
      // Outside the page's flow: its arrival moves nothing.
      assert.equal(await banner.evaluate((el) => getComputedStyle(el).position), 'fixed');

      await banner.getByRole('link', { name: 'See all alerts (3)' }).click();
      await page.waitForURL(/\/weather#alerts$/);
      const region = page.getByRole('region', { name: 'Official alerts' });
      const alerts = region.getByRole('article');
      await alerts.first().waitFor();
      assert.equal(await alerts.count(), 3, 'the expired advisory and the test message left out');
      const storm = alerts.first();
      assert.match(await storm.innerText(), /^SEVERE/i);
      assert.match(await storm.innerText(), /Issued by NWS Sterling VA/);
      await storm.getByText('Details and what to do').click();
      await storm.getByRole('heading', { name: 'What to do' }).waitFor();
      assert.match(
        (await storm
          .getByRole('link', { name: 'Read it on the issuer’s site' })
          .getAttribute('href')) ?? '',
        /^https:\/\/api\.weather\.gov\/alerts\/urn:oid:/,
      );
      // The forecast is still there, below.
      await page.getByRole('region', { name: 'Next 48 hours' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it('d287 serve --demo shows labelled demo alerts with no network', async () => {
    const { context, page } = await newPage(browser, { viewport: DESKTOP });
    try {
      await page.goto(`${demo.url}/weather`);
      await page.getByText('Demo alerts: made up by this server, not real warnings').waitFor();
      const alerts = page.getByRole('region', { name: 'Official alerts' }).getByRole('article');
      assert.equal(await alerts.count(), 2);
      await page.goto(`${demo.url}/`);
      const banner = page.getByRole('region', { name: 'Weather alert for Washington, DC' });
      await banner.waitFor();
      assert.match(await banner.innerText(), /Demo, not real/);
    } finally {
      await context.close();
    }
  });
});
