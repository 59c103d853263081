import { describe, expect, it } from 'vitest';
import { signature } from '../lib/api';
import { memoryCookieJar } from '../lib/settings';
import { envelope, fakeServer, guestUser } from '../test/fakeServer';
import { firstLoadPayload } from '../test/payload';
import { parsePayload } from '../lib/payload';
import { createServices } from './services';

// Issue 16, defect 1 (D200): a server started with `--sign-word` checks signatures with
// that word, so the app must sign with the word the page carries, not its build-time one.
async function signedInit(options: { payloadWord?: string; buildWord?: string }) {
  const server = fakeServer({
    'POST /api/user/init': () => envelope({ user: guestUser, token: 'tok' }),
  });
  const services = createServices({
    payload: firstLoadPayload({ signWord: options.payloadWord }),
    initialUrl: new URL('http://localhost/'),
    fetch: server.fetch,
    cookieJar: memoryCookieJar(),
    signWord: options.buildWord,
  });
  await services.api.post('/user/init', { user_type: 0 });
  const { headers } = server.requests[0]!;
  return { headers, deviceId: JSON.parse(headers.base!).device_id as string };
}

describe('D200 the sign word comes from the page', () => {
  it('reads the word the server inlines in the payload', () => {
    expect(parsePayload('{"signWord":"tide-77"}')?.signWord).toBe('tide-77');
    expect(parsePayload('{"signWord":""}')?.signWord).toBeUndefined();
    expect(parsePayload('{}')?.signWord).toBeUndefined();
  });

  it("signs with the page's word even when a build-time word is set", async () => {
    const { headers, deviceId } = await signedInit({ payloadWord: 'tide-77', buildWord: 'old' });
    expect(headers.sign).toBe(signature(headers.base!, '/user/init', 'tide-77', deviceId));
  });

  it('falls back to the build-time word, then the default, without a page word', async () => {
    const built = await signedInit({ buildWord: 'dev-word' });
    expect(built.headers.sign).toBe(
      signature(built.headers.base!, '/user/init', 'dev-word', built.deviceId),
    );
    const plain = await signedInit({});
    expect(plain.headers.sign).toBe(
      signature(plain.headers.base!, '/user/init', 'localwire', plain.deviceId),
    );
  });
});
