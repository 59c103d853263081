import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { feedPage, newsItem } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { altNews, detail, held, refused } from './test/fixtures';

beforeEach(() => {
  installIntersectionObserver();
});

const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

const feed = () =>
  envelope(
    feedPage([
      newsItem(1042, { title: 'Council approves the new budget' }),
      newsItem(7, { title: 'Metro fares rise' }),
    ]),
  );

describe('§4.6 Save on news cards (D266)', () => {
  it('marks saved stories on the cards and saves another at once', async () => {
    const answer = held<{ body: unknown }>();
    const { server } = renderApp('/latest', {
      routes: {
        'GET /api/news/feed': feed,
        'POST /api/user/news/collectList': () =>
          envelope({ list: [altNews(1042, 'Council approves the new budget')], next_page_no: '' }),
        'POST /api/user/news/collect': () => answer.promise,
      },
    });
    expect(
      await screen.findByRole('button', { name: 'Save “Council approves the new budget”' }),
    ).toHaveAttribute('aria-pressed', 'true');
    const metro = screen.getByRole('button', { name: 'Save “Metro fares rise”' });
    expect(metro).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(metro);
    // Optimistic: pressed before the server answers.
    expect(metro).toHaveAttribute('aria-pressed', 'true');
    answer.release(envelope({ saved: true }));
    await waitFor(() => expect(posts(server, '/api/user/news/collect')).toHaveLength(1));
    expect(posts(server, '/api/user/news/collect')[0].body).toEqual({ news_id: 7 });
    // Every card reads one saved list, asked for once.
    expect(posts(server, '/api/user/news/collectList')).toHaveLength(1);
  });

  it('shares its state with the article’s Save button', async () => {
    const { server } = renderApp('/latest', {
      routes: {
        'GET /api/news/feed': feed,
        'GET /api/news/detail': () => detail(),
        'POST /api/user/news/collectList': () => envelope({ list: [], next_page_no: '' }),
        'POST /api/user/news/collect': () => envelope({ saved: true }),
        'POST /api/ugc/reactions': () => envelope({ counts: {}, total: 0, mine: null }),
      },
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Save “Council approves the new budget”' }),
    );
    await waitFor(() => expect(posts(server, '/api/user/news/collect')).toHaveLength(1));
    await userEvent.click(screen.getByRole('link', { name: 'Council approves the new budget' }));
    expect(await screen.findByRole('button', { name: 'Saved' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(posts(server, '/api/user/news/collectList')).toHaveLength(1);
  });

  it('rolls a refused save back with a message', async () => {
    renderApp('/latest', {
      routes: {
        'GET /api/news/feed': feed,
        'POST /api/user/news/collectList': () => envelope({ list: [], next_page_no: '' }),
        'POST /api/user/news/collect': () => refused(),
      },
    });
    const metro = await screen.findByRole('button', { name: 'Save “Metro fares rise”' });
    await userEvent.click(metro);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The story could not be saved or unsaved. Please try again.',
    );
    expect(screen.getByRole('button', { name: 'Save “Metro fares rise”' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('is not shown while the saved stories are unknown (a failed list shows no toggle)', async () => {
    renderApp('/latest', {
      routes: {
        'GET /api/news/feed': feed,
        'POST /api/user/news/collectList': () => refused(),
      },
    });
    await screen.findByRole('link', { name: 'Metro fares rise' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: /^Save “/ })).not.toBeInTheDocument();
  });

  it('is named in the reader’s language', async () => {
    renderApp('/es/latest', {
      routes: {
        'GET /api/news/feed': feed,
        'POST /api/user/news/collectList': () => envelope({ list: [], next_page_no: '' }),
      },
    });
    expect(await screen.findByRole('button', { name: 'Guardar «Metro fares rise»' })).toBeVisible();
  });
});
