import { useQuery } from '@tanstack/react-query';
import { useModalDialog } from '../../../components/useModalDialog';
import { useId, useRef, useState } from 'react';
import { useTranslation } from '../../../i18n';
import { useLocation, useNavigate } from 'react-router';
import { useServices } from '../../../lib/services';
import { usePopup } from '../../../components/popup';
import { PROVIDER_ICONS } from './providerIcons';
import { appConfigKey, fetchAppConfig } from '../../user';
import { signInFailureText, useSignInWindow } from '../hooks/useSignInWindow';
import { isGuest } from '../../user';
import {
  isOwnPath,
  PROVIDER_NAMES,
  SIGN_IN_PROVIDERS,
  type SignInOutcome,
  type SignInProvider,
} from '../../user';

const PROVIDER_LABEL_KEYS: Record<SignInProvider, string> = {
  google: 'Login_Google',
  facebook: 'Login_Facebook',
};

/** The page the reader is on, without the dialog's own `login` and `redirect` parameters. */
function currentPath(pathname: string, search: string, hash: string): string {
  const params = new URLSearchParams(search);
  params.delete('login');
  params.delete('redirect');
  const query = params.toString();
  return pathname + (query ? `?${query}` : '') + hash;
}

/**
 * D8 sign-in dialog: opened on home by `?login=1` (the /user guard sends guests there with
 * a `redirect`) and in place from the header. Each provider the server is set up for
 * signs in by popup (issue 17); a provider that is off says so and its button is disabled.
 */
export function SignInDialog({
  redirect,
  onClose,
}: {
  redirect: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const services = useServices();
  const navigate = useNavigate();
  const location = useLocation();
  const popup = usePopup();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const noteId = useId();
  const [failure, setFailure] = useState<string | null>(null);
  const target = isOwnPath(redirect) ? redirect : null;

  const config = useQuery({
    queryKey: appConfigKey,
    queryFn: () => fetchAppConfig(services.api),
    staleTime: Infinity,
  });
  const enabled: Record<SignInProvider, boolean> = {
    google: config.data?.sign_in?.google === true,
    facebook: config.data?.sign_in?.facebook === true,
  };
  const off = SIGN_IN_PROVIDERS.filter((provider) => !enabled[provider]);

  async function onOutcome(outcome: SignInOutcome, provider: SignInProvider) {
    if (outcome.kind === 'message' && !outcome.message.ok) {
      setFailure(signInFailureText(t, outcome.message, provider));
      return;
    }
    // A success message, or a window closed without one (its message may have been cut
    // off): the server's cookie is the truth, so ask who the reader is now.
    try {
      const user = await services.session.fetchUserInfo();
      if (isGuest(user)) {
        if (outcome.kind === 'message') setFailure(t('SignIn_SessionGone'));
        return;
      }
      popup.show({
        text: t('SignIn_Welcome', { name: user.name || PROVIDER_NAMES[provider] }),
        kind: 'success',
      });
      if (target) navigate(target, { replace: true });
      else onClose();
    } catch {
      setFailure(t('SignIn_ServerError'));
    }
  }

  const { status, start } = useSignInWindow(onOutcome);

  function begin(provider: SignInProvider) {
    setFailure(null);
    start(provider, {
      returnTo: target ?? currentPath(location.pathname, location.search, location.hash),
    });
  }

  useModalDialog(ref, onClose);

  let note: string | null = null;
  if (config.isPending) note = t('Web_Loading');
  else if (config.isError) note = t('SignIn_ServerError');
  else if (off.length === SIGN_IN_PROVIDERS.length) note = t('Login_Unavailable');

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={note ? noteId : undefined}
    >
      <h2 id={titleId} className="dialog__title">
        {t('Login_Title')}
      </h2>
      {target && <p>{t('Login_Required')}</p>}
      <div className="dialog__providers">
        {SIGN_IN_PROVIDERS.map((provider) => {
          const offNoteId = `${noteId}-${provider}`;
          const ownNote = !enabled[provider] && !note;
          return (
            <div key={provider} className="dialog__provider">
              <button
                type="button"
                className="button provider"
                disabled={!enabled[provider]}
                aria-describedby={enabled[provider] ? undefined : ownNote ? offNoteId : noteId}
                onClick={() => begin(provider)}
              >
                {PROVIDER_ICONS[provider]}
                {t(PROVIDER_LABEL_KEYS[provider])}
              </button>
              {ownNote && (
                <p id={offNoteId} className="dialog__note">
                  {t('SignIn_NotConfigured', { provider: PROVIDER_NAMES[provider] })}
                </p>
              )}
            </div>
          );
        })}
      </div>
      {note && (
        <p id={noteId} className="dialog__note">
          {note}
        </p>
      )}
      <div role="status" className="dialog__status">
        {status.kind === 'waiting' && t('SignIn_Waiting')}
        {status.kind === 'leaving' && t('SignIn_PopupBlocked')}
      </div>
      {failure && (
        <p role="alert" className="dialog__error">
          {failure}
        </p>
      )}
      <div className="dialog__actions">
        <button type="button" className="button button--primary" onClick={onClose}>
          {t('Web_Close')}
        </button>
      </div>
    </dialog>
  );
}
