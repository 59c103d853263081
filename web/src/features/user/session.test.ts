import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from '../../lib/api';
import { md5 } from '../../lib/md5';
import { createAppSettings, memoryCookieJar } from '../../lib/settings';
import { appConfig, envelope, fakeServer, guestUser, type Handler } from '../../test/fakeServer';
import type { User } from './model';
import { createSession } from './session';

function setup(
  routes: Record<string, Handler>,
  cookies: Record<string, string> = {},
  socialSignOut?: () => Promise<void>,
) {
  const server = fakeServer({
    'GET /api/app/config': () => envelope(appConfig),
    ...routes,
  });
  const jar = memoryCookieJar();
  for (const [k, v] of Object.entries(cookies)) jar.set(k, v, { days: 30 });
  jar.written.length = 0;
  const settings = createAppSettings(jar);
  let user: User | undefined;
  const log = vi.fn();
  const api = createApiClient({
    fetch: server.fetch,
    context: () => ({
      deviceId: settings.get('deviceId') ?? '',
      appLang: settings.get('lng') ?? 'en',
      country: settings.get('iso') ?? 'US',
      token: settings.get('token'),
    }),
  });
  const session = createSession({
    api,
    settings,
    getUser: () => user,
    setUser: (u) => {
      user = u;
    },
    getConfig: () => api.get('/app/config'),
    log,
    socialSignOut,
  });
  return { session, server, settings, jar, log, user: () => user };
}

const initOk: Handler = () => envelope({ user: guestUser, token: 'tok-new' });

describe('§4.2 app init', () => {
  it('§4.2 generates a device id, creates a guest, saves token and user, marks inited', async () => {
    const { session, server, settings, user } = setup({ 'POST /api/user/init': initOk });
    const result = await session.init({ channel: '' });

    expect(settings.get('deviceId')).toMatch(/^[0-9a-f]{32}$/);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body).toEqual({ user_type: 0 });
    expect(settings.get('token')).toBe('tok-new');
    expect(user()?.id).toBe(11);
    expect(settings.get('city')).toBe('Washington');
    expect(settings.get('cityId')).toBe('4140963');
    expect(settings.get('adminCode')).toBe('DC');
    expect(settings.get('postalCode')).toBe('20003');
    expect(settings.get('lng')).toBe('en');
    expect(settings.get('iso')).toBe('US');
    expect(result).toEqual({ isNew: true });
    expect(settings.get('isNew')).toBe('1');
    expect(settings.get('inited')).toBe('1');
  });

  it('§4.2 the init call is signed with the new device id', async () => {
    const { session, server, settings } = setup({ 'POST /api/user/init': initOk });
    await session.init({ channel: '' });
    const { headers } = server.requests[0];
    const base = JSON.parse(headers.base);
    expect(base.device_id).toBe(settings.get('deviceId'));
    expect(headers.sign).toBe(
      md5(`${headers.base}/user/initlocalwire${settings.get('deviceId')}`).toUpperCase(),
    );
  });

  it('§7.1 user_type is 1 when the visit came from an ad channel', async () => {
    const { session, server } = setup({ 'POST /api/user/init': initOk });
    await session.init({ channel: 'tiktok_int' });
    expect(server.requests[0].body).toEqual({ user_type: 1 });
  });

  it('§4.2 keeps an existing device id and token and calls nothing', async () => {
    const { session, server, settings } = setup(
      { 'POST /api/user/init': initOk },
      { deviceId: 'dev-old', token: 'tok-old' },
    );
    const result = await session.init({ channel: '' });
    expect(server.requests).toHaveLength(0);
    expect(settings.get('deviceId')).toBe('dev-old');
    expect(settings.get('token')).toBe('tok-old');
    expect(result.isNew).toBe(false);
    expect(settings.get('isNew')).toBe('0');
    expect(settings.get('inited')).toBe('1');
  });

  it('§4.2 language and country come from c before the user', async () => {
    const { session, settings } = setup({ 'POST /api/user/init': initOk });
    await session.init({ channel: '', c: 'fr_CA' });
    expect(settings.get('lng')).toBe('fr');
    expect(settings.get('iso')).toBe('CA');
  });

  it('§4.2 init reports a returning user as not new', async () => {
    const { session } = setup({
      'POST /api/user/init': () => envelope({ user: { ...guestUser, is_new_user: 0 }, token: 't' }),
    });
    expect(await session.init({ channel: '' })).toEqual({ isNew: false });
  });

  it('§4.2 a failed init rejects and leaves no token', async () => {
    const { session, settings } = setup({
      'POST /api/user/init': () => ({ status: 500, body: { code: 500, message: 'boom' } }),
    });
    await expect(session.init({ channel: '' })).rejects.toMatchObject({ message: 'Server Error' });
    expect(settings.get('token')).toBeUndefined();
    expect(settings.get('inited')).toBeUndefined();
  });
});

describe('§7.17 start-up', () => {
  it('§7.17 initialises, then fetches user info', async () => {
    const { session, server, user } = setup({
      'POST /api/user/init': initOk,
      'POST /api/user/info': () => envelope({ ...guestUser, name: 'Info' }),
    });
    await session.startup({ channel: '' });
    expect(server.requests.map((r) => r.path)).toEqual(['/api/user/init', '/api/user/info']);
    expect(server.requests[1].headers.token).toBe('tok-new');
    expect(user()?.name).toBe('Info');
  });

  it("§8.9 a failed user-info fetch is only logged 'user error'", async () => {
    const { session, log, user } = setup({
      'POST /api/user/init': initOk,
      'POST /api/user/info': () => ({ status: 403, body: { code: 403, message: 'x' } }),
    });
    await expect(session.startup({ channel: '' })).resolves.toMatchObject({ id: 11 });
    expect(log).toHaveBeenCalledWith('user error', expect.objectContaining({ status: 403 }));
    expect(user()?.id).toBe(11);
  });

  it('§7.17 a token the server refuses (401) is replaced by a new guest once', async () => {
    let infoCalls = 0;
    const { session, server, settings } = setup(
      {
        'POST /api/user/init': initOk,
        'POST /api/user/info': () =>
          ++infoCalls === 1
            ? { status: 401, body: { code: 401, message: 'Unauthorized' } }
            : envelope(guestUser),
      },
      { deviceId: 'd', token: 'stale' },
    );
    await session.startup({ channel: '' });
    expect(server.requests.map((r) => r.path)).toEqual([
      '/api/user/info',
      '/api/user/init',
      '/api/user/info',
    ]);
    expect(settings.get('token')).toBe('tok-new');
  });
});

describe('§4.4 set city', () => {
  const ottawa = appConfig.default_cities.CA;

  it('§4.4 updates the user on the server and sets cityShow', async () => {
    const { session, server, user, settings } = setup(
      {
        'POST /api/user/location/update': (req) =>
          envelope({
            user: {
              ...guestUser,
              ...(req.body as object),
              account_type: 3,
              admin_code: '',
              postal_code: '',
              city_show: '',
            },
            token: 'tok-2',
          }),
      },
      { deviceId: 'd', token: 't' },
    );
    await expect(session.setCity(ottawa, 'fr')).resolves.toBe(true);
    expect(server.requests[0].body).toEqual({
      lat: 45.42,
      lon: -75.7,
      country: 'CA',
      city: 'Ottawa',
      city_id: 6094817,
      lang: 'fr',
      admin_code: 'ON',
      postal_code: 'K1P',
    });
    // Missing admin_code / postal_code in the reply are filled from the request.
    expect(user()?.admin_code).toBe('ON');
    expect(user()?.postal_code).toBe('K1P');
    expect(user()?.city_show).toBe('Ottawa, ON');
    expect(settings.get('token')).toBe('tok-2');
    expect(settings.get('city')).toBe('Ottawa');
    expect(settings.get('iso')).toBe('CA');
    expect(settings.get('lng')).toBe('fr');
  });

  it('§7 account_type in the location reply is dropped', async () => {
    const { session, user } = setup(
      {
        'POST /api/user/info': () => envelope(guestUser),
        'POST /api/user/location/update': () =>
          envelope({ user: { ...guestUser, account_type: 3 }, token: 't' }),
      },
      { deviceId: 'd', token: 't' },
    );
    await session.startup({ channel: '' });
    await session.setCity(ottawa, 'en');
    expect(user()?.account_type).toBe(0);
  });

  it('§8.10 a failed set city is logged and returns false', async () => {
    const { session, log, settings } = setup(
      {
        'POST /api/user/location/update': () => ({
          status: 400,
          body: { code: 400, message: 'Field `lat`: invalid' },
        }),
      },
      { deviceId: 'd', token: 't', city: 'Washington' },
    );
    await expect(session.setCity(ottawa, 'en')).resolves.toBe(false);
    expect(log).toHaveBeenCalledWith('set city failed', expect.anything());
    expect(settings.get('city')).toBe('Washington');
  });
});

describe('§4.3 country change', () => {
  const locationEcho: Handler = (req) =>
    envelope({ user: { ...guestUser, ...(req.body as object) }, token: 't2' });

  it('§4.3 another country takes its default city from the app config', async () => {
    const { session, server } = setup(
      {
        'POST /api/user/info': () => envelope(guestUser),
        'POST /api/user/location/update': locationEcho,
      },
      { deviceId: 'd', token: 't' },
    );
    await session.startup({ channel: '' });
    await expect(session.changeCountry({ country: 'CA', lang: 'fr' })).resolves.toBe(true);
    const update = server.requests.find((r) => r.path === '/api/user/location/update');
    expect(update?.body).toMatchObject({ country: 'CA', city: 'Ottawa', lang: 'fr' });
  });

  it('§4.3 the same country reuses the current city', async () => {
    const { session, server } = setup(
      {
        'POST /api/user/info': () =>
          envelope({ ...guestUser, city: 'Boston', admin_code: 'MA', city_id: 5 }),
        'POST /api/user/location/update': locationEcho,
      },
      { deviceId: 'd', token: 't' },
    );
    await session.startup({ channel: '' });
    await session.changeCountry({ country: 'US', lang: 'es' });
    expect(server.requests.some((r) => r.path === '/api/app/config')).toBe(false);
    const update = server.requests.find((r) => r.path === '/api/user/location/update');
    expect(update?.body).toMatchObject({ country: 'US', city: 'Boston', city_id: 5, lang: 'es' });
  });

  it('§4.3 language from the parameter, else the stored language, else the default', async () => {
    const { session, server, settings } = setup(
      { 'POST /api/user/location/update': locationEcho },
      { deviceId: 'd', token: 't', lng: 'es' },
    );
    await session.changeCountry({ country: 'US' });
    expect(server.requests.at(-1)?.body).toMatchObject({ lang: 'es' });
    settings.remove('lng');
    await session.changeCountry({ country: 'CA' });
    expect(server.requests.at(-1)?.body).toMatchObject({ lang: 'en' });
  });

  it('§4.3 an unsupported country falls back to the default country when allowed', async () => {
    const { session, server } = setup(
      { 'POST /api/user/location/update': locationEcho },
      { deviceId: 'd', token: 't' },
    );
    await expect(session.changeCountry({ country: 'MX', lang: 'es' })).resolves.toBe(true);
    expect(server.requests.at(-1)?.body).toMatchObject({ country: 'US', city: 'Washington' });
    await expect(
      session.changeCountry({ country: 'MX', lang: 'es' }, { fallback: false }),
    ).resolves.toBe(false);
  });

  it('§4.3 a c code for the current language and country changes nothing', async () => {
    const { session, server } = setup(
      { 'POST /api/user/info': () => envelope(guestUser) },
      { deviceId: 'd', token: 't' },
    );
    await session.startup({ channel: '' });
    await expect(session.applyLocaleCode('en_US')).resolves.toBeNull();
    await expect(session.applyLocaleCode('de_DE')).resolves.toBeNull();
    expect(server.requests).toHaveLength(1);
  });
});

describe('§4.5 logout', () => {
  it('§4.5 logout returns a new guest session and ignores social sign-out failure', async () => {
    const signOut = vi.fn(async () => {
      throw new Error('provider unreachable');
    });
    const { session, settings, user } = setup(
      {
        'POST /api/user/logout': () =>
          envelope({ user: { ...guestUser, id: 99 }, token: 'tok-guest' }),
      },
      { deviceId: 'd', token: 'tok-google' },
      signOut,
    );
    await expect(session.logout()).resolves.toMatchObject({ id: 99, account_type: 0 });
    expect(settings.get('token')).toBe('tok-guest');
    expect(user()?.id).toBe(99);
    expect(signOut).toHaveBeenCalledOnce();
  });
});

describe('account deletion', () => {
  it('delete sends the confirmation word, saves the new guest and ignores social sign-out failure', async () => {
    const signOut = vi.fn(async () => {
      throw new Error('no window to close');
    });
    const { session, server, settings, user } = setup(
      {
        'POST /api/user/delete': () =>
          envelope({ user: { ...guestUser, id: 100 }, token: 'tok-fresh-guest' }),
      },
      { deviceId: 'd', token: 'tok-google' },
      signOut,
    );
    await expect(session.deleteAccount()).resolves.toMatchObject({ id: 100, account_type: 0 });
    expect(server.requests.map((r) => [r.path, r.body])).toEqual([
      ['/api/user/delete', { confirm: 'delete' }],
    ]);
    expect(server.requests[0].headers.token).toBe('tok-google');
    expect(settings.get('token')).toBe('tok-fresh-guest');
    expect(user()?.id).toBe(100);
    expect(signOut).toHaveBeenCalledOnce();
  });

  it('a refused delete keeps the account and its token', async () => {
    const { session, settings } = setup(
      {
        'POST /api/user/delete': () => ({
          status: 403,
          body: { code: 403, data: null, message: 'Forbidden' },
        }),
      },
      { deviceId: 'd', token: 'tok-google' },
    );
    await expect(session.deleteAccount()).rejects.toThrow();
    expect(settings.get('token')).toBe('tok-google');
  });
});
