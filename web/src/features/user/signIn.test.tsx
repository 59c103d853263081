import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { envelope, guestUser } from '../../test/fakeServer';
import { installIntersectionObserver } from '../../test/intersection';
import { renderApp } from '../../test/renderApp';
import { closeSignInWindow, isOwnPath, signInUrl, type SignInMessage } from './signInWindow';

const ada = { ...guestUser, id: 42, account_type: 3, name: 'Ada', email: 'ada@example.org' };
const bothOn = { sign_in: { google: true, facebook: true } };

interface FakePopup {
  closed: boolean;
  close: () => void;
}

function fakePopup(): FakePopup {
  const popup: FakePopup = {
    closed: false,
    close: vi.fn(() => {
      popup.closed = true;
    }),
  };
  return popup;
}

function stubOpen(result: FakePopup | null) {
  return vi.spyOn(window, 'open').mockImplementation(() => result as unknown as Window);
}

/** What the server's popup page posts to its opener. */
function postFromPopup(message: Omit<SignInMessage, 'type'>) {
  act(() => {
    window.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'localwire:sign-in', ...message },
        origin: window.location.origin,
      }),
    );
  });
}

/** /user/info answers a guest until `signIn()`, then Ada. */
function accountServer() {
  let signedIn = false;
  return {
    signIn: () => {
      signedIn = true;
    },
    routes: {
      'POST /api/user/info': () => envelope(signedIn ? ada : guestUser),
    },
  };
}

beforeEach(() => installIntersectionObserver());
afterEach(() => {
  closeSignInWindow();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

async function openHeaderSignIn() {
  await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
  return screen.findByRole('dialog', { name: 'Sign in' });
}

describe('sign-in URLs', () => {
  it('link adds link=1 and the return path is kept', () => {
    expect(signInUrl('facebook', { mode: 'popup', returnTo: '/fr/user', link: true })).toBe(
      '/auth/facebook/start?mode=popup&return=%2Ffr%2Fuser&link=1',
    );
    expect(signInUrl('google', { mode: 'page', returnTo: '/latest?x=1' })).toBe(
      '/auth/google/start?mode=page&return=%2Flatest%3Fx%3D1',
    );
  });

  it('only paths on this site are returned to', () => {
    expect(isOwnPath('/user/read')).toBe(true);
    expect(isOwnPath('//evil.example/')).toBe(false);
    expect(isOwnPath('/\\evil.example')).toBe(false);
    expect(isOwnPath('https://evil.example/')).toBe(false);
    expect(isOwnPath('/%2F%2Fevil.example')).toBe(false);
    expect(isOwnPath('/%5Cevil.example')).toBe(false);
    expect(isOwnPath('/\t/evil.example')).toBe(false);
    expect(isOwnPath('/search?q=a%2Fb')).toBe(true);
    expect(signInUrl('google', { mode: 'popup', returnTo: '//evil.example' })).toBe(
      '/auth/google/start?mode=popup&return=%2F',
    );
  });
});

describe('sign-in dialog', () => {
  it('provider buttons follow the server config: an unconfigured provider says so', async () => {
    renderApp('/latest', { config: { sign_in: { google: true, facebook: false } } });
    const dialog = await openHeaderSignIn();
    const google = within(dialog).getByRole('button', { name: /Google/ });
    const facebook = within(dialog).getByRole('button', { name: /Facebook/ });
    await waitFor(() => expect(google).toBeEnabled());
    expect(facebook).toBeDisabled();
    expect(facebook).toHaveAccessibleDescription('Facebook sign-in is not set up on this server.');
    expect(within(dialog).queryByText('Sign-in is not available on this server yet.')).toBeNull();
  });

  it('with no provider configured both buttons are disabled and the dialog says so', async () => {
    renderApp('/latest', { config: { sign_in: { google: false, facebook: false } } });
    const dialog = await openHeaderSignIn();
    expect(
      await within(dialog).findByText('Sign-in is not available on this server yet.'),
    ).toBeVisible();
    expect(within(dialog).getByRole('button', { name: /Google/ })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: /Facebook/ })).toBeDisabled();
  });

  it('a config that fails to load leaves the buttons disabled and says something went wrong', async () => {
    renderApp('/latest', {
      routes: {
        'GET /api/app/config': () => ({
          status: 500,
          body: { code: 500, data: null, message: 'Server Error' },
        }),
      },
    });
    const dialog = await openHeaderSignIn();
    expect(
      await within(dialog).findByText('Something went wrong on our side. Try again.'),
    ).toBeVisible();
    expect(within(dialog).getByRole('button', { name: /Google/ })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: /Facebook/ })).toBeDisabled();
  });

  it('success message: the user is refetched, the dialog closes, the redirect is followed', async () => {
    const popup = fakePopup();
    const open = stubOpen(popup);
    const server = accountServer();
    const { location } = renderApp('/user/read', { config: bothOn, routes: server.routes });
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(location()).toBe('/?login=1&redirect=%2Fuser%2Fread');
    const google = within(dialog).getByRole('button', { name: /Google/ });
    await waitFor(() => expect(google).toBeEnabled());
    await userEvent.click(google);

    expect(open).toHaveBeenCalledOnce();
    expect(open.mock.calls[0][0]).toBe('/auth/google/start?mode=popup&return=%2Fuser%2Fread');
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Finish signing in in the window that opened.',
    );

    server.signIn();
    postFromPopup({ ok: true, reason: '', provider: '' });

    await waitFor(() => expect(location()).toBe('/user/read'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Signed in as Ada.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ada' })).toHaveAttribute('href', '/user');
  });

  it('the header dialog signs in where the reader is: the page stays put', async () => {
    stubOpen(fakePopup());
    const server = accountServer();
    const { location } = renderApp('/latest', { config: bothOn, routes: server.routes });
    const dialog = await openHeaderSignIn();
    const facebook = within(dialog).getByRole('button', { name: /Facebook/ });
    await waitFor(() => expect(facebook).toBeEnabled());
    await userEvent.click(facebook);
    expect(vi.mocked(window.open).mock.calls[0][0]).toBe(
      '/auth/facebook/start?mode=popup&return=%2Flatest',
    );

    server.signIn();
    postFromPopup({ ok: true, reason: '', provider: 'Facebook' });

    expect(await screen.findByRole('link', { name: 'Ada' })).toHaveAttribute('href', '/user');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    expect(location()).toBe('/latest');
  });

  it('a failure reason is shown translated and the buttons stay usable', async () => {
    stubOpen(fakePopup());
    renderApp('/latest', { config: bothOn });
    const dialog = await openHeaderSignIn();
    const google = within(dialog).getByRole('button', { name: /Google/ });
    await waitFor(() => expect(google).toBeEnabled());
    await userEvent.click(google);

    postFromPopup({ ok: false, reason: 'SignIn_ProviderDown', provider: 'Google' });

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Google did not answer. Try again in a minute.',
    );
    expect(within(dialog).getByRole('status')).toHaveTextContent('');
    expect(google).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: /Facebook/ })).toBeEnabled();
  });

  it('a failure reason is shown in the page language (French)', async () => {
    stubOpen(fakePopup());
    renderApp('/fr/latest', { config: bothOn });
    await userEvent.click(await screen.findByRole('button', { name: 'Se connecter' }));
    const dialog = await screen.findByRole('dialog');
    const facebook = within(dialog).getByRole('button', { name: /Facebook/ });
    await waitFor(() => expect(facebook).toBeEnabled());
    await userEvent.click(facebook);
    postFromPopup({ ok: false, reason: 'SignIn_TooMany', provider: 'Facebook' });
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Trop de tentatives de connexion. Réessayez dans une minute.',
    );
  });

  it('popup blocked: the whole page goes to the page-mode URL with the right return path', async () => {
    stubOpen(null);
    const { hardNavigate } = renderApp('/latest?page=2', { config: bothOn });
    const dialog = await openHeaderSignIn();
    const google = within(dialog).getByRole('button', { name: /Google/ });
    await waitFor(() => expect(google).toBeEnabled());
    await userEvent.click(google);
    expect(hardNavigate).toHaveBeenCalledWith(
      '/auth/google/start?mode=page&return=%2Flatest%3Fpage%3D2',
    );
    expect(within(dialog).getByRole('status')).toHaveTextContent(
      'Your browser blocked the sign-in window; continuing in this tab.',
    );
  });

  it('a popup closed without a message: the user is refetched once and the wait stops', async () => {
    const popup = fakePopup();
    stubOpen(popup);
    const { server } = renderApp('/latest', { config: bothOn });
    const dialog = await openHeaderSignIn();
    const google = within(dialog).getByRole('button', { name: /Google/ });
    await waitFor(() => expect(google).toBeEnabled());
    const infoCalls = () => server.requests.filter((r) => r.path === '/api/user/info').length;
    await userEvent.click(google);
    const before = infoCalls();

    popup.closed = true;
    await waitFor(() => expect(infoCalls()).toBe(before + 1), { timeout: 2000 });
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent(''));
    // Still a guest: the dialog stays, with no error.
    expect(within(dialog).queryByRole('alert')).toBeNull();
  });

  it('logout closes an open sign-in window and forgets its wait', async () => {
    const popup = fakePopup();
    stubOpen(popup);
    const { services } = renderApp('/latest', {
      config: bothOn,
      routes: {
        'POST /api/user/logout': () => envelope({ user: guestUser, token: 'tok-new' }),
      },
    });
    const dialog = await openHeaderSignIn();
    const google = within(dialog).getByRole('button', { name: /Google/ });
    await waitFor(() => expect(google).toBeEnabled());
    await userEvent.click(google);
    await act(async () => {
      await services.session.logout();
    });
    expect(popup.close).toHaveBeenCalled();
    await waitFor(() => expect(within(dialog).getByRole('status')).toHaveTextContent(''));
  });
});
