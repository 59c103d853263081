import { describe, expect, it } from 'vitest';
import { toBoolean, toDate, toMillis, toNumber, toText } from './parse';

describe('§5.4 parse helpers', () => {
  it('§5.4 numbers that fail to parse become 0', () => {
    expect(toNumber('42')).toBe(42);
    expect(toNumber('-1.5')).toBe(-1.5);
    expect(toNumber(7)).toBe(7);
    expect(toNumber('abc')).toBe(0);
    expect(toNumber('')).toBe(0);
    expect(toNumber(null)).toBe(0);
    expect(toNumber(undefined)).toBe(0);
    expect(toNumber(NaN)).toBe(0);
    expect(toNumber({})).toBe(0);
  });

  it("§5.4 booleans are true for 'true' or '1'", () => {
    expect(toBoolean('true')).toBe(true);
    expect(toBoolean('1')).toBe(true);
    expect(toBoolean(true)).toBe(true);
    expect(toBoolean(1)).toBe(true);
    expect(toBoolean('false')).toBe(false);
    expect(toBoolean('0')).toBe(false);
    expect(toBoolean('yes')).toBe(false);
    expect(toBoolean(undefined)).toBe(false);
  });

  it('§5.4 dates are parsed from digits as milliseconds', () => {
    expect(toDate('1700000000000')?.getTime()).toBe(1700000000000);
    expect(toDate(1700000000000)?.getTime()).toBe(1700000000000);
    expect(toDate('2024-03-01T00:00:00Z')?.getTime()).toBe(Date.UTC(2024, 2, 1));
    expect(toDate('not a date')).toBeNull();
    expect(toDate('')).toBeNull();
  });

  it('§3.1 timestamps under 1e12 are seconds and are converted to milliseconds', () => {
    expect(toMillis(1700000000)).toBe(1700000000000);
    expect(toMillis('1700000000')).toBe(1700000000000);
    expect(toMillis(1700000000000)).toBe(1700000000000);
    expect(toMillis(0)).toBe(0);
  });

  it('reads text from strings and numbers only', () => {
    expect(toText('a')).toBe('a');
    expect(toText(12)).toBe('12');
    expect(toText(null)).toBe('');
  });
});
