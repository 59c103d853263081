// Installed and offline (issue 31) in Chromium against the release binary with the demo
// corpus: the service worker keeps the reader's home and the stories they opened, the
// app says honestly that it is offline, and a save, a reaction and a follow made offline
// reach the server once when the connection returns (nothing lost, nothing doubled).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  cookieValue,
  launchBrowser,
  newPage,
  signedPost,
  skipWithoutBinaries,
  startServer,
  waitForCookie,
} from './helpers.mjs';

if (process.env.LOCALWIRE_BIN && skipWithoutBinaries()) {
  throw new Error(skipWithoutBinaries());
}
const skip = skipWithoutBinaries();

/** Waits until the service worker controls the page (it claims open pages at once). */
async function controlled(page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, {
    timeout: 20_000,
  });
}

describe('Installed and offline', { skip }, () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer({ demo: true });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("reads the reader's home and an opened story offline, and sends what was changed there once back", async () => {
    const { context, page, problems } = await newPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    try {
      await page.goto(`${server.url}/`);
      await waitForCookie(context, 'inited');
      await controlled(page);
      // The first load came before the worker: load home once more, now through it.
      await page.reload();
      const card = page.locator('main a.news-card__link').first();
      await card.waitFor();
      const href = await card.getAttribute('href');
      const newsId = Number(/\/article\/(\d+)/.exec(href)?.[1]);
      assert.ok(newsId > 0, `a story link: ${href}`);
      // Opened from its card, as a reader does (a client-side navigation).
      await card.click();
      await page.waitForURL(/\/article\/\d+/);
      const title = await page.locator('main .article #article-title').textContent();
      await page.getByRole('button', { name: 'Save story' }).waitFor();
      await page
        .getByRole('group', { name: 'Reactions' })
        .getByRole('button', { name: /^Love \(\d+\)$/ })
        .waitFor();
      const indicator = page.getByRole('status').filter({ hasText: /offline|online/ });
      assert.equal(await indicator.count(), 0, 'no offline indicator while online');

      await context.setOffline(true);
      // Home, from the worker's copy, with the honest indicator.
      await page.goto(`${server.url}/`);
      await page.getByText("You're offline.").waitFor();
      await page.locator('main a.news-card__link').first().waitFor();
      // The story, opened afresh by its address: home stands in, the app draws the story
      // from the kept read.
      await page.goto(`${server.url}${href}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.getByText("You're offline.").waitFor();

      // Changes made offline wait, and show as made.
      await page.getByRole('button', { name: 'Save story' }).click();
      await page.getByRole('button', { name: 'Saved', pressed: true }).waitFor();
      await page.getByText("Changes to send when you're back online: 1").waitFor();
      const reactions = page.getByRole('group', { name: 'Reactions' });
      await reactions.getByRole('button', { name: /^Love \(\d+\)$/ }).click();
      await reactions.getByRole('button', { name: /^Love \(\d+\)$/, pressed: true }).waitFor();
      await page.getByText("Changes to send when you're back online: 2").waitFor();
      const waiting = await page.evaluate(() => JSON.parse(localStorage.getItem('lw:outbox')));
      assert.deepEqual(
        waiting.map((e) => e.key),
        [`save:${newsId}`, `react:${newsId}`],
      );

      // Nothing lost: the changes survive a reload made offline.
      await page.reload();
      await page.getByText("Changes to send when you're back online: 2").waitFor();

      // Back online: sent once, and the indicator goes.
      await context.setOffline(false);
      await page.getByText(/^You're offline/).waitFor({ state: 'hidden' });
      await page.waitForFunction(() => localStorage.getItem('lw:outbox') === null, null, {
        timeout: 20_000,
      });
      await indicator.first().waitFor({ state: 'hidden' });

      const deviceId = decodeURIComponent((await cookieValue(context, 'deviceId')).value);
      const token = decodeURIComponent((await cookieValue(context, 'token')).value);
      const saved = await signedPost(server.url, '/user/news/collectList', {
        deviceId,
        token,
        body: { size: 20 },
      });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.deepEqual(
        saved.body.data.list.map((i) => i.news_id),
        [newsId],
        'saved once, on the server',
      );
      const summary = await signedPost(server.url, '/ugc/reactions', {
        deviceId,
        token,
        body: { news_id: newsId },
      });
      assert.equal(summary.body.data.mine, 'love');
      assert.equal(summary.body.data.counts.love, 1, 'one reaction, not two');
      assert.deepEqual(
        // Offline, the browser logs each failed request, and the app its failed user-info
        // call (§8.9 'user error'); nothing else may be logged.
        problems.filter(
          (p) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource|^user error/.test(p),
        ),
        [],
        'no console errors or CSP violations',
      );
    } finally {
      await context.close();
    }
  });

  it('a page never opened on this device, offline, says so in the three languages', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/`);
      await controlled(page);
      await context.setOffline(true);
      // No French home was ever kept here: the offline page answers.
      // (Not `page.goto`: newPage's waits for the app, which this page has not.)
      await page.evaluate(() => window.location.assign('/fr/latest'));
      await page.getByRole('heading', { name: "You're offline" }).waitFor();
      await page.getByRole('heading', { name: 'Vous êtes hors ligne' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
