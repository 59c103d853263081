import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, type Handler } from '../test/fakeServer';
import { installIntersectionObserver } from '../test/intersection';
import { feedPage, ledger, newsItem } from '../test/newsFixtures';
import { firstLoadPayload } from '../test/payload';
import { renderApp } from '../test/renderApp';

let io: ReturnType<typeof installIntersectionObserver>;
beforeEach(() => {
  io = installIntersectionObserver();
});
afterEach(() => vi.unstubAllGlobals());

const feedBy =
  (pages: Record<string, unknown>): Handler =>
  (req) =>
    envelope(pages[req.query.channel] ?? feedPage([]));

describe('§2.4 / §2.5 lists', () => {
  it('§2.4 latest shows cards: title, publisher, time, category, badges, N sources', async () => {
    const { calls } = renderApp('/latest', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([
              newsItem(1, { title: 'Council passes budget', cluster_size: 3 }),
              newsItem(2, { title: 'Mayor on camera', type: 3 }),
              newsItem(3, { title: 'Podcast: the week', type: 4, category_id: 'opinion' }),
            ]),
          ),
      },
    });
    const card = (await screen.findByRole('article', {
      name: 'Council passes budget',
    })) as HTMLElement;
    expect(within(card).getByRole('link', { name: 'Council passes budget' })).toHaveAttribute(
      'href',
      '/article/1',
    );
    expect(within(card).getByRole('link', { name: 'The Capitol Ledger' })).toHaveAttribute(
      'href',
      '/media/7',
    );
    expect(within(card).getByText('3 sources')).toBeInTheDocument();
    expect(within(card).getByText('Politics')).toBeInTheDocument();
    expect(within(card).getByText('5 minutes ago')).toHaveAttribute('dateTime');
    expect(
      within(screen.getByRole('article', { name: 'Mayor on camera' })).getByText('Video'),
    ).toBeInTheDocument();
    const podcast = screen.getByRole('article', { name: 'Podcast: the week' });
    expect(within(podcast).getByText('Audio')).toBeInTheDocument();
    expect(within(podcast).getByText('Opinion')).toBeInTheDocument();
    expect(calls('/api/news/feed')[0].query).toMatchObject({
      channel: 'latest',
      lang: 'en',
      country: 'US',
    });
  });

  it('§4 pending shows a skeleton, error a retry that loads again', async () => {
    let fail = true;
    const user = userEvent.setup();
    renderApp('/top-news', {
      routes: {
        'GET /api/news/feed': () =>
          fail
            ? { status: 500, body: { code: 500, message: 'boom' } }
            : envelope(feedPage([newsItem(1, { title: 'Back again' })])),
      },
    });
    expect(await screen.findByText('Loading stories…')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Stories could not be loaded');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Back again' })).toBeInTheDocument();
  });

  it('§4 an empty list says so', async () => {
    renderApp('/latest');
    expect(await screen.findByText('No stories here yet')).toBeInTheDocument();
  });

  it('§3 pages with next-page tokens: near the end loads the next page, "Load more" too', async () => {
    const user = userEvent.setup();
    const { calls } = renderApp('/latest', {
      routes: {
        'GET /api/news/feed': (req) => {
          const token = req.query.page_token ?? '';
          if (token === '') return envelope(feedPage([newsItem(1), newsItem(2)], 'p2'));
          if (token === 'p2') return envelope(feedPage([newsItem(2), newsItem(3)], 'p3'));
          return envelope(feedPage([newsItem(4)], ''));
        },
      },
    });
    await screen.findByRole('link', { name: 'Story 1' });
    // The sentinel comes within reach: page two, passed back unchanged as page_token.
    const sentinel = document.querySelector('.load-more__sentinel')!;
    io.setNear(sentinel, true);
    expect(await screen.findByRole('link', { name: 'Story 3' })).toBeInTheDocument();
    expect(calls('/api/news/feed')[1].query.page_token).toBe('p2');
    // A story of a cluster seen on page one is not shown twice.
    expect(screen.getAllByRole('link', { name: 'Story 2' })).toHaveLength(1);
    // Keyboard: the button loads the last page and moves focus to its first story.
    await user.click(screen.getByRole('button', { name: 'Load more stories' }));
    const fourth = await screen.findByRole('link', { name: 'Story 4' });
    await waitFor(() => expect(fourth).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Load more stories' })).not.toBeInTheDocument();
  });
});

describe('§2.1 home', () => {
  it('§2.1 the reader’s city, local first, then top and latest, with category tabs', async () => {
    const { calls } = renderApp('/', {
      routes: {
        'GET /api/news/feed': feedBy({
          local: feedPage([newsItem(1, { title: 'Local story' })], 'x'),
          top: feedPage([newsItem(2, { title: 'Top story' })]),
          latest: feedPage([newsItem(3, { title: 'Latest story' })]),
        }),
        'GET /api/news/categories': () =>
          envelope({
            list: [
              { id: 'local', name: 'Local' },
              { id: 'sports', name: 'Sports' },
            ],
          }),
      },
    });
    expect(await screen.findByText('Your news for Washington, DC')).toBeInTheDocument();
    const sections = (await screen.findAllByRole('region')).filter((s) => s.querySelector('h2'));
    expect(sections.map((s) => s.querySelector('h2')?.textContent)).toEqual([
      'Near Washington, DC',
      'Top stories',
      'Latest news',
    ]);
    expect(
      await within(sections[0]).findByRole('link', { name: 'Local story' }),
    ).toBeInTheDocument();
    expect(await within(sections[1]).findByRole('link', { name: 'Top story' })).toBeInTheDocument();
    // The latest list loads when the reader comes near it (D425).
    await waitFor(() => expect(io.observed()).toContain(sections[2]));
    io.setNear(sections[2]);
    expect(
      await within(sections[2]).findByRole('link', { name: 'Latest story' }),
    ).toBeInTheDocument();
    const tabs = screen.getByRole('navigation', { name: 'Categories' });
    await waitFor(() =>
      expect(
        within(tabs)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['Local', 'Sports']),
    );
    expect(within(tabs).getByRole('link', { name: 'Sports' })).toHaveAttribute(
      'href',
      '/category/sports',
    );
    await waitFor(() =>
      expect(calls('/api/news/feed').some((r) => r.query.city_id === '4140963')).toBe(true),
    );
    expect(document.querySelector('[data-slot="weather"]')).not.toBeNull();
    expect(document.querySelector('[data-slot="trends"]')).not.toBeNull();
  });

  it('D425 home asks for its latest list only when the reader comes near it', async () => {
    let answerLatest: () => void = () => undefined;
    const latestAnswered = new Promise<void>((resolve) => {
      answerLatest = resolve;
    });
    const { calls } = renderApp('/', {
      routes: {
        'GET /api/news/feed': async (req) => {
          if (req.query.channel === 'latest') await latestAnswered;
          return envelope(
            req.query.channel === 'latest'
              ? feedPage([newsItem(3, { title: 'Latest story' })])
              : feedPage([newsItem(req.query.channel === 'top' ? 2 : 1)]),
          );
        },
      },
    });
    const latest = await screen.findByRole('region', { name: 'Latest news' });
    expect(await screen.findByRole('region', { name: 'Top stories' })).toBeInTheDocument();
    await waitFor(() => expect(io.observed()).toContain(latest));
    expect(calls('/api/news/feed').map((r) => r.query.channel)).not.toContain('latest');
    expect(within(latest).queryByRole('list')).not.toBeInTheDocument();
    // Near: the section shows its loading state, then the stories.
    io.setNear(latest);
    await waitFor(() =>
      expect(calls('/api/news/feed').map((r) => r.query.channel)).toContain('latest'),
    );
    expect(within(latest).getByRole('status')).toBeInTheDocument();
    answerLatest();
    expect(await within(latest).findByRole('link', { name: 'Latest story' })).toBeInTheDocument();
  });

  it('D425 home’s latest list shows its error state, and retries, when the call fails', async () => {
    let fail = true;
    renderApp('/', {
      routes: {
        'GET /api/news/feed': (req) => {
          if (req.query.channel !== 'latest') return envelope(feedPage([newsItem(1)]));
          if (fail) return { status: 500, body: { code: 500, message: 'down' } };
          return envelope(feedPage([newsItem(3, { title: 'Latest again' })]));
        },
      },
    });
    const latest = await screen.findByRole('region', { name: 'Latest news' });
    await waitFor(() => expect(io.observed()).toContain(latest));
    io.setNear(latest);
    const retry = await within(latest).findByRole('button', { name: /try again/i });
    fail = false;
    await userEvent.setup().click(retry);
    expect(await within(latest).findByRole('link', { name: 'Latest again' })).toBeInTheDocument();
  });

  it('D101 the first screen starts from the inlined payload: no second round trip', async () => {
    const payload = firstLoadPayload({
      route: 'latest',
      calls: [
        {
          path: '/api/news/feed',
          params: { channel: 'latest', lang: 'en', country: 'US' },
          data: feedPage([newsItem(5, { title: 'From the payload' })]),
        },
      ],
    });
    const { calls } = renderApp('/latest', { payload });
    expect(await screen.findByRole('link', { name: 'From the payload' })).toBeInTheDocument();
    expect(calls('/api/news/feed')).toHaveLength(0);
  });

  it("D147 a first visit's local list stays the inlined one once the guest's city is known", async () => {
    const local = { channel: 'local', city_id: '4140963', lang: 'en', country: 'US' };
    const payload = firstLoadPayload({
      route: 'local',
      calls: [
        {
          path: '/api/news/feed',
          params: local,
          data: feedPage([newsItem(6, { title: 'Inlined local' })]),
        },
      ],
    });
    const { calls, server } = renderApp('/local', { payload });
    expect(await screen.findByRole('link', { name: 'Inlined local' })).toBeInTheDocument();
    // Start-up places the guest in that city: the list asked for then is still the inlined one.
    await waitFor(() =>
      expect(server.requests.some((r) => r.path === '/api/user/info')).toBe(true),
    );
    expect(screen.getByRole('link', { name: 'Inlined local' })).toBeInTheDocument();
    expect(calls('/api/news/feed')).toHaveLength(0);
  });
});

describe('§2.3 local', () => {
  it('§2.3 a quiet city widens and the screen says so', async () => {
    renderApp('/local', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([newsItem(1)], '', {
              scope: 'nearby',
              city: { id: 4140963, name: 'Washington', city_show: 'Washington, DC' },
              area_name: 'Washington, DC',
            }),
          ),
      },
    });
    expect(await screen.findByText(/Showing news near Washington, DC/)).toBeInTheDocument();
  });

  it('§2.3 /local/{city id} shows that city’s news', async () => {
    const { calls } = renderApp('/es/local/4975802', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([newsItem(1, { title: 'Noticia de Portland', lang: 'es' })], '', {
              scope: 'city',
              city: { id: 4975802, name: 'Portland', city_show: 'Portland, ME' },
            }),
          ),
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'Noticias locales: Portland, ME', level: 1 }),
    ).toBeInTheDocument();
    expect(calls('/api/news/feed')[0].query).toMatchObject({
      channel: 'local',
      city_id: '4975802',
      lang: 'es',
    });
  });
});

describe('§2.14 / §2.15 / §2.13 / §2.12 collections', () => {
  it('§2.14 a category is titled by its name; an unknown one is not found', async () => {
    const { calls } = renderApp('/fr/category/science-tech');
    expect(
      await screen.findByRole('heading', { name: 'Sciences et techno', level: 1 }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(calls('/api/news/feed')[0]?.query).toMatchObject({
        channel: 'category',
        category: 'science-tech',
        lang: 'fr',
      }),
    );
  });

  it('§2.14 an unknown category is a not-found state', async () => {
    renderApp('/category/astrology');
    expect(
      await screen.findByRole('heading', { name: 'There is no category “astrology”' }),
    ).toBeInTheDocument();
  });

  it('§2.15 a location page is titled by its area', async () => {
    const { calls } = renderApp('/location/US-ME', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([newsItem(1)], '', { area: { id: 'US-ME', name: 'Maine', kind: 'state' } }),
          ),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Maine', level: 1 })).toBeInTheDocument();
    expect(calls('/api/news/feed')[0].query).toEqual({ channel: 'location', location: 'US-ME' });
  });

  it('§2.13 a special collection shows its title and description', async () => {
    renderApp('/special/election-2026', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage([newsItem(1)], '', {
              special: {
                slug: 'election-2026',
                title: 'Election 2026',
                description: 'Every race.',
              },
            }),
          ),
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'Election 2026', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Every race.')).toBeInTheDocument();
  });

  it('§2.12 the publisher page shows the §3 media source and its stories', async () => {
    renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(feedPage([newsItem(1, { title: 'Ledger story' })], '', { media: ledger })),
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'The Capitol Ledger', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Independent news from the District since 1998.')).toBeInTheDocument();
    expect(screen.getByText('Washington, DC, United States')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Website: ledger.example.org' })).toHaveAttribute(
      'href',
      'https://ledger.example.org/',
    );
    expect(screen.getByRole('link', { name: 'news@ledger.example.org' })).toHaveAttribute(
      'href',
      'mailto:news@ledger.example.org',
    );
    expect(await screen.findByRole('link', { name: 'Ledger story' })).toBeInTheDocument();
  });
});
