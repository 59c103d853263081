import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';

beforeEach(() => {
  installIntersectionObserver();
  sessionStorage.clear();
});

/** The app's start-up runs first; on a busy machine that takes more than the default second. */
const SLOW = { timeout: 5000 };

async function feedLinks(name = 'Follow as a feed') {
  const summary = await screen.findByText(name, undefined, SLOW);
  await userEvent.click(summary);
  const control = summary.closest('details');
  expect(control).not.toBeNull();
  return within(control as HTMLElement)
    .getAllByRole('link')
    .map((a) => [a.textContent, a.getAttribute('href'), a.getAttribute('type')]);
}

describe('D376 follow as a feed', () => {
  it('offers the category page in RSS, Atom and JSON Feed', async () => {
    renderApp('/category/politics');
    expect(await feedLinks()).toEqual([
      ['RSS', '/feeds/rss/category/politics', 'application/rss+xml'],
      ['Atom', '/feeds/atom/category/politics', 'application/atom+xml'],
      ['JSON Feed', '/feeds/json/category/politics', 'application/feed+json'],
    ]);
  });

  it("follows the reader's city from home, in the reader's language", async () => {
    renderApp('/fr/');
    const links = await feedLinks('Suivre par flux');
    expect(links[0][1]).toMatch(/^\/feeds\/rss\/fr\/local\/\d+$/);
  });

  it('keeps the words of a search', async () => {
    renderApp('/search/news?q=city%20council');
    expect((await feedLinks())[1][1]).toBe('/feeds/atom/search/news?q=city%20council');
  });

  it('is not offered where there is no list', async () => {
    renderApp('/weather');
    await screen.findByRole('heading', { level: 1 }, SLOW);
    expect(screen.queryByText('Follow as a feed')).toBeNull();
  });
});
