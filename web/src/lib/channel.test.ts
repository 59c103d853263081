import { describe, expect, it } from 'vitest';
import { acquisitionChannel, userTypeForChannel } from './channel';

const channel = (query: string) => acquisitionChannel(new URLSearchParams(query));

describe('§3.14 acquisition channel', () => {
  it("§3.14 gclid, gbraid and wbraid give 'googleadwords_int'", () => {
    expect(channel('gclid=abc')).toBe('googleadwords_int');
    expect(channel('gbraid=abc')).toBe('googleadwords_int');
    expect(channel('wbraid=abc&utm_source=news')).toBe('googleadwords_int');
  });
  it("§3.14 fbclid gives 'metaweb_int'", () => {
    expect(channel('fbclid=x')).toBe('metaweb_int');
  });
  it("§3.14 ttclid gives 'tiktok_int'", () => {
    expect(channel('ttclid=x')).toBe('tiktok_int');
  });
  it("§3.14 sid gives 'optimobi'", () => {
    expect(channel('sid=x')).toBe('optimobi');
  });
  it('§3.14 click ids win over utm_source, in the spec order', () => {
    expect(channel('fbclid=x&gclid=y')).toBe('googleadwords_int');
    expect(channel('sid=1&ttclid=2')).toBe('tiktok_int');
  });
  it('§3.14 otherwise utm_source', () => {
    expect(channel('utm_source=newsletter')).toBe('newsletter');
    expect(channel('')).toBe('');
    expect(channel('gclid=')).toBe('');
  });
  it('§3.14 short codes GG and FB in c name the first two channels', () => {
    expect(channel('c=GG')).toBe('googleadwords_int');
    expect(channel('c=fb')).toBe('metaweb_int');
    expect(channel('c=fr_CA&utm_source=x')).toBe('x');
  });
});

describe('§7.1 user_type', () => {
  it('§7.1 is 1 for ad channels', () => {
    for (const c of ['googleadwords_int', 'metaweb_int', 'tiktok_int', 'optimobi']) {
      expect(userTypeForChannel(c)).toBe(1);
    }
  });
  it('§7.1 is 0 otherwise', () => {
    expect(userTypeForChannel('')).toBe(0);
    expect(userTypeForChannel('newsletter')).toBe(0);
  });
});
