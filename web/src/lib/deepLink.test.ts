import { describe, expect, it } from 'vitest';
import { deepLinkTarget, internalPath } from './deepLink';

const origin = 'https://news.example.org';

describe('§2.19 deep links open the linked item (D106)', () => {
  it('§2.19 news_id or id opens the article, in the reader’s locale', () => {
    expect(deepLinkTarget('?news_id=1042', 'en', origin)).toBe('/article/1042');
    expect(deepLinkTarget('?id=7', 'fr', origin)).toBe('/fr/article/7');
  });

  it('§2.19 media_id opens the publisher', () => {
    expect(deepLinkTarget('?media_id=7', 'es', origin)).toBe('/es/media/7');
  });

  it('§2.19 url opens an in-app path, keeping a locale it names', () => {
    expect(deepLinkTarget('?url=/article/123', 'en', origin)).toBe('/article/123');
    expect(deepLinkTarget('?url=%2Farticle%2F123', 'es', origin)).toBe('/es/article/123');
    expect(deepLinkTarget('?url=/fr/latest?c=fr_CA', 'en', origin)).toBe('/fr/latest?c=fr_CA');
    expect(deepLinkTarget(`?link=${origin}/media/7`, 'en', origin)).toBe('/media/7');
  });

  it('never leaves the site, and names nothing without a usable parameter', () => {
    expect(internalPath('https://evil.example.com/x', origin)).toBeNull();
    expect(internalPath('//evil.example.com/x', origin)).toBeNull();
    expect(internalPath('javascript:alert(1)', origin)).toBeNull();
    expect(deepLinkTarget('?url=https://evil.example.com/', 'en', origin)).toBeNull();
    expect(deepLinkTarget('?news_id=abc', 'en', origin)).toBeNull();
    expect(deepLinkTarget('', 'en', origin)).toBeNull();
  });
});
