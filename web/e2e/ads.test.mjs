// Ad slots in Chromium (issue 21, D345) against the release binary started with
// `serve --demo --ads FILE`: the operator's text ads show in their slots, nothing but our
// own server is asked for anything, and no slot moves the page.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { binary, launchBrowser, newPage, startServer } from './helpers.mjs';

const skip = existsSync(binary) ? false : `no localwire binary at ${binary} (build it first)`;

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const AD_CLIENT = {
  client_id: 'ca-e2e-1',
  creatives: [
    {
      id: 'feed-1',
      placement: 'feed',
      rule_id: 'r-bakery',
      sponsor: 'Main St Bakery',
      title: 'Fresh bread every morning, baked two streets from you since 1987',
      url: 'https://bakery.example/',
      revenue: 0.12,
      floor_price: 0.05,
    },
    {
      id: 'article-1',
      placement: 'article',
      rule_id: 'r-hardware',
      sponsor: 'Corner Hardware',
      title: 'Spring sale on garden tools',
      url: 'https://hardware.example/sale',
      revenue: 0.3,
      floor_price: 0.1,
    },
  ],
};

/** Sums layout shifts not caused by input, from the start of the page (buffered). */
const RECORD_SHIFTS = () => {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) window.__shifts.push(entry.value);
    }
  }).observe({ type: 'layout-shift', buffered: true });
};

describe('Ad slots with an ad client (D345)', { skip }, () => {
  let server;
  let browser;
  let dir;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'localwire-ads-'));
    const file = join(dir, 'ads.json');
    await writeFile(file, JSON.stringify(AD_CLIENT));
    [server, browser] = await Promise.all([
      startServer({ demo: true, args: ['--ads', file] }),
      launchBrowser(),
    ]);
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('d345 slots show the text ads, ask nothing of anyone else, and move nothing', async () => {
    const response = await fetch(`${server.url}/api/news/feed?channel=latest&size=20`);
    const { data } = await response.json();
    const article = data.list[0];
    const cases = [
      { path: '/latest', title: /Fresh bread every morning/, sponsor: 'Main St Bakery' },
      {
        path: `/article/${article.news_id}`,
        title: /Spring sale on garden tools/,
        sponsor: 'Corner Hardware',
      },
    ];
    for (const viewport of [PHONE, DESKTOP]) {
      for (const { path, title, sponsor } of cases) {
        const label = `${path} at ${viewport.width}px`;
        const { context, page, problems } = await newPage(browser, { viewport });
        const elsewhere = [];
        page.on('request', (request) => {
          const url = request.url();
          if (!url.startsWith(server.url) && !/^(data|blob):/.test(url)) elsewhere.push(url);
        });
        try {
          await page.addInitScript(RECORD_SHIFTS);
          await page.goto(`${server.url}${path}`);
          const slot = page.getByRole('complementary', { name: 'Sponsored' }).first();
          await slot.waitFor({ timeout: 10_000 });
          const link = slot.getByRole('link', { name: title });
          assert.equal(await link.getAttribute('rel'), 'sponsored noopener noreferrer', label);
          assert.equal(await link.getAttribute('target'), '_blank', label);
          assert.ok(await slot.getByText(`From ${sponsor}`).isVisible(), label);
          const before = await slot.boundingBox();
          await slot.scrollIntoViewIfNeeded();
          await page.waitForTimeout(500);
          const after = await slot.boundingBox();
          assert.equal(Math.round(after.height), Math.round(before.height), `${label}: height`);
          const shifts = await page.evaluate(() => window.__shifts);
          const cls = shifts.reduce((a, b) => a + b, 0);
          assert.ok(cls < 0.01, `${label}: layout shift ${cls} (${JSON.stringify(shifts)})`);
          assert.deepEqual(elsewhere, [], `${label}: only our own server is asked`);
          assert.deepEqual(problems, [], `${label}: no console errors`);
        } finally {
          await context.close();
        }
      }
    }
  });
});
