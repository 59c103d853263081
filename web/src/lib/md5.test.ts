import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5 } from './md5';

describe('md5 (request signing, SPEC §7)', () => {
  it.each([
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
    ['abcdefghijklmnopqrstuvwxyz', 'c3fcd3d76192e4007dfb496cca67e13b'],
    [
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
      'd174ab98d277d9f5a5611c2c9f419d9f',
    ],
    ['1234567890'.repeat(8), '57edf4a22be3c955ac49da2e2107b67a'],
    ['The quick brown fox jumps over the lazy dog', '9e107d9d372bb6826bd81d3542a419d6'],
  ])('RFC 1321 vector %j', (input, expected) => {
    expect(md5(input)).toBe(expected);
  });

  it('hashes the UTF-8 bytes of non-ASCII text', () => {
    expect(md5('é')).toBe(createHash('md5').update('é', 'utf8').digest('hex'));
    expect(md5('Montréal, QC — 東京')).toBe(
      createHash('md5').update('Montréal, QC — 東京', 'utf8').digest('hex'),
    );
  });

  it('agrees with node:crypto on every length around the 64-byte block boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const input = 'x'.repeat(n);
      expect(md5(input), `length ${n}`).toBe(createHash('md5').update(input).digest('hex'));
    }
  });
});
