import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './api';
import {
  answerKey,
  base64UrlDecode,
  base64UrlEncode,
  ENCRYPTED_FIELD,
  openAnswer,
  sealAnswer,
} from './answerCipher';
// The same file the server's `encrypted_answers` tests read, so both sides provably agree.
import fixture from './encrypted-answer.fixture.json';

function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
}

/** Flip one bit of the ciphertext (after the nonce), keeping the text valid base64url. */
function tampered(edata: string): string {
  const bytes = base64UrlDecode(edata);
  bytes[bytes.length - 20] ^= 0x01;
  return base64UrlEncode(bytes);
}

describe('§7.22 the shared encrypted-answer fixture (D220)', () => {
  it('derives the fixture key from its sign word', async () => {
    const digest = await crypto.subtle.digest(
      'SHA-256',
      new TextEncoder().encode('localwire-response-key' + fixture.sign_word),
    );
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    expect(hex).toBe(fixture.key_hex);
  });

  it('seals the fixture plaintext with its nonce into exactly the fixture edata', async () => {
    const key = await answerKey(fixture.sign_word);
    expect(await sealAnswer(key, hexBytes(fixture.nonce_hex), fixture.plaintext)).toBe(
      fixture.edata,
    );
  });

  it('opens the fixture edata to the fixture plaintext', async () => {
    const key = await answerKey(fixture.sign_word);
    expect(await openAnswer(key, fixture.edata)).toBe(fixture.plaintext);
  });

  it('refuses a tampered field and a wrong key', async () => {
    const key = await answerKey(fixture.sign_word);
    await expect(openAnswer(key, tampered(fixture.edata))).rejects.toThrow();
    await expect(openAnswer(await answerKey('another-word'), fixture.edata)).rejects.toThrow();
    await expect(openAnswer(key, 'not base64url!')).rejects.toThrow();
    await expect(openAnswer(key, 'AAAA')).rejects.toThrow();
  });
});

function clientAnswering(body: unknown, signWord = fixture.sign_word) {
  const fetchImpl = vi.fn(async () => new Response(JSON.stringify(body), { status: 200 }));
  const warn = vi.fn();
  const api = createApiClient({
    fetch: fetchImpl as unknown as typeof fetch,
    signWord,
    context: () => ({ deviceId: 'dev-1', appLang: 'fr', country: 'CA' }),
    warn,
  });
  return { api, warn };
}

const encrypted = (edata: string) => ({
  code: 0,
  data: null,
  [ENCRYPTED_FIELD]: edata,
  message: 'ok',
});

describe('§7.22 the client decrypts non-GET answers (D220)', () => {
  it('§7.22 an encrypted non-GET answer gives the data it carries', async () => {
    const { api, warn } = clientAnswering(encrypted(fixture.edata));
    const data = await api.post<{ user: { city: string }; token: string }>('/user/init', {});
    expect(data).toEqual(JSON.parse(fixture.plaintext));
    expect(data.user.city).toBe('Montréal');
    expect(warn).not.toHaveBeenCalled();
  });

  it('§7.22 a plain answer (encryption off) is read as before', async () => {
    const plain = JSON.parse(fixture.plaintext) as unknown;
    const { api } = clientAnswering({ code: 0, data: plain, message: 'ok' });
    expect(await api.post('/user/init', {})).toEqual(plain);
  });

  it('§7.22 a tampered field gives the empty result and a warning, not a failure', async () => {
    const { api, warn } = clientAnswering(encrypted(tampered(fixture.edata)));
    const data = await api.post<{ user?: unknown; token?: string }>('/user/init', {});
    expect(data).toEqual({});
    expect(data.user).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/Could not decrypt the answer of \/api\/user\/init/);
  });

  it('§7.22 a field sealed with another word, or not a string, gives the empty result', async () => {
    const other = clientAnswering(encrypted(fixture.edata), 'another-word');
    expect(await other.api.post('/user/info')).toEqual({});
    expect(other.warn).toHaveBeenCalledTimes(1);
    const number = clientAnswering({ code: 0, data: null, [ENCRYPTED_FIELD]: 7, message: 'ok' });
    expect(await number.api.post('/user/info')).toEqual({});
  });

  it('§7.22 GET answers are never decrypted', async () => {
    const { api, warn } = clientAnswering({
      code: 0,
      data: { a: 1 },
      [ENCRYPTED_FIELD]: 'x',
      message: 'ok',
    });
    expect(await api.get('/app/config')).toEqual({ a: 1 });
    expect(warn).not.toHaveBeenCalled();
  });
});
