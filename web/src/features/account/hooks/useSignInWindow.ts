import { useCallback, useEffect, useRef, useState } from 'react';
import type { TFunction } from '../../../i18n';
import { useServices } from '../../../lib/services';
import {
  closeSignInWindow,
  PROVIDER_NAMES,
  startSignIn,
  type SignInMessage,
  type SignInOutcome,
  type SignInProvider,
} from '../../user';

/** The translated reason of a failed sign-in (the server names an i18n key). */
export function signInFailureText(
  t: TFunction,
  message: Pick<SignInMessage, 'reason' | 'provider'>,
  provider: SignInProvider,
): string {
  const key = /^SignIn_\w+$/.test(message.reason) ? message.reason : 'SignIn_ServerError';
  const name = message.provider || PROVIDER_NAMES[provider];
  return t(key, { provider: name, defaultValue: t('SignIn_ServerError') });
}

export type SignInStatus =
  | { kind: 'idle' }
  | { kind: 'waiting'; provider: SignInProvider }
  /** The popup was blocked: the whole page is going to the provider. */
  | { kind: 'leaving' };

/**
 * Runs the popup flow for a component: `start` opens the window (call it in the click
 * handler) and hands the outcome to `onOutcome` while the component is still there. A
 * component that goes away while waiting closes the window it opened (closing the dialog
 * abandons the sign-in).
 */
export function useSignInWindow(
  onOutcome: (outcome: SignInOutcome, provider: SignInProvider) => void | Promise<void>,
) {
  const { hardNavigate } = useServices();
  const [status, setStatus] = useState<SignInStatus>({ kind: 'idle' });
  const alive = useRef(true);
  const waitingFor = useRef<Promise<SignInOutcome> | null>(null);
  const handler = useRef(onOutcome);
  useEffect(() => {
    handler.current = onOutcome;
  });

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
      if (waitingFor.current) closeSignInWindow();
    };
  }, []);

  const start = useCallback(
    (provider: SignInProvider, options: { returnTo: string; link?: boolean }) => {
      const wait = startSignIn(provider, { ...options, hardNavigate });
      if (!wait) {
        setStatus({ kind: 'leaving' });
        return;
      }
      waitingFor.current = wait;
      setStatus({ kind: 'waiting', provider });
      void wait.then(async (outcome) => {
        // A newer start replaced this wait: only the newest one speaks.
        if (waitingFor.current !== wait) return;
        waitingFor.current = null;
        if (!alive.current) return;
        setStatus({ kind: 'idle' });
        if (outcome.kind !== 'forgotten') await handler.current(outcome, provider);
      });
    },
    [hardNavigate],
  );

  return { status, start };
}
