import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { envelope, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { feedPage, ledger, newsItem } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { held, refused, signedIn } from './test/fixtures';

beforeEach(() => {
  installIntersectionObserver();
});

const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

const publisherFeed = () =>
  envelope(
    feedPage([newsItem(1, { title: 'Council approves the new budget' })], '', { media: ledger }),
  );

describe('§4 following a publisher', () => {
  it('Follow turns into Following at once and back', async () => {
    let followed: unknown[] = [];
    const { server } = renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': publisherFeed,
        'POST /api/user/media/followList': () => envelope({ list: followed }),
        'POST /api/user/media/follow': () => {
          followed = [{ ...ledger, follow_status: 1, followed_at: 1 }];
          return envelope({ follow_status: 1 });
        },
        'POST /api/user/media/unfollow': () => {
          followed = [];
          return envelope({ follow_status: 0 });
        },
      },
    });
    const follow = await screen.findByRole('button', { name: 'Follow' });
    expect(follow).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(follow);
    expect(screen.getByRole('button', { name: 'Following' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await waitFor(() => expect(posts(server, '/api/user/media/follow')).toHaveLength(1));
    expect(posts(server, '/api/user/media/follow')[0].body).toEqual({ media_id: 7 });
    await userEvent.click(screen.getByRole('button', { name: 'Following' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeInTheDocument();
    await waitFor(() => expect(posts(server, '/api/user/media/unfollow')).toHaveLength(1));
  });

  it('rolls a refused follow back with a message', async () => {
    renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': publisherFeed,
        'POST /api/user/media/followList': () => envelope({ list: [] }),
        'POST /api/user/media/follow': () => refused('limit'),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Following could not be changed. Please try again.',
    );
    expect(screen.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'false');
  });

  it('/user/following lists followed publishers, linked, with unfollow', async () => {
    let followed = [
      { ...ledger, follow_status: 1, followed_at: 1 },
      { ...ledger, media_id: 8, name: 'DC Daily', follow_status: 1, followed_at: 2 },
    ];
    renderApp('/user/following', {
      cookies: signedIn.cookies,
      routes: {
        ...signedIn.routes,
        'POST /api/user/media/followList': () => envelope({ list: followed }),
        'POST /api/user/media/unfollow': (req) => {
          followed = followed.filter(
            (m) => m.media_id !== (req.body as { media_id: number }).media_id,
          );
          return envelope({ follow_status: 0 });
        },
      },
    });
    expect(await screen.findByRole('link', { name: 'DC Daily' })).toHaveAttribute(
      'href',
      '/media/8',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Unfollow DC Daily' }));
    expect(screen.queryByRole('link', { name: 'DC Daily' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'The Capitol Ledger' })).toBeVisible();
  });

  it('/user/following says how to follow when there is nobody', async () => {
    renderApp('/user/following', {
      cookies: signedIn.cookies,
      routes: {
        ...signedIn.routes,
        'POST /api/user/media/followList': () => envelope({ list: [] }),
      },
    });
    expect(await screen.findByText('You are not following any publishers yet')).toBeInTheDocument();
    expect(screen.getByText('Open a publisher’s page and choose “Follow”.')).toBeInTheDocument();
  });
});

describe('§4 blocking a publisher', () => {
  it('blocks after confirming, then the publisher is on the block list', async () => {
    let blocked: unknown[] = [];
    const { server } = renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': publisherFeed,
        'POST /api/user/media/followList': () => envelope({ list: [] }),
        'POST /api/user/media/block': () => {
          blocked = [
            {
              media_id: 7,
              media_name: 'The Capitol Ledger',
              icon_url: '',
              home_url: '',
              update_time: Date.now(),
            },
          ];
          return envelope({ blocked: true });
        },
        'POST /api/user/media/blockList': () => envelope({ list: blocked, token: '' }),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Block publisher' }));
    const confirm = screen.getByRole('alertdialog', {
      name: 'Block The Capitol Ledger? Its stories will no longer appear anywhere for you.',
    });
    expect(posts(server, '/api/user/media/block')).toHaveLength(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Yes, block' }));
    expect(await screen.findByText('Publisher blocked')).toBeInTheDocument();
    expect(posts(server, '/api/user/media/block')[0].body).toEqual({ media_id: 7 });
    // The page now says so, and offers Unblock where Block was.
    expect(await screen.findByText('You blocked The Capitol Ledger')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unblock The Capitol Ledger' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Block publisher' })).not.toBeInTheDocument();
    // The keyboard is on the new action, not lost with the confirmation.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Unblock The Capitol Ledger' })).toHaveFocus(),
    );
    await userEvent.click(screen.getByRole('link', { name: 'Manage blocked publishers' }));
    // The publisher page's own Unblock has the same name: wait for the list's row, which
    // says when, so the assertion cannot catch the page being left.
    const row = (await screen.findByText(/^Blocked on /)).closest('li')!;
    expect(within(row).getByRole('button', { name: 'Unblock The Capitol Ledger' })).toBeVisible();
  });

  it('says so when the block is refused', async () => {
    renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': publisherFeed,
        'POST /api/user/media/block': () => refused(),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Block publisher' }));
    await userEvent.click(screen.getByRole('button', { name: 'Yes, block' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The publisher could not be blocked. Please try again.',
    );
    expect(screen.getByRole('button', { name: 'Block publisher' })).toBeInTheDocument();
  });
});

describe('D273 the page of a publisher the reader blocked', () => {
  const blockedLedger = {
    media_id: 7,
    media_name: 'The Capitol Ledger',
    icon_url: '',
    home_url: '',
    update_time: 1,
  };
  const other = (id: number) => ({ ...blockedLedger, media_id: id, media_name: `Other ${id}` });

  /** The server hides a blocked publisher's stories from its page too (D270). */
  function blockedPage(
    own: (server: { unblock: () => void }) => Record<string, Handler> = () => ({}),
  ) {
    let blocked = true;
    const routes = own({ unblock: () => (blocked = false) });
    return renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': () =>
          envelope(
            feedPage(
              blocked ? [] : [newsItem(1, { title: 'Council approves the new budget' })],
              '',
              { media: ledger },
            ),
          ),
        'POST /api/user/media/followList': () => envelope({ list: [] }),
        'POST /api/user/media/blockList': () =>
          envelope({ list: blocked ? [blockedLedger] : [], token: '' }),
        'POST /api/user/media/unblock': () => {
          blocked = false;
          return envelope({ blocked: false });
        },
        ...routes,
      },
    });
  }

  it('says “You blocked …” with Unblock instead of Block, and the empty feed says why', async () => {
    blockedPage();
    expect(await screen.findByText('You blocked The Capitol Ledger')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Unblock The Capitol Ledger' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Block publisher' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Follow' })).not.toBeInTheDocument();
    expect(
      await screen.findByText('Stories from The Capitol Ledger are hidden'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('You blocked this publisher. Unblock it to see its stories again.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('This publisher has no stories yet')).not.toBeInTheDocument();
  });

  it('Unblock is at once: Follow and Block come back, then the stories', async () => {
    const answer = held<void>();
    const { server } = blockedPage((state) => ({
      'POST /api/user/media/unblock': async () => {
        await answer.promise;
        state.unblock();
        return envelope({ blocked: false });
      },
    }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Unblock The Capitol Ledger' }),
    );
    // Before the server has answered, with the keyboard on the opposite action.
    const block = await screen.findByRole('button', { name: 'Block publisher' });
    await waitFor(() => expect(block).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Follow' })).toBeInTheDocument();
    expect(screen.queryByText('You blocked The Capitol Ledger')).not.toBeInTheDocument();
    expect(posts(server, '/api/user/media/unblock')[0].body).toEqual({ media_id: 7 });
    answer.release();
    expect(
      await screen.findByRole('link', { name: /Council approves the new budget/ }),
    ).toBeInTheDocument();
  });

  it('a refused unblock puts “You blocked …” back with a message', async () => {
    const answer = held<void>();
    blockedPage(() => ({
      'POST /api/user/media/unblock': async () => {
        await answer.promise;
        return refused();
      },
    }));
    await userEvent.click(
      await screen.findByRole('button', { name: 'Unblock The Capitol Ledger' }),
    );
    expect(await screen.findByRole('button', { name: 'Block publisher' })).toBeInTheDocument();
    answer.release();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The publisher could not be unblocked. Please try again.',
    );
    expect(screen.getByText('You blocked The Capitol Ledger')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Block publisher' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Unblock The Capitol Ledger' })).toHaveFocus(),
    );
  });

  it('is known as blocked when it is on a later page of the block list', async () => {
    const { server } = blockedPage(() => ({
      'POST /api/user/media/blockList': (req) =>
        (req.body as { page_no?: string }).page_no === 'b2'
          ? envelope({ list: [other(20), blockedLedger], token: '' })
          : envelope({ list: [other(30), other(31)], token: 'b2' }),
    }));
    expect(await screen.findByText('You blocked The Capitol Ledger')).toBeInTheDocument();
    expect(posts(server, '/api/user/media/blockList')).toHaveLength(2);
  });

  it('a publisher not on the block list keeps Block and the ordinary empty state', async () => {
    const { server } = renderApp('/media/7', {
      routes: {
        'GET /api/news/feed': () => envelope(feedPage([], '', { media: ledger })),
        'POST /api/user/media/followList': () => envelope({ list: [] }),
        'POST /api/user/media/blockList': () => envelope({ list: [other(30)], token: '' }),
      },
    });
    expect(await screen.findByRole('button', { name: 'Block publisher' })).toBeInTheDocument();
    expect(await screen.findByText('This publisher has no stories yet')).toBeInTheDocument();
    expect(screen.queryByText('You blocked The Capitol Ledger')).not.toBeInTheDocument();
    // One page said it all: nothing more is asked.
    expect(posts(server, '/api/user/media/blockList')).toHaveLength(1);
  });
});
