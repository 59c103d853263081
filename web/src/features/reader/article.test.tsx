import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import { altNews, detail, held, refused } from './test/fixtures';

beforeEach(() => {
  installIntersectionObserver();
});

const noReactions = () => envelope({ counts: {}, total: 0, mine: null });
const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('§4.6 saving a story from the article', () => {
  it('shows Saved at once, and keeps it when the server agrees', async () => {
    const answer = held<{ body: unknown }>();
    const { server } = renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () => detail(),
        'POST /api/user/news/collectList': () => envelope({ list: [], next_page_no: '' }),
        'POST /api/user/news/collect': () => answer.promise,
        'POST /api/ugc/reactions': noReactions,
      },
    });
    const save = await screen.findByRole('button', { name: 'Save story' });
    expect(save).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(save);
    // Optimistic: before the server has answered.
    expect(screen.getByRole('button', { name: 'Saved' })).toHaveAttribute('aria-pressed', 'true');
    answer.release(envelope({ saved: true }));
    await waitFor(() => expect(posts(server, '/api/user/news/collect')).toHaveLength(1));
    expect(posts(server, '/api/user/news/collect')[0].body).toEqual({ news_id: 1042 });
    expect(screen.getByRole('button', { name: 'Saved' })).toBeInTheDocument();
  });

  it('rolls back to Save story with a message when the server refuses', async () => {
    renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () => detail(),
        'POST /api/user/news/collectList': () => envelope({ list: [], next_page_no: '' }),
        'POST /api/user/news/collect': () => refused(),
        'POST /api/ugc/reactions': noReactions,
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Save story' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The story could not be saved or unsaved. Please try again.',
    );
    expect(screen.getByRole('button', { name: 'Save story' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('knows a saved story from the saved list and unsaves it', async () => {
    const { server } = renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () => detail(),
        'POST /api/user/news/collectList': () =>
          envelope({ list: [altNews(1042, 'Council approves the new budget')], next_page_no: '' }),
        'POST /api/user/news/unCollect': () => envelope({ saved: false }),
        'POST /api/ugc/reactions': noReactions,
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Saved' }));
    expect(screen.getByRole('button', { name: 'Save story' })).toBeInTheDocument();
    await waitFor(() => expect(posts(server, '/api/user/news/unCollect')).toHaveLength(1));
    // The saved ids are asked for once, as one page of 100.
    expect(posts(server, '/api/user/news/collectList')[0].body).toEqual({ size: 100 });
  });
});

describe('§4 history: opening a story records it', () => {
  it('records the article once per view, and a failure is not shown', async () => {
    const { server } = renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () => detail(),
        'POST /api/user/news/read': () => refused(),
        'POST /api/ugc/reactions': noReactions,
      },
    });
    await screen.findByRole('heading', { name: 'Council approves the new budget', level: 1 });
    await waitFor(() => expect(posts(server, '/api/user/news/read')).toHaveLength(1));
    expect(posts(server, '/api/user/news/read')[0].body).toEqual({ news_id: 1042 });
    // Re-renders (reactions arriving, and so on) do not record it again.
    await screen.findByRole('group', { name: 'Reactions' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts(server, '/api/user/news/read')).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('§4 reactions on the article', () => {
  function reactionServer(fail = false) {
    let state = {
      counts: { love: 3, like: 1 } as Record<string, number>,
      total: 4,
      mine: null as string | null,
    };
    return renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': () => detail(),
        'POST /api/ugc/reactions': () => envelope(state),
        'POST /api/ugc/react': (req) => {
          if (fail) return refused('reaction');
          const next = (req.body as { reaction: string | null }).reaction;
          const counts = { ...state.counts };
          if (state.mine) counts[state.mine] -= 1;
          if (next) counts[next] = (counts[next] ?? 0) + 1;
          state = {
            counts,
            total: state.total - (state.mine ? 1 : 0) + (next ? 1 : 0),
            mine: next,
          };
          return envelope(state);
        },
      },
    });
  }

  it('shows six reactions with counts; picking, switching and taking back update the counts', async () => {
    const { server } = reactionServer();
    const bar = await screen.findByRole('group', { name: 'Reactions' });
    const buttons = await within(bar).findAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Like (1)',
      'Love (3)',
      'Insightful (0)',
      'Funny (0)',
      'Sad (0)',
      'Angry (0)',
    ]);
    await userEvent.click(within(bar).getByRole('button', { name: 'Love (3)' }));
    expect(within(bar).getByRole('button', { name: 'Love (4)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // Switching moves the reader's one reaction.
    await userEvent.click(within(bar).getByRole('button', { name: 'Funny (0)' }));
    expect(within(bar).getByRole('button', { name: 'Love (3)' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(within(bar).getByRole('button', { name: 'Funny (1)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // Pressing one's own reaction again takes it back.
    await userEvent.click(within(bar).getByRole('button', { name: 'Funny (1)' }));
    expect(await within(bar).findByRole('button', { name: 'Funny (0)' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await waitFor(() => expect(posts(server, '/api/ugc/react')).toHaveLength(3));
    expect(posts(server, '/api/ugc/react').map((r) => r.body)).toEqual([
      { news_id: 1042, reaction: 'love' },
      { news_id: 1042, reaction: 'funny' },
      { news_id: 1042, reaction: null },
    ]);
  });

  it('rolls a refused reaction back with a message', async () => {
    reactionServer(true);
    const bar = await screen.findByRole('group', { name: 'Reactions' });
    await userEvent.click(await within(bar).findByRole('button', { name: 'Sad (0)' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your reaction could not be saved. Please try again.',
    );
    expect(within(bar).getByRole('button', { name: 'Sad (0)' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('has localised reaction names', async () => {
    renderApp('/fr/article/1042', {
      routes: {
        'GET /api/news/detail': () => detail(),
        'POST /api/ugc/reactions': () => envelope({ counts: { love: 2 }, total: 2, mine: 'love' }),
      },
    });
    const bar = await screen.findByRole('group', { name: 'Réactions' });
    expect(await within(bar).findByRole('button', { name: 'J’adore (2)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });
});
