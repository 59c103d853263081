// Sign-in journeys (issue 17) in Chromium against the release binary, with the loopback
// Google and Facebook of `fake-providers` (the real protocols; no mock in our code).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  controlProviders,
  launchBrowser,
  newPage,
  providerArgs,
  screenshotDir,
  signedPost,
  skipWithoutBinaries,
  startFakeProviders,
  startServer,
  waitForCookie,
} from './helpers.mjs';

if (process.env.LOCALWIRE_BIN && skipWithoutBinaries()) {
  throw new Error(skipWithoutBinaries());
}
const skip = skipWithoutBinaries();

async function apiUser(context, serverUrl) {
  const token = decodeURIComponent((await waitForCookie(context, 'token')).value);
  const deviceId = decodeURIComponent((await waitForCookie(context, 'deviceId')).value);
  const answer = await signedPost(serverUrl, '/user/info', { deviceId, token });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return { user: answer.body.data, token };
}

describe('Signing in with Google and Facebook', { skip }, () => {
  let fakes;
  let server;
  let browser;

  before(async () => {
    fakes = await startFakeProviders();
    server = await startServer({
      args: providerArgs(fakes),
    });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    fakes?.stop();
  });

  it('a guest sets a city, signs in by popup, keeps the city, opens /user, logs out and is a new guest', async () => {
    await controlProviders(fakes, { reset: true });
    // A photo this machine can load (offline): a static file of ours.
    await controlProviders(fakes, {
      google_user: {
        sub: '108765432109876543210',
        email: 'ada@example.com',
        email_verified: true,
        name: 'Ada Lovelace',
        picture: `${server.url}/static/country/us.png`,
      },
    });
    const { context, page, problems } = await newPage(browser, {
      viewport: { width: 1280, height: 900 },
    });
    try {
      await page.goto(`${server.url}/`);
      await waitForCookie(context, 'inited');
      // The guest picks a city.
      await page.getByRole('button', { name: /^Your city: Washington, DC/ }).click();
      const picker = page.getByRole('dialog', { name: 'Choose your city' });
      await picker.getByRole('searchbox', { name: 'Search for a city' }).fill('Denver');
      await picker.getByRole('button', { name: /^Denver, CO\b/ }).click();
      await picker.waitFor({ state: 'detached' });
      await page.getByRole('button', { name: /^Your city: Denver, CO/ }).waitFor();
      const guest = await apiUser(context, server.url);
      assert.equal(guest.user.account_type, 0);

      // Sign in by popup, from the header, without leaving the page.
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      const [popup] = await Promise.all([
        context.waitForEvent('page'),
        dialog.getByRole('button', { name: 'Continue with Google' }).click(),
      ]);
      await popup.waitForEvent('close', { timeout: 15_000 }).catch(() => undefined);
      await page
        .getByRole('banner')
        .getByRole('link', { name: /Ada Lovelace/ })
        .waitFor();
      await page.getByRole('button', { name: /^Your city: Denver, CO/ }).waitFor();
      assert.equal(new URL(page.url()).pathname, '/', 'the reader stays where they were');
      const account = await apiUser(context, server.url);
      assert.equal(account.user.account_type, 3, 'google (§3.2)');
      assert.equal(account.user.id, guest.user.id, 'the guest became the account');
      assert.equal(account.user.city, 'Denver', 'with the same city');
      assert.notEqual(account.token, guest.token, 'the session rotated');
      const old = await signedPost(server.url, '/user/info', {
        deviceId: decodeURIComponent((await waitForCookie(context, 'deviceId')).value),
        token: guest.token,
      });
      assert.equal(old.status, 401, 'the guest session ended');

      // /user is open to the account: its providers and sessions are listed.
      await page
        .getByRole('banner')
        .getByRole('link', { name: /Ada Lovelace/ })
        .click();
      await page.waitForURL(`${server.url}/user`);
      const providers = page.getByRole('region', { name: 'Sign-in accounts' });
      await providers
        .getByText(/Google/)
        .first()
        .waitFor();
      await page.getByRole('region', { name: 'Where you are signed in' }).waitFor();
      await page.screenshot({ path: join(screenshotDir, 'account-page.png'), fullPage: true });

      // Log out: a new guest (§4.1, §4.5).
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).waitFor();
      const after = await apiUser(context, server.url);
      assert.equal(after.user.account_type, 0, 'a guest again');
      assert.notEqual(after.user.id, account.user.id, 'a new guest');
      assert.deepEqual(problems, [], 'no console errors or CSP violations');
    } finally {
      await context.close();
    }
  });

  it('a guest on /user is asked to sign in and lands there afterwards', async () => {
    await controlProviders(fakes, { reset: true });
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/user/favorites`);
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await dialog.waitFor();
      await Promise.all([
        context.waitForEvent('page'),
        dialog.getByRole('button', { name: 'Continue with Facebook' }).click(),
      ]);
      await page.waitForURL(`${server.url}/user/favorites`, { timeout: 15_000 });
      const { user } = await apiUser(context, server.url);
      assert.equal(user.account_type, 2, 'facebook (§3.2)');
    } finally {
      await context.close();
    }
  });

  it('a provider that hangs: the dialog says so within 10 s and the page keeps working', async () => {
    await controlProviders(fakes, { reset: true });
    // Its token endpoint never answers: the server gives up after 8 s (§8).
    await controlProviders(fakes, { google_fault: 'Hang' });
    const { context, page } = await newPage(browser);
    try {
      await page.goto(`${server.url}/`);
      await waitForCookie(context, 'inited');
      await page.getByRole('banner').getByRole('button', { name: 'Sign in' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in' });
      await Promise.all([
        context.waitForEvent('page'),
        dialog.getByRole('button', { name: 'Continue with Google' }).click(),
      ]);
      await dialog
        .getByRole('alert')
        .filter({ hasText: 'Google did not answer' })
        .waitFor({ timeout: 12_000 });
      await dialog.getByRole('button', { name: 'Close' }).click();
      await page.getByRole('button', { name: /^Your city: Washington, DC/ }).waitFor();
      const { user } = await apiUser(context, server.url);
      assert.equal(user.account_type, 0, 'still a guest, session intact');
    } finally {
      await controlProviders(fakes, { reset: true });
      await context.close();
    }
  });
});
