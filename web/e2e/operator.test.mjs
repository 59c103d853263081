// The operator's journeys (issue 21) in Chromium against the release binary: a reader's
// queued reports leave by beacon when the page unloads (§4.14, §7.15), and an operator
// signed in with the loopback Google (`fake-providers`) sees them on /admin, exports them as
// NDJSON, and adds, pauses, resumes and removes a feed served by a loopback web server.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  controlProviders,
  launchBrowser,
  newPage,
  providerArgs,
  screenshotDir,
  skipWithoutBinaries,
  startFakeProviders,
  startServer,
  waitForApp,
} from './helpers.mjs';

if (process.env.LOCALWIRE_BIN && skipWithoutBinaries()) {
  throw new Error(skipWithoutBinaries());
}
const skip = skipWithoutBinaries();

const OPERATOR = 'operator@example.com';
const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>The Capital Ledger</title>
<link>https://ledger.example/</link><item><title>Council votes on the budget</title>
<link>https://ledger.example/1</link><guid>1</guid><pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate></item>
</channel></rss>`;

/** A loopback web site: a feed at /feed.xml and a plain page at /elsewhere. */
function loopbackSite() {
  const server = createServer((req, res) => {
    if (req.url === '/feed.xml') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(RSS);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Elsewhere</title><p>Another site.</p>');
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, stop: () => server.close() });
    });
  });
}

describe("The operator's view", { skip }, () => {
  let fakes;
  let site;
  let server;
  let browser;

  before(async () => {
    fakes = await startFakeProviders();
    site = await loopbackSite();
    server = await startServer({
      args: [...providerArgs(fakes), '--admin-emails', OPERATOR],
      // The feed the operator adds is on loopback: let the fetcher reach it.
      env: { LOCALWIRE_ALLOW_PRIVATE_FEEDS: '1' },
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    site?.stop();
    fakes?.stop();
  });

  /** Opens /admin, whose guard asks to sign in, and signs in with the loopback Google as `who`. */
  async function signInAtAdmin(context, page, who) {
    await controlProviders(fakes, { reset: true });
    await controlProviders(fakes, {
      google_user: { ...who, email_verified: true, picture: `${server.url}/static/country/us.png` },
    });
    await page.goto(`${server.url}/admin`);
    const dialog = page.getByRole('dialog', { name: 'Sign in' });
    await dialog.waitFor();
    await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('button', { name: 'Continue with Google' }).click(),
    ]);
  }

  it("a reader's queued page view leaves by beacon on unload, and the operator sees and exports it, then manages a feed", async () => {
    // The reader: a page view is queued (the queue waits 1000 ms for more, §9.11), and the
    // reader leaves for another site before it is sent.
    // Headless Chromium names itself in its user agent and is dropped as a bot (§1.8): the
    // reader has an ordinary browser. Its user agent is the browser's own, because a
    // context's override does not reach a beacon sent after the page is gone.
    const readerBrowser = await launchBrowser({ userAgent: DESKTOP_CHROME });
    const reader = await readerBrowser.newContext({ locale: 'en-US' });
    try {
      const page = await reader.newPage();
      // The page's own report calls (a beacon leaves after the page is gone and is seen
      // by the server only: the export below).
      const reports = [];
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/api/report') reports.push(request.url());
      });
      await page.goto(`${server.url}/latest`);
      await waitForApp(page);
      await page.waitForTimeout(300);
      assert.equal(reports.length, 0, 'nothing sent yet: the queue is still waiting');
      await page.goto(`${site.url}/elsewhere`);
      await page.getByText('Another site.').waitFor();
      assert.deepEqual(reports, [], 'the page sent no report call of its own before it went');
    } finally {
      await readerBrowser.close();
    }

    // The operator signs in from /admin and lands there.
    const { context, page, problems } = await newPage(browser, {
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    try {
      await signInAtAdmin(context, page, {
        sub: '100000000000000000042',
        email: OPERATOR,
        name: 'Olive Operator',
      });
      await page.waitForURL(`${server.url}/admin`, { timeout: 15_000 });

      // Usage: today's page view is counted, the top list names the page, the export has it.
      const usage = page.getByRole('region', { name: 'Usage' });
      await usage.waitFor();
      const today = new Date().toISOString().slice(0, 10);
      await usage.locator('summary').first().click();
      const row = usage.getByRole('row', { name: new RegExp(`^${today}\\b`) });
      await row.waitFor();
      const cells = await row.getByRole('cell').allTextContents();
      assert.ok(Number(cells.at(-2)) >= 1, `page views today: ${cells.join(' | ')}`);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        usage.getByRole('button', { name: 'Export NDJSON' }).click(),
      ]);
      const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n');
      const views = lines.map((l) => JSON.parse(l)).filter((e) => e.event === 'pageView');
      assert.ok(
        views.some((e) => e.fields.page_path === '/latest'),
        'the export holds the page view sent by beacon on unload',
      );
      const usingTime = lines.map((l) => JSON.parse(l)).filter((e) => e.event === 'usingTime');
      assert.equal(usingTime.length, 1, 'hidden then unloaded: the time in view counted once');
      assert.match(download.suggestedFilename(), /^localwire-usage-.*\.ndjson$/);

      // Feeds: none yet; add the loopback feed (named by its own title), pause, resume, remove.
      const feeds = page.getByRole('region', { name: 'Feeds' });
      await feeds.getByText('No feeds yet').waitFor();
      await feeds.getByLabel('Feed address (RSS, Atom or JSON Feed)').fill(`${site.url}/feed.xml`);
      await feeds.getByRole('button', { name: 'Add feed' }).click();
      const table = feeds.getByRole('table');
      await table.getByRole('rowheader', { name: /^The Capital Ledger\b/ }).waitFor();
      await feeds.getByRole('button', { name: /^Pause\b.*The Capital Ledger$/ }).click();
      await feeds.getByRole('button', { name: /^Resume\b.*The Capital Ledger$/ }).waitFor();
      await page.reload();
      await page
        .getByRole('region', { name: 'Feeds' })
        .getByRole('button', { name: /^Resume\b.*The Capital Ledger$/ })
        .waitFor();
      await page.screenshot({ path: join(screenshotDir, 'admin.png'), fullPage: true });
      const feedsAgain = page.getByRole('region', { name: 'Feeds' });
      await feedsAgain.getByRole('button', { name: /^Resume\b.*The Capital Ledger$/ }).click();
      await feedsAgain.getByRole('button', { name: /^Pause\b.*The Capital Ledger$/ }).waitFor();
      await feedsAgain.getByRole('button', { name: /^Remove\b.*The Capital Ledger$/ }).click();
      await page
        .getByRole('alertdialog', { name: 'Remove this feed?' })
        .getByRole('button', { name: 'Remove the feed' })
        .click();
      await feedsAgain.getByText('No feeds yet').waitFor();
      assert.deepEqual(problems, [], 'no console errors or CSP violations');
    } finally {
      await context.close();
    }
  });

  it('a signed-in reader who is not an operator is told how to become one', async () => {
    const { context, page } = await newPage(browser);
    try {
      await signInAtAdmin(context, page, {
        sub: '100000000000000000043',
        email: 'reader@example.com',
        name: 'Rita Reader',
      });
      await page.getByText(/This page is for operators/).waitFor({ timeout: 15_000 });
      assert.equal(new URL(page.url()).pathname, '/admin');
    } finally {
      await context.close();
    }
  });
});
