/**
 * SPEC §7 (7.22), D220: non-GET answers the server encrypted. When the operator turns on
 * `--encrypt-responses`, a successful non-GET answer is `{code, data: null, edata,
 * message}` with `edata` = base64url(nonce ‖ ciphertext ‖ tag), AES-256-GCM, 96-bit nonce,
 * no associated data, keyed by SHA-256("localwire-response-key" + sign word). The sign
 * word is in the page (D200), so this is an anti-scraping measure, not a security boundary.
 */

/** The name of the encrypted field in the envelope. */
export const ENCRYPTED_FIELD = 'edata';
/** Mixed before the sign word when deriving the key (the server's `KEY_CONTEXT`). */
export const KEY_CONTEXT = 'localwire-response-key';
export const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** The AES-256-GCM key for `signWord`: SHA-256 of the UTF-8 of context + word. */
export async function answerKey(signWord: string): Promise<CryptoKey> {
  const digest = await crypto.subtle.digest(
    'SHA-256',
    new TextEncoder().encode(KEY_CONTEXT + signWord),
  );
  return crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export function base64UrlDecode(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
    throw new Error('edata is not base64url');
  }
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The plaintext of an `edata` field; rejects when it was tampered with or the key is wrong. */
export async function openAnswer(key: CryptoKey, edata: string): Promise<string> {
  const bytes = base64UrlDecode(edata);
  if (bytes.length < NONCE_BYTES + TAG_BYTES) throw new Error('edata is too short');
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, NONCE_BYTES) },
    key,
    bytes.slice(NONCE_BYTES),
  );
  return new TextDecoder('utf-8', { fatal: true }).decode(plain);
}

/** The server's side, for tests: seal `plaintext` with a given nonce. */
export async function sealAnswer(
  key: CryptoKey,
  nonce: Uint8Array<ArrayBuffer>,
  plaintext: string,
): Promise<string> {
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv: nonce },
      key,
      new TextEncoder().encode(plaintext),
    ),
  );
  const out = new Uint8Array(nonce.length + sealed.length);
  out.set(nonce);
  out.set(sealed, nonce.length);
  return base64UrlEncode(out);
}
