import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import { altNews, failed, refused, signedIn } from './test/fixtures';

beforeEach(() => {
  installIntersectionObserver();
});

function open(path: string, routes: Record<string, Handler>) {
  return renderApp(path, { cookies: signedIn.cookies, routes: { ...signedIn.routes, ...routes } });
}

const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

describe('/user/read: reading history', () => {
  const history = () =>
    envelope({
      list: [altNews(1, 'Council approves the new budget'), altNews(2, 'Metro fares rise')],
      next_page_no: '',
    });

  it('lists what was read, with publisher and when', async () => {
    open('/user/read', { 'POST /api/user/news/readList': history });
    const link = await screen.findByRole('link', { name: 'Council approves the new budget' });
    expect(link).toHaveAttribute('href', '/article/1');
    const item = link.closest('li')!;
    expect(within(item).getByText('The Capitol Ledger')).toBeInTheDocument();
    expect(within(item).getByText('Read 3 hours ago')).toBeInTheDocument();
  });

  it('removes one story at once', async () => {
    const { server } = open('/user/read', {
      'POST /api/user/news/readList': history,
      'POST /api/user/news/readRemove': () => envelope({ removed: 1 }),
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove “Metro fares rise” from history' }),
    );
    expect(screen.queryByRole('link', { name: 'Metro fares rise' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Council approves the new budget' })).toBeVisible();
    await waitFor(() => expect(posts(server, '/api/user/news/readRemove')).toHaveLength(1));
    expect(posts(server, '/api/user/news/readRemove')[0].body).toEqual({ news_id: 2 });
  });

  it('puts a story back with a message when removing is refused', async () => {
    open('/user/read', {
      'POST /api/user/news/readList': history,
      'POST /api/user/news/readRemove': () => refused(),
    });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Remove “Metro fares rise” from history' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The story could not be removed from your history.',
    );
    expect(await screen.findByRole('link', { name: 'Metro fares rise' })).toBeVisible();
  });

  it('clears the history only after confirming', async () => {
    const { server } = open('/user/read', {
      'POST /api/user/news/readList': history,
      'POST /api/user/news/readClear': () => envelope({ removed: 2 }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Clear history' }));
    const confirm = screen.getByRole('alertdialog', {
      name: 'Clear your whole reading history? This cannot be undone.',
    });
    // Cancelling changes nothing.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Clear history' })).toHaveFocus();
    expect(posts(server, '/api/user/news/readClear')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Clear history' }));
    expect(screen.getByRole('button', { name: 'Yes, clear history' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Yes, clear history' }));
    expect(await screen.findByText('You have not read any stories yet')).toBeInTheDocument();
    await waitFor(() => expect(posts(server, '/api/user/news/readClear')).toHaveLength(1));
  });

  it('loads more with the next page token', async () => {
    const { server } = open('/user/read', {
      'POST /api/user/news/readList': (req) =>
        (req.body as { page_no?: string }).page_no === '1700_1'
          ? envelope({ list: [altNews(3, 'Older story')], next_page_no: '' })
          : envelope({ list: [altNews(1, 'Newest story')], next_page_no: '1700_1' }),
    });
    await screen.findByRole('link', { name: 'Newest story' });
    await userEvent.click(screen.getByRole('button', { name: 'Load more stories' }));
    expect(await screen.findByRole('link', { name: 'Older story' })).toBeInTheDocument();
    expect(posts(server, '/api/user/news/readList').map((r) => r.body)).toEqual([
      { size: 20 },
      { size: 20, page_no: '1700_1' },
    ]);
    expect(screen.queryByRole('button', { name: 'Load more stories' })).not.toBeInTheDocument();
  });

  it('says how history fills when it is empty', async () => {
    open('/user/read', {
      'POST /api/user/news/readList': () => envelope({ list: [], next_page_no: '' }),
    });
    expect(await screen.findByText('You have not read any stories yet')).toBeInTheDocument();
    expect(screen.getByText('Stories you open appear here, newest first.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear history' })).not.toBeInTheDocument();
  });

  it('offers Try again when the list fails', async () => {
    let fail = true;
    open('/user/read', {
      'POST /api/user/news/readList': () =>
        fail ? refused('nope') : envelope({ list: [altNews(1, 'Back again')], next_page_no: '' }),
    });
    const alert = await screen.findByRole('alert');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Back again' })).toBeInTheDocument();
  });
});

describe('/user/favorites: saved stories', () => {
  it('lists saved stories and unsaves one', async () => {
    let saved = [altNews(1, 'Council approves the new budget'), altNews(2, 'Metro fares rise')];
    const { server } = open('/user/favorites', {
      'POST /api/user/news/collectList': () => envelope({ list: saved, next_page_no: '' }),
      'POST /api/user/news/unCollect': (req) => {
        saved = saved.filter((s) => s.news_id !== (req.body as { news_id: number }).news_id);
        return envelope({ saved: false });
      },
    });
    const item = (await screen.findByRole('link', { name: 'Metro fares rise' })).closest('li')!;
    expect(within(item).getByText('Saved 3 hours ago')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unsave “Metro fares rise”' }));
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: 'Metro fares rise' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('link', { name: 'Council approves the new budget' })).toBeVisible();
    expect(posts(server, '/api/user/news/unCollect')[0].body).toEqual({ news_id: 2 });
  });

  it('has an empty state saying how to save', async () => {
    open('/es/user/favorites', {
      'POST /api/user/news/collectList': () => envelope({ list: [], next_page_no: '' }),
    });
    expect(
      await screen.findByText(
        'Elige «Guardar noticia» en la página de una noticia para tenerla aquí más tarde.',
      ),
    ).toBeInTheDocument();
  });
});

describe('/user/reaction: the reader’s reactions', () => {
  it('lists stories with the reaction and pages by next_max_id', async () => {
    const { server } = open('/user/reaction', {
      'POST /api/ugc/reactionList': (req) =>
        (req.body as { page_no?: string }).page_no
          ? envelope({ list: [{ ...altNews(3, 'Older'), reaction: 'sad' }], next_max_id: '' })
          : envelope({ list: [{ ...altNews(1, 'Newer'), reaction: 'love' }], next_max_id: '9_1' }),
    });
    const item = (await screen.findByRole('link', { name: 'Newer' })).closest('li')!;
    expect(within(item).getByText('Love')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load more stories' }));
    const older = (await screen.findByRole('link', { name: 'Older' })).closest('li')!;
    expect(within(older).getByText('Sad')).toBeInTheDocument();
    expect(posts(server, '/api/ugc/reactionList')[1].body).toEqual({ size: 20, page_no: '9_1' });
  });
});

describe('/setting/block-list: blocked publishers', () => {
  const blocked = (id: number, name: string) => ({
    media_id: id,
    media_name: name,
    icon_url: '',
    home_url: '',
    update_time: Date.UTC(2026, 2, 14, 12),
  });

  it('lists blocked publishers with when, and unblocks one', async () => {
    const { server } = renderApp('/setting/block-list', {
      routes: {
        'POST /api/user/media/blockList': () =>
          envelope({ list: [blocked(7, 'The Capitol Ledger'), blocked(8, 'DC Daily')], token: '' }),
        'POST /api/user/media/unblock': () => envelope({ blocked: false }),
      },
    });
    const link = await screen.findByRole('link', { name: 'DC Daily' });
    expect(link).toHaveAttribute('href', '/media/8');
    expect(within(link.closest('li')!).getByText('Blocked on Mar 14, 2026')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unblock DC Daily' }));
    expect(screen.queryByRole('link', { name: 'DC Daily' })).not.toBeInTheDocument();
    await waitFor(() => expect(posts(server, '/api/user/media/unblock')).toHaveLength(1));
    expect(posts(server, '/api/user/media/unblock')[0].body).toEqual({ media_id: 8 });
  });

  it('pages with the token', async () => {
    const { server } = renderApp('/setting/block-list', {
      routes: {
        'POST /api/user/media/blockList': (req) =>
          (req.body as { page_no?: string }).page_no === 'p2'
            ? envelope({ list: [blocked(8, 'DC Daily')], token: '' })
            : envelope({ list: [blocked(7, 'The Capitol Ledger')], token: 'p2' }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Load more publishers' }));
    expect(await screen.findByRole('link', { name: 'DC Daily' })).toBeInTheDocument();
    expect(posts(server, '/api/user/media/blockList')[1].body).toEqual({ size: 20, page_no: 'p2' });
  });

  it('has empty and error states', async () => {
    renderApp('/setting/block-list', {
      routes: { 'POST /api/user/media/blockList': () => envelope({ list: [], token: '' }) },
    });
    expect(await screen.findByText('You have not blocked any publishers')).toBeInTheDocument();
    expect(
      screen.getByText(
        'To stop seeing a publisher’s stories, choose “Block publisher” on its page.',
      ),
    ).toBeInTheDocument();
  });

  it('shows a server failure with Try again', async () => {
    renderApp('/setting/block-list', {
      routes: { 'POST /api/user/media/blockList': failed },
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
