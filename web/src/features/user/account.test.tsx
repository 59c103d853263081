import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, guestUser, type Handler } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import { closeSignInWindow } from './signInWindow';

const ada = { ...guestUser, id: 42, account_type: 3, name: 'Ada', email: 'ada@example.org' };
const googleIdentity = {
  type: 3,
  email: 'ada@example.org',
  name: 'Ada',
  linked_at: Date.UTC(2026, 0, 5),
  last_used_at: Date.UTC(2026, 10, 1),
};
const facebookIdentity = { ...googleIdentity, type: 2, email: '', name: 'Ada L.' };
const sessions = [
  {
    id: 1,
    label: 'Firefox on Linux',
    created_at: Date.UTC(2026, 10, 20),
    expires_at: Date.UTC(2026, 11, 20),
    current: true,
  },
  {
    id: 2,
    label: 'Chrome on Android',
    created_at: Date.UTC(2026, 9, 2),
    expires_at: Date.UTC(2026, 10, 30),
    current: false,
  },
];

function signedIn(routes: Record<string, Handler> = {}) {
  return renderApp('/user', {
    cookies: { deviceId: 'd', token: 'tok-ada' },
    config: { sign_in: { google: true, facebook: true } },
    routes: {
      'POST /api/user/info': () => envelope(ada),
      'POST /api/user/account': () => envelope({ user: ada, identities: [googleIdentity] }),
      'POST /api/user/sessions': () => envelope({ list: sessions }),
      'POST /api/user/sessions/revoke': () => envelope({ revoked: 1 }),
      ...routes,
    },
  });
}

const bodiesOf = (server: ReturnType<typeof signedIn>['server'], path: string) =>
  server.requests.filter((r) => r.path === path).map((r) => r.body);

async function section(name: string) {
  return screen.findByRole('region', { name });
}

beforeEach(() => installIntersectionObserver());
afterEach(() => {
  closeSignInWindow();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('account section of /user', () => {
  it('lists the linked providers and offers to link the missing configured one', async () => {
    signedIn();
    const providers = await section('Sign-in accounts');
    expect(await within(providers).findByText('Google')).toBeInTheDocument();
    expect(within(providers).getByText('ada@example.org')).toBeInTheDocument();
    expect(within(providers).getByText(/^Linked on /)).toBeInTheDocument();
    expect(within(providers).getByRole('button', { name: 'Link Facebook' })).toBeEnabled();
    expect(within(providers).queryByRole('button', { name: 'Link Google' })).toBeNull();
    // The profile, logout and section links stay.
    expect(screen.getByText('Signed in as Ada')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Reading history' })).toBeInTheDocument();
  });

  it('d337 an operator finds the way to /admin on the account page; a reader does not', async () => {
    signedIn({
      'POST /api/user/account': () =>
        envelope({ user: ada, identities: [googleIdentity], operator: true }),
    });
    const operator = await section('You run this server');
    expect(
      within(operator).getByRole('link', { name: "Usage and feeds (operator's view)" }),
    ).toHaveAttribute('href', '/admin');
  });

  it('d337 a reader who is not an operator sees no operator link', async () => {
    signedIn({
      'POST /api/user/account': () =>
        envelope({ user: ada, identities: [googleIdentity], operator: false }),
    });
    await within(await section('Sign-in accounts')).findByText('Google');
    expect(screen.queryByRole('region', { name: 'You run this server' })).toBeNull();
  });

  it('a provider the server has not set up is not offered for linking', async () => {
    renderApp('/user', {
      cookies: { deviceId: 'd', token: 'tok-ada' },
      config: { sign_in: { google: true, facebook: false } },
      routes: {
        'POST /api/user/info': () => envelope(ada),
        'POST /api/user/account': () => envelope({ user: ada, identities: [googleIdentity] }),
        'POST /api/user/sessions': () => envelope({ list: sessions }),
      },
    });
    const providers = await section('Sign-in accounts');
    expect(await within(providers).findByText('Google')).toBeInTheDocument();
    expect(within(providers).queryByRole('button', { name: /^Link/ })).toBeNull();
  });

  it('link adds link=1 and the list is refreshed after', async () => {
    let identities = [googleIdentity];
    const popup = { closed: false, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockImplementation(() => popup as unknown as Window);
    signedIn({
      'POST /api/user/account': () => envelope({ user: ada, identities }),
    });
    const providers = await section('Sign-in accounts');
    await userEvent.click(await within(providers).findByRole('button', { name: 'Link Facebook' }));
    expect(open.mock.calls[0][0]).toBe('/auth/facebook/start?mode=popup&return=%2Fuser&link=1');

    identities = [googleIdentity, facebookIdentity];
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'localwire:sign-in', ok: true, reason: '', provider: 'Facebook' },
          origin: window.location.origin,
        }),
      );
    });
    expect(await within(providers).findByText('Facebook')).toBeInTheDocument();
    expect(within(providers).queryByRole('button', { name: 'Link Facebook' })).toBeNull();
    expect(await screen.findByText('Facebook is now linked to your account.')).toBeInTheDocument();
  });

  it('a failed link shows the translated reason', async () => {
    vi.spyOn(window, 'open').mockImplementation(
      () => ({ closed: false, close: vi.fn() }) as unknown as Window,
    );
    signedIn();
    const providers = await section('Sign-in accounts');
    await userEvent.click(await within(providers).findByRole('button', { name: 'Link Facebook' }));
    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', {
          data: {
            type: 'localwire:sign-in',
            ok: false,
            reason: 'SignIn_LinkedElsewhere',
            provider: 'Facebook',
          },
          origin: window.location.origin,
        }),
      );
    });
    expect(await within(providers).findByRole('alert')).toHaveTextContent(
      'This Facebook account is already linked to another Localwire account.',
    );
  });

  it('lists the active sessions, this device marked, the others revocable', async () => {
    signedIn();
    const list = await section('Where you are signed in');
    const current = (await within(list).findByText('Firefox on Linux')).closest('li')!;
    expect(within(current).getByText('This device')).toBeInTheDocument();
    expect(within(current).queryByRole('button')).toBeNull();
    const other = within(list).getByText('Chrome on Android').closest('li')!;
    expect(
      within(other).getByRole('button', { name: /^Revoke\W+Chrome on Android/ }),
    ).toBeEnabled();
    expect(within(list).getByRole('button', { name: 'Sign out all other sessions' })).toBeEnabled();
  });

  it('revoke and revoke-others call the API with the right bodies', async () => {
    const { server } = signedIn();
    const list = await section('Where you are signed in');
    await userEvent.click(await within(list).findByRole('button', { name: /^Revoke\W+Chrome/ }));
    await waitFor(() =>
      expect(bodiesOf(server, '/api/user/sessions/revoke')).toEqual([{ session_id: 2 }]),
    );
    expect(await screen.findByText('That session is signed out.')).toBeInTheDocument();

    await userEvent.click(
      within(list).getByRole('button', { name: 'Sign out all other sessions' }),
    );
    await waitFor(() =>
      expect(bodiesOf(server, '/api/user/sessions/revoke')).toEqual([
        { session_id: 2 },
        { all_others: true },
      ]),
    );
    expect(await screen.findByText('Your other sessions are signed out.')).toBeInTheDocument();
    // The list is asked for again after each.
    await waitFor(() =>
      expect(bodiesOf(server, '/api/user/sessions').length).toBeGreaterThanOrEqual(3),
    );
  });

  it('with no other session there is nothing to revoke, and it says so', async () => {
    signedIn({ 'POST /api/user/sessions': () => envelope({ list: [sessions[0]] }) });
    const list = await section('Where you are signed in');
    expect(await within(list).findByText('You are not signed in anywhere else.')).toBeVisible();
    expect(within(list).queryByRole('button')).toBeNull();
  });

  it('a list that fails to load says so and can be tried again', async () => {
    let fail = true;
    signedIn({
      'POST /api/user/sessions': () =>
        fail
          ? { status: 500, body: { code: 500, data: null, message: 'Server Error' } }
          : envelope({ list: sessions }),
    });
    const list = await section('Where you are signed in');
    const alert = await within(list).findByRole('alert', {}, { timeout: 3000 });
    expect(alert).toHaveTextContent('This could not be loaded.');
    fail = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(list).findByText('Chrome on Android')).toBeInTheDocument();
  });

  it('download my data creates a JSON file named localwire-my-data.json', async () => {
    const exported = { user: ada, identities: [googleIdentity], saved: [] };
    let blob: Blob | undefined;
    const createObjectURL = vi.fn((b: Blob) => {
      blob = b;
      return 'blob:my-data';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this);
    });
    const { server } = signedIn({ 'POST /api/user/export': () => envelope(exported) });
    const data = await section('Your data');
    await userEvent.click(within(data).getByRole('button', { name: 'Download my data' }));

    await waitFor(() => expect(clicked).toHaveLength(1));
    expect(bodiesOf(server, '/api/user/export')).toEqual([{}]);
    expect(clicked[0].download).toBe('localwire-my-data.json');
    expect(clicked[0].getAttribute('href')).toBe('blob:my-data');
    expect(blob?.type).toBe('application/json');
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob!);
    });
    expect(JSON.parse(text)).toEqual(exported);
  });

  it('delete needs a confirmation that says what goes, then saves the new guest and goes home', async () => {
    const newGuest = { ...guestUser, id: 77 };
    const { server, jar, location } = signedIn({
      'POST /api/user/delete': () => envelope({ user: newGuest, token: 'tok-guest-77' }),
    });
    const danger = await section('Delete account');
    await userEvent.click(within(danger).getByRole('button', { name: 'Delete my account' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    expect(dialog).toHaveAccessibleDescription(/your sessions on every device/);
    expect(within(dialog).getByText('your profile: name, email and photo')).toBeInTheDocument();
    expect(bodiesOf(server, '/api/user/delete')).toEqual([]);

    // Cancel leaves everything as it was.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(bodiesOf(server, '/api/user/delete')).toEqual([]);

    await userEvent.click(within(danger).getByRole('button', { name: 'Delete my account' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete everything' }));

    await waitFor(() => expect(location()).toBe('/'));
    expect(bodiesOf(server, '/api/user/delete')).toEqual([{ confirm: 'delete' }]);
    expect(jar.get('token')).toBe('tok-guest-77');
    expect(
      await screen.findByText('Your account was deleted. You are now a guest.'),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('a failed delete stays in the confirmation and says why', async () => {
    signedIn({
      'POST /api/user/delete': () => ({
        status: 403,
        body: { code: 403, data: null, message: 'Forbidden' },
      }),
    });
    const danger = await section('Delete account');
    await userEvent.click(within(danger).getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete everything' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Forbidden');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });
});
