import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { envelope, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { newsItem, ledger } from '../../test/newsFixtures';
import { renderApp } from '../../test/renderApp';
import { refusalOf } from './settings';
import { failed, held, NOW, refused } from './test/fixtures';

beforeEach(() => {
  installIntersectionObserver();
});

const posts = (server: ReturnType<typeof renderApp>['server'], path: string) =>
  server.requests.filter((r) => r.method === 'POST' && r.path === path);

const topic = (kind: string, value: string) => ({ kind, value, followed_at: NOW - 86_400_000 });

// ── /setting/following-tags ─────────────────────────────────────────────────────

describe('§2.17 /setting/following-tags: followed tags and categories', () => {
  const topics = () =>
    envelope({
      list: [topic('tag', 'budget'), topic('tag', 'metro'), topic('category', 'sports')],
    });

  it('lists the followed tags, each linking to its stories, and unfollows one at once', async () => {
    const answer = held<{ body: unknown }>();
    const { server } = renderApp('/setting/following-tags', {
      routes: {
        'POST /api/user/topics/list': topics,
        'POST /api/user/topics/unfollow': () => answer.promise,
      },
    });
    const link = await screen.findByRole('link', { name: 'budget' });
    expect(link).toHaveAttribute('href', '/search/news?q=budget');
    await userEvent.click(screen.getByRole('button', { name: 'Unfollow metro' }));
    // Optimistic: gone before the server answers.
    expect(screen.queryByRole('link', { name: 'metro' })).not.toBeInTheDocument();
    answer.release(envelope({ list: [topic('tag', 'budget'), topic('category', 'sports')] }));
    await waitFor(() => expect(posts(server, '/api/user/topics/unfollow')).toHaveLength(1));
    expect(posts(server, '/api/user/topics/unfollow')[0].body).toEqual({
      kind: 'tag',
      value: 'metro',
    });
    expect(screen.getByRole('link', { name: 'budget' })).toBeVisible();
  });

  it('puts a tag back with a message when unfollowing is refused', async () => {
    renderApp('/setting/following-tags', {
      routes: {
        'POST /api/user/topics/list': topics,
        'POST /api/user/topics/unfollow': () => refused(),
      },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Unfollow metro' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The topic could not be followed or unfollowed. Please try again.',
    );
    expect(await screen.findByRole('link', { name: 'metro' })).toBeVisible();
  });

  it('shows followed categories as pressed toggles and follows another', async () => {
    const { server } = renderApp('/setting/following-tags', {
      routes: {
        'POST /api/user/topics/list': topics,
        'POST /api/user/topics/follow': (req) =>
          envelope({ list: [{ ...(req.body as object), followed_at: NOW }] }),
      },
    });
    expect(await screen.findByRole('button', { name: 'Follow Sports' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    const health = screen.getByRole('button', { name: 'Follow Health' });
    expect(health).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(health);
    expect(health).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => expect(posts(server, '/api/user/topics/follow')).toHaveLength(1));
    expect(posts(server, '/api/user/topics/follow')[0].body).toEqual({
      kind: 'category',
      value: 'health',
    });
  });

  it('says so when no tag is followed, and offers a retry when the list fails', async () => {
    let fail = true;
    renderApp('/setting/following-tags', {
      routes: {
        'POST /api/user/topics/list': () => (fail ? failed() : envelope({ list: [] })),
      },
    });
    const retry = await screen.findByRole('button', { name: /try again/i });
    fail = false;
    await userEvent.click(retry);
    expect(await screen.findByText('You are not following any tags yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Follow Politics' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });

  it('is in Spanish under /es', async () => {
    renderApp('/es/setting/following-tags', {
      routes: { 'POST /api/user/topics/list': topics },
    });
    expect(await screen.findByRole('button', { name: 'Dejar de seguir a metro' })).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Categorías', level: 2 })).toBeVisible();
  });
});

describe('§2.10 following a story’s topics from the article (D263)', () => {
  const detail = () =>
    envelope({
      news: newsItem(1042, {
        title: 'Council approves the new budget',
        tags: ['budget', 'council'],
        category_id: 'politics',
      }),
      media: ledger,
      cluster: [],
      related: [],
    });

  it('offers the category and the tags; following a tag is shown at once and sent', async () => {
    const answer = held<{ body: unknown }>();
    const { server } = renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': detail,
        'POST /api/ugc/reactions': () => envelope({ counts: {}, total: 0, mine: null }),
        'POST /api/user/topics/list': () => envelope({ list: [topic('category', 'politics')] }),
        'POST /api/user/topics/follow': () => answer.promise,
      },
    });
    const group = await screen.findByRole('group', { name: 'Follow topics' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-pressed')]),
    ).toEqual([
      ['Follow Politics', 'true'],
      ['Follow budget', 'false'],
      ['Follow council', 'false'],
    ]);
    await userEvent.click(within(group).getByRole('button', { name: 'Follow budget' }));
    // Optimistic: pressed before the server answers, and still after it agrees.
    expect(within(group).getByRole('button', { name: 'Follow budget' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    answer.release(envelope({ list: [topic('tag', 'budget'), topic('category', 'politics')] }));
    await waitFor(() => expect(posts(server, '/api/user/topics/follow')).toHaveLength(1));
    expect(posts(server, '/api/user/topics/follow')[0].body).toEqual({
      kind: 'tag',
      value: 'budget',
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(group).getByRole('button', { name: 'Follow budget' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
  });

  it('rolls a refused follow back with a message', async () => {
    renderApp('/article/1042', {
      routes: {
        'GET /api/news/detail': detail,
        'POST /api/ugc/reactions': () => envelope({ counts: {}, total: 0, mine: null }),
        'POST /api/user/topics/list': () => envelope({ list: [] }),
        'POST /api/user/topics/follow': () =>
          refused('You have reached the limit of 200; remove some first.'),
      },
    });
    const group = await screen.findByRole('group', { name: 'Follow topics' });
    await userEvent.click(within(group).getByRole('button', { name: 'Follow council' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You follow 200 topics, the most allowed.',
    );
    expect(within(group).getByRole('button', { name: 'Follow council' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
  });
});

// ── /setting/explore-channels ───────────────────────────────────────────────────

describe('§2.18 /setting/explore-channels: home tabs and their order (D264)', () => {
  const tabNames = () =>
    within(screen.getByRole('list', { name: 'Tabs on your home page' }))
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.channel__name')?.textContent);

  function open(channels: string[], routes: Record<string, Handler> = {}) {
    return renderApp('/setting/explore-channels', {
      routes: {
        'POST /api/user/channels/list': () => envelope({ channels }),
        'POST /api/user/channels/set': (req) => envelope(req.body),
        ...routes,
      },
    });
  }

  it('without a saved list, shows the default tabs in their order', async () => {
    open([]);
    expect(
      await screen.findByText('Home shows the default tabs. Change them here and save.'),
    ).toBeVisible();
    expect(tabNames()).toEqual([
      'Local',
      'Politics',
      'Business',
      'Sports',
      'Entertainment',
      'Health',
      'Science & Tech',
      'Weather',
      'Crime & Safety',
      'Education',
      'Food',
      'Lifestyle',
      'Opinion',
    ]);
    expect(screen.getByRole('button', { name: 'Save tabs' })).toBeDisabled();
  });

  it('moves a tab with the keyboard, keeps the focus on it, says where it went, and saves', async () => {
    const { server } = open(['top', 'sports', 'latest']);
    const up = await screen.findByRole('button', { name: 'Move Latest up' });
    up.focus();
    await userEvent.keyboard('{Enter}');
    expect(tabNames()).toEqual(['Top', 'Latest', 'Sports']);
    // The focus follows the moved tab.
    expect(screen.getByRole('button', { name: 'Move Latest up' })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Latest moved to position 2 of 3');
    await userEvent.keyboard('{Enter}');
    expect(tabNames()).toEqual(['Latest', 'Top', 'Sports']);
    // At the top Move up is disabled, so the focus is on the same tab's Move down.
    expect(screen.getByRole('button', { name: 'Move Latest up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Latest down' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Save tabs' }));
    await waitFor(() => expect(posts(server, '/api/user/channels/set')).toHaveLength(1));
    expect(posts(server, '/api/user/channels/set')[0].body).toEqual({
      channels: ['latest', 'top', 'sports'],
    });
    expect(await screen.findByText('Home tabs saved')).toBeInTheDocument();
  });

  it('reorders by drag and drop with the pointer', async () => {
    open(['top', 'sports', 'latest']);
    await screen.findByRole('button', { name: 'Move Latest up' });
    const items = within(screen.getByRole('list', { name: 'Tabs on your home page' })).getAllByRole(
      'listitem',
    );
    fireEvent.dragStart(items[2]);
    fireEvent.dragOver(items[0]);
    fireEvent.drop(items[0]);
    expect(tabNames()).toEqual(['Latest', 'Top', 'Sports']);
  });

  it('adds and removes tabs; removing keeps the focus in the list', async () => {
    const { server } = open(['top', 'sports', 'latest']);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove Sports from home' }));
    expect(tabNames()).toEqual(['Top', 'Latest']);
    expect(screen.getByRole('button', { name: 'Remove Latest from home' })).toHaveFocus();
    // What was removed can be added again, at the end.
    await userEvent.click(screen.getByRole('button', { name: 'Add Sports' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add Health' }));
    expect(tabNames()).toEqual(['Top', 'Latest', 'Sports', 'Health']);
    await userEvent.click(screen.getByRole('button', { name: 'Save tabs' }));
    await waitFor(() => expect(posts(server, '/api/user/channels/set')).toHaveLength(1));
    expect(posts(server, '/api/user/channels/set')[0].body).toEqual({
      channels: ['top', 'latest', 'sports', 'health'],
    });
  });

  it('goes back to the default tabs by saving an empty list', async () => {
    const { server } = open(['top', 'sports']);
    await userEvent.click(await screen.findByRole('button', { name: 'Use the default tabs' }));
    await waitFor(() => expect(posts(server, '/api/user/channels/set')).toHaveLength(1));
    expect(posts(server, '/api/user/channels/set')[0].body).toEqual({ channels: [] });
    expect(tabNames()[0]).toBe('Local');
  });

  it('keeps the unsaved order and says so when saving is refused', async () => {
    open(['top', 'sports'], { 'POST /api/user/channels/set': () => refused() });
    await userEvent.click(await screen.findByRole('button', { name: 'Move Sports up' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save tabs' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your home tabs could not be saved. Please try again.',
    );
    expect(tabNames()).toEqual(['Sports', 'Top']);
    expect(screen.getByRole('button', { name: 'Save tabs' })).toBeEnabled();
  });

  it('offers a retry when the tabs cannot be loaded', async () => {
    renderApp('/setting/explore-channels', {
      routes: { 'POST /api/user/channels/list': () => failed() },
    });
    expect(await screen.findByRole('button', { name: /try again/i })).toBeVisible();
  });

  it('is in French under /fr', async () => {
    renderApp('/fr/setting/explore-channels', {
      routes: { 'POST /api/user/channels/list': () => envelope({ channels: ['top', 'sports'] }) },
    });
    expect(await screen.findByRole('button', { name: 'Descendre À la une' })).toBeVisible();
  });
});

describe('§2.1 home shows the reader’s tabs (D264)', () => {
  const tabs = () =>
    within(screen.getByRole('navigation', { name: 'Categories' }))
      .getAllByRole('link')
      .map((a) => [a.textContent, a.getAttribute('href')]);

  it('in the saved order, latest and top going to their own pages', async () => {
    renderApp('/', {
      routes: {
        'POST /api/user/channels/list': () => envelope({ channels: ['top', 'sports', 'latest'] }),
      },
    });
    await waitFor(() =>
      expect(tabs()).toEqual([
        ['Top', '/top-news'],
        ['Sports', '/category/sports'],
        ['Latest', '/latest'],
      ]),
    );
  });

  it('without a saved list, the default row stays', async () => {
    const { server } = renderApp('/', {
      routes: { 'POST /api/user/channels/list': () => envelope({ channels: [] }) },
    });
    await waitFor(() => expect(posts(server, '/api/user/channels/list')).toHaveLength(1));
    expect(tabs()).toHaveLength(13);
    expect(tabs()[0]).toEqual(['Local', '/category/local']);
  });
});

// ── Mutes, on /setting/block-list (D265) ────────────────────────────────────────

describe('mutes: preview before saving, add, remove, the server’s refusals (D265)', () => {
  const mute = (kind: string, value: string) => ({ kind, value, muted_at: NOW - 3_600_000 });

  function open(routes: Record<string, Handler> = {}, mutes = [mute('author', 'Jane Roe')]) {
    return renderApp('/setting/block-list', {
      routes: {
        'POST /api/user/media/blockList': () => envelope({ list: [], token: '' }),
        'POST /api/user/mutes/list': () => envelope({ list: mutes }),
        'POST /api/user/mutes/preview': (req) => {
          const { value } = req.body as { value: string };
          return envelope({ hidden_today: value === 'budget' ? 3 : 0, looked_at: 40 });
        },
        ...routes,
      },
    });
  }

  it('says how many of today’s stories a keyword would hide, asking once the typing pauses', async () => {
    const { server } = open();
    const box = await screen.findByRole('textbox', { name: 'Word, tag or author to mute' });
    expect(
      screen.getByText('Type to see how many of today’s stories it would hide.'),
    ).toBeVisible();
    await userEvent.type(box, 'budget');
    expect(await screen.findByText('This would hide 3 of today’s 40 stories.')).toBeInTheDocument();
    // One call for the whole word, not one per letter.
    expect(posts(server, '/api/user/mutes/preview').map((r) => r.body)).toEqual([
      { kind: 'keyword', value: 'budget' },
    ]);
    expect(posts(server, '/api/user/mutes/add')).toHaveLength(0);
  });

  it('previews for the chosen kind, and says when nothing would be hidden', async () => {
    const { server } = open();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Mute a' }), 'Tag');
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Word, tag or author to mute' }),
      'parks',
    );
    expect(
      await screen.findByText('This would hide none of today’s 40 stories.'),
    ).toBeInTheDocument();
    expect(posts(server, '/api/user/mutes/preview').at(-1)?.body).toEqual({
      kind: 'tag',
      value: 'parks',
    });
  });

  it('adds a mute at once, lists it with its kind, and sends it trimmed', async () => {
    const answer = held<{ body: unknown }>();
    const { server } = open({ 'POST /api/user/mutes/add': () => answer.promise });
    const box = await screen.findByRole('textbox', { name: 'Word, tag or author to mute' });
    await userEvent.type(box, '  budget {Enter}');
    // Optimistic: listed before the server answers, and the box is ready for the next one.
    const remove = screen.getByRole('button', { name: 'Unmute “budget”' });
    expect(within(remove.closest('li')!).getByText('Keyword')).toBeVisible();
    expect(box).toHaveValue('');
    answer.release(envelope({ list: [mute('keyword', 'budget'), mute('author', 'Jane Roe')] }));
    await waitFor(() => expect(posts(server, '/api/user/mutes/add')).toHaveLength(1));
    expect(posts(server, '/api/user/mutes/add')[0].body).toEqual({
      kind: 'keyword',
      value: 'budget',
    });
  });

  it('explains the limit of 1 000 when the server refuses, and gives the text back', async () => {
    open({
      'POST /api/user/mutes/add': () =>
        refused('You have reached the limit of 1000; remove some first.'),
    });
    const box = await screen.findByRole('textbox', { name: 'Word, tag or author to mute' });
    await userEvent.type(box, 'budget');
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have 1 000 mutes, the most allowed. Remove some before adding more.',
    );
    expect(box).toHaveValue('budget');
    expect(box).toHaveAccessibleDescription(
      'You have 1 000 mutes, the most allowed. Remove some before adding more.',
    );
    expect(screen.queryByRole('button', { name: 'Unmute “budget”' })).not.toBeInTheDocument();
  });

  it('explains a too long value from the server', async () => {
    open({ 'POST /api/user/mutes/add': () => refused('Too long: at most 100 characters.') });
    await userEvent.type(
      await screen.findByRole('textbox', { name: 'Word, tag or author to mute' }),
      'budget',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too long: at most 100 characters.');
  });

  it('says a value is too long before sending it, and asks nothing for it', async () => {
    const { server } = open();
    const box = await screen.findByRole('textbox', { name: 'Word, tag or author to mute' });
    await userEvent.click(box);
    await userEvent.paste('x'.repeat(101));
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(box).toHaveAccessibleDescription('Too long: at most 100 characters.');
    await userEvent.click(screen.getByRole('button', { name: 'Mute' }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(posts(server, '/api/user/mutes/add')).toHaveLength(0);
    expect(posts(server, '/api/user/mutes/preview')).toHaveLength(0);
  });

  it('at the limit, says so and does not offer to add', async () => {
    const many = Array.from({ length: 1000 }, (_, i) => mute('keyword', `word${i}`));
    open({}, many);
    await screen.findByRole('button', { name: 'Unmute “word999”' });
    expect(screen.getByRole('button', { name: 'Mute' })).toBeDisabled();
    expect(
      screen.getByRole('textbox', { name: 'Word, tag or author to mute' }),
    ).toHaveAccessibleDescription(
      'You have 1 000 mutes, the most allowed. Remove some before adding more.',
    );
  });

  it('removes a mute at once, and puts it back with a message when refused', async () => {
    const { server } = open({ 'POST /api/user/mutes/remove': () => refused() });
    await userEvent.click(await screen.findByRole('button', { name: 'Unmute “Jane Roe”' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The mute could not be changed. Please try again.',
    );
    expect(await screen.findByRole('button', { name: 'Unmute “Jane Roe”' })).toBeVisible();
    expect(posts(server, '/api/user/mutes/remove')[0].body).toEqual({
      kind: 'author',
      value: 'Jane Roe',
    });
  });

  it('has an empty state and an error state with retry', async () => {
    let fail = true;
    open({ 'POST /api/user/mutes/list': () => (fail ? failed() : envelope({ list: [] })) });
    const mutes = await screen.findByRole('region', { name: 'Muted words, tags and authors' });
    const retry = await within(mutes).findByRole('button', { name: /try again/i });
    fail = false;
    await userEvent.click(retry);
    expect(await within(mutes).findByText('You have not muted anything')).toBeVisible();
  });

  it('is linked from the other settings pages', async () => {
    renderApp('/setting/following-tags', {
      routes: { 'POST /api/user/topics/list': () => envelope({ list: [] }) },
    });
    const nav = await screen.findByRole('navigation', { name: 'Your settings' });
    expect(
      within(nav).getByRole('link', { name: 'Muted words, tags and authors' }),
    ).toHaveAttribute('href', '/setting/block-list#mutes');
  });
});

describe('the server’s refusals, by their messages (D261)', () => {
  const bad = (message: string) => new ApiError({ status: 400, code: 400, message, url: '/' });

  it('tells the limit, too long, empty and duplicate apart; anything else is other', () => {
    expect(refusalOf(bad('You have reached the limit of 1000; remove some first.'))).toBe(
      'tooMany',
    );
    expect(refusalOf(bad('Too long: at most 100 characters.'))).toBe('tooLong');
    expect(refusalOf(bad('Field `value`: give 1 to 100 characters.'))).toBe('tooLong');
    expect(refusalOf(bad('Empty: give a value.'))).toBe('empty');
    expect(refusalOf(bad('The same value twice.'))).toBe('duplicate');
    expect(refusalOf(bad('Field `kind`: must be keyword, tag or author.'))).toBe('other');
    expect(refusalOf(new ApiError({ status: 503, message: 'limit of 3', url: '/' }))).toBe('other');
  });
});
