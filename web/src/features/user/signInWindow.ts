/**
 * The browser sign-in window (issue 17): the server's `/auth/{provider}/start` runs the
 * provider's flow in a popup and reports back with a `localwire:sign-in` message, on a
 * BroadcastChannel and by `postMessage` to its opener (a provider's opener policy may cut
 * either). The open window and the pending wait live here, outside React, so logout can
 * close the one and forget the other (§4.5).
 */
import { sameOriginPath } from '../../lib/sameOrigin';

export type SignInProvider = 'google' | 'facebook';

export const SIGN_IN_PROVIDERS: readonly SignInProvider[] = ['google', 'facebook'];

/** The provider's name as people know it, for `{{provider}}` in messages. */
export const PROVIDER_NAMES: Record<SignInProvider, string> = {
  google: 'Google',
  facebook: 'Facebook',
};

export const SIGN_IN_CHANNEL = 'localwire-sign-in';
export const SIGN_IN_MESSAGE_TYPE = 'localwire:sign-in';
/** How often a popup is checked for having been closed without a word. */
export const POPUP_POLL_MS = 500;

export interface SignInMessage {
  type: typeof SIGN_IN_MESSAGE_TYPE;
  ok: boolean;
  /** An i18n key (SignIn_*) when not ok. */
  reason: string;
  /** "Google" or "Facebook", when the server knew it. */
  provider: string;
}

/**
 * How a wait ended: the popup's message; the popup closed without one (the reader closed
 * it, or its message was lost: the caller checks the user again); or forgotten (logout).
 */
export type SignInOutcome =
  { kind: 'message'; message: SignInMessage } | { kind: 'closed' } | { kind: 'forgotten' };

export function isSignInMessage(data: unknown): data is SignInMessage {
  if (!data || typeof data !== 'object') return false;
  const m = data as Record<string, unknown>;
  return m.type === SIGN_IN_MESSAGE_TYPE && typeof m.ok === 'boolean';
}

/** A path on this site (the server checks it again: no open redirect either way). */
export function isOwnPath(path: string | null | undefined): path is string {
  return (
    typeof path === 'string' &&
    path.startsWith('/') &&
    !path.startsWith('//') &&
    !path.includes('\\') &&
    ![...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) &&
    // `/%2F%2Fhost` and the like: nothing the reader was on (D360).
    sameOriginPath(path) === path
  );
}

export function signInUrl(
  provider: SignInProvider,
  options: { mode: 'popup' | 'page'; returnTo: string; link?: boolean },
): string {
  const params = new URLSearchParams({
    mode: options.mode,
    return: isOwnPath(options.returnTo) ? options.returnTo : '/',
  });
  if (options.link) params.set('link', '1');
  return `/auth/${provider}/start?${params.toString()}`;
}

interface Pending {
  popup: Window;
  finish: (outcome: SignInOutcome) => void;
}

let pending: Pending | null = null;

export interface StartSignInOptions {
  /** Where to come back to: the page-mode flow redirects there when done. */
  returnTo: string;
  /** Link another provider to the signed-in account. */
  link?: boolean;
  /** Full page navigation, for when the popup is blocked. */
  hardNavigate: (href: string) => void;
  /** The browser window (tests pass their own). */
  win?: Window & typeof globalThis;
}

/**
 * Opens the sign-in popup; call it synchronously in the click handler (popup blockers).
 * Resolves how the wait ended, or `null` when the popup was blocked and the whole page
 * went to the page-mode flow instead. A new start replaces (and closes) an older window.
 */
export function startSignIn(
  provider: SignInProvider,
  options: StartSignInOptions,
): Promise<SignInOutcome> | null {
  const win = options.win ?? window;
  const popupUrl = signInUrl(provider, {
    mode: 'popup',
    returnTo: options.returnTo,
    link: options.link,
  });
  // An older window goes first: the new one must not be mistaken for it.
  closeSignInWindow();
  const popup = win.open(popupUrl, 'localwire-sign-in', 'popup,width=520,height=680');
  if (!popup) {
    options.hardNavigate(
      signInUrl(provider, { mode: 'page', returnTo: options.returnTo, link: options.link }),
    );
    return null;
  }

  return new Promise<SignInOutcome>((resolve) => {
    let channel: BroadcastChannel | null = null;
    const onMessage = (event: MessageEvent) => {
      // postMessage from the popup is checked for its origin; the channel is same-origin.
      if (event.origin && event.origin !== win.location.origin) return;
      if (isSignInMessage(event.data)) finish({ kind: 'message', message: event.data });
    };
    const timer = win.setInterval(() => {
      if (popup.closed) finish({ kind: 'closed' });
    }, POPUP_POLL_MS);
    const entry: Pending = { popup, finish };

    function finish(outcome: SignInOutcome) {
      win.clearInterval(timer);
      win.removeEventListener('message', onMessage);
      channel?.close();
      if (pending === entry) pending = null;
      resolve(outcome);
    }

    win.addEventListener('message', onMessage);
    if (typeof win.BroadcastChannel === 'function') {
      channel = new win.BroadcastChannel(SIGN_IN_CHANNEL);
      channel.onmessage = (event: MessageEvent) => {
        if (isSignInMessage(event.data)) finish({ kind: 'message', message: event.data });
      };
    }
    pending = entry;
  });
}

/** Closes any sign-in window and forgets its wait (logout; a newer start). */
export function closeSignInWindow(): void {
  const current = pending;
  if (!current) return;
  pending = null;
  try {
    if (!current.popup.closed) current.popup.close();
  } catch {
    // A window on the provider's origin may refuse; it is forgotten all the same.
  }
  current.finish({ kind: 'forgotten' });
}

/** True while a sign-in window is open and awaited. */
export function isSigningIn(): boolean {
  return pending !== null;
}
