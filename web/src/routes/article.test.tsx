import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope } from '../test/fakeServer';
import { installIntersectionObserver } from '../test/intersection';
import { feedPage, ledger, newsItem } from '../test/newsFixtures';
import { renderApp } from '../test/renderApp';

beforeEach(() => {
  installIntersectionObserver();
});
afterEach(() => vi.unstubAllGlobals());

const detail = (overrides: Record<string, unknown> = {}) =>
  envelope({
    news: newsItem(1042, {
      title: 'Council approves the new budget',
      content: '<p>The council voted <strong>9 to 4</strong>.</p>',
      author: 'Ada Reporter',
      tags: ['City Hall'],
      ...overrides,
    }),
    media: ledger,
    cluster: [newsItem(1043, { title: 'Budget passes after long night', media_name: 'DC Daily' })],
    related: [newsItem(1050, { title: 'Metro fares rise' })],
  });

describe('§2.10 article', () => {
  it('§2.10 shows the story, its sanitised content, the original link, places and tags', async () => {
    const { calls } = renderApp('/article/1042', {
      routes: { 'GET /api/news/detail': () => detail() },
    });
    expect(
      await screen.findByRole('heading', { name: 'Council approves the new budget', level: 1 }),
    ).toBeInTheDocument();
    expect(calls('/api/news/detail')[0].query).toEqual({ news_id: '1042' });
    expect(screen.getByText('9 to 4').tagName).toBe('STRONG');
    expect(screen.getByText('By Ada Reporter')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Read the original at The Capitol Ledger' }),
    ).toHaveAttribute('href', 'https://ledger.example.org/story-1042');
    expect(screen.getByRole('link', { name: 'Washington' })).toHaveAttribute(
      'href',
      '/location/4140963',
    );
    expect(screen.getByRole('link', { name: 'City Hall' })).toHaveAttribute(
      'href',
      '/search/news?q=City%20Hall',
    );
    // The §3 main image (original image) with the title as its text alternative.
    expect(document.querySelector('.news-image')).not.toBeNull();
    const coverage = screen.getByRole('region', { name: 'Full coverage' });
    expect(
      within(coverage).getByRole('link', { name: 'Budget passes after long night' }),
    ).toBeInTheDocument();
    // Rendered right after the story's first paint (D147).
    const more = await screen.findByRole('region', { name: 'More from Washington' });
    expect(within(more).getByRole('link', { name: 'Metro fares rise' })).toHaveAttribute(
      'href',
      '/article/1050',
    );
    await waitFor(() => expect(document.title).toBe('Council approves the new budget · Localwire'));
  });

  it('§2.10 without content the summary is shown', async () => {
    renderApp('/article/1042', {
      routes: { 'GET /api/news/detail': () => detail({ content: '', summary: 'Short summary.' }) },
    });
    expect(await screen.findByText('Short summary.')).toBeInTheDocument();
  });

  it('§3 a video item (type 3) has a video player, an audio item (type 4) an audio player', async () => {
    renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () =>
          detail({ type: 3, video_url: 'https://video.example.org/v.mp4' }),
      },
    });
    await screen.findByRole('heading', { level: 1 });
    const video = document.querySelector('video')!;
    expect(video).toHaveAttribute('src', 'https://video.example.org/v.mp4');
    expect(video).toHaveAttribute('controls');
  });

  it('§3 an audio item (type 4) has an audio player', async () => {
    renderApp('/fr/article/1042', {
      routes: {
        'GET /api/news/detail': () =>
          detail({ type: 4, voice_url: 'https://audio.example.org/a.mp3' }),
      },
    });
    await screen.findByRole('heading', { level: 1 });
    expect(document.querySelector('audio')).toHaveAttribute(
      'src',
      'https://audio.example.org/a.mp3',
    );
    expect(screen.getByText('Audio')).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Lire l’original sur The Capitol Ledger' }),
    ).toBeInTheDocument();
  });

  it('§8.2 a missing article (404 envelope) is a real not-found state', async () => {
    renderApp('/article/999', {
      routes: {
        'GET /api/news/detail': () => ({ status: 404, body: { code: 404, message: 'Not Found' } }),
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'Story not found', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/');
  });

  it('§4 a failed article load offers a retry', async () => {
    let fail = true;
    renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () =>
          fail ? { status: 503, body: { code: 503, message: 'busy' } } : detail(),
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The story could not be loaded');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Council approves the new budget',
    );
  });
});

describe('§2.11 share', () => {
  it('§2.11 the shared story leads into the article', async () => {
    renderApp('/share/article/1042', { routes: { 'GET /api/news/detail': () => detail() } });
    expect(
      await screen.findByRole('heading', { name: 'Council approves the new budget', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read the story' })).toHaveAttribute(
      'href',
      '/article/1042',
    );
  });
});

describe('§2.19 deep links', () => {
  it('§2.19 /dlink?news_id= opens the article', async () => {
    const { location } = renderApp('/dlink?news_id=1042', {
      routes: { 'GET /api/news/detail': () => detail() },
    });
    await waitFor(() => expect(location()).toBe('/article/1042'));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Council approves the new budget',
    );
  });

  it('§2.19 /demos/article?url=/article/123 opens that path; /dlink alone offers the app', async () => {
    const { location } = renderApp('/demos/article?url=%2Farticle%2F1042', {
      routes: { 'GET /api/news/detail': () => detail() },
    });
    await waitFor(() => expect(location()).toBe('/article/1042'));
  });

  it('§2.19 /dlink without a link shows the landing page', async () => {
    renderApp('/dlink');
    expect(await screen.findByRole('heading', { name: 'Continue to Localwire' })).toBeVisible();
  });
});

describe('§2.6 search', () => {
  it('§2.6 results highlight the folded terms; filters go into the request', async () => {
    const user = userEvent.setup();
    const { calls } = renderApp('/search/news?q=ecole', {
      routes: {
        'GET /api/search/news': () =>
          envelope({
            list: [
              newsItem(1, { title: 'L’École Saint-Jean rouvre', summary: 'Une école rénovée.' }),
            ],
            next_page_token: '',
            terms: ['ecole'],
          }),
      },
    });
    // (jsdom's name computation puts spaces around <mark>; browsers do not.)
    const link = await screen.findByRole('link', { name: /Saint-Jean rouvre/ }, { timeout: 3000 });
    expect(link).toHaveTextContent('L’École Saint-Jean rouvre');
    expect(within(link).getByText('École').tagName).toBe('MARK');
    expect(screen.getByText('école').tagName).toBe('MARK');
    // D426: the reader's own city goes along, to order (not filter) the results.
    expect(calls('/api/search/news')[0].query).toEqual({
      q: 'ecole',
      country: 'US',
      near_city_id: '4140963',
    });

    await user.selectOptions(screen.getByLabelText('Category'), 'education');
    await user.selectOptions(screen.getByLabelText('Time'), '24h');
    // Each filter change is a navigation and a new request: allow a loaded machine time.
    await waitFor(
      () =>
        expect(calls('/api/search/news').at(-1)?.query).toMatchObject({
          category: 'education',
          since: expect.any(String),
        }),
      { timeout: 15_000 },
    );
    const since = Number(calls('/api/search/news').at(-1)?.query.since);
    expect(Date.now() - since).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(Date.now() - since).toBeLessThan(24 * 3600_000 + 10 * 60_000 + 1000);
  });

  it('§2.6 two filters picked before the screen redraws both go into the request', async () => {
    const { calls } = renderApp('/search/news?q=ecole', {
      routes: {
        'GET /api/search/news': () => envelope({ list: [], next_page_token: '', terms: ['ecole'] }),
      },
    });
    const category = await screen.findByLabelText('Category');
    const time = screen.getByLabelText('Time');
    // One act: both changes land before React renders again (a busy device).
    act(() => {
      fireEvent.change(category, { target: { value: 'education' } });
      fireEvent.change(time, { target: { value: '24h' } });
    });
    await waitFor(() =>
      expect(calls('/api/search/news').at(-1)?.query).toMatchObject({
        category: 'education',
        since: expect.any(String),
      }),
    );
  });

  it('§2.6 no results: helpful suggestions and a way to clear the filters', async () => {
    const user = userEvent.setup();
    const { location } = renderApp('/search/news?q=zzz&category=food', {
      routes: {
        'GET /api/search/news': () => envelope({ list: [], next_page_token: '', terms: ['zzz'] }),
      },
    });
    expect(await screen.findByText('No stories match “zzz”')).toBeInTheDocument();
    expect(screen.getByText('Check the spelling.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Search publishers instead' })).toHaveAttribute(
      'href',
      '/search/media?q=zzz',
    );
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]);
    await waitFor(() => expect(location()).toBe('/search/news?q=zzz'));
  });

  it('§2.6 without a query nothing is asked (idle)', async () => {
    const { calls } = renderApp('/search/news');
    expect(await screen.findByText('Search local news')).toBeInTheDocument();
    expect(calls('/api/search/news')).toHaveLength(0);
  });

  it('§2.6 publisher search lists publishers with their pages', async () => {
    renderApp('/search/media?q=ledger', {
      routes: {
        'GET /api/search/media': () => envelope({ list: [ledger], next_page_token: '' }),
      },
    });
    const link = await screen.findByRole('link', { name: /The Capitol Ledger/ });
    expect(link).toHaveAttribute('href', '/media/7');
    expect(within(link).getByText('Ledger').tagName).toBe('MARK');
  });
});

describe('§2.1 feed with a place', () => {
  it('the place filter searches cities and filters by city_id', async () => {
    const user = userEvent.setup();
    const { calls } = renderApp('/search/news?q=vote', {
      routes: {
        'GET /api/search/news': () => envelope({ list: [], next_page_token: '', terms: ['vote'] }),
        'GET /api/geo/cities/search': () =>
          envelope({
            list: [
              {
                id: 4975802,
                name: 'Portland',
                admin_code: 'ME',
                iso: 'US',
                city_show: 'Portland, ME',
              },
            ],
            next_page_token: null,
          }),
      },
    });
    await user.type(await screen.findByLabelText('Place'), 'Portl');
    await user.click(await screen.findByRole('button', { name: 'Portland, ME' }));
    await waitFor(() => expect(calls('/api/search/news').at(-1)?.query.city_id).toBe('4975802'));
    expect(
      screen.getByRole('button', { name: 'Remove the place filter Portland, ME' }),
    ).toBeInTheDocument();
    void feedPage;
  });
});

describe('D201 opening a story from a card', () => {
  it('shows what the card knew at once and fills the body when it arrives', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    renderApp('/latest', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([newsItem(1042, { title: 'Council approves the new budget', content: '' })]),
          ),
        'GET /api/news/detail': async () => {
          await answered;
          return detail();
        },
      },
    });
    await userEvent.click(
      await screen.findByRole('link', { name: 'Council approves the new budget' }),
    );
    // Before the detail answers: title, publisher and summary, no whole-story skeleton.
    expect(
      await screen.findByRole('heading', { name: 'Council approves the new budget', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText('The Capitol Ledger')).toBeInTheDocument();
    expect(screen.queryByText('Loading the story…')).not.toBeInTheDocument();
    expect(screen.getByText('Loading the full text…')).toBeInTheDocument();
    answer();
    expect(await screen.findByText('9 to 4')).toBeInTheDocument();
    expect(screen.queryByText('Loading the full text…')).not.toBeInTheDocument();
  });

  it('keeps what the card knew when the locale guard adds c on the way (issue 31)', async () => {
    // A stored locale code makes the guard redirect /article/7 to /article/7?c=en_US, and a
    // redirect drops the navigation's state.
    renderApp('/latest?c=en_US', {
      cookies: { lw_locale: 'en_US' },
      routes: {
        'GET /api/news/feed': () =>
          envelope(feedPage([newsItem(7, { title: 'Bridge reopens after repairs', content: '' })])),
        'GET /api/news/detail': () => new Promise(() => {}),
      },
    });
    await userEvent.click(
      await screen.findByRole('link', { name: 'Bridge reopens after repairs' }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Bridge reopens after repairs', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading the story…')).not.toBeInTheDocument();
    expect(screen.getByText('Loading the full text…')).toBeInTheDocument();
  });

  it('a direct visit without a card still shows the whole-story skeleton', async () => {
    // A story no card of this run opened.
    renderApp('/article/2042', {
      routes: { 'GET /api/news/detail': () => new Promise(() => {}) },
    });
    expect(await screen.findByText('Loading the story…')).toBeInTheDocument();
  });
});
