import { describe, expect, it } from 'vitest';
import { documentCookieJar, parseCookies, serializeCookie } from './cookies';

const NOW = Date.UTC(2025, 0, 1);

describe('cookies', () => {
  it('§9.4 app cookies last 30 days with SameSite=Lax on path /', () => {
    const text = serializeCookie('token', 'abc', { days: 30 }, NOW);
    expect(text).toContain('token=abc');
    expect(text).toContain('Max-Age=2592000');
    expect(text).toContain(`Expires=${new Date(NOW + 30 * 86400 * 1000).toUTCString()}`);
    expect(text).toContain('Path=/');
    expect(text).toContain('SameSite=Lax');
    expect(text).not.toContain('Secure');
  });

  it('§9.4 the locale cookie lasts 365 days', () => {
    const text = serializeCookie('lw_locale', 'fr_CA', { days: 365 }, NOW);
    expect(text).toContain('Max-Age=31536000');
    expect(text).toContain('SameSite=Lax');
  });

  it('D4 adds Secure when asked (https)', () => {
    expect(serializeCookie('token', 'abc', { days: 30, secure: true })).toMatch(/; Secure$/);
  });

  it('encodes values and parses them back', () => {
    const text = serializeCookie('city', 'Montréal; QC', { days: 1 });
    const [pair] = text.split('; ');
    expect(parseCookies(pair).get('city')).toBe('Montréal; QC');
  });

  it('parses a cookie header, keeping the first of duplicate names', () => {
    const jar = parseCookies('a=1; b=two%20words; a=3; broken; c=');
    expect(jar.get('a')).toBe('1');
    expect(jar.get('b')).toBe('two words');
    expect(jar.get('c')).toBe('');
    expect(jar.has('broken')).toBe(false);
  });

  it('writes to and removes from document.cookie', () => {
    const jar = documentCookieJar(document);
    jar.set('deviceId', 'dev-1', { days: 30 });
    expect(jar.get('deviceId')).toBe('dev-1');
    jar.remove('deviceId');
    expect(jar.get('deviceId')).toBeUndefined();
  });
});
