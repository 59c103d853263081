import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BUILD_POLL_INTERVAL_MS,
  createBuildWatch,
  fetchBuildManifest,
  isSlowConnection,
} from './buildWatch';
import { isChunkLoadError, reloadForFailedChunk, RELOAD_STORAGE_KEY } from './chunkReload';

function versionFetch(ids: string[]) {
  let n = 0;
  return vi.fn(async (url: string) => {
    const id = ids[Math.min(n++, ids.length - 1)];
    return new Response(JSON.stringify({ id, url }), { status: 200 });
  }) as unknown as typeof fetch & { mock: { calls: unknown[][] } };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('§4.13 new build detection', () => {
  it('§4.13 a different id on the version file means a new build', async () => {
    const fetchImpl = versionFetch(['b1', 'b2']);
    const watch = createBuildWatch({ currentId: 'b1', fetch: fetchImpl, now: () => 123 });
    await expect(watch.check()).resolves.toBe(false);
    expect(watch.hasNewBuild()).toBe(false);
    await expect(watch.check()).resolves.toBe(true);
    expect(watch.hasNewBuild()).toBe(true);
    expect(watch.latestId()).toBe('b2');
    expect(fetchImpl.mock.calls[0][0]).toBe('/_app/version.json?t=123');
  });

  it('§4.13 polls every five minutes and on becoming visible', async () => {
    vi.useFakeTimers();
    const fetchImpl = versionFetch(['b1']);
    const watch = createBuildWatch({ currentId: 'b1', fetch: fetchImpl });
    const stop = watch.start(document);
    expect(fetchImpl.mock.calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(BUILD_POLL_INTERVAL_MS);
    expect(fetchImpl.mock.calls).toHaveLength(1);
    document.dispatchEvent(new Event('visibilitychange'));
    expect(fetchImpl.mock.calls).toHaveLength(2);
    stop();
    await vi.advanceTimersByTimeAsync(BUILD_POLL_INTERVAL_MS * 2);
    expect(fetchImpl.mock.calls).toHaveLength(2);
  });

  it('§4.13 a failed check is not a new build', async () => {
    const failing = vi.fn(async () => {
      throw new TypeError('offline');
    }) as unknown as typeof fetch;
    const watch = createBuildWatch({ currentId: 'b1', fetch: failing });
    await expect(watch.check()).resolves.toBe(false);
  });
});

describe('§7.12 build manifest', () => {
  it('§7.12 skipped on a very slow connection', () => {
    expect(isSlowConnection({ effectiveType: 'slow-2g' })).toBe(true);
    expect(isSlowConnection({ effectiveType: '2g' })).toBe(true);
    expect(isSlowConnection({ effectiveType: '4g', saveData: true })).toBe(true);
    expect(isSlowConnection({ effectiveType: '3g' })).toBe(false);
    expect(isSlowConnection(undefined)).toBe(false);
  });

  it('§7.12 reads the route rules of the build named by id', async () => {
    const fetchImpl = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            id: 'b1',
            route_rules: [{ from: '/old', to: '/latest', status: 301 }, { bad: true }],
          }),
        ),
    ) as unknown as typeof fetch & { mock: { calls: unknown[][] } };
    await expect(fetchBuildManifest('b1', fetchImpl)).resolves.toEqual([
      { from: '/old', to: '/latest', status: 301 },
    ]);
    expect(fetchImpl.mock.calls[0][0]).toBe('/_app/builds/b1.json');
  });
});

describe('§8.4 failed lazy chunk', () => {
  it('§8.4 recognises failed dynamic imports', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js')),
    ).toBe(true);
    expect(isChunkLoadError(new Error('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
    expect(isChunkLoadError('x')).toBe(false);
  });

  it('§8.4 reloads the path at most once per 10 seconds', () => {
    let now = 1_000_000;
    const reload = vi.fn();
    const deps = { storage: sessionStorage, now: () => now, reload };
    expect(reloadForFailedChunk('/latest', deps)).toBe(true);
    expect(reload).toHaveBeenCalledWith('/latest');
    expect(sessionStorage.getItem(RELOAD_STORAGE_KEY)).toBe('1000000');
    now += 9_999;
    expect(reloadForFailedChunk('/latest', deps)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    now += 1;
    expect(reloadForFailedChunk('/top-news', deps)).toBe(true);
    expect(reload).toHaveBeenLastCalledWith('/top-news');
  });
});
