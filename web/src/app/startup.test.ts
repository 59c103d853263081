import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryCookieJar } from '../lib/settings';
import { appConfig, envelope, fakeServer, guestUser } from '../test/fakeServer';
import { createServices, FIRST_SCREEN_WAIT_MS, startAfterFirstScreen } from './services';

function setup() {
  const server = fakeServer({
    'POST /api/user/init': () => envelope({ user: guestUser, token: 'tok-guest' }),
    'POST /api/user/info': () => envelope(guestUser),
    'GET /api/app/config': () => envelope(appConfig),
  });
  const services = createServices({
    payload: null,
    initialUrl: new URL('http://localhost/'),
    fetch: server.fetch,
    cookieJar: memoryCookieJar(),
    buildId: '',
  });
  const start = vi.spyOn(services, 'start');
  startAfterFirstScreen(services);
  return { services, start };
}

afterEach(() => vi.useRealTimers());

describe('D147 start-up after the first screen', () => {
  it('§7.17 start-up waits until the first screen is on screen', async () => {
    vi.useFakeTimers();
    const { services, start } = setup();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS / 2);
    expect(start).not.toHaveBeenCalled();
    services.screenShown();
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('§7.17 a route that needs the user starts it at once', async () => {
    vi.useFakeTimers();
    const { services, start } = setup();
    void services.currentUser();
    await vi.advanceTimersByTimeAsync(0);
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('§7.17 without a first screen (an error), start-up begins after a second', async () => {
    vi.useFakeTimers();
    const { start } = setup();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 1);
    expect(start).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(start).toHaveBeenCalledTimes(1);
  });
});
