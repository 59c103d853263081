import { act, screen, waitFor, within } from '@testing-library/react';
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

const FOLLOWING_FEED = '/api/user/news/followingFeed';
const TOPICS_FEED = '/api/user/news/topicsFeed';

function open(path: string, routes: Record<string, Handler>) {
  return renderApp(path, { cookies: signedIn.cookies, routes: { ...signedIn.routes, ...routes } });
}

const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

const dcDaily = { ...ledger, media_id: 8, name: 'DC Daily' };
const followed = (...media: (typeof ledger)[]) =>
  media.map((m, i) => ({ ...m, follow_status: 1, followed_at: i + 1 }));

/** Two pages: the first short (one story) but with a token, the second the last. */
function twoPages(first: string, second: string, overrides: Record<string, unknown> = {}) {
  return (req: { body: unknown }) => {
    const token = (req.body as { page_token?: string }).page_token;
    return token === 'p2'
      ? envelope(feedPage([newsItem(2, { title: second, ...overrides })], ''))
      : envelope(feedPage([newsItem(1, { title: first, ...overrides })], 'p2'));
  };
}

describe('D271 Following feed on /user/following', () => {
  it('lists the followed publishers’ stories below them and pages on with Load more', async () => {
    const { server } = open('/user/following', {
      'POST /api/user/media/followList': () => envelope({ list: followed(ledger) }),
      [`POST ${FOLLOWING_FEED}`]: twoPages('Council approves the new budget', 'Metro fares rise'),
    });
    const section = (
      await screen.findByRole('heading', { name: 'Stories from publishers you follow' })
    ).closest('section')!;
    expect(
      await within(section).findByRole('link', { name: /Council approves the new budget/ }),
    ).toBeInTheDocument();
    expect(posts(server, FOLLOWING_FEED)[0].body).toEqual({ size: 20, lang: 'en' });
    // A short page with a token is not the end.
    await userEvent.click(within(section).getByRole('button', { name: 'Load more stories' }));
    expect(
      await within(section).findByRole('link', { name: /Metro fares rise/ }),
    ).toBeInTheDocument();
    expect(posts(server, FOLLOWING_FEED)[1].body).toEqual({
      size: 20,
      lang: 'en',
      page_token: 'p2',
    });
    expect(
      within(section).queryByRole('button', { name: 'Load more stories' }),
    ).not.toBeInTheDocument();
  });

  it('shows loading, then says how to follow when there are no stories', async () => {
    const answer = held<ReturnType<typeof envelope>>();
    open('/user/following', {
      'POST /api/user/media/followList': () => envelope({ list: [] }),
      [`POST ${FOLLOWING_FEED}`]: () => answer.promise,
    });
    const section = (
      await screen.findByRole('heading', { name: 'Stories from publishers you follow' })
    ).closest('section')!;
    expect(await within(section).findByRole('status')).toHaveTextContent('Loading stories…');
    answer.release(envelope(feedPage([], '')));
    expect(
      await within(section).findByText('Follow a publisher to see their stories here'),
    ).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Find publishers' })).toHaveAttribute(
      'href',
      '/search/media',
    );
  });

  it('offers Try again when the feed fails, and asks again', async () => {
    let fail = true;
    const { server } = open('/user/following', {
      'POST /api/user/media/followList': () => envelope({ list: followed(ledger) }),
      [`POST ${FOLLOWING_FEED}`]: () =>
        fail ? refused('nope') : envelope(feedPage([newsItem(1, { title: 'Back again' })], '')),
    });
    const section = (
      await screen.findByRole('heading', { name: 'Stories from publishers you follow' })
    ).closest('section')!;
    const alert = await within(section).findByRole('alert');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('link', { name: /Back again/ })).toBeInTheDocument();
    expect(posts(server, FOLLOWING_FEED)).toHaveLength(2);
  });

  it('unfollowing takes that publisher’s stories out at once and asks for the feed again', async () => {
    let list = followed(ledger, dcDaily);
    const answer = held<void>();
    const { server } = open('/user/following', {
      'POST /api/user/media/followList': () => envelope({ list }),
      'POST /api/user/media/unfollow': async () => {
        await answer.promise;
        list = list.filter((m) => m.media_id !== 8);
        return envelope({ follow_status: 0 });
      },
      [`POST ${FOLLOWING_FEED}`]: () =>
        envelope(
          feedPage(
            [
              newsItem(1, { title: 'Council approves the new budget' }),
              ...(list.some((m) => m.media_id === 8)
                ? [newsItem(2, { title: 'Daily story', media_id: 8, media_name: 'DC Daily' })]
                : []),
            ],
            '',
          ),
        ),
    });
    const section = (
      await screen.findByRole('heading', { name: 'Stories from publishers you follow' })
    ).closest('section')!;
    expect(await within(section).findByRole('link', { name: /Daily story/ })).toBeInTheDocument();
    const asked = posts(server, FOLLOWING_FEED).length;
    await userEvent.click(screen.getByRole('button', { name: 'Unfollow DC Daily' }));
    // Gone before the server has answered.
    await waitFor(() =>
      expect(within(section).queryByRole('link', { name: /Daily story/ })).not.toBeInTheDocument(),
    );
    expect(within(section).getByRole('link', { name: /Council approves/ })).toBeVisible();
    expect(posts(server, FOLLOWING_FEED)).toHaveLength(asked);
    answer.release();
    await waitFor(() => expect(posts(server, FOLLOWING_FEED).length).toBeGreaterThan(asked));
  });

  it('a refused unfollow puts the publisher and its stories back', async () => {
    const answer = held<void>();
    open('/user/following', {
      'POST /api/user/media/followList': () => envelope({ list: followed(dcDaily) }),
      'POST /api/user/media/unfollow': async () => {
        await answer.promise;
        return refused();
      },
      [`POST ${FOLLOWING_FEED}`]: () =>
        envelope(feedPage([newsItem(2, { title: 'Daily story', media_id: 8 })], '')),
    });
    expect(await screen.findByRole('link', { name: /Daily story/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Unfollow DC Daily' }));
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: /Daily story/ })).not.toBeInTheDocument(),
    );
    answer.release();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Following could not be changed. Please try again.',
    );
    expect(screen.getByRole('link', { name: /Daily story/ })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'DC Daily' })).toBeInTheDocument();
  });
});

describe('D272 Your-topics feed on /setting/following-tags', () => {
  const topics = () => envelope({ list: [{ kind: 'category', value: 'sports', followed_at: 1 }] });

  it('lists stories on the reader’s topics below the topics, paged', async () => {
    const { server } = open('/setting/following-tags', {
      'POST /api/user/topics/list': topics,
      [`POST ${TOPICS_FEED}`]: twoPages('Nationals win the opener', 'Capitals sign a goalie', {
        category_id: 'sports',
      }),
    });
    const heading = await screen.findByRole('heading', { name: 'Stories on your topics' });
    const section = heading.closest('section')!;
    // Below the topics: after the categories in the page.
    const categories = await screen.findByRole('heading', { name: 'Categories' });
    expect(
      categories.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(
      await within(section).findByRole('link', { name: /Nationals win the opener/ }),
    ).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Load more stories' }));
    expect(
      await within(section).findByRole('link', { name: /Capitals sign a goalie/ }),
    ).toBeInTheDocument();
    expect(posts(server, TOPICS_FEED).map((r) => r.body)).toEqual([
      { size: 20, lang: 'en' },
      { size: 20, lang: 'en', page_token: 'p2' },
    ]);
  });

  it('says how to get stories when the topics match none', async () => {
    open('/setting/following-tags', {
      'POST /api/user/topics/list': () => envelope({ list: [] }),
      [`POST ${TOPICS_FEED}`]: () => envelope(feedPage([], '')),
    });
    const section = (
      await screen.findByRole('heading', { name: 'Stories on your topics' })
    ).closest('section')!;
    expect(
      await within(section).findByText('Follow a topic to see stories on it here'),
    ).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Browse the latest news' })).toHaveAttribute(
      'href',
      '/latest',
    );
  });

  it('offers Try again when the feed fails', async () => {
    let fail = true;
    open('/setting/following-tags', {
      'POST /api/user/topics/list': topics,
      [`POST ${TOPICS_FEED}`]: () =>
        fail ? refused('nope') : envelope(feedPage([newsItem(1, { title: 'Back again' })], '')),
    });
    const section = (
      await screen.findByRole('heading', { name: 'Stories on your topics' })
    ).closest('section')!;
    const alert = await within(section).findByRole('alert');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(section).findByRole('link', { name: /Back again/ })).toBeInTheDocument();
  });

  it('following a category asks for the feed again, which then has its stories', async () => {
    let list: { kind: string; value: string; followed_at: number }[] = [];
    const { server } = open('/setting/following-tags', {
      'POST /api/user/topics/list': () => envelope({ list }),
      'POST /api/user/topics/follow': (req) => {
        list = [{ ...(req.body as { kind: string; value: string }), followed_at: 1 }];
        return envelope({ list });
      },
      [`POST ${TOPICS_FEED}`]: () =>
        envelope(
          feedPage(list.length ? [newsItem(1, { title: 'Nationals win the opener' })] : [], ''),
        ),
    });
    expect(await screen.findByText('Follow a topic to see stories on it here')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Follow Sports' }));
    expect(
      await screen.findByRole('link', { name: /Nationals win the opener/ }),
    ).toBeInTheDocument();
    expect(posts(server, TOPICS_FEED)).toHaveLength(2);
  });
});

describe('D270 kept feeds are asked again after a mute or a follow changes', () => {
  type Mute = { kind: string; value: string; muted_at: number };

  /** /latest as the server answers it for a reader with these mutes. */
  function latestWith(mutes: () => Mute[]): Record<string, Handler> {
    return {
      'GET /api/news/feed': () =>
        envelope(
          feedPage(
            [
              newsItem(1, { title: 'Council approves the new budget' }),
              newsItem(2, { title: 'Metro fares rise' }),
            ].filter((item) => !mutes().some((m) => item.title.toLowerCase().includes(m.value))),
            '',
            { media: ledger }, // read by the publisher page only
          ),
        ),
      'POST /api/user/media/blockList': () => envelope({ list: [], token: '' }),
      'POST /api/user/mutes/list': () => envelope({ list: mutes() }),
      'POST /api/user/mutes/preview': () => envelope({ hidden_today: 1, looked_at: 2 }),
      'POST /api/user/media/followList': () => envelope({ list: [] }),
      [`POST ${FOLLOWING_FEED}`]: () => envelope(feedPage([], '')),
    };
  }

  it('adding a mute: the muted story is gone from /latest when the reader goes back', async () => {
    let mutes: Mute[] = [];
    const { router } = open('/latest', {
      ...latestWith(() => mutes),
      'POST /api/user/mutes/add': (req) => {
        mutes = [{ ...(req.body as { kind: string; value: string }), muted_at: 1 }];
        return envelope({ list: mutes });
      },
    });
    expect(await screen.findByRole('link', { name: /Metro fares rise/ })).toBeInTheDocument();
    await act(() => router().navigate('/setting/block-list'));
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Word, tag or author to mute' }),
      'fares{Enter}',
    );
    await waitFor(() => expect(mutes).toHaveLength(1));
    await act(() => router().navigate('/latest'));
    expect(
      await screen.findByRole('link', { name: /Council approves the new budget/ }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('link', { name: /Metro fares rise/ })).not.toBeInTheDocument(),
    );
  });

  it('removing a mute: the story is back on /latest and the own feeds are asked again', async () => {
    let mutes: Mute[] = [{ kind: 'keyword', value: 'fares', muted_at: 1 }];
    const { router, server } = open('/latest', {
      ...latestWith(() => mutes),
      'POST /api/user/mutes/remove': () => {
        mutes = [];
        return envelope({ list: mutes });
      },
    });
    expect(
      await screen.findByRole('link', { name: /Council approves the new budget/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Metro fares rise/ })).not.toBeInTheDocument();
    await act(() => router().navigate('/user/following'));
    expect(
      await screen.findByText('Follow a publisher to see their stories here'),
    ).toBeInTheDocument();
    const asked = posts(server, FOLLOWING_FEED).length;
    await act(() => router().navigate('/setting/block-list'));
    await userEvent.click(await screen.findByRole('button', { name: 'Unmute “fares”' }));
    await waitFor(() => expect(mutes).toHaveLength(0));
    await act(() => router().navigate('/latest'));
    expect(await screen.findByRole('link', { name: /Metro fares rise/ })).toBeInTheDocument();
    await act(() => router().navigate('/user/following'));
    await waitFor(() => expect(posts(server, FOLLOWING_FEED).length).toBeGreaterThan(asked));
  });

  it('following a publisher: /latest is asked again (its follow marks) when the reader goes back', async () => {
    let follows: unknown[] = [];
    const { router, calls } = open('/latest', {
      ...latestWith(() => []),
      'POST /api/user/media/followList': () => envelope({ list: follows }),
      'POST /api/user/media/follow': () => {
        follows = followed(ledger);
        return envelope({ follow_status: 1 });
      },
    });
    expect(await screen.findByRole('link', { name: /Metro fares rise/ })).toBeInTheDocument();
    const latestAsks = () =>
      calls('/api/news/feed').filter((r) => r.query.channel === 'latest').length;
    const asked = latestAsks();
    await act(() => router().navigate('/media/7'));
    await userEvent.click(await screen.findByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('button', { name: 'Following' })).toBeInTheDocument();
    await act(() => router().navigate('/latest'));
    await waitFor(() => expect(latestAsks()).toBeGreaterThan(asked));
  });
});
