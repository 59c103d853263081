// SPEC §7.22, D220: with the server's `--encrypt-responses` on, the app decrypts the
// non-GET answers it gets, so a first visit still ends with a working guest session.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import {
  binary,
  launchBrowser,
  newPage,
  signedPost,
  startServer,
  waitForCookie,
} from './helpers.mjs';

if (process.env.LOCALWIRE_BIN && !existsSync(binary)) {
  throw new Error(`LOCALWIRE_BIN names ${binary}, which does not exist`);
}
const skip = existsSync(binary) ? false : `no localwire binary at ${binary} (build it first)`;

describe('Localwire with encrypted answers', { skip }, () => {
  let server;
  let browser;

  before(async () => {
    server = await startServer({ args: ['--encrypt-responses'] });
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('§7.22 a first visit decrypts the guest init: its token works and answers stay sealed', async () => {
    const { context, page, problems } = await newPage(browser);
    const warnings = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    try {
      await page.goto(`${server.url}/`);
      // The token is only in the encrypted data of POST /api/user/init.
      const token = await waitForCookie(context, 'token');
      const deviceId = await waitForCookie(context, 'deviceId');
      await waitForCookie(context, 'inited');

      const answer = await signedPost(server.url, '/user/info', {
        deviceId: decodeURIComponent(deviceId.value),
        token: decodeURIComponent(token.value),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      assert.equal(answer.body.code, 0);
      assert.equal(answer.body.data, null, 'the data is only in edata');
      assert.match(answer.body.edata, /^[A-Za-z0-9_-]{40,}$/);
      assert.deepEqual(
        warnings.filter((w) => w.includes('decrypt')),
        [],
        'every answer decrypted',
      );
      assert.deepEqual(problems, [], 'no console errors or CSP violations');
    } finally {
      await context.close();
    }
  });
});
