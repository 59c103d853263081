import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { forgetReaderState, READER_STATE_KEY } from './readerState';
import { restoreReaderState, saveReaderState } from './readerStateCodec';

function memory() {
  const stored = new Map<string, string>();
  return {
    stored,
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, v),
    removeItem: (k: string) => void stored.delete(k),
  };
}

describe('D393 an offline start knows the reader as this device last did', () => {
  it('keeps who the reader is, their saves, follows, blocks and reactions, and puts them back', () => {
    const storage = memory();
    const before = new QueryClient();
    before.setQueryData(['user'], { id: 7 });
    before.setQueryData(['reader', 7, 'savedIds'], [3, 4]);
    before.setQueryData(['reader', 7, 'follows'], [{ media_id: 2 }]);
    before.setQueryData(['reader', 7, 'list', 'blocked'], { pages: [], pageParams: [] });
    before.setQueryData(['reader', 7, 'reactions', 3], { mine: 'love', counts: {}, total: 1 });
    // Not the reader's state: public reads, and long lists the server pages.
    before.setQueryData(['api', '/news/feed', {}], { list: [] });
    before.setQueryData(['reader', 7, 'list', 'history'], { pages: [], pageParams: [] });
    saveReaderState(before, storage);

    const after = new QueryClient();
    expect(restoreReaderState(after, storage)).toBe(true);
    expect(after.getQueryData(['user'])).toEqual({ id: 7 });
    expect(after.getQueryData(['reader', 7, 'savedIds'])).toEqual([3, 4]);
    expect(after.getQueryData(['reader', 7, 'follows'])).toEqual([{ media_id: 2 }]);
    expect(after.getQueryData(['reader', 7, 'list', 'blocked'])).toBeDefined();
    expect(after.getQueryData(['reader', 7, 'reactions', 3])).toMatchObject({ mine: 'love' });
    expect(after.getQueryData(['api', '/news/feed', {}])).toBeUndefined();
    expect(after.getQueryData(['reader', 7, 'list', 'history'])).toBeUndefined();
  });

  it('keeps the reactions of the 50 stories seen last, not every story ever', () => {
    const storage = memory();
    const client = new QueryClient();
    for (let id = 1; id <= 60; id++) {
      client.setQueryData(
        ['reader', 7, 'reactions', id],
        { mine: null, counts: {}, total: 0 },
        {
          updatedAt: id,
        },
      );
    }
    saveReaderState(client, storage);
    const after = new QueryClient();
    restoreReaderState(after, storage);
    expect(after.getQueryData(['reader', 7, 'reactions', 10])).toBeUndefined();
    expect(after.getQueryData(['reader', 7, 'reactions', 11])).toBeDefined();
    expect(after.getQueryCache().getAll()).toHaveLength(50);
  });

  it('nothing kept, or unreadable, restores nothing; sign-out forgets it', () => {
    const storage = memory();
    expect(restoreReaderState(new QueryClient(), storage)).toBe(false);
    storage.setItem(READER_STATE_KEY, '{broken');
    expect(restoreReaderState(new QueryClient(), storage)).toBe(false);
    forgetReaderState(storage);
    expect(storage.stored.has(READER_STATE_KEY)).toBe(false);
  });
});
