import { describe, expect, it } from 'vitest';
import { LOCALES, localizePath } from '../../lib/locale';
import { homeFor, keepsPage, readKind, STORIES_KEPT } from './cacheRules';

const origin = 'https://news.example';
const at = (path: string) => new URL(path, origin);

describe('issue 31 read offline: what the service worker keeps', () => {
  it('the last 50 stories opened', () => {
    expect(STORIES_KEPT).toBe(50);
    expect(readKind(at('/api/news/detail?news_id=4'), origin)).toBe('story');
  });

  it("the reader's home: its feed, sections, publisher and weather reads", () => {
    for (const path of ['/api/news/feed?city_id=1', '/api/news/categories', '/api/weather?x=1']) {
      expect(readKind(at(path), origin)).toBe('list');
    }
  });

  it("never the reader's own calls, sign-in, or another site's files", () => {
    expect(readKind(at('/api/user/info'), origin)).toBeNull();
    expect(readKind(at('/api/search/news?q=x'), origin)).toBeNull();
    expect(readKind(new URL('https://cdn.example/a.jpg'), origin)).toBeNull();
    expect(readKind(at('/_app/version.json'), origin)).toBeNull();
    expect(readKind(at('/static/demo/a.jpg'), origin)).toBe('image');
    expect(readKind(at('/proxy/abc/aHR0cHM6Ly9wLmV4YW1wbGUvYQ'), origin)).toBe('image');
  });

  it('pages are kept, but not sign-in, the operator, feeds or the API', () => {
    expect(keepsPage(at('/'))).toBe(true);
    expect(keepsPage(at('/fr/article/12'))).toBe(true);
    for (const path of [
      '/auth/google',
      '/admin',
      '/admin/feeds',
      '/feeds/rss/',
      '/api/x',
      '/_app/v',
    ]) {
      expect(keepsPage(at(path))).toBe(false);
    }
  });

  it("a page never opened here stands in with its language's home, by lib/locale's rule", () => {
    for (const locale of LOCALES) {
      expect(homeFor(at(localizePath(locale, '/article/12')))).toBe(localizePath(locale, '/'));
      expect(homeFor(at(localizePath(locale, '/')))).toBe(localizePath(locale, '/'));
    }
    expect(homeFor(at('/esports'))).toBe('/');
  });
});
