import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api';
import { createOutbox, OUTBOX_KEY, OUTBOX_LIMIT, ownerOf, QUEUED } from './outbox';

const noAnswer = () => new ApiError({ status: 0, message: 'Request timeout.', url: '/api/x' });

function setup({ online = true, token = 'token-a' } = {}) {
  const stored = new Map<string, string>();
  const storage = {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  };
  const sent: Array<[string, Record<string, unknown>]> = [];
  const state = { online, token, fail: null as null | (() => Error) };
  const outbox = createOutbox({
    storage,
    token: () => state.token,
    online: () => state.online,
    now: (() => {
      let t = 1000;
      return () => t++;
    })(),
    send: async (path, body) => {
      if (state.fail) throw state.fail();
      sent.push([path, body]);
      return { ok: true };
    },
  });
  // Another tab, or the same device after a reload: a second outbox on the same storage.
  const reopen = () =>
    createOutbox({
      storage,
      token: () => state.token,
      online: () => state.online,
      send: async (path, body) => {
        sent.push([path, body]);
        return { ok: true };
      },
    });
  return { outbox, sent, state, stored, reopen };
}

describe('issue 31 offline queue: saves, reactions, follows and blocks made offline', () => {
  it('sends at once when online and answers the server', async () => {
    const { outbox, sent } = setup();
    await expect(outbox.send('save:1', '/user/collect', { news_id: 1 })).resolves.toEqual({
      ok: true,
    });
    expect(sent).toEqual([['/user/collect', { news_id: 1 }]]);
    expect(outbox.size()).toBe(0);
  });

  it('keeps a change made offline without trying the network, and sends it on return', async () => {
    const { outbox, sent, state } = setup({ online: false });
    await expect(outbox.send('save:1', '/user/collect', { news_id: 1 })).resolves.toBe(QUEUED);
    expect(sent).toEqual([]);
    expect(outbox.size()).toBe(1);
    state.online = true;
    await expect(outbox.flush()).resolves.toEqual({ sent: 1, refused: 0, left: 0 });
    expect(sent).toEqual([['/user/collect', { news_id: 1 }]]);
  });

  it('keeps a change whose call got no answer (a network that reaches nothing)', async () => {
    const { outbox, sent, state } = setup();
    state.fail = noAnswer;
    await expect(
      outbox.send('react:5', '/user/react', { news_id: 5, reaction: 'like' }),
    ).resolves.toBe(QUEUED);
    state.fail = null;
    await outbox.flush();
    expect(sent).toEqual([['/user/react', { news_id: 5, reaction: 'like' }]]);
  });

  it('a refusal from the server is not kept: the reader sees the error at once', async () => {
    const { outbox, state } = setup();
    state.fail = () => new ApiError({ status: 400, message: 'bad', url: '/api/x' });
    await expect(outbox.send('save:1', '/user/collect', { news_id: 1 })).rejects.toThrow('bad');
    expect(outbox.size()).toBe(0);
  });

  it('nothing doubled: the last change to one thing replaces the earlier ones', async () => {
    const { outbox, sent, state } = setup({ online: false });
    await outbox.send('save:1', '/user/collect', { news_id: 1 });
    await outbox.send('follow:7', '/user/follow', { media_id: 7 });
    await outbox.send('save:1', '/user/uncollect', { news_id: 1 });
    await outbox.send('react:1', '/user/react', { news_id: 1, reaction: 'like' });
    await outbox.send('react:1', '/user/react', { news_id: 1, reaction: null });
    state.online = true;
    await outbox.flush();
    expect(sent).toEqual([
      ['/user/follow', { media_id: 7 }],
      ['/user/uncollect', { news_id: 1 }],
      ['/user/react', { news_id: 1, reaction: null }],
    ]);
  });

  it('a change made online drops the queued one for the same thing before it goes out', async () => {
    const { outbox, sent, state } = setup({ online: false });
    await outbox.send('block:3', '/user/block', { media_id: 3 });
    state.online = true;
    await outbox.send('block:3', '/user/unblock', { media_id: 3 });
    await outbox.flush();
    expect(sent).toEqual([['/user/unblock', { media_id: 3 }]]);
  });

  it('nothing lost: kept across a reload, and still there while the network stays away', async () => {
    const { outbox, sent, state, reopen } = setup({ online: false });
    await outbox.send('save:1', '/user/collect', { news_id: 1 });
    await outbox.send('save:2', '/user/collect', { news_id: 2 });
    // The browser says online, but the first call gets no answer: both stay, in order.
    state.online = true;
    state.fail = noAnswer;
    await expect(outbox.flush()).resolves.toEqual({ sent: 0, refused: 0, left: 2 });
    state.fail = null;
    const after = reopen();
    expect(after.entries().map((e) => e.key)).toEqual(['save:1', 'save:2']);
    await expect(after.flush()).resolves.toEqual({ sent: 2, refused: 0, left: 0 });
    expect(sent.map(([, body]) => body.news_id)).toEqual([1, 2]);
  });

  it('a change the server now refuses is dropped and counted; a server error keeps it', async () => {
    const { outbox, state } = setup({ online: false });
    await outbox.send('save:9', '/user/collect', { news_id: 9 });
    state.online = true;
    state.fail = () => new ApiError({ status: 503, message: 'busy', url: '/api/x' });
    await expect(outbox.flush()).resolves.toEqual({ sent: 0, refused: 0, left: 1 });
    state.fail = () => new ApiError({ status: 404, message: 'gone', url: '/api/x' });
    await expect(outbox.flush()).resolves.toEqual({ sent: 0, refused: 1, left: 0 });
  });

  it("a signed-out reader's changes are not sent for the next reader", async () => {
    const { outbox, sent, state } = setup({ online: false });
    await outbox.send('save:1', '/user/collect', { news_id: 1 });
    state.token = 'token-b';
    state.online = true;
    await expect(outbox.flush()).resolves.toEqual({ sent: 0, refused: 0, left: 0 });
    expect(sent).toEqual([]);
  });

  it('stores a digest of the token, never the token, and at most OUTBOX_LIMIT changes', async () => {
    const { outbox, stored } = setup({ online: false });
    for (let i = 0; i < OUTBOX_LIMIT + 5; i++) {
      await outbox.send(`save:${i}`, '/user/collect', { news_id: i });
    }
    const text = stored.get(OUTBOX_KEY) ?? '';
    expect(text).not.toContain('token-a');
    expect(text).toContain(ownerOf('token-a'));
    expect(outbox.size()).toBe(OUTBOX_LIMIT);
    expect(outbox.entries()[0].key).toBe('save:5');
  });

  it('while the browser says offline, a flush tries nothing', async () => {
    const { outbox, sent } = setup({ online: false });
    await outbox.send('save:1', '/user/collect', { news_id: 1 });
    await expect(outbox.flush()).resolves.toEqual({ sent: 0, refused: 0, left: 1 });
    expect(sent).toEqual([]);
  });

  it('one send at a time: two flushes at once send each change once', async () => {
    const { outbox, sent, state } = setup({ online: false });
    await outbox.send('save:1', '/user/collect', { news_id: 1 });
    state.online = true;
    await Promise.all([outbox.flush(), outbox.flush()]);
    expect(sent).toHaveLength(1);
  });

  it('unreadable storage reads as empty, not as an error', () => {
    const { outbox, stored } = setup();
    stored.set(OUTBOX_KEY, '{not json');
    expect(outbox.size()).toBe(0);
  });
});
