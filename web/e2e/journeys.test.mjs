// End-to-end journeys against the release binary in Chromium (node --test e2e/).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  binary,
  launchBrowser,
  newPage,
  screenshotDir,
  signedPost,
  startServer,
  waitForCookie,
} from './helpers.mjs';

// Without the binary the journeys are skipped, unless LOCALWIRE_BIN names it (as CI does):
// then a missing binary is a failure.
if (process.env.LOCALWIRE_BIN && !existsSync(binary)) {
  throw new Error(`LOCALWIRE_BIN names ${binary}, which does not exist`);
}
const skip = existsSync(binary) ? false : `no localwire binary at ${binary} (build it first)`;

describe('Localwire in a browser', { skip }, () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('§4.2 a first visit gets a guest whose token works on a signed POST /api/user/info', async () => {
    const { context, page, problems } = await newPage(browser);
    try {
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Local news near you' }).waitFor();
      const token = await waitForCookie(context, 'token');
      const deviceId = await waitForCookie(context, 'deviceId');
      assert.equal(token.sameSite, 'Lax');
      assert.equal(token.path, '/');
      // D4: 30 days.
      const days = (token.expires * 1000 - Date.now()) / 86_400_000;
      assert.ok(days > 29 && days <= 30, `token cookie lasts ${days} days`);
      await waitForCookie(context, 'inited');

      const answer = await signedPost(server.url, '/user/info', {
        deviceId: decodeURIComponent(deviceId.value),
        token: decodeURIComponent(token.value),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 0);
      assert.equal(answer.body.data.account_type, 0, 'a guest');
      assert.equal(typeof answer.body.data.id, 'number');
      assert.deepEqual(problems, [], 'no console errors or CSP violations');
    } finally {
      await context.close();
    }
  });

  it('§2.20 /fr/ renders the French interface with <html lang="fr">', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/fr/`);
      await page
        .getByRole('heading', { level: 1, name: 'Nouvelles locales près de chez vous' })
        .waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'fr');
      assert.equal(await page.getAttribute('html', 'dir'), 'ltr');
      assert.ok(await page.getByRole('navigation', { name: 'Principale' }).isVisible());
    } finally {
      await context.close();
    }
  });

  it('§2.21 /?c=es_US ends on the Spanish interface', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/?c=es_US`);
      await page.getByRole('heading', { level: 1, name: 'Noticias locales cerca de ti' }).waitFor();
      const url = new URL(page.url());
      assert.equal(url.pathname, '/es/');
      assert.equal(url.searchParams.get('c'), 'es_US');
      assert.equal(await page.getAttribute('html', 'lang'), 'es');
      const stored = await waitForCookie(context, 'lw_locale');
      assert.equal(stored.value, 'es_US');
    } finally {
      await context.close();
    }
  });

  it('§2.21 a stored lw_locale=fr_CA sends /latest to /fr/latest?c=fr_CA', async () => {
    const { context, page } = await newPage(browser);
    try {
      await context.addCookies([{ name: 'lw_locale', value: 'fr_CA', url: server.url }]);
      await page.goto(`${server.url}/latest`);
      await page.getByRole('heading', { level: 1, name: 'Dernières nouvelles' }).waitFor();
      const url = new URL(page.url());
      assert.equal(url.pathname + url.search, '/fr/latest?c=fr_CA');
    } finally {
      await context.close();
    }
  });

  it("§2.22 an unknown path answers 404 and shows 'Page not found: /no/such/page'", async () => {
    const { context, page } = await newPage(browser);
    try {
      const response = await page.goto(`${server.url}/no/such/page`);
      assert.equal(response.status(), 404);
      await page.getByRole('heading', { name: 'Page not found: /no/such/page' }).waitFor();
    } finally {
      await context.close();
    }
  });

  it("§2.25 the error screen's back button (Web_Back) leads to '/'", async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/no/such/page`);
      await page.getByRole('link', { name: 'Back to home' }).click();
      await page.getByRole('heading', { level: 1, name: 'Local news near you' }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/');
    } finally {
      await context.close();
    }
  });

  it('§6.2 a guest who navigates to /user lands on home with the sign-in dialog', async () => {
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/`);
      await waitForCookie(context, 'inited');
      await page.getByRole('link', { name: 'Your account' }).click();
      await page.getByRole('dialog', { name: 'Sign in' }).waitFor();
      const url = new URL(page.url());
      assert.equal(url.pathname, '/');
      assert.equal(url.searchParams.get('login'), '1');
      assert.equal(url.searchParams.get('redirect'), '/user');
    } finally {
      await context.close();
    }
  });

  it('§2.23 scroll goes to top on page change and is restored on back', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 600 } });
    try {
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1, name: 'Local news near you' }).waitFor();
      await page.evaluate(() => window.scrollTo(0, 400));
      await page.waitForFunction(() => window.scrollY === 400);
      // Click without Playwright scrolling the link into view first.
      await page.evaluate(() => document.querySelector('a[href="/latest"]').click());
      await page.getByRole('heading', { level: 1, name: 'Latest news' }).waitFor();
      assert.equal(await page.evaluate(() => window.scrollY), 0);
      await page.waitForFunction(() => document.title === 'Latest news · Localwire');
      await page.goBack();
      await page.getByRole('heading', { level: 1, name: 'Local news near you' }).waitFor();
      await page.waitForFunction(() => window.scrollY === 400, null, { timeout: 5000 });
    } finally {
      await context.close();
    }
  });

  it('screenshots of home at 390 px and 1280 px, light and dark', async () => {
    const shots = [
      { name: 'home-390.png', viewport: { width: 390, height: 844 }, colorScheme: 'light' },
      { name: 'home-1280.png', viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
      { name: 'home-390-dark.png', viewport: { width: 390, height: 844 }, colorScheme: 'dark' },
      { name: 'home-1280-dark.png', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
    ];
    for (const shot of shots) {
      const { context, page, problems } = await newPage(browser, {
        viewport: shot.viewport,
        colorScheme: shot.colorScheme,
      });
      try {
        await page.goto(`${server.url}/`);
        await page.getByRole('heading', { level: 1, name: 'Local news near you' }).waitFor();
        await waitForCookie(context, 'inited');
        await page.getByRole('button', { name: /^Your city: Washington, DC/ }).waitFor();
        // No horizontal overflow at either width.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.ok(overflow <= 0, `${shot.name}: page is ${overflow}px wider than the viewport`);
        await page.screenshot({ path: join(screenshotDir, shot.name), fullPage: true });
        assert.deepEqual(problems, [], `${shot.name}: no console errors`);
      } finally {
        await context.close();
      }
    }
  });
});
