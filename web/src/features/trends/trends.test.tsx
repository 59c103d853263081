import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { newsItem } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';

let observer: ReturnType<typeof installIntersectionObserver>;
beforeEach(() => {
  observer = installIntersectionObserver();
});

const spark = Array.from({ length: 24 }, (_, i) => (i >= 21 ? i - 20 : 0));

function trend(key: string, phrase: string, stories = 0) {
  return {
    phrase,
    key,
    recent: 6,
    publishers: 3,
    sparkline: spark,
    news_ids: [1, 2],
    list: [
      newsItem(1, { title: `${phrase} closes schools` }),
      newsItem(2, { title: `${phrase} strands drivers` }),
    ].slice(0, stories),
  };
}

const answer: Handler = (req) => {
  const stories = Number(req.query.stories ?? 3);
  const all = [
    trend('blizzard zelda', 'Blizzard Zelda', stories),
    trend('transit strike', 'Transit strike', stories),
  ];
  const trends = req.query.key ? all.filter((t) => t.key === req.query.key) : all;
  return envelope({ scope: 'country', made_at: Date.now(), trends });
};

describe('/realtime-trends (D302)', () => {
  it('lists the trends with a sparkline and its words', async () => {
    const { server } = renderApp('/realtime-trends', { routes: { 'GET /api/trends': answer } });
    const link = await screen.findByRole('link', { name: 'Blizzard Zelda' });
    expect(link).toHaveAttribute('href', '/realtime-trends?trend=blizzard%20zelda');
    const item = link.closest('li')!;
    expect(
      within(item).getByText('6 stories from 3 publishers in the last 6 hours'),
    ).toBeInTheDocument();
    expect(
      within(item).getByRole('img', {
        name: '6 stories in the last 24 hours, per hour: 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3',
      }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Transit strike' })).toBeInTheDocument();
    const asked = server.requests.find((r) => r.path === '/api/trends')!;
    expect(asked.query).toMatchObject({ country: 'US', lang: 'en', state: 'DC' });
    expect(screen.getByText('Trending across United States')).toBeInTheDocument();
  });

  it('d301 asks for the reader’s state and says when the trends are the state’s own', async () => {
    renderApp('/realtime-trends', {
      routes: {
        'GET /api/trends': (req) =>
          envelope({
            scope: req.query.state === 'DC' ? 'state' : 'country',
            made_at: Date.now(),
            trends: [trend('blizzard zelda', 'Blizzard Zelda')],
          }),
      },
    });
    expect(await screen.findByText('Trending in DC')).toBeInTheDocument();
  });

  it('opens a trend to list its stories, and goes back', async () => {
    const { server } = renderApp('/realtime-trends', { routes: { 'GET /api/trends': answer } });
    await userEvent.click(await screen.findByRole('link', { name: 'Blizzard Zelda' }));
    expect(
      await screen.findByRole('heading', { name: 'Stories about Blizzard Zelda' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Blizzard Zelda closes schools/ })).toBeInTheDocument();
    expect(server.requests.some((r) => r.query.key === 'blizzard zelda')).toBe(true);
    await userEvent.click(screen.getByRole('link', { name: 'All trends' }));
    expect(await screen.findByRole('link', { name: 'Transit strike' })).toBeInTheDocument();
  });

  it('says when nothing is trending', async () => {
    renderApp('/realtime-trends', {
      routes: { 'GET /api/trends': () => envelope({ scope: 'country', made_at: 0, trends: [] }) },
    });
    expect(await screen.findByText('No trending topics yet')).toBeInTheDocument();
  });

  it('says when a trend has gone', async () => {
    renderApp('/realtime-trends?trend=old%20news', { routes: { 'GET /api/trends': answer } });
    expect(await screen.findByText('This topic is no longer trending')).toBeInTheDocument();
  });

  it('shows an error with a retry that asks again', async () => {
    let calls = 0;
    renderApp('/realtime-trends', {
      routes: {
        'GET /api/trends': (req) => {
          calls += 1;
          return calls === 1 ? { status: 503, body: { code: 503, message: 'busy' } } : answer(req);
        },
      },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Trends could not be loaded');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Blizzard Zelda' })).toBeInTheDocument();
  });
});

describe('top trends on home and search (D302)', () => {
  it('home shows the top trends once the reader comes near them, not before (D415)', async () => {
    const { server } = renderApp('/', { routes: { 'GET /api/trends': answer } });
    expect(await screen.findByRole('heading', { name: /Top stories/i })).toBeInTheDocument();
    const slot = document.querySelector('[data-slot="trends"]')!;
    await waitFor(() => expect(observer.observed()).toContain(slot.nextElementSibling));
    expect(server.requests.some((r) => r.path === '/api/trends')).toBe(false);
    observer.setNear(slot.nextElementSibling!);
    const heading = await screen.findByRole('heading', { name: 'Trending now' });
    const section = heading.closest('section')!;
    expect(within(section).getByRole('link', { name: 'Blizzard Zelda' })).toHaveAttribute(
      'href',
      '/realtime-trends?trend=blizzard%20zelda',
    );
    expect(within(section).getByRole('link', { name: 'More trends' })).toHaveAttribute(
      'href',
      '/realtime-trends',
    );
    const asked = server.requests.find((r) => r.path === '/api/trends')!;
    expect(asked.query).toMatchObject({ size: '5', stories: '0' });
  });

  it('home shows no trends section when nothing trends', async () => {
    const { server } = renderApp('/', {
      routes: { 'GET /api/trends': () => envelope({ scope: 'country', made_at: 0, trends: [] }) },
    });
    expect(await screen.findByRole('heading', { name: /Top stories/i })).toBeInTheDocument();
    const slot = document.querySelector('[data-slot="trends"]')!;
    await waitFor(() => expect(observer.observed()).toContain(slot.nextElementSibling));
    observer.setNear(slot.nextElementSibling!);
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/trends')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Trending now' })).not.toBeInTheDocument();
  });

  it('an empty search offers the top trends', async () => {
    renderApp('/search', { routes: { 'GET /api/trends': answer } });
    expect(await screen.findByRole('link', { name: 'Transit strike' })).toBeInTheDocument();
  });
});
