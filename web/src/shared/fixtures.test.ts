/**
 * The app's rules pinned by fixtures (D235). Those the server implements too (the locale
 * guard, redirect targets, derived images, feed paths) are run by its tests against the
 * same files (`crates/api/src/pages/shared_rules.rs`): a case failing here or there means
 * the two sides no longer agree. The first screen's own rules (relative time, highlights,
 * hosts, the reader's city) are the app's alone: the server renders the first screen with
 * the app's components (D424).
 */
import { describe, expect, it } from 'vitest';
import { globalGuard } from '../app/guard';
import { feedPath } from '../features/feeds';
import {
  hasImage,
  highlightParts,
  hostOf,
  mainImageOf,
  normalizeNewsItem,
  relativeTime,
  thumbnailOf,
} from '../lib/news';
import { localSectionCity, readerCityLabel } from '../features/user';
import { type Locale, resolveLocaleCode, splitLocalePath } from '../lib/locale';
import { sameOriginPath } from '../lib/sameOrigin';
import routes from '../routes/routes.json';
import type { RouteDef } from '../routes/routes';
import city from './fixtures/city.json';
import feedPaths from './fixtures/feed-path.json';
import guard from './fixtures/locale-guard.json';
import highlight from './fixtures/highlight.json';
import host from './fixtures/host.json';
import images from './fixtures/images.json';
import relative from './fixtures/relative-time.json';
import sameOrigin from './fixtures/same-origin.json';
import screens from './screens.json';
import { FOOTER_LINKS, HOME_SECTION_SIZE, leadsWithFirst, NAV_ITEMS } from './screens';

describe('shared fixture: search-term highlighting', () => {
  it.each(highlight.cases)('$name', ({ text, terms, parts }) => {
    const got = highlightParts(text, terms).map((p) => [p.text, p.match]);
    expect(got).toEqual(parts);
  });
});

describe('shared fixture: relative time', () => {
  it.each(relative.cases)('$name', ({ ms, now, expected }) => {
    for (const [locale, words] of Object.entries(expected)) {
      expect(relativeTime(ms, locale, now), locale).toBe(words);
    }
  });
});

describe('shared fixture: §3 derived news values (images)', () => {
  it.each(images.cases)('$name', (c) => {
    const item = normalizeNewsItem(c.item);
    expect(thumbnailOf(item)).toBe(c.thumbnail);
    expect(mainImageOf(item)).toBe(c.main_image);
    expect(hasImage(item)).toBe(c.has_image);
  });
});

describe('shared fixture: a link host', () => {
  it.each(host.cases)('$name', ({ url, host: expected }) => {
    expect(hostOf(url)).toBe(expected);
  });
});

describe("shared fixture: the reader's city", () => {
  it.each(city.cases)('$name', (c) => {
    const label = readerCityLabel(c.user, c.settings);
    expect(label).toBe(c.label);
    expect(localSectionCity(label, c.feed_city)).toBe(c.section);
  });
});

describe('shared fixture: D360 redirects stay on this site', () => {
  it.each(sameOrigin.cases)('$name', ({ target, path }) => {
    expect(sameOriginPath(target)).toBe(path);
    expect(sameOriginPath(path)).toBe(path);
  });
});

describe('shared fixture: §2.21 locale guard', () => {
  it.each(guard.cases)('$name', (c) => {
    const stored = c.stored ? (resolveLocaleCode(c.stored)?.code ?? null) : null;
    const result = globalGuard({
      pathname: c.path,
      search: c.query ? `?${c.query}` : '',
      routeLocale: splitLocalePath(c.path).locale,
      auth: false,
      storedCode: stored,
      isGuest: true,
      browserLanguages: c.browser.length > 0 ? c.browser : undefined,
    });
    if ('redirect' in c) {
      expect(result).toEqual({ kind: 'redirect', to: c.redirect });
    } else {
      expect(result.kind).toBe('render');
      if (result.kind !== 'render') return;
      expect({ locale: result.locale, c: result.code?.code ?? null }).toEqual(c.render);
    }
  });
});

describe('shared data: screens.json', () => {
  const routeNames = new Set(routes.map((r) => r.name));
  const routePaths = new Set(routes.map((r) => r.path));

  it('the nav and footer link to routes of the route table', () => {
    for (const link of [...NAV_ITEMS, ...FOOTER_LINKS]) {
      expect(routePaths.has(link.path), link.path).toBe(true);
    }
  });

  it('lead-first screens are routes', () => {
    for (const name of screens.leadFirst) expect(routeNames.has(name), name).toBe(true);
    expect(leadsWithFirst('latest')).toBe(true);
    expect(leadsWithFirst('search-news')).toBe(false);
    expect(leadsWithFirst('media')).toBe(false);
  });

  it('a home section shows a few stories', () => {
    expect(HOME_SECTION_SIZE).toBeGreaterThan(0);
    expect(HOME_SECTION_SIZE).toBe(screens.homeSectionSize);
  });
});

describe('shared fixture: where a page is followed as a feed (D376)', () => {
  it.each(feedPaths.cases)('$name', (c) => {
    const def = (routes as RouteDef[]).find((r) => r.name === c.route) ?? null;
    expect(def, c.route).not.toBeNull();
    expect(feedPath(def, c.locale as Locale, c.path, c.query, c.cityId)).toBe(c.feed);
  });
});
