import { describe, expect, it } from 'vitest';
import { isExternalTarget, matchRouteRule, readRouteRules } from './routeRules';

const rules = [
  { from: '/old-news', to: '/latest', status: 301 },
  { from: '/paper/', to: 'https://example.org/paper', status: 302 },
];

describe('§2.22 route rules', () => {
  it('§2.22 a rule matches its path, with or without a trailing slash', () => {
    expect(matchRouteRule('/old-news', rules)?.to).toBe('/latest');
    expect(matchRouteRule('/old-news/', rules)?.to).toBe('/latest');
    expect(matchRouteRule('/paper', rules)?.to).toBe('https://example.org/paper');
    expect(matchRouteRule('/old', rules)).toBeNull();
    expect(matchRouteRule('/', rules)).toBeNull();
  });

  it('§2.22 a rule may lead to an external address', () => {
    expect(isExternalTarget('https://example.org/x')).toBe(true);
    expect(isExternalTarget('/latest')).toBe(false);
    expect(isExternalTarget('//evil.example')).toBe(false);
  });

  it('keeps only well-formed rules', () => {
    expect(readRouteRules([...rules, { from: 'x', to: '/y' }, null, { from: '/a' }])).toEqual(
      rules,
    );
    expect(readRouteRules('nope')).toEqual([]);
  });
});
